/* SPDX-License-Identifier: MIT */
/*
 * user/longrun/soak/soak.h - what the soak's two halves share: the
 * supervisor (soak.c: starts, watches, stops and checks) and the threads'
 * own work (work.c: the operations the workers draw, the echo servers).
 */
#ifndef USER_LONGRUN_SOAK_SOAK_H
#define USER_LONGRUN_SOAK_SOAK_H

#include "lib/user/ipc.h"
#include "lib/user/ulib.h"

#define MAX_WORKERS  32
#define STACK_SIZE   (16 * 1024)
#define HELPER_STACK 4096
#define SEC          1000000000ull
#define SERVERS      2
#define L_ECHO       1
#define L_STOP       2

struct worker {
    uint64_t rng;
    volatile unsigned long ops, spawns, threads, migrations, switches, ipcs, ipc_bad;
    volatile int done;
    volatile int helper_done;
    uint64_t last_change_ns;
    unsigned long last_ops;
    unsigned long others_at_change; /* every thread's operations, summed, then */
};

extern struct worker workers[MAX_WORKERS];
/* Each worker's IPC buffer, then each echo server's. */
extern unsigned long buffers[MAX_WORKERS + SERVERS][IPC_BUF_WORDS];
extern volatile int servers_done; /* echo servers that have ended */
extern int endpoint;              /* the echo servers' endpoint */
extern volatile int stop;         /* set by the supervisor: the workers finish */
extern unsigned ncpus;
extern char parent_pid[16]; /* the child program's argument */

/* A worker: loops over randomly drawn operations until `stop`. */
void work(void *arg);
/* An echo server: every word of a message comes back plus one. */
void server(void *arg);

#endif
