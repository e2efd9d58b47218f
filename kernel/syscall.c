/* SPDX-License-Identifier: MIT */
/*
 * kernel/syscall.c - the one C function every system call goes through.
 *
 * arch/<arch>/entry code saves the user's registers into the trapframe at
 * the top of the thread's kernel stack and calls syscall_dispatch(tf). This
 * is the single place where the project's subject happens:
 *   (a) the entry timestamp for the latency histograms,
 *   (b) the random kernel stack offset, applied before the handler runs,
 *   (c) the exit timestamp,
 * each marked below. The number is bounds-checked and then clamped with a
 * mask, so that even a mispredicted bounds check cannot make the CPU read
 * past the table speculatively (the Spectre v1 pattern).
 */
#include "kernel/arch_callbacks.h"
#include "kernel/errno.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall.h"

static const syscall_fn syscall_table[NR_SYSCALLS] = {
    [SYS_exit] = sys_exit,
    [SYS_write] = sys_write,
    [SYS_read] = sys_read,
    [SYS_getpid] = sys_getpid,
    [SYS_getppid] = sys_getppid,
    [SYS_yield] = sys_yield,
    [SYS_nanosleep] = sys_nanosleep,
    [SYS_clock_gettime] = sys_clock_gettime,
    [SYS_brk] = sys_brk,
    [SYS_spawn] = sys_spawn,
    [SYS_wait] = sys_wait,
    [SYS_getcpu] = sys_getcpu,
    [SYS_thread_create] = sys_thread_create,
    [SYS_thread_exit] = sys_thread_exit,
    [SYS_gettid] = sys_gettid,
    [SYS_sched_setaffinity] = sys_sched_setaffinity,
    [SYS_sched_getaffinity] = sys_sched_getaffinity,
    [SYS_debug_sleep] = sys_debug_sleep,
    [SYS_debug_free_pages] = sys_debug_free_pages,
    [SYS_debug_spin] = sys_debug_spin,
    [SYS_debug_stats] = sys_debug_stats,
    [SYS_debug_leak_lock] = sys_debug_leak_lock,
    [SYS_debug_kaddr] = sys_debug_kaddr,
};

/* All ones if idx < size, else 0, computed without a branch (idx, size < 2^63). */
static inline unsigned long index_mask(unsigned long idx, unsigned long size)
{
    return (unsigned long)(~(long)(idx | (size - 1 - idx)) >> 63);
}

static long invoke(unsigned long nr, const struct sysargs *args)
{
    if (nr >= NR_SYSCALLS)
        return -ENOSYS;
    nr &= index_mask(nr, NR_SYSCALLS);
    syscall_fn fn = syscall_table[nr];
    return fn ? fn(args) : -ENOSYS;
}

void syscall_dispatch(struct trapframe *tf)
{
    /* (a) entry timestamp: later work takes it here. */
    struct thread *self = this_cpu()->sched.current; /* IRQs are still off here */
    self->in_syscall = true;
    arch_irq_enable(); /* system calls are preemptible */
    struct sysargs args = {{arch_sc_arg(tf, 0), arch_sc_arg(tf, 1), arch_sc_arg(tf, 2),
                            arch_sc_arg(tf, 3), arch_sc_arg(tf, 4), arch_sc_arg(tf, 5)}};
    /* (b) the kernel stack offset: later work moves the stack here, before invoke(). */
    long ret = invoke(arch_sc_nr(tf), &args);
    arch_sc_set_ret(tf, ret);
    /* (c) exit timestamp: later work takes it here. */
    arch_irq_disable();
    self->in_syscall = false;
    user_return();
}
