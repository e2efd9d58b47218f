/* SPDX-License-Identifier: MIT */
/*
 * kernel/syscall/sys_debug.c - system calls that exist for the tests: sleeping or
 * spinning inside the kernel (so a test can move a thread to another CPU,
 * or have it preempted, in the middle of a system call), the free page
 * count (leak checks), the scheduler's counters, writable kernel addresses
 * with canaries (bad-pointer tests), and a deliberate bug (a lock still
 * held on the way back to user space) that only works when the command
 * line asks for it, and the IPC fastpath's switch (so that one benchmark
 * run can time IPC with it on and off). All but the free page count answer -EPERM unless the
 * boot has kstack.debug; sleep, spin, the kernel addresses and the switch are not built
 * at all with DEBUG_CALLS=0 (-ENOSYS).
 */
#include "kernel/bootinfo.h"
#include "kernel/errno.h"
#include "kernel/ipc/fastpath.h"
#include "kernel/ipc/ipc.h"
#include "kernel/kstack_offset/kstack_offset.h"
#include "kernel/mm.h"
#include "kernel/mm/kernel_stack.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/stats.h"
#include "kernel/smp.h"
#include "kernel/syscall/syscall.h"
#include "kernel/time.h"
#include "kernel/uaccess.h"
#include "lib/cmdline.h"
#include "lib/string.h"

bool debug_call_allowed(unsigned right)
{
    return kstack_offset_debug_allowed() && control_allows(right);
}

#if CONFIG_DEBUG_CALLS
long sys_debug_sleep(const struct sysargs *args)
{
    if (!debug_call_allowed(IPC_RIGHT_DEBUG))
        return -EPERM;
    sched_sleep_ns(args->a[0]);
    return 0;
}

long sys_debug_spin(const struct sysargs *args)
{
    if (!debug_call_allowed(IPC_RIGHT_DEBUG))
        return -EPERM;
    uint64_t ns = MIN(args->a[0], 100000000ul); /* at most 0.1 s */
    uint64_t end = time_now_ns() + ns;
    while (time_now_ns() < end)
        arch_cpu_relax();
    return 0;
}
#endif /* CONFIG_DEBUG_CALLS */

/* Open to every program: the leak checks of ordinary tests use it. The
 * pages of freed kernel stacks, which stay mapped for the next thread
 * (kernel/mm/kernel_stack.c), count as free: how many stacks were ever live at
 * once depends on timing (an exited thread's stack is freed by the next
 * switch on its CPU), and a busy host made a check see them as a leak. */
long sys_debug_free_pages(const struct sysargs *args)
{
    return (long)(page_free_count() + kstack_cached_pages());
}

_Static_assert(IPC_DIRECT_WHYS <=
                   sizeof(((struct debug_stats *)0)->ipc_direct_not) / sizeof(unsigned long),
               "SYS_debug_stats has a slot for every IPC_DIRECT_* reason");

long sys_debug_stats(const struct sysargs *args)
{
    if (!debug_call_allowed(IPC_RIGHT_DEBUG))
        return -EPERM;
    struct debug_stats st = {.cpus_online = smp_online()};
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    st.migrations = sched_stats.migrations;
    st.preempted_in_syscall = sched_stats.preempted_in_syscall;
    st.ipc_objects = endpoints_alive_locked() + notifies_alive_locked();
    st.user_access_ticks = sched_stats.user_access_ticks;
    st.ipc_fastpath = ipc_fastpath_enabled();
    struct ipc_fast_stats fast;
    ipc_fast_stats_locked(&fast);
    st.ipc_fast_hits = fast.hits;
    st.ipc_handoffs = sched_stats.handoffs + fast.hits; /* each hit is a hand-off */
    for (unsigned g = 0; g < IPC_FAST_GUARDS; g++)
        st.ipc_fast_misses[g] = fast.misses[g];
    st.ipc_direct_built = ARCH_HAS_SWITCH_TO_USER;
    st.ipc_direct_resumes = fast.direct;
    for (unsigned w = 0; w < IPC_DIRECT_WHYS; w++)
        st.ipc_direct_not[w] = fast.not_direct[w];
    st.ipc_words_copied = ipc_words_copied();
    spin_unlock_irqrestore(&sched_lock, flags);
    for (unsigned i = 0; i < MAX_CPUS && i < ARRAY_SIZE(st.ticks); i++)
        st.ticks[i] = READ_ONCE(cpus[i].sched.ticks);
#if CONFIG_VULN
    st.vuln_granted = __atomic_load_n(&vuln_granted, __ATOMIC_RELAXED);
#endif
    return copy_to_user(args->a[0], &st, sizeof(st));
}

long sys_debug_leak_lock(const struct sysargs *args)
{
    static struct spinlock leaked = SPINLOCK_INIT;
    char what[32];
    if (!cmdline_get(boot_info.cmdline, "crash", what, sizeof(what)) ||
        strcmp(what, "lock-to-user") != 0)
        return -EPERM;
    spin_lock_irqsave(&leaked); /* never released: user_return() must catch it */
    return 0;
}

#if CONFIG_DEBUG_CALLS
/* A kernel-owned page, named by its direct-map alias (not the image address):
 * the direct map is where a kernel bug would reach any page of RAM. */
static uint8_t canary_page[PAGE_SIZE] __aligned(PAGE_SIZE);

static uint8_t *kaddr_of(unsigned long kind)
{
    if (kind == DEBUG_KADDR_STACK) /* the bottom of the stack: nothing else gets that deep */
        return (uint8_t *)(current_thread()->kstack_top - KSTACK_SIZE);
    if (kind == DEBUG_KADDR_DIRECT_MAP) {
        uintptr_t offset = (uintptr_t)canary_page - (uintptr_t)_kernel_start;
        return phys_to_virt(boot_info.kernel_phys + offset);
    }
    return NULL;
}

long sys_debug_kaddr(const struct sysargs *args)
{
    if (!debug_call_allowed(IPC_RIGHT_DEBUG))
        return -EPERM;
    uint8_t *p = kaddr_of(args->a[0]);
    if (!p)
        return -EINVAL;
    if (args->a[1] == DEBUG_KADDR_ARM) {
        memset(p, DEBUG_KADDR_FILL, DEBUG_KADDR_BYTES);
        return (long)(uintptr_t)p;
    }
    if (args->a[1] != DEBUG_KADDR_CHECK)
        return -EINVAL;
    long changed = 0;
    for (unsigned i = 0; i < DEBUG_KADDR_BYTES; i++)
        changed += p[i] != DEBUG_KADDR_FILL;
    return changed;
}
#endif /* CONFIG_DEBUG_CALLS */

#if CONFIG_DEBUG_CALLS
/* Turn the IPC fastpath off or on for everybody, or only ask: the state
 * before. A call already past the switch finishes the way it started;
 * either path may wake a thread the other put to sleep (docs/ipc.md). */
long sys_debug_ipc_fastpath(const struct sysargs *args)
{
    if (!debug_call_allowed(IPC_RIGHT_DEBUG))
        return -EPERM;
    if (args->a[0] == IPC_FASTPATH_QUERY)
        return ipc_fastpath_enabled();
    if (args->a[0] != IPC_FASTPATH_OFF && args->a[0] != IPC_FASTPATH_ON)
        return -EINVAL;
    return ipc_fastpath_set(args->a[0] == IPC_FASTPATH_ON);
}
#endif /* CONFIG_DEBUG_CALLS */
