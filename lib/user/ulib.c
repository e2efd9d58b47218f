/* SPDX-License-Identifier: MIT */
/* lib/user/ulib.c - the kernel's own calls and KTAP helpers (see ulib.h). */
#include "lib/user/ulib.h"

long sys_write(int fd, const void *buf, size_t len)
{
    return syscall3(SYS_write, fd, buf, len);
}
long sys_read(int fd, void *buf, size_t len)
{
    return syscall3(SYS_read, fd, buf, len);
}
int gettid(void)
{
    return (int)syscall0(SYS_gettid);
}
int yield(void)
{
    return (int)syscall0(SYS_yield);
}
int getcpu(void)
{
    return (int)syscall0(SYS_getcpu);
}
void *sys_brk(void *addr)
{
    return (void *)syscall1(SYS_brk, addr);
}
int sys_wait(int pid, int *status)
{
    return (int)syscall2(SYS_wait, pid, status);
}

int sys_nanosleep(const struct timespec *req, struct timespec *rem)
{
    return (int)syscall2(SYS_nanosleep, req, rem);
}

int sys_clock_gettime(int clock, struct timespec *tp)
{
    /* LAB 1 BEGIN: the user's side: the call's number and its two arguments */
    return (int)syscall2(SYS_clock_gettime, clock, tp);
    /* LAB 1 STUB
    (void)clock, (void)tp;
    return -ENOSYS;
    LAB 1 END */
}

int spawn(const char *name, const char *const argv[])
{
    return (int)syscall2(SYS_spawn, name, argv);
}

void thread_exit(void)
{
    syscall0(SYS_thread_exit);
    for (;;)
        ;
}

/* What a new thread finds at the top of its stack. */
struct thread_start {
    void (*fn)(void *);
    void *arg;
};

static void thread_entry(struct thread_start *ts)
{
    ts->fn(ts->arg);
    thread_exit();
}

extern bool locks_needed; /* lib/user/locks.c */

int thread_create(void (*fn)(void *), void *arg, void *stack, size_t size)
{
    locks_needed = true; /* from now on newlib's locks are real */
    uintptr_t top = ((uintptr_t)stack + size) & ~(uintptr_t)15;
    struct thread_start *ts = (struct thread_start *)(top - 16);
    ts->fn = fn;
    ts->arg = arg;
    top -= 32; /* below the start record, still 16-byte aligned */
#if defined(__x86_64__)
    top -= 8; /* as if thread_entry had been called: rsp = 8 mod 16 at entry */
#endif
    return (int)syscall3(SYS_thread_create, thread_entry, ts, top);
}

int sys_sched_setaffinity(int tid, unsigned long mask)
{
    return (int)syscall2(SYS_sched_setaffinity, tid, mask);
}

long sys_sched_getaffinity(int tid)
{
    return syscall1(SYS_sched_getaffinity, tid);
}

/* The kernel forgets a thread's tid inside thread_exit, after the thread's
 * last use of its user stack; until then the lookup succeeds. (-ESRCH is
 * compared exactly: an affinity with bit 63 set reads as negative.) */
int thread_join(int tid)
{
    if (tid <= 0)
        return -EINVAL;
    while (sys_sched_getaffinity(tid) != -ESRCH)
        yield();
    return 0;
}

uint64_t now_ns(void)
{
    struct timespec ts = {0, 0}; /* 0 if the call fails */
    sys_clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void sleep_ns(uint64_t ns)
{
    struct timespec ts = {(long)(ns / 1000000000ull), (long)(ns % 1000000000ull)};
    sys_nanosleep(&ts, NULL);
}

static int ktap_count, ktap_failed;

void ktap_check(bool ok, const char *fmt, ...)
{
    char name[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof(name), fmt, ap);
    va_end(ap);
    ktap_failed += !ok;
    printf("    %sok %d - %s\n", ok ? "" : "not ", ++ktap_count, name);
}

void ktap_note(const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    printf("    # %s\n", msg);
}

void ktap_skip(const char *name, const char *reason)
{
    printf("    ok %d - %s # SKIP %s\n", ++ktap_count, name, reason);
}

int ktap_done(void)
{
    return ktap_failed;
}
