/* SPDX-License-Identifier: MIT */
/*
 * kernel/syscall/sys_latency.c - system calls of the latency timers
 * (kernel/latency/): switching them on and off, what they time with, and
 * copying a histogram out (one CPU's or all CPUs' summed, then optionally
 * emptied). Switching and reading answer -EPERM unless the boot has
 * kstack.debug: the histograms time other programs' calls, and switching
 * costs them time. The status is open. The timers (kernel/latency/) only
 * make their histograms ready; switching the entry code to the timed copies
 * of the path is this file's (kernel/syscall/path.c).
 */
#include "kernel/errno.h"
#include "kernel/latency/irqsoff.h"
#include "kernel/latency/latency.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/syscall/path.h"
#include "kernel/syscall/syscall.h"
#include "kernel/uaccess.h"
#include "kernel/uapi/ipc.h"
#include "lib/hist.h"

/* LATENCY_IRQSOFF: (cpu, out, reset). */
static long irqsoff_ctl(long cpu, uintptr_t out, unsigned long reset)
{
    struct latency_irqsoff w;
    if (reset > 1)
        return -EINVAL;
    int err = irqsoff_read(cpu, &w, reset);
    return err ? err : copy_to_user(out, &w, sizeof(w));
}

/* LATENCY_TIMER: (cpu, out, reset), through a bounce page (a histogram is
 * too big for the stack). */
static long timer_ctl(long cpu, uintptr_t out, unsigned long reset)
{
    if (reset > 1 || cpu < -1 || cpu >= MAX_CPUS)
        return -EINVAL;
    if (!user_range_ok(out, sizeof(struct hist)))
        return -EFAULT;
    uint64_t pa = page_alloc();
    if (!pa)
        return -ENOMEM;
    struct hist *h = page_va(pa);
    long ret = latency_timer_copy(cpu, h, reset);
    if (ret == 0)
        ret = copy_to_user(out, h, sizeof(*h));
    page_free(pa);
    return ret;
}

/* LATENCY_ON, LATENCY_OFF: the histograms first, then the copy of the path. */
static long switch_timers(bool on)
{
    int err = on ? latency_allocate() : 0;
    if (!err)
        syscall_path_time(on);
    return err;
}

long sys_latency_ctl(const struct sysargs *args)
{
    if (args->a[0] != LATENCY_STATUS && !debug_call_allowed(IPC_RIGHT_LATENCY))
        return -EPERM;
    switch (args->a[0]) {
    case LATENCY_OFF:
    case LATENCY_ON: return switch_timers(args->a[0] == LATENCY_ON);
    case LATENCY_IRQSOFF: return irqsoff_ctl((long)args->a[1], args->a[2], args->a[3]);
    case LATENCY_TIMER: return timer_ctl((long)args->a[1], args->a[2], args->a[3]);
    case LATENCY_STATUS: {
        struct latency_status st;
        latency_status(&st);
        st.on = syscall_path_timed();
        return copy_to_user(args->a[1], &st, sizeof(st));
    }
    default: return -EINVAL;
    }
}

/* (cpu or -1, strategy, slot, struct hist *out, reset) */
long sys_latency_read(const struct sysargs *args)
{
    long cpu = (long)args->a[0];
    if (!debug_call_allowed(IPC_RIGHT_LATENCY))
        return -EPERM;
    if (args->a[1] >= LATENCY_STRATEGIES || args->a[2] >= LATENCY_SLOTS || cpu < -1 ||
        cpu >= MAX_CPUS || args->a[4] > 1)
        return -EINVAL;
    if (!user_range_ok(args->a[3], sizeof(struct hist)))
        return -EFAULT;
    uint64_t pa = page_alloc(); /* a bounce buffer: a histogram is too big for the stack */
    if (!pa)
        return -ENOMEM;
    struct hist *h = page_va(pa);
    long ret = latency_copy(cpu, (unsigned)args->a[1], (unsigned)args->a[2], h, args->a[4]);
    if (ret == 0)
        ret = copy_to_user(args->a[3], h, sizeof(*h));
    page_free(pa);
    return ret;
}
