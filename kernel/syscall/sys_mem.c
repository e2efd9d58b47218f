/* SPDX-License-Identifier: MIT */
/*
 * kernel/syscall/sys_mem.c - brk: grow or shrink the heap after the program.
 * brk(0) or any unacceptable address returns the current break (as Linux
 * does, which is what C libraries' sbrk expect); a new break is rounded up
 * to a page and limited to BRK_MAX bytes.
 *
 * The pages are charged to the task's tree (kernel/quota.h) before they
 * are taken: past the tree's quota the break stays where it was.
 *
 * Growing by BRK_MAX takes thousands of pages: that work runs with
 * interrupts on and no lock held, and a task's threads take turns through
 * brk_busy (a thread that finds it set yields and tries again).
 */
#include "kernel/exec.h"
#include "kernel/quota.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/syscall.h"
#include "kernel/task.h"

#define BRK_MAX (64ul << 20)

static long brk_change(struct task *t, uintptr_t want);

/* Set (or clear) t->brk_busy; false if it was set already. */
static bool brk_turn(struct task *t, bool take)
{
    unsigned long flags = spin_lock_irqsave(&t->brk_lock);
    bool ok = !take || !t->brk_busy;
    if (ok)
        t->brk_busy = take;
    spin_unlock_irqrestore(&t->brk_lock, flags);
    return ok;
}

long sys_brk(const struct sysargs *args)
{
    struct task *t = current_task();
    while (!brk_turn(t, true))
        sched_yield();
    long ret = brk_change(t, args->a[0]);
    brk_turn(t, false);
    return ret;
}

static long brk_change(struct task *t, uintptr_t want)
{
    if (want < t->brk_base || want > t->brk_base + BRK_MAX)
        return (long)t->brk;
    uintptr_t old_end = ALIGN_UP(t->brk, PAGE_SIZE), new_end = ALIGN_UP(want, PAGE_SIZE);
    size_t more = new_end > old_end ? (new_end - old_end) / PAGE_SIZE : 0;
    if (more && !quota_charge_pages(t->account, more))
        return (long)t->brk;
    for (uintptr_t va = old_end; va < new_end; va += PAGE_SIZE) {
        uint64_t pa = page_alloc();
        if (!pa || vm_map(&t->as, va, pa, PAGE_SIZE, VM_USER | VM_READ | VM_WRITE) != 0) {
            if (pa)
                page_free(pa);
            vm_unmap(&t->as, old_end, va - old_end, true);
            quota_uncharge_pages(t->account, more);
            return (long)t->brk;
        }
    }
    if (new_end < old_end) {
        vm_unmap(&t->as, new_end, old_end - new_end, true);
        quota_uncharge_pages(t->account, (old_end - new_end) / PAGE_SIZE);
    }
    t->brk = want;
    return (long)want;
}
