/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_ipc_fast/ipc_fast.h - what the files of test_ipc_fast
 * share: the servers, the counters and the message helper
 * (test_ipc_fast.c), and each file's test entry points.
 */
#ifndef USER_TESTS_IPC_FAST_H
#define USER_TESTS_IPC_FAST_H

#include "kernel/uapi/kstack.h"
#include "kernel/uapi/latency.h"
#include "lib/user/ipc.h"
#include "lib/user/ulib.h"

#define MS         1000000ull
#define STACK_SIZE (16 * 1024)
#define UNUSED_H   20 /* a handle number no test holds */

enum { L_ECHO = 1, L_BADGE, L_SLOW, L_DIE, L_FP };

extern char stacks[2][STACK_SIZE]; /* for threads of the client's */

static inline struct ipc_msg msg(unsigned long label, unsigned long len, unsigned long w0,
                                 unsigned long w1, unsigned long w2, unsigned long w3)
{
    return (struct ipc_msg){.tag = IPC_TAG(label, len), .w = {w0, w1, w2, w3}};
}

/* ---- the servers (test_ipc_fast.c): this program again, handle 0 an endpoint */
void serve(int h); /* answer calls on h until told to stop */
int spawn_server(int e, int cpu);
void stop_server(int e, int pid);
extern bool servers_ok;

/* ---- the counters (test_ipc_fast.c), from SYS_debug_stats */
struct fast {
    long hits, misses[IPC_FAST_GUARDS];
    long words_copied;                        /* extra message words the kernel copied */
    long direct, not_direct[IPC_DIRECT_WHYS]; /* partners resumed straight to user, or why not */
    long ticks0;                              /* timer ticks on CPU 0 */
};
extern bool fastpath_on, direct_built;
struct fast fast_now(void);
struct fast fast_since(struct fast before);
long misses(struct fast f);
void note(const char *what, struct fast f);
bool matches(struct fast f, long hits, int guard, long want);
void expect(struct fast f, long hits, int guard, long want, const char *name);

/* ---- guards.c */
bool echo(int h, unsigned long len, unsigned long seed);
int online_cpus(void);
long fastpath_switch(long to);
void note_direct(const char *what, struct fast f);
void test_hits(int h);
void test_runtime_switch(int h);
void test_direct_resume(int h);
void test_fallbacks(int h, int e);
void test_partner_missing(void);
void test_lent_slot(void);
void test_other_cpu(void);

/* ---- registers.c, transcript.c, long.c */
void test_fp_chain(void);
int regs_server_role(void);
void test_callee_saved(void);
void test_transcript(void);
void test_long_messages(void);

#endif
