/* SPDX-License-Identifier: MIT */
/*
 * kernel/syscall/syscall.c - the one C function every system call goes through.
 *
 * arch/<arch>/entry code saves the user's registers into the trapframe at
 * the top of the thread's kernel stack and calls syscall_dispatch_<s>(tf), the
 * copy of this path for the stack offset strategy s in force (SYSCALL_PATH,
 * below). This is the single place where the project's subject happens:
 *   (a) the entry timestamp for the latency histograms,
 *   (b) the random kernel stack offset, applied before the handler runs,
 *   (c) the exit timestamp,
 * each marked below. (b) is kernel/kstack_offset/: the strategy's draw
 * (one copy of this path per strategy) runs while IRQs are still masked from the entry, and the
 * alloca moves this function's stack pointer down by it, so the handler and
 * everything it calls run at a random depth. The number is clamped with a
 * mask computed from it, not checked with a branch (syscall_index below).
 */
#include "kernel/syscall/syscall.h"
#include "kernel/arch_callbacks.h"
#include "kernel/errno.h"
#include "kernel/ipc/fastpath.h"
#include "kernel/kstack_offset/draw.h"
#include "kernel/latency/latency.h"
#include "kernel/panic.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/path.h"
#include "kernel/syscall/user_return.h"

/* A number past the table reached it: syscall_index() is broken. */
static long past_the_table(const struct sysargs *args)
{
    (void)args;
    panic("system call number %d reached the table: syscall_index() let it through", NR_SYSCALLS);
}

/* Slot 0 stays empty: syscall_index() sends every number past the end
 * there. One guard slot after the last: a clamp off by one (NR_SYSCALLS let
 * through) calls past_the_table, not whatever the linker put after the
 * table. No instruction of the path changes: only the table is longer. */
static const syscall_fn syscall_table[NR_SYSCALLS + 1] = {
    [NR_SYSCALLS] = past_the_table,
    [SYS_exit] = sys_exit,
    [SYS_write] = sys_write,
    [SYS_read] = sys_read,
    [SYS_getpid] = sys_getpid,
    [SYS_getppid] = sys_getppid,
    [SYS_yield] = sys_yield,
    [SYS_nanosleep] = sys_nanosleep,
    /* LAB 1 BEGIN: the new call's entry in the table */
    [SYS_clock_gettime] = sys_clock_gettime,
    /* LAB 1 STUB
    LAB 1 END */
    [SYS_brk] = sys_brk,
    [SYS_spawn] = sys_spawn,
    [SYS_wait] = sys_wait,
    [SYS_getcpu] = sys_getcpu,
    [SYS_thread_create] = sys_thread_create,
    [SYS_thread_exit] = sys_thread_exit,
    [SYS_gettid] = sys_gettid,
    [SYS_sched_setaffinity] = sys_sched_setaffinity,
    [SYS_sched_getaffinity] = sys_sched_getaffinity,
#if CONFIG_DEBUG_CALLS
    [SYS_debug_sleep] = sys_debug_sleep,
#endif
    [SYS_debug_free_pages] = sys_debug_free_pages,
#if CONFIG_DEBUG_CALLS
    [SYS_debug_spin] = sys_debug_spin,
#endif
    [SYS_debug_stats] = sys_debug_stats,
    [SYS_debug_leak_lock] = sys_debug_leak_lock,
    [SYS_kstack_set] = sys_kstack_set,
    [SYS_kstack_get] = sys_kstack_get,
#if CONFIG_DEBUG_CALLS
    [SYS_kstack_probe] = sys_kstack_probe,
#endif
    [SYS_kstack_stats] = sys_kstack_stats,
#if CONFIG_DEBUG_CALLS
    [SYS_kstack_debug] = sys_kstack_debug,
#endif
    [SYS_latency_ctl] = sys_latency_ctl,
    [SYS_latency_read] = sys_latency_read,
#if CONFIG_DEBUG_CALLS
    [SYS_debug_kaddr] = sys_debug_kaddr,
#endif
    [SYS_endpoint_create] = sys_endpoint_create,
    [SYS_notify_create] = sys_notify_create,
    [SYS_handle_mint] = sys_handle_mint,
    [SYS_handle_close] = sys_handle_close,
#if ARCH_HAS_SWITCH_TO_USER /* the user's callee-saved registers into the frame first */
    [SYS_ipc_call] = arch_ipc_call_entry,
    [SYS_ipc_reply_recv] = arch_ipc_reply_recv_entry,
#else /* the fastpath, which calls sys_ipc_call or sys_ipc_reply_recv when it may not */
    [SYS_ipc_call] = ipc_fast_call,
    [SYS_ipc_reply_recv] = ipc_fast_reply_recv,
#endif
    [SYS_ipc_send] = sys_ipc_send,
    [SYS_ipc_recv] = sys_ipc_recv,
    [SYS_ipc_set_buffer] = sys_ipc_set_buffer,
    [SYS_notify_signal] = sys_notify_signal,
    [SYS_notify_wait] = sys_notify_wait,
    [SYS_notify_poll] = sys_notify_poll,
    [SYS_spawn_with] = sys_spawn_with,
    [SYS_device_info] = sys_device_info,
    [SYS_device_io] = sys_device_io,
    [SYS_irq_bind] = sys_irq_bind,
    [SYS_irq_ack] = sys_irq_ack,
    [SYS_device_map] = sys_device_map,
#if CONFIG_VULN /* deliberately vulnerable (make VULN=1): empty, -ENOSYS, otherwise */
    [SYS_vuln_fill] = sys_vuln_fill,
    [SYS_vuln_use] = sys_vuln_use,
    [SYS_vuln_leak] = sys_vuln_leak,
    [SYS_vuln_write] = sys_vuln_write,
#endif
#if CONFIG_DEBUG_CALLS
    [SYS_debug_ipc_fastpath] = sys_debug_ipc_fastpath,
#endif
};

/*
 * The table index of nr, with no branch on nr: numbers past the table
 * become 0, whose slot is empty. The clamp is arithmetic on nr itself (a
 * compare into a mask), so even a CPU that speculates cannot use an
 * out-of-range number to read past the table (the Spectre v1 pattern).
 */
static inline unsigned long syscall_index(unsigned long nr)
{
    unsigned long in_range = 0 - (unsigned long)(nr < NR_SYSCALLS); /* all ones or 0 */
    return nr & in_range;
}

/* Whether the table has a handler for nr (the latency drain's slot choice). */
bool syscall_implemented(unsigned long nr)
{
    return syscall_table[syscall_index(nr)] != NULL;
}

/* (c) The timed copies' way out, IRQs off: the exit timestamp, into this
 * CPU's ring of samples for this copy (the histograms are built from it
 * later, off the path: latency.h), then as untimed. A way out of its own,
 * so that the untimed copies' code does not change with it. */
static inline __attribute__((always_inline)) long timed_exit(unsigned id, uint64_t start, long ret)
{
    if (latency_record(id, start))
        ret = latency_drain_full(ret); /* the ring is full: empty it now, bounded */
    user_return_fast();
    return ret;
}

/* The rest of a system call, in the frame dispatch() below bumped. */
static inline __attribute__((always_inline)) long
call_handler(struct trapframe *tf, bool timed, unsigned id, struct thread *self, uint64_t start)
{
    arch_irq_enable(); /* system calls are preemptible */
    unsigned long index = syscall_index(arch_sc_nr(tf));
    if (timed) { /* the index into the sample's word (latency.h) */
        start -= index << LATENCY_INDEX_BITS;
        __asm__("" : "+r"(start)); /* now, not at the exit: one saved register */
    }
    syscall_fn fn = syscall_table[index];
    long ret = -ENOSYS; /* a number with no call */
    if (__builtin_expect(fn != NULL, 1))
        ret = fn((const struct sysargs *)arch_sc_args(tf));
    kstack_exit(id, self);           /* the legacy designs choose the next offset here */
    KSTACK_OFFSET_AT_EXIT(id, self); /* nothing (kstack_offset.h) */
    arch_irq_disable();
    if (timed)
        return timed_exit(id, start, ret);
    /* The same thread, perhaps on another CPU: read again rather than kept
     * in a saved register across the handler. */
    user_return_fast();
    return ret;
}

/*
 * The system call itself, for strategy `id` (a constant: draw.h's switch
 * folds to that strategy's draw). It is inlined into one copy per strategy,
 * timed and not (`timed` a constant too), so that with the timers off the
 * path carries nothing of them, and the strategy costs only its own draw:
 * the entry code's call is rewritten to the copy in force (path.c). It must
 * be inlined: the stack offset's alloca belongs to the frame that calls the
 * handler. The handler reads its arguments where the entry code saved them
 * (arch_sc_args).
 */
static inline __attribute__((always_inline)) long dispatch(struct trapframe *tf, bool timed,
                                                           unsigned id)
{
    /* (a) entry timestamp, with which CPU and how many interrupts in the
     * same word (latency.h). */
    irqsoff_entry(); /* the entry masked IRQs: nothing unless make IRQSOFF=1 */
    uint64_t start = 0;
    if (timed) {
        start = latency_begin();
        /* Opaque from here: else gcc postpones the add to the exit and keeps
         * both words alive across the handler call, one more saved register. */
        __asm__("" : "+r"(start));
    }
    if (id == KSTACK_OFF) /* no offset, so no bump at all */
        return call_handler(tf, timed, id, NULL, start);
    /* IRQs are still off from the entry, so this CPU and its current thread
     * cannot change under us: arch_this_cpu() without this_cpu()'s check. */
    struct cpu *c = arch_this_cpu();
    struct thread *self = c->sched.current;
    /* (b) the random stack offset, drawn and applied before anything else
     * runs on this stack (kernel/kstack_offset/kstack_offset.h). */
    uint32_t raw;
    if (__builtin_expect(!kstack_draw(id, c, self, &raw), 0)) {
        raw = kstack_pool_dry(c); /* pool's ring at its stop: out of line */
        /* Found again rather than kept across that call: keeping them
         * would cost every call a saved register (store, copy, load). */
        c = arch_this_cpu();
        self = c->sched.current;
        tf = arch_user_frame(self->kstack_top);
    }
    KSTACK_OFFSET_APPLY(raw);
    return call_handler(tf, timed, id, self, start);
}

/*
 * The copies the entry code can call, with IRQs off; each returns with them
 * off. Each has a frame of its own: the timed copy's extra live values
 * (start time and mark, number) cost the untimed one nothing, and no copy
 * pays for choosing among them. SYSCALL_PATH(NAME, name, str) makes, for
 * every strategy of KSTACK_STRATEGIES (kernel/uapi/kstack.h) and for
 * `fixed`, the two functions
 *     long syscall_dispatch_<name>(struct trapframe *tf);
 *     long syscall_dispatch_<name>_timed(struct trapframe *tf);
 * and PATHS their row of syscall_paths[KSTACK_<NAME>] (path.c switches).
 */
#define SYSCALL_PATH(NAME, name, str)                                                              \
    long syscall_dispatch_##name(struct trapframe *tf);                                            \
    long syscall_dispatch_##name##_timed(struct trapframe *tf);                                    \
    long syscall_dispatch_##name(struct trapframe *tf)                                             \
    {                                                                                              \
        return dispatch(tf, false, KSTACK_##NAME);                                                 \
    }                                                                                              \
    long syscall_dispatch_##name##_timed(struct trapframe *tf)                                     \
    {                                                                                              \
        return dispatch(tf, true, KSTACK_##NAME);                                                  \
    }
KSTACK_STRATEGIES(SYSCALL_PATH)
SYSCALL_PATH(FIXED, fixed, "fixed")

#define PATHS(NAME, name, str)                                                                     \
    [KSTACK_##NAME] = {syscall_dispatch_##name, syscall_dispatch_##name##_timed},
const syscall_path_fn syscall_paths[KSTACK_NR + 1][2] = {
    KSTACK_STRATEGIES(PATHS) /* the named ones */
    PATHS(FIXED, fixed, "fixed")};
