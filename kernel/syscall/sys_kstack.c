/* SPDX-License-Identifier: MIT */
/*
 * kernel/syscall/sys_kstack.c - system calls of the stack offset strategies
 * (kernel/kstack_offset/): choosing one at run time, its counters, and the
 * test interface, Linux lkdtm REPORT_STACK's counterpart.
 *
 * SYS_kstack_probe reports where its own frame sits (kstack_top minus the
 * handler's frame address, so that two calls differ exactly by the offsets
 * they were given) and can move the caller to another CPU in the middle of
 * the call, which is how the tests stage Bug 1. It, SYS_kstack_debug and
 * SYS_kstack_stats leak what the mechanism hides, so they answer -EPERM
 * unless the boot has kstack.debug, and a kernel built with DEBUG_CALLS=0
 * has no probe and no SYS_kstack_debug at all (-ENOSYS). Choosing the
 * strategy needs the control capability (docs/security.md); the strategies
 * say whether one may run here, and this file then switches the entry code
 * to its copy of the path (kernel/syscall/path.c).
 */
#include "kernel/errno.h"
#include "kernel/ipc/ipc.h"
#include "kernel/kstack_offset/kstack_offset.h"
#include "kernel/mm/kernel_stack.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/path.h"
#include "kernel/syscall/syscall.h"
#include "kernel/text_patch.h"
#include "kernel/uaccess.h"
#include "lib/string.h"

#define PAINT 0x5a5a5a5a5a5a5a5aull

/* Strategies weaker than the default: the baseline and the legacy designs
 * with their known bugs (docs/kstack.md). */
static bool weak(unsigned id)
{
    return id == KSTACK_OFF || id == KSTACK_COUNTER || id == KSTACK_CRNG16 || id == KSTACK_TASK;
}

/* Needs a control handle with KSTACK, and DEBUG too for a weak strategy;
 * with kstack.lock nobody may change it after boot. */
long sys_kstack_set(const struct sysargs *args)
{
    unsigned id = (unsigned)MIN(args->a[0], (uintptr_t)KSTACK_NR);
    unsigned need = IPC_RIGHT_KSTACK | (weak(id) ? IPC_RIGHT_DEBUG : 0);
    if (kstack_offset_locked() || !control_allows(need))
        return -EPERM;
    int err = kstack_offset_available(id);
    if (!err)
        syscall_path_select(id);
    return err;
}

long sys_kstack_get(const struct sysargs *args)
{
    return syscall_path_strategy();
}

long sys_kstack_stats(const struct sysargs *args)
{
    if (!debug_call_allowed(IPC_RIGHT_DEBUG))
        return -EPERM;
    long cpu = (long)args->a[0];
    if (cpu != -1 && (cpu < 0 || cpu >= MAX_CPUS || !READ_ONCE(cpus[cpu].online)))
        return -EINVAL;
    struct kstack_stats st;
    memset(&st, 0, sizeof(st));
    for (long i = 0; i < MAX_CPUS; i++) {
        const struct cpu *c = &cpus[i];
        if ((cpu != -1 && i != cpu) || !READ_ONCE(c->online))
            continue;
        for (unsigned s = 0; s <= KSTACK_NR; s++) {
            for (unsigned k = 0; k < KSTACK_NR_COUNTERS; k++)
                st.count[s][k] += READ_ONCE(c->kstack.count[s][k]);
        }
        st.count[KSTACK_POOL][KSTACK_CNT_DRAWS] += kstack_pool_draws(c);
        st.pool_level += kstack_pool_level(&c->kstack.pool.ring);
    }
    struct text_patch_stats tp;
    text_patch_stats(&tp);
    st.switches = tp.stops;
    st.switch_ns_total = tp.ns_total;
    st.switch_ns_max = tp.ns_max;
    return copy_to_user(args->a[1], &st, sizeof(st));
}

#if CONFIG_DEBUG_CALLS
static unsigned long exit_updates(const struct cpu *c)
{
    unsigned long n = 0;
    for (unsigned s = 0; s <= KSTACK_NR; s++)
        n += c->kstack.count[s][KSTACK_CNT_EXIT_UPDATES];
    return n;
}

/* Pin the calling thread to `cpu` and give up the CPU until it runs there. */
static void migrate_to(unsigned cpu)
{
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    sched_set_affinity_locked(current_thread(), 1ull << cpu);
    spin_unlock_irqrestore(&sched_lock, flags);
    for (;;) {
        preempt_disable();
        bool there = this_cpu()->id == cpu;
        preempt_enable();
        if (there)
            return;
        sched_yield();
    }
}

long sys_kstack_probe(const struct sysargs *args)
{
    uintptr_t flags = args->a[0];
    unsigned long target = args->a[1];
    if (!debug_call_allowed(IPC_RIGHT_DEBUG))
        return -EPERM;
    if ((flags & ~(uintptr_t)(KSTACK_PROBE_MIGRATE | KSTACK_PROBE_DEPTH)) ||
        ((flags & KSTACK_PROBE_MIGRATE) && (target >= MAX_CPUS || !READ_ONCE(cpus[target].online))))
        return -EINVAL;
    struct kstack_probe r = {0};
    r.depth = current_thread()->kstack_top - (uintptr_t)__builtin_frame_address(0);
    r.strategy = syscall_path_strategy();
    preempt_disable();
    r.entry_cpu = this_cpu()->id;
    r.entry_updates = exit_updates(this_cpu());
    preempt_enable();
    if (flags & KSTACK_PROBE_MIGRATE)
        migrate_to((unsigned)target);
    preempt_disable();
    r.exit_cpu = this_cpu()->id;
    preempt_enable();
    /* The depth alone comes back in the return register: no user access,
     * which on riscv64 is two writes of sstatus.SUM, and QEMU flushes its
     * whole TLB at each (a third of a probe's time under TCG). */
    if (flags & KSTACK_PROBE_DEPTH)
        return (long)r.depth;
    return copy_to_user(args->a[2], &r, sizeof(r));
}

/* The unused part of the caller's kernel stack: from its lowest byte up to
 * a little below the current frame (what an interrupt now would use). */
static uint64_t *stack_bottom(void)
{
    return (uint64_t *)(current_thread()->kstack_top - KSTACK_SIZE);
}

static long paint_stack(void)
{
    unsigned long flags = arch_irq_save();
    uint64_t *end = (uint64_t *)((uintptr_t)__builtin_frame_address(0) - 256);
    for (uint64_t *p = stack_bottom(); p < end; p++)
        *p = PAINT;
    arch_irq_restore(flags);
    return 0;
}

static long stack_high_water(void)
{
    const uint64_t *p = stack_bottom();
    while (*p == PAINT)
        p++;
    return (long)(current_thread()->kstack_top - (uintptr_t)p);
}

static long this_cpu_op(unsigned op)
{
    unsigned long flags = arch_irq_save();
    struct cpu *c = arch_this_cpu();
    long ret = 0;
    if (op == KSTACK_DEBUG_VERIFY)
        ret = kstack_offset_verify_this_cpu(c);
    else
        kstack_pool_drain(c);
    arch_irq_restore(flags);
    return ret;
}

long sys_kstack_debug(const struct sysargs *args)
{
    if (!debug_call_allowed(IPC_RIGHT_DEBUG))
        return -EPERM;
    switch (args->a[0]) {
    case KSTACK_DEBUG_VERIFY:
    case KSTACK_DEBUG_DRAIN: return this_cpu_op((unsigned)args->a[0]);
    case KSTACK_DEBUG_PAINT: return paint_stack();
    case KSTACK_DEBUG_HIGHWATER: return stack_high_water();
    case KSTACK_DEBUG_FIXED:
        if (kstack_offset_locked() || !control_allows(IPC_RIGHT_KSTACK | IPC_RIGHT_DEBUG))
            return -EPERM;
        kstack_offset_set_fixed((uint32_t)args->a[1] & KSTACK_OFFSET_MASK);
        syscall_path_select(KSTACK_FIXED);
        return 0;
    case KSTACK_DEBUG_STACK_SIZE: return KSTACK_SIZE;
    case KSTACK_DEBUG_POOL_TICK: kstack_pool_set_background_refills(args->a[1] != 0); return 0;
    case KSTACK_DEBUG_ERASE:
        if (!control_allows(IPC_RIGHT_KSTACK | IPC_RIGHT_DEBUG))
            return -EPERM;
        syscall_path_erase(args->a[1] != 0);
        return 0;
    default: return -EINVAL;
    }
}
#endif /* CONFIG_DEBUG_CALLS */
