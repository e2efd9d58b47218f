/* SPDX-License-Identifier: MIT */
/*
 * lib/user/ulib.h - the small C library for stackshift user programs:
 * system call wrappers (returning -errno on failure, no errno variable),
 * printf on the console, and KTAP helpers for test programs.
 */
#ifndef LIB_USER_ULIB_H
#define LIB_USER_ULIB_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/uapi/errno.h"
#include "kernel/uapi/syscall.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/user/syscall.h"

__attribute__((noreturn)) void exit(int status);
long write(int fd, const void *buf, size_t len);
long read(int fd, void *buf, size_t len);
int getpid(void);
int getppid(void);
int gettid(void);
int yield(void);
int nanosleep(const struct timespec *req, struct timespec *rem);
int clock_gettime(int clock, struct timespec *tp);
void *brk(void *addr);
int spawn(const char *name, const char *const argv[]);
int wait(int pid, int *status);
int getcpu(void);
/* A new thread in this program running fn(arg) on a stack of `size` bytes
 * at `stack` (the caller's memory); it ends when fn returns. Its tid or -errno. */
int thread_create(void (*fn)(void *), void *arg, void *stack, size_t size);
__attribute__((noreturn)) void thread_exit(void);
int sched_setaffinity(int tid, unsigned long mask);
long sched_getaffinity(int tid);

/* Nanoseconds of CLOCK_MONOTONIC. */
uint64_t now_ns(void);
void sleep_ns(uint64_t ns);

int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int puts(const char *s);

/*
 * KTAP subtests: a test program prints "    ok N - suite.name" lines
 * (indented: they are subtests of the kernel's user.<program> test) and
 * returns ktap_done() from main, which is the number of failures.
 */
void ktap_check(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ktap_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A subtest that cannot run here ("ok N - name # SKIP reason"). */
void ktap_skip(const char *name, const char *reason);
int ktap_done(void);

#define KTAP_EXPECT_EQ(got, want, name)                                                \
    do {                                                                               \
        long g_ = (long)(got), w_ = (long)(want);                                      \
        if (g_ != w_)                                                                  \
            ktap_note("%s: %s == %ld, expected %ld", name, #got, g_, w_);              \
        ktap_check(g_ == w_, "%s", name);                                              \
    } while (0)

#endif
