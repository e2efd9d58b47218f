/* SPDX-License-Identifier: MIT */
/*
 * kernel/ipc/fastpath.c - the IPC fastpath: ipc_call to a server already
 * waiting in ipc_reply_recv or ipc_recv, and ipc_reply_recv to a caller
 * waiting for its answer, when both sides are on this CPU and the message
 * fits in registers (docs/ipc.md "The fastpath").
 *
 * It runs inside the system call's handler, below the dispatcher: the
 * entry has drawn its stack offset like every other. Every guard is
 * checked, under sched_lock, before anything is written; the first that
 * fails is counted and sends the call down the ordinary path (endpoint.c),
 * unchanged: a long message before the lock is taken, any other with the
 * lock kept (the registers staged as sys_ipc.c would, then
 * endpoint_call_locked), so that a miss does not take the lock twice. After the guards it does what
 * endpoint.c would do in that case, straight-line: the partner leaves its queue or its reply wait,
 * the tag and four words go from this thread's trapframe to the partner's (one copy; ipc.direct
 * tells the partner not to unstage its slot), and the CPU is handed to the partner with the
 * scheduler's switch core (kernel/sched/switch_core.h: the same switch, never the run queue),
 * inline, straight to the partner's user mode where it owes nothing. This
 * thread then waits as endpoint.c's threads do, so either path may wake
 * it.
 */
#include "kernel/ipc/fastpath.h"

#include "kernel/errno.h"
#include "kernel/ipc/endpoint_impl.h"
#include "kernel/ipc/fastpath_long.h"
#include "kernel/ipc/handle_lookup.h"
#include "kernel/ipc/ipc.h"
#include "kernel/printk.h"
#include "kernel/sched/switch_core.h"
#include "kernel/syscall/path.h"
#include "kernel/task.h"
#include "lib/cmdline.h"

static bool fastpath_on = true;

/* The counters are each CPU's (struct cpu's ipc_fast). The misses are
 * bumped with relaxed atomics (the LONG miss is counted before the lock,
 * maybe from a CPU the thread has just left). A hit is counted once, as
 * what became of the partner it woke: resumed straight to user mode
 * (direct) or not, and why (not_direct), each with a plain increment
 * under sched_lock (own_count); the hits are their sum
 * (ipc_fast_stats_locked). */

void ipc_fastpath_init(const char *cmdline)
{
    fastpath_on = cmdline_ulong(cmdline, "ipc.fastpath", 1) != 0;
    if (!fastpath_on)
        kprintf("ipc: fastpath off (ipc.fastpath=0)\n");
}

bool ipc_fastpath_enabled(void)
{
    return READ_ONCE(fastpath_on);
}

/* Two switches at once may both answer the same state before: a debug
 * call's answer, nothing depends on it (and riscv64 has no one-byte
 * atomic exchange without libatomic). */
bool ipc_fastpath_set(bool on)
{
    bool was = READ_ONCE(fastpath_on);
    __atomic_store_n(&fastpath_on, on, __ATOMIC_RELAXED);
    return was;
}

static void count(unsigned long *counter)
{
    __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
}

/* A counter written only under sched_lock, and read only under it
 * (ipc_fast_stats_locked): a plain increment, no atomic read-modify-write
 * (a loop of several instructions on arm64 without LSE). */
static inline void own_count(unsigned long *counter)
{
    (*counter)++;
}

static void add(unsigned long *sum, const unsigned long *counter)
{
    *sum += __atomic_load_n(counter, __ATOMIC_RELAXED);
}

void ipc_fast_stats_locked(struct ipc_fast_stats *out)
{
    *out = (struct ipc_fast_stats){0};
    for (unsigned i = 0; i < MAX_CPUS; i++) {
        for (unsigned g = 0; g < IPC_FAST_GUARDS; g++)
            add(&out->misses[g], &cpus[i].ipc_fast.misses[g]);
        add(&out->direct, &cpus[i].ipc_fast.direct);
        for (unsigned w = 0; w < IPC_DIRECT_WHYS; w++)
            add(&out->not_direct[w], &cpus[i].ipc_fast.not_direct[w]);
    }
    out->hits = out->direct; /* every hit woke one partner, counted once */
    for (unsigned w = 0; w < IPC_DIRECT_WHYS; w++)
        out->hits += out->not_direct[w];
}

/* The endpoint behind handle h with `right`, and its badge; else the guard failed. */
static inline __attribute__((always_inline)) struct endpoint *
endpoint_guard(struct thread *self, int h, unsigned right, uintptr_t *badge, int *guard)
{
    long err;
    struct ipc_handle *s = handle_lookup_inline(self->task, h, IPC_KIND_ENDPOINT, right, &err);
    if (!s) {
        *guard = err == -EPERM ? IPC_FAST_NO_RIGHT : IPC_FAST_BAD_HANDLE;
        return NULL;
    }
    *badge = s->badge;
    return s->obj;
}

/* The call's guards, nothing written: the first that fails, or -1. */
static inline __attribute__((always_inline)) int
call_guards(struct cpu *c, struct thread *self, int h, struct endpoint **ep, uintptr_t *badge)
{
    int guard = IPC_FAST_BAD_HANDLE;
    if (!(*ep = endpoint_guard(self, h, IPC_RIGHT_SEND, badge, &guard)))
        return guard;
    struct thread *server = (*ep)->recvs.head;
    if (!server || (*ep)->receivers == 0)
        return IPC_FAST_NO_PARTNER;
    /* (A receiver on the queue owes nobody: receive_locked let its caller
     * go before it queued.) A thread being killed is woken at once, so a
     * sleeping partner never is one. */
    if (!sched_can_hand_off_locked(c, server))
        return IPC_FAST_OTHER_CPU;
    if (self->killed)
        return IPC_FAST_KILLED; /* endpoint.c cancels its wait */
    return -1;
}

/* The partner's wait ends with `result` and this message, put straight
 * into the registers its system call returns. to_user (it leaves straight
 * from its trapframe): its result too, and nothing else, since no code of
 * its wait runs (ipc.done, ipc.result and ipc.direct are read only there,
 * and set again before its next wait; direct stays false). Otherwise its
 * wait ends as endpoint.c's do, with ipc.direct telling unstage that the
 * words are in its registers already. */
static inline __attribute__((always_inline)) void
deliver_direct(struct thread *to, const struct sysargs *args, long result, bool to_user)
{
    struct trapframe *tf = arch_user_frame(to->kstack_top);
    arch_sc_set_words(tf, &args->a[1]);
    if (to_user) {
        arch_sc_set_result(tf, result);
        to->ipc.state = IPC_IDLE;
        to->ipc.ep = NULL;
        return;
    }
    to->ipc.direct = true;
    ipc_complete_locked(to, result);
}

/* A guard failed (sched_lock held): count it, stage the register-only
 * message in self's slot as sys_ipc.c's stage does, and take the ordinary
 * path without letting the lock go. */
static void miss(struct cpu *c, int guard, struct thread *self, const struct sysargs *args)
{
    count(&c->ipc_fast.misses[guard]);
    for (int i = 0; i < 1 + IPC_REG_WORDS; i++)
        self->ipc.msg.regs[i] = args->a[1 + i];
}

#if ARCH_HAS_SWITCH_TO_USER
/* Whether `to`, woken by this fastpath, may leave straight from its
 * trapframe (docs/ipc.md, "Straight back to user mode"): it slept in the
 * fastpath when the path owed nothing after the handler, and the way out
 * owes nothing now either (user_return_fast's checks, but for sched_lock's
 * count, which the switch gives back). Counted either way. */
static inline __attribute__((always_inline)) bool resume_direct_ok(struct cpu *c,
                                                                   const struct thread *to)
{
    int why = IPC_DIRECT_SLEPT_ELSEWHERE;
    if (__builtin_expect(to->ipc.resume == IPC_RESUME_DIRECT, 1)) {
        if (__builtin_expect(!cpu_return_checks_but_sched_lock(c) && !to->killed, 1)) {
            own_count(&c->ipc_fast.direct);
            return true;
        }
        why = IPC_DIRECT_RETURN_CHECKS;
    } else if (to->ipc.resume == IPC_RESUME_OWED) {
        why = IPC_DIRECT_EXIT_WORK;
    }
    own_count(&c->ipc_fast.not_direct[why]);
    return false;
}

/* Deliver to `to` (the message in args, its wait's `result`) and hand this
 * CPU to it, straight to its user mode where its way out owes nothing: what
 * its own way back would have done is done for it (deliver_direct; its
 * mark cleared). It keeps the path epoch it recorded before it slept,
 * which syscall_path_direct_ok found equal to the epoch then: still a
 * bound below the epoch of its next entry (kernel/syscall/path.h). This
 * thread may be resumed that way in turn if its own way out owes nothing
 * (the copy it entered through is the one in force, and does no work after
 * the handler). */
static inline __attribute__((always_inline)) void hand_off(struct cpu *c, struct thread *self,
                                                           struct thread *to,
                                                           const struct sysargs *args, long result)
{
    bool to_user = resume_direct_ok(c, to);
    deliver_direct(to, args, result, to_user);
    bool direct = syscall_path_direct_ok(self->path_epoch);
    self->ipc.resume = direct ? IPC_RESUME_DIRECT : IPC_RESUME_OWED;
    if (__builtin_expect(to_user, 1)) {
        to->ipc.resume = 0;
        sched_hand_off_to_user_locked(c, self, to);
    } else {
        sched_hand_off_locked(c, to);
    }
    /* Back here the long way: switched to by arch_context_switch. */
    self->ipc.resume = 0;
    self->path_epoch = syscall_path_epoch();
}
#else
static inline __attribute__((always_inline)) void hand_off(struct cpu *c, struct thread *self,
                                                           struct thread *to,
                                                           const struct sysargs *args, long result)
{
    own_count(&c->ipc_fast.not_direct[IPC_DIRECT_NOT_BUILT]); /* the hit */
    deliver_direct(to, args, result, false);
    sched_hand_off_locked(c, to);
}
#endif

/* Deliver to `to`, hand this CPU to it and wait, as endpoint.c's threads
 * do. Back here, the wait has nearly always ended (the partner answered):
 * its result is read here, and only otherwise does endpoint.c's wait go on. */
static inline __attribute__((always_inline)) long
hand_off_and_wait(struct cpu *c, struct thread *self, struct thread *to, const struct sysargs *args,
                  long result)
{
    hand_off(c, self, to, args, result);
    if (__builtin_expect(self->ipc.done, 1))
        return self->ipc.result;
    return endpoint_wait_done_locked(self, NULL);
}

/* After a long message missed on the CPU guard, the next LONG_SKIPS long
 * messages of that thread go the ordinary path without a look under the
 * lock (a miss takes sched_lock twice, and a server on another CPU stays
 * there): counted as that guard's misses. */
#define LONG_SKIPS 3

/* Before the lock, for a message with extra words (n of them): more than
 * a buffer holds (the ordinary path's -EINVAL), or a long message whose
 * sender's partner was elsewhere last time (above). Out of line: the
 * register-only message, the common case, never calls it (not_here). */
static __attribute__((noinline, cold)) bool long_not_here(size_t n)
{
    int guard = IPC_FAST_LONG;
    if (n <= IPC_BUF_WORDS) {
        struct thread *self = current_thread();
        if (__builtin_expect(self->ipc.long_skips == 0, 1))
            return false;
        self->ipc.long_skips--; /* its own: no lock needed */
        guard = IPC_FAST_OTHER_CPU;
    }
    count(&arch_this_cpu()->ipc_fast.misses[guard]); /* any CPU's row will do */
    return true;
}

/* Whether the fastpath is not for this call of n extra words, before the
 * lock: switched off, or a long message it may not take (long_not_here). */
static inline __attribute__((always_inline)) bool not_here(size_t n)
{
    return !READ_ONCE(fastpath_on) || (__builtin_expect(n != 0, 0) && long_not_here(n));
}

/* The last guard of a long message, once every other passed: its extra
 * words copied from self's buffer into to's (fastpath_long.c), or nothing
 * written and IPC_FAST_LONG. */
static inline __attribute__((always_inline)) int
long_words_guard(int guard, size_t n, struct thread *self, struct thread *to)
{
    if (guard >= 0 || n == 0)
        return guard;
    if (!ipc_fast_copy_long_locked(self, to, n))
        return IPC_FAST_LONG;
    ipc_count_copied(n);
    return -1;
}

/* A long message missed: its words were never staged, so the ordinary
 * path starts from the beginning (stage, then the lock again). */
static void long_miss(struct cpu *c, struct thread *self, int guard)
{
    count(&c->ipc_fast.misses[guard]);
    if (guard == IPC_FAST_OTHER_CPU)
        self->ipc.long_skips = LONG_SKIPS;
    spin_unlock_irq(&sched_lock);
}

long ipc_fast_call(const struct sysargs *args)
{
    size_t n = IPC_TAG_LEN(args->a[1]);
    if (not_here(n))
        return sys_ipc_call(args);
    struct endpoint *ep;
    uintptr_t badge;
    spin_lock_irq(&sched_lock);      /* a system call's handler: IRQs are on */
    struct cpu *c = arch_this_cpu(); /* IRQs off: no need of this_cpu()'s check */
    struct thread *me = c->sched.current;
    int h = ipc_handle_arg(args->a[0]);
    int guard = call_guards(c, me, h, &ep, &badge);
    guard = long_words_guard(guard, n, me, guard < 0 ? ep->recvs.head : NULL);
    if (__builtin_expect(guard >= 0 && n, 0)) {
        long_miss(c, me, guard);
        return sys_ipc_call(args);
    }
    if (__builtin_expect(guard >= 0, 0)) {
        miss(c, guard, me, args);
        long ret = endpoint_call_locked(me, h);
        spin_unlock_irq(&sched_lock);
        return ipc_unstage(me, ret);
    }
    struct thread *server = ep->recvs.head; /* call_guards found it there */
    queue_drop_head(&ep->recvs, server);
    server->ipc.caller = me;
    me->ipc.state = IPC_REPLY_WAIT;
    me->ipc.ep = NULL;
    me->ipc.replier = server;
    me->ipc.done = false;
    long ret = hand_off_and_wait(c, me, server, args, (long)badge);
    spin_unlock_irq(&sched_lock);
    return ipc_unstage(me, ret);
}

/* The reply's guards, nothing written: the first that fails, or -1. */
static inline __attribute__((always_inline)) int reply_guards(struct cpu *c, struct thread *self,
                                                              int h, struct endpoint **ep)
{
    int guard = IPC_FAST_BAD_HANDLE;
    uintptr_t badge;
    if (!(*ep = endpoint_guard(self, h, IPC_RIGHT_RECV, &badge, &guard)))
        return guard;
    struct thread *client = self->ipc.caller;
    if (!client)
        return IPC_FAST_NO_PARTNER;
    if ((*ep)->sends.head)
        return IPC_FAST_BUSY; /* a caller waits: receive it at once (endpoint.c) */
    if (!sched_can_hand_off_locked(c, client))
        return IPC_FAST_OTHER_CPU;
    if (self->killed)
        return IPC_FAST_KILLED;
    return -1;
}

long ipc_fast_reply_recv(const struct sysargs *args)
{
    size_t n = IPC_TAG_LEN(args->a[1]);
    if (not_here(n))
        return sys_ipc_reply_recv(args);
    struct endpoint *ep;
    spin_lock_irq(&sched_lock);      /* a system call's handler: IRQs are on */
    struct cpu *c = arch_this_cpu(); /* IRQs off: no need of this_cpu()'s check */
    struct thread *me = c->sched.current;
    int h = ipc_handle_arg(args->a[0]);
    int guard = reply_guards(c, me, h, &ep);
    guard = long_words_guard(guard, n, me, me->ipc.caller);
    if (__builtin_expect(guard >= 0 && n, 0)) {
        long_miss(c, me, guard);
        return sys_ipc_reply_recv(args);
    }
    if (__builtin_expect(guard >= 0, 0)) {
        miss(c, guard, me, args);
        long ret = endpoint_reply_recv_locked(me, h);
        spin_unlock_irq(&sched_lock);
        return ipc_unstage(me, ret);
    }
    struct thread *client = me->ipc.caller;
    me->ipc.caller = NULL;
    client->ipc.replier = NULL;
    me->ipc.done = false;
    me->ipc.state = IPC_RECV_WAIT;
    me->ipc.ep = ep;
    queue_push(&ep->recvs, me);
    long ret = hand_off_and_wait(c, me, client, args, 0);
    spin_unlock_irq(&sched_lock);
    return ipc_unstage(me, ret);
}
