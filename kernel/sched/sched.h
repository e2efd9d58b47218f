/* SPDX-License-Identifier: MIT */
/*
 * kernel/sched/sched.h - threads and the scheduler.
 *
 * A thread is a kernel stack plus the registers saved on it; a user thread
 * also belongs to a task (kernel/task.h). Every CPU has its own run queue
 * and an idle thread; a CPU with nothing to run steals from another's queue.
 * Time slices end on the timer tick, and a thread is preempted at the next
 * point where it holds no lock (preempt count 0) - including in the middle
 * of a system call, which is what lets the tests move a thread to another
 * CPU while it is inside one.
 *
 * Locking: one scheduler lock guards every run queue, every thread's state
 * and every wait channel. A single lock is easy to reason about, and with at
 * most 8 CPUs it is not the bottleneck; the queues are still per CPU so that
 * each CPU normally runs its own threads.
 */
#ifndef KERNEL_SCHED_SCHED_H
#define KERNEL_SCHED_SCHED_H

#include "kernel/cpu.h"
#include "kernel/ipc/types.h"
#include "kernel/spinlock.h"

#define MAX_THREADS       256
#define ALL_CPUS          (~0ull >> (64 - MAX_CPUS)) /* MAX_CPUS <= 64 */
#define SCHED_TICK_HZ     1000                       /* timer interrupts per second on every CPU */
#define SCHED_SLICE_TICKS 4 /* ticks a thread runs before others get a turn */

struct task;

enum thread_state {
    THREAD_UNUSED,
    THREAD_RUNNABLE, /* on a run queue */
    THREAD_RUNNING,  /* on a CPU */
    THREAD_SLEEPING, /* waiting on wait_chan and/or until wake_at */
    THREAD_DEAD      /* finished; its stack is freed by the next thread on the CPU */
};

struct thread {
    uintptr_t saved_sp;   /* kernel stack pointer while switched out (arch_context_switch) */
    uintptr_t kstack_top; /* highest address of the kernel stack; a user trapframe sits below */
    enum thread_state state;
    int tid;
    struct task *task;   /* NULL for kernel threads */
    unsigned cpu;        /* CPU it runs on or is queued on */
    uint64_t affinity;   /* CPUs it may run on, one bit each */
    struct thread *next; /* run queue link */
    const void *wait_chan;
    uint64_t wake_at;  /* arch_counter() deadline of a timed sleep, 0 = none */
    unsigned slice;    /* ticks left in the current time slice */
    bool killed;       /* its task is exiting: leave at the next return to user */
    bool in_syscall;   /* switched out inside a system call (statistics) */
    bool last_of_task; /* dying as its task's last thread: the task ends after the switch */
    /* The system call path's epoch (kernel/syscall/path.h) when it was
     * created or last returned from the IPC fastpath the long way: at most
     * the epoch its current system call entered at (docs/ipc.md, "Straight
     * back to user mode"). */
    unsigned path_epoch;
    void (*entry)(void *);
    void *arg;
    struct {
        uintptr_t pc, sp, arg0, arg1;
    } user_start;                       /* where a user thread enters user mode first */
    struct kstack_offset_thread kstack; /* per-thread offset state (task, prng-task) */
    struct arch_fpu fpu;                /* a user thread's FP/SIMD registers while switched out */
    struct ipc_thread ipc;              /* its IPC wait state and message slot (kernel/ipc/) */
    char name[16];
};

extern struct spinlock sched_lock;

/* The running thread. Safe with preemption enabled: the value moves with
 * the thread. One load from the per-CPU register where the arch has one
 * (arch_this_cpu_word), no IRQ save and restore. */
static inline struct thread *current_thread(void)
{
    return (struct thread *)arch_this_cpu_word(offsetof(struct cpu, sched.current));
}

/* Boot CPU, once: the boot stack becomes CPU 0's first thread ("kmain") and
 * CPU 0 gets its idle thread. An idle CPU calls background(c), IRQs off,
 * until it returns false (no step of work left) or a thread is runnable:
 * the layers above hand it their work (kernel/syscall/interrupt.c:
 * idle_work), so that the scheduler calls none of them. */
void sched_init(bool (*background)(struct cpu *c));
/* Boot CPU, before starting another CPU: make its idle thread; returns the
 * top of that thread's stack, which the new CPU starts on. */
uintptr_t sched_prepare_cpu(unsigned cpu);
/* The new CPU, on that stack, once its per-CPU setup is done: become the idle
 * thread and run threads from now on. */
__noreturn void sched_enter_idle(void);

/* A new thread that will run fn(arg) on the CPUs in `affinity`, not yet
 * runnable (the caller may finish setting it up). NULL when out of threads
 * or memory. */
struct thread *thread_create(const char *name, void (*fn)(void *), void *arg, uint64_t affinity,
                             struct task *task);
/* Make a created thread runnable. */
void thread_start(struct thread *t);
/* thread_create + thread_start. */
struct thread *thread_spawn(const char *name, void (*fn)(void *), void *arg, uint64_t affinity,
                            struct task *task);
/* True if the calling thread should stop waiting and leave (its task exits). */
bool thread_killed(void);
/* Visit every live thread (sched_lock held). */
void sched_for_each_thread_locked(void (*fn)(struct thread *t, void *ctx), void *ctx);
/* End the calling thread. */
__noreturn void thread_exit(void);

/* Give up the CPU; the caller stays runnable. */
void sched_yield(void);
/* Sleep until `deadline` (an arch_counter() value) or until woken on chan. With
 * sched_lock held by the caller; returns with it held. chan may be NULL and
 * deadline 0 (never). */
void sched_sleep_locked(const void *chan, uint64_t deadline);
/* One turn of a wait loop: -EINTR if the thread's task is being killed,
 * else sleep on chan until woken and 0. With sched_lock held. */
long sched_sleep_killable_locked(const void *chan);
/* Sleep on chan (no deadline) and give this CPU straight to `to`, a sleeping
 * thread the caller has just given what it waited for, if `to` may run here;
 * else wake `to` normally (kernel/ipc/ uses it). With sched_lock held. */
void sched_sleep_handoff_locked(const void *chan, struct thread *to);
/* The IPC fastpath's two halves of it (kernel/ipc/fastpath.c), with the same
 * switch: whether `to` sleeps, last ran on this CPU and may run here (no
 * migration, nothing to wake); and, once that said yes, the hand-off. c is
 * this CPU, which the caller has already found. Inline: the fastpath pays
 * no call for its guard. */
static inline __attribute__((always_inline)) bool sched_can_hand_off_locked(struct cpu *c,
                                                                            const struct thread *to)
{
    /* (Never the caller itself: this CPU's current thread is running.) */
    return to->state == THREAD_SLEEPING && to->cpu == c->id && (to->affinity & (1ull << c->id));
}
/* The hand-off itself sleeps on no channel: nothing wakes an IPC wait by
 * its channel. The same hand-off with `to` leaving straight to user mode is
 * sched_hand_off_to_user_locked (switch_core.h), inline. */
void sched_hand_off_locked(struct cpu *c, struct thread *to);
/* The first thing a thread does once switched to (it cleans up after a
 * thread that died on this CPU). IRQs off. */
void sched_finish_switch(struct cpu *c);
/* Wake every thread sleeping on chan. With sched_lock held. */
void sched_wakeup_locked(const void *chan);
/* Wake one sleeping thread whatever it waits for. With sched_lock held. */
void sched_wake_thread_locked(struct thread *t);
/* Sleep for at least ns nanoseconds. */
void sched_sleep_ns(uint64_t ns);

/* A live thread of `task` by id (sched_lock held), or NULL. */
struct thread *sched_find_thread_locked(const struct task *task, int tid);
/* Change where a thread may run (sched_lock held); a running thread moves at
 * its next preemption point, a queued one at once. -1 if no CPU in mask is online. */
int sched_set_affinity_locked(struct thread *t, uint64_t mask);

/* Timer interrupt, every CPU, IRQs off (from kernel/syscall/interrupt.c: tick). */
void sched_tick(void);
/* End of every interrupt and syscall, IRQs off: switch if a reschedule is due
 * and nothing forbids it. */
void sched_preempt_point(void);
/* The same on the way back to user mode (kernel/syscall/user_return.c). IRQs off. */
void sched_preempt_user_return(void);

/* Preemption control, nestable. Spinlocks do this too. */
void preempt_disable(void);
void preempt_enable(void);

#endif
