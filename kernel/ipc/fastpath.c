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
 * scheduler's own hand-off (sched_hand_off_locked: the same switch, never the run queue). This
 * thread then waits as endpoint.c's threads do, so either path may wake
 * it.
 */
#include "kernel/ipc/fastpath.h"

#include "kernel/errno.h"
#include "kernel/ipc/endpoint_impl.h"
#include "kernel/ipc/handle_lookup.h"
#include "kernel/ipc/ipc.h"
#include "kernel/printk.h"
#include "kernel/syscall/path.h"
#include "kernel/task.h"
#include "lib/cmdline.h"

static bool fastpath_on = true;

/* Per CPU, bumped with relaxed atomics (the LONG miss is counted before
 * the lock, maybe from a CPU the thread has just left). */
static struct ipc_fast_stats stats[MAX_CPUS];

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
        add(&out->hits, &stats[i].hits);
        for (unsigned g = 0; g < IPC_FAST_GUARDS; g++)
            add(&out->misses[g], &stats[i].misses[g]);
        add(&out->direct, &stats[i].direct);
        for (unsigned w = 0; w < IPC_DIRECT_WHYS; w++)
            add(&out->not_direct[w], &stats[i].not_direct[w]);
    }
}

/* The endpoint behind h with `right`, and its badge; else the guard failed. */
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
 * into the registers its system call returns. */
static inline __attribute__((always_inline)) void
deliver_direct(struct thread *to, const struct sysargs *args, long result)
{
    arch_sc_set_words(arch_user_frame(to->kstack_top), &args->a[1]);
    to->ipc.direct = true;
    ipc_complete_locked(to, result);
}

/* A guard failed (sched_lock held): count it, stage the register-only
 * message in self's slot as sys_ipc.c's stage does, and take the ordinary
 * path without letting the lock go. */
static void miss(struct cpu *c, int guard, struct thread *self, const struct sysargs *args)
{
    count(&stats[c->id].misses[guard]);
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
    if (to->ipc.resume_direct) {
        if (__builtin_expect(!cpu_return_checks_but_sched_lock(c) && !to->killed, 1)) {
            own_count(&stats[c->id].direct);
            return true;
        }
        why = IPC_DIRECT_RETURN_CHECKS;
    } else if (to->ipc.resume_owed) {
        why = IPC_DIRECT_EXIT_WORK;
    }
    own_count(&stats[c->id].not_direct[why]);
    return false;
}

/* What `to`'s own way back would have done, done for it, then the switch
 * straight to its user mode: its wait's result into its result register,
 * its message flags cleared (unstage), the path's epoch recorded. */
static inline __attribute__((always_inline)) void switch_to_user(struct cpu *c, struct thread *self,
                                                                 struct thread *to)
{
    arch_sc_set_result(arch_user_frame(to->kstack_top), to->ipc.result);
    to->ipc.direct = false;
    to->ipc.resume_direct = false;
    to->path_epoch = syscall_path_epoch();
    sched_hand_off_to_user_locked(c, &self->ipc, to);
}

/* Hand this CPU to `to`, leaving it straight to user mode where its way
 * out owes nothing. This thread may be resumed that way in turn if its own
 * way out owes nothing (the copy it entered through is the one in force,
 * and does no work after the handler: kernel/syscall/path.h). */
static inline __attribute__((always_inline)) void hand_off(struct cpu *c, struct thread *self,
                                                           struct thread *to)
{
    bool direct = syscall_path_direct_ok(self->path_epoch);
    self->ipc.resume_direct = direct;
    self->ipc.resume_owed = !direct;
    if (resume_direct_ok(c, to))
        switch_to_user(c, self, to);
    else
        sched_hand_off_locked(c, &self->ipc, to);
    /* Back here the long way: switched to by arch_context_switch. */
    self->ipc.resume_direct = false;
    self->ipc.resume_owed = false;
    self->path_epoch = syscall_path_epoch();
}
#else
static inline __attribute__((always_inline)) void hand_off(struct cpu *c, struct thread *self,
                                                           struct thread *to)
{
    sched_hand_off_locked(c, &self->ipc, to);
}
#endif

/* Hand this CPU to `to` and wait, as endpoint.c's threads do. Back here,
 * the wait has nearly always ended (the partner answered): its result is
 * read here, and only otherwise does endpoint.c's wait go on. */
static inline __attribute__((always_inline)) long
hand_off_and_wait(struct cpu *c, struct thread *self, struct thread *to)
{
    hand_off(c, self, to);
    if (__builtin_expect(self->ipc.done, 1))
        return self->ipc.result;
    return endpoint_wait_done_locked(self, NULL);
}

static bool long_message(const struct sysargs *args)
{
    if (IPC_TAG_LEN(args->a[1]) == 0)
        return false;
    count(&stats[arch_this_cpu()->id].misses[IPC_FAST_LONG]); /* any CPU's row will do */
    return true;
}

bool ipc_fast_call(int h, const struct sysargs *args, struct thread **self, long *ret)
{
    if (!READ_ONCE(fastpath_on) || long_message(args))
        return false;
    struct endpoint *ep;
    uintptr_t badge;
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    struct cpu *c = arch_this_cpu(); /* IRQs off: no need of this_cpu()'s check */
    struct thread *me = c->sched.current;
    int guard = call_guards(c, me, h, &ep, &badge);
    if (guard >= 0) {
        miss(c, guard, me, args);
        *ret = endpoint_call_locked(me, h);
        spin_unlock_irqrestore(&sched_lock, flags);
        *self = me;
        return true;
    }
    count(&stats[c->id].hits);
    struct thread *server = queue_pop(&ep->recvs);
    deliver_direct(server, args, (long)badge);
    server->ipc.caller = me;
    me->ipc.state = IPC_REPLY_WAIT;
    me->ipc.ep = NULL;
    me->ipc.replier = server;
    me->ipc.done = false;
    *ret = hand_off_and_wait(c, me, server);
    spin_unlock_irqrestore(&sched_lock, flags);
    *self = me;
    return true;
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

bool ipc_fast_reply_recv(int h, const struct sysargs *args, struct thread **self, long *ret)
{
    if (!READ_ONCE(fastpath_on) || long_message(args))
        return false;
    struct endpoint *ep;
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    struct cpu *c = arch_this_cpu(); /* IRQs off: no need of this_cpu()'s check */
    struct thread *me = c->sched.current;
    int guard = reply_guards(c, me, h, &ep);
    if (guard >= 0) {
        miss(c, guard, me, args);
        *ret = endpoint_reply_recv_locked(me, h);
        spin_unlock_irqrestore(&sched_lock, flags);
        *self = me;
        return true;
    }
    count(&stats[c->id].hits);
    struct thread *client = me->ipc.caller;
    me->ipc.caller = NULL;
    client->ipc.replier = NULL;
    deliver_direct(client, args, 0);
    me->ipc.done = false;
    me->ipc.state = IPC_RECV_WAIT;
    me->ipc.ep = ep;
    queue_push(&ep->recvs, me);
    *ret = hand_off_and_wait(c, me, client);
    spin_unlock_irqrestore(&sched_lock, flags);
    *self = me;
    return true;
}
