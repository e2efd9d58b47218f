/* SPDX-License-Identifier: MIT */
/* kernel/syscall/sys_time.c - time, sleeping, yielding and where a thread runs. */
#include "kernel/errno.h"
#include "kernel/syscall/syscall.h"
#include "kernel/task.h"
#include "kernel/time.h"
#include "kernel/uaccess.h"

#define NS_PER_SEC 1000000000l

long sys_yield(const struct sysargs *args)
{
    sched_yield();
    return 0;
}

long sys_clock_gettime(const struct sysargs *args)
{
    /* LAB 1 BEGIN: check the clock, read the time, copy it out (-EFAULT on a bad pointer) */
    if (args->a[0] != CLOCK_MONOTONIC) /* every bit: 2^32 + CLOCK_MONOTONIC is no clock */
        return -EINVAL;
    uint64_t ns = time_now_ns();
    struct timespec ts = {(long)(ns / NS_PER_SEC), (long)(ns % NS_PER_SEC)};
    return copy_to_user(args->a[1], &ts, sizeof(ts));
    /* LAB 1 STUB
    (void)args;
    return -ENOSYS;
    LAB 1 END */
}

long sys_nanosleep(const struct sysargs *args)
{
    struct timespec req;
    if (copy_from_user(&req, args->a[0], sizeof(req)) != 0)
        return -EFAULT;
    if (req.tv_sec < 0 || req.tv_nsec < 0 || req.tv_nsec >= NS_PER_SEC)
        return -EINVAL;
    if (args->a[1] && !user_range_ok(args->a[1], sizeof(struct timespec)))
        return -EFAULT;
    uint64_t ns = (uint64_t)req.tv_sec > UINT64_MAX / NS_PER_SEC / 2
                      ? UINT64_MAX / 2
                      : (uint64_t)req.tv_sec * NS_PER_SEC + (uint64_t)req.tv_nsec;
    sched_sleep_ns(ns);
    if (args->a[1]) {
        struct timespec none = {0, 0}; /* nothing interrupts a sleep: nothing remains */
        return copy_to_user(args->a[1], &none, sizeof(none));
    }
    return thread_killed() ? -EINTR : 0;
}

long sys_getcpu(const struct sysargs *args)
{
    preempt_disable();
    long cpu = this_cpu()->id;
    preempt_enable();
    return cpu;
}

/* tid 0 means the calling thread; one past an int (or negative) is no
 * thread (-1: the lookup fails, -ESRCH). */
static int resolve_tid(uintptr_t tid)
{
    if (tid > INT_MAX)
        return -1;
    return tid ? (int)tid : current_thread()->tid;
}

long sys_sched_setaffinity(const struct sysargs *args)
{
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    struct thread *t = sched_find_thread_locked(current_task(), resolve_tid(args->a[0]));
    long ret = !t ? -ESRCH : sched_set_affinity_locked(t, args->a[1]) == 0 ? 0 : -EINVAL;
    spin_unlock_irqrestore(&sched_lock, flags);
    return ret;
}

long sys_sched_getaffinity(const struct sysargs *args)
{
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    struct thread *t = sched_find_thread_locked(current_task(), resolve_tid(args->a[0]));
    long ret = t ? (long)t->affinity : -ESRCH;
    spin_unlock_irqrestore(&sched_lock, flags);
    return ret;
}
