/* SPDX-License-Identifier: MIT */
/*
 * lib/user/ulib.h - what stackshift user programs have besides the C
 * library (newlib: <stdio.h>, <stdlib.h>, <string.h>, <math.h>, ...):
 * the kernel's own calls, which return -errno on failure and set no errno,
 * and KTAP helpers for test programs. The POSIX-named calls whose stackshift
 * meaning differs have a sys_ prefix (sys_wait(pid, ...), sys_brk(addr));
 * the C library's write(), read(), getpid(), exit(), sbrk() are the POSIX
 * ones (-1 and errno), made by lib/user/syscalls.c.
 */
#ifndef LIB_USER_ULIB_H
#define LIB_USER_ULIB_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/user/syscall.h"

_Static_assert(sizeof(struct timespec) == sizeof(struct kernel_timespec) &&
                   offsetof(struct timespec, tv_nsec) == offsetof(struct kernel_timespec, tv_nsec),
               "newlib's struct timespec is the kernel's");

long sys_write(int fd, const void *buf, size_t len);
long sys_read(int fd, void *buf, size_t len);
int yield(void);
int gettid(void);
int sys_nanosleep(const struct timespec *req, struct timespec *rem);
int sys_clock_gettime(int clock, struct timespec *tp);
void *sys_brk(void *addr);
int spawn(const char *name, const char *const argv[]);
int sys_wait(int pid, int *status);
int getcpu(void);
/* A new thread in this program running fn(arg) on a stack of `size` bytes
 * at `stack` (the caller's memory); it ends when fn returns. Its tid or -errno. */
int thread_create(void (*fn)(void *), void *arg, void *stack, size_t size);
__attribute__((noreturn)) void thread_exit(void);
/* Wait until thread `tid` (of this program) has ended; 0, or -EINVAL for a
 * tid that cannot be a thread. Only then may its stack be reused: a flag
 * the thread sets is not enough, because the thread still runs on its
 * stack after its last store (returning from fn, calling thread_exit), and
 * a new thread built on the same stack would overwrite those frames. */
int thread_join(int tid);
int sys_sched_setaffinity(int tid, unsigned long mask);
long sys_sched_getaffinity(int tid);

/* Nanoseconds of CLOCK_MONOTONIC. */
uint64_t now_ns(void);
void sleep_ns(uint64_t ns);

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

#define KTAP_EXPECT_EQ(got, want, name)                                                            \
    do {                                                                                           \
        long g_ = (long)(got), w_ = (long)(want);                                                  \
        if (g_ != w_)                                                                              \
            ktap_note("%s: %s == %ld, expected %ld", name, #got, g_, w_);                          \
        ktap_check(g_ == w_, "%s", name);                                                          \
    } while (0)

#endif
