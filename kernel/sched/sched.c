/* SPDX-License-Identifier: MIT */
/*
 * kernel/sched/sched.c - run queues, switching, sleeping and preemption
 * (see sched.h for the model).
 *
 * Every switch happens inside switch_locked(), with sched_lock held and
 * IRQs off, and the thread switched to continues inside its own earlier
 * switch_locked() (or, the first time, in thread_trampoline), where it
 * releases the lock. So the lock is always handed from one thread to the
 * next across arch_context_switch, and the preempt count is 1 at every
 * switch.
 */
#include "kernel/sched/sched.h"

#include "kernel/arch_callbacks.h"
#include "kernel/errno.h"
#include "kernel/mm/kernel_stack.h"
#include "kernel/mm/vm.h"
#include "kernel/panic.h"
#include "kernel/sched/stats.h"
#include "kernel/sched/switch_core.h"
#include "kernel/task.h"
#include "kernel/time.h"
#include "lib/string.h"

struct spinlock sched_lock = SPINLOCK_INIT;
static struct thread threads[MAX_THREADS];
static int next_tid = 1;
static uint64_t next_wake; /* earliest wake_at of any sleeper, 0 = none */
/* The idle CPU's work for the layers above (sched_init's argument). */
static bool (*background_work)(struct cpu *c);
struct sched_stats sched_stats;

void preempt_disable(void)
{
    unsigned long flags = arch_irq_save();
    this_cpu()->preempt_count++;
    arch_irq_restore(flags);
}

void preempt_enable(void)
{
    unsigned long flags = arch_irq_save();
    BUG_ON(this_cpu()->preempt_count == 0);
    this_cpu()->preempt_count--;
    arch_irq_restore(flags);
}

/* ---- Run queues (sched_lock held) ---------------------------------------- */

static bool allowed(const struct thread *t, unsigned cpu)
{
    return t->affinity & (1ull << cpu);
}

/* The CPU a runnable thread should queue on: where it last ran, if allowed. */
static unsigned home_cpu(const struct thread *t)
{
    if (allowed(t, t->cpu) && cpus[t->cpu].online)
        return t->cpu;
    for (unsigned i = 0; i < MAX_CPUS; i++) {
        if (allowed(t, i) && cpus[i].online)
            return i;
    }
    return 0; /* no allowed CPU is online: fall back to the boot CPU */
}

static void enqueue(struct thread *t)
{
    struct cpu *c = &cpus[home_cpu(t)];
    t->state = THREAD_RUNNABLE;
    t->next = NULL;
    if (c->sched.queue_tail)
        c->sched.queue_tail->next = t;
    else
        c->sched.queue_head = t;
    c->sched.queue_tail = t;
    c->sched.queued++;
    if (c != this_cpu() && c->sched.current == c->sched.idle) {
        c->need_resched = true;
        arch_send_ipi(c->id, IPI_RESCHEDULE); /* wake it from its idle wait */
    }
}

/* Unlink t (whose predecessor on c's queue is prev, NULL if first). */
static void unlink_queued(struct cpu *c, struct thread *prev, struct thread *t)
{
    if (prev)
        prev->next = t->next;
    else
        c->sched.queue_head = t->next;
    if (c->sched.queue_tail == t)
        c->sched.queue_tail = prev;
    c->sched.queued--;
    t->next = NULL;
}

/* Remove and return the first thread on c's queue that may run on `cpu`. */
static struct thread *dequeue_for(struct cpu *c, unsigned cpu)
{
    struct thread *prev = NULL;
    for (struct thread *t = c->sched.queue_head; t; prev = t, t = t->next) {
        if (allowed(t, cpu)) {
            unlink_queued(c, prev, t);
            return t;
        }
    }
    return NULL;
}

/* Take t off c's queue; false if it was not there. */
static bool dequeue_thread(struct cpu *c, struct thread *t)
{
    struct thread *prev = NULL;
    for (struct thread *q = c->sched.queue_head; q; prev = q, q = q->next) {
        if (q == t) {
            unlink_queued(c, prev, t);
            return true;
        }
    }
    return false;
}

/* Is anything queued, here or elsewhere, that may run on c? (An idle CPU
 * asks at every tick, so it steals work it was not woken for.) */
static bool work_for(const struct cpu *c)
{
    for (unsigned i = 0; i < MAX_CPUS; i++) {
        for (struct thread *t = cpus[i].sched.queue_head; t; t = t->next) {
            if (allowed(t, c->id))
                return true;
        }
    }
    return false;
}

/* Local work first; otherwise steal from another CPU; otherwise idle. */
static struct thread *pick_next(struct cpu *c)
{
    struct thread *t = dequeue_for(c, c->id);
    for (unsigned i = 1; !t && i < MAX_CPUS; i++)
        t = dequeue_for(&cpus[(c->id + i) % MAX_CPUS], c->id);
    return t ? t : c->sched.idle;
}

/* ---- Switching ------------------------------------------------------------ */

/* The first thing a thread does after being switched to: clean up after the
 * thread that ran before it, if that one had died. */
void sched_finish_switch(struct cpu *c)
{
    struct thread *dead = c->sched.dead;
    if (dead) {
        c->sched.dead = NULL;
        if (dead->kstack_top)
            kstack_free(dead->kstack_top);
        /* Only now, with no CPU still running on its behalf, may the task's
         * slot become a zombie (and then be reused). */
        if (dead->last_of_task)
            task_ended_locked(dead->task);
        dead->state = THREAD_UNUSED;
    }
}

struct arch_fpu *current_user_fpu(void)
{
    return user_fpu(this_cpu()->sched.current, false);
}

/* Everything the scheduler's switch from prev to next (not on any run
 * queue) does before the registers change hands: the statistics, next's
 * CPU, then the core every switch shares with the IPC fastpath's
 * (switch_core.h: next's state and slice, the ticks it may run before
 * others get a turn, its address space, kernel stack and FP registers). */
static inline __attribute__((always_inline)) void
switch_prepare_locked(struct cpu *c, struct thread *prev, struct thread *next, unsigned slice)
{
    if (next->cpu != c->id && next != c->sched.idle)
        sched_stats.migrations++;
    if (prev->state == THREAD_RUNNABLE && prev->in_syscall && prev != c->sched.idle)
        sched_stats.preempted_in_syscall++;
    if (prev->state == THREAD_DEAD)
        c->sched.dead = prev;
    next->cpu = c->id;
    switch_core_locked(c, prev, next, slice, false);
}

/* Switch this CPU from its current thread to next (not on any run queue).
 * slice: the ticks next may run before others get a turn. Inlined into its
 * two callers, the scheduler's switch and the IPC hand-off, which then pay
 * no call and frame of their own for it on either side of the switch. */
static inline __attribute__((always_inline)) void
switch_to_locked(struct cpu *c, struct thread *next, unsigned slice)
{
    struct thread *prev = c->sched.current;
    c->need_resched = false;
    if (next == prev) {
        prev->state = THREAD_RUNNING;
        return;
    }
    switch_prepare_locked(c, prev, next, slice);
    arch_context_switch(&prev->saved_sp, next->saved_sp);
    sched_finish_switch(arch_this_cpu()); /* prev again, possibly on another CPU; IRQs off */
}

static void switch_locked(void)
{
    struct cpu *c = arch_this_cpu(); /* sched_lock held: IRQs off */
    BUG_ON(c->preempt_count != 1);   /* only sched_lock may be held across a switch */
    switch_to_locked(c, pick_next(c), SCHED_SLICE_TICKS);
}

/* Where every new thread starts (arch_thread_init arranges it), holding sched_lock. */
static void thread_trampoline(void)
{
    sched_finish_switch(this_cpu());
    struct thread *t = this_cpu()->sched.current;
    __atomic_store_n(&sched_lock.locked, 0, __ATOMIC_RELEASE);
    this_cpu()->preempt_count--;
    arch_irq_enable();
    t->entry(t->arg);
    thread_exit();
}

/* ---- Threads ------------------------------------------------------------- */

static struct thread *alloc_thread_locked(void)
{
    for (int i = 0; i < MAX_THREADS; i++) {
        if (threads[i].state == THREAD_UNUSED) {
            memset(&threads[i], 0, sizeof(threads[i]));
            threads[i].state = THREAD_DEAD; /* reserved, not yet runnable */
            threads[i].tid = next_tid++;
            return &threads[i];
        }
    }
    return NULL;
}

static struct thread *new_thread(const char *name, void (*fn)(void *), void *arg, uint64_t affinity,
                                 struct task *task)
{
    uintptr_t stack = kstack_alloc();
    if (!stack)
        return NULL;
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    struct thread *t = alloc_thread_locked();
    spin_unlock_irqrestore(&sched_lock, flags);
    if (!t) {
        kstack_free(stack);
        return NULL;
    }
    t->kstack_top = stack;
    t->entry = fn;
    t->arg = arg;
    t->task = task;
    t->affinity = affinity;
    t->cpu = 0;
    strlcpy(t->name, name, sizeof(t->name));
    arch_fpu_init(&t->fpu);
    t->saved_sp = arch_thread_init(t->kstack_top, thread_trampoline);
    return t;
}

struct thread *thread_create(const char *name, void (*fn)(void *), void *arg, uint64_t affinity,
                             struct task *task)
{
    return new_thread(name, fn, arg, affinity, task);
}

/* The allowed online CPU with the fewest queued threads (new threads spread out). */
static unsigned least_loaded_cpu(const struct thread *t)
{
    unsigned best = home_cpu(t);
    for (unsigned i = 0; i < MAX_CPUS; i++) {
        if (allowed(t, i) && cpus[i].online && cpus[i].sched.queued < cpus[best].sched.queued)
            best = i;
    }
    return best;
}

void thread_start(struct thread *t)
{
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    t->cpu = least_loaded_cpu(t);
    enqueue(t);
    spin_unlock_irqrestore(&sched_lock, flags);
}

struct thread *thread_spawn(const char *name, void (*fn)(void *), void *arg, uint64_t affinity,
                            struct task *task)
{
    struct thread *t = new_thread(name, fn, arg, affinity, task);
    if (t)
        thread_start(t);
    return t;
}

bool thread_killed(void)
{
    return READ_ONCE(current_thread()->killed);
}

void sched_for_each_thread_locked(void (*fn)(struct thread *t, void *ctx), void *ctx)
{
    for (int i = 0; i < MAX_THREADS; i++) {
        if (threads[i].state != THREAD_UNUSED && threads[i].state != THREAD_DEAD)
            fn(&threads[i], ctx);
    }
}

void thread_exit(void)
{
    arch_irq_save();
    spin_lock_irqsave(&sched_lock);
    /* A dying thread may come here with preemption disabled (task_exit does):
     * its extra counts die with it; the switch needs exactly sched_lock's. */
    this_cpu()->preempt_count = 1;
    this_cpu()->sched.current->state = THREAD_DEAD;
    switch_locked();
    panic("thread_exit: a dead thread was scheduled");
}

/* What a CPU runs when nothing else is runnable: look for work, else wait
 * for an interrupt (the tick, or a reschedule IPI from enqueue()). */
static void idle_loop(void *unused)
{
    for (;;) {
        unsigned long flags = arch_irq_save();
        struct cpu *c = this_cpu();
        if (c->sched.queued || c->need_resched) {
            spin_lock_irqsave(&sched_lock);
            switch_locked();
            spin_unlock_irqrestore(&sched_lock, flags);
            arch_irq_restore(flags);
        } else if (background_work(c)) {
            arch_irq_restore(flags); /* did a step of background work: look again */
        } else {
            irqsoff_exit(); /* the wait unmasks them */
            arch_idle();    /* waits for an interrupt, returns with IRQs enabled */
        }
    }
}

static struct thread *new_idle_thread(unsigned cpu)
{
    char name[16] = "idle0";
    name[4] = (char)('0' + cpu);
    struct thread *idle = new_thread(name, idle_loop, NULL, 1ull << cpu, NULL);
    if (!idle)
        panic("sched: no idle thread for CPU %u", cpu);
    idle->cpu = cpu;
    cpus[cpu].sched.idle = idle;
    return idle;
}

void sched_init(bool (*background)(struct cpu *c))
{
    background_work = background;
    struct cpu *c = this_cpu();
    struct thread *boot = alloc_thread_locked();
    strlcpy(boot->name, "kmain", sizeof(boot->name));
    boot->state = THREAD_RUNNING;
    boot->affinity = 1ull << c->id; /* stays on the boot CPU: it owns the boot stack */
    boot->cpu = c->id;
    c->sched.current = boot;
    new_idle_thread(c->id);
    c->online = true;
}

uintptr_t sched_prepare_cpu(unsigned cpu)
{
    return new_idle_thread(cpu)->kstack_top;
}

void sched_enter_idle(void)
{
    struct cpu *c = this_cpu();
    struct thread *idle = c->sched.idle;
    idle->state = THREAD_RUNNING;
    c->sched.current = idle;
    __atomic_store_n(&c->online, true, __ATOMIC_RELEASE); /* after current: enqueue() reads both */
    idle_loop(NULL);
    panic("sched_enter_idle: returned");
}

void sched_yield(void)
{
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    struct thread *t = this_cpu()->sched.current;
    enqueue(t);
    t->in_syscall = t->task != NULL; /* only system calls yield a user thread */
    switch_locked();
    t->in_syscall = false;
    spin_unlock_irqrestore(&sched_lock, flags);
}

void sched_sleep_locked(const void *chan, uint64_t deadline)
{
    struct thread *t = arch_this_cpu()->sched.current; /* sched_lock held: IRQs off */
    t->wait_chan = chan;
    t->wake_at = deadline;
    if (deadline && (!next_wake || deadline < next_wake))
        next_wake = deadline;
    t->state = THREAD_SLEEPING;
    switch_locked();
    t->wait_chan = NULL;
    t->wake_at = 0;
}

long sched_sleep_killable_locked(const void *chan)
{
    if (arch_this_cpu()->sched.current->killed) /* sched_lock held: IRQs off */
        return -EINTR;
    sched_sleep_locked(chan, 0);
    return 0;
}

/*
 * The direct hand-off: the caller goes to sleep on chan and this CPU runs
 * `to` at once, without a trip through the run queue, when `to` is asleep
 * and may run here. `to` gets what is left of the caller's time slice, not
 * a new one: two threads that keep handing the CPU to each other still end
 * their turn at the tick, so the threads queued behind them get to run.
 * Otherwise `to` is woken the usual way. With sched_lock held. The IPC
 * fastpath's hand-off straight to user mode does the same with the same
 * switch core (switch_core.h).
 */
static inline __attribute__((always_inline)) void
hand_off_locked(struct cpu *c, struct thread *t, const void *chan, struct thread *to)
{
    BUG_ON(c->preempt_count != 1);
    t->wait_chan = chan;
    t->wake_at = 0;
    t->state = THREAD_SLEEPING;
    to->wait_chan = NULL; /* as if woken, then picked */
    switch_to_locked(c, to, t->slice ? t->slice : 1);
    t->wait_chan = NULL;
}

void sched_sleep_handoff_locked(const void *chan, struct thread *to)
{
    struct cpu *c = arch_this_cpu(); /* sched_lock held: IRQs off */
    struct thread *t = c->sched.current;
    if (to->state != THREAD_SLEEPING || !allowed(to, c->id) || to == t) {
        sched_wake_thread_locked(to);
        sched_sleep_locked(chan, 0);
        return;
    }
    sched_stats.handoffs++; /* the fastpath's are its hits (SYS_debug_stats adds them) */
    hand_off_locked(c, t, chan, to);
}

void sched_hand_off_locked(struct cpu *c, struct thread *to)
{
    hand_off_locked(c, c->sched.current, NULL, to);
}

/* Make a sleeping thread runnable now (its task is being killed, say). */
void sched_wake_thread_locked(struct thread *t)
{
    if (t->state == THREAD_SLEEPING)
        enqueue(t);
}

void sched_wakeup_locked(const void *chan)
{
    for (int i = 0; i < MAX_THREADS; i++) {
        struct thread *t = &threads[i];
        if (t->state == THREAD_SLEEPING && chan && t->wait_chan == chan)
            enqueue(t);
    }
}

void sched_sleep_ns(uint64_t ns)
{
    uint64_t deadline = arch_counter() + ns_to_ticks(ns) + 1;
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    while (arch_counter() < deadline && !this_cpu()->sched.current->killed)
        sched_sleep_locked(NULL, deadline);
    spin_unlock_irqrestore(&sched_lock, flags);
}

struct thread *sched_find_thread_locked(const struct task *task, int tid)
{
    for (int i = 0; i < MAX_THREADS; i++) {
        struct thread *t = &threads[i];
        if (t->tid == tid && t->task == task && t->state != THREAD_UNUSED &&
            t->state != THREAD_DEAD)
            return t;
    }
    return NULL;
}

int sched_set_affinity_locked(struct thread *t, uint64_t mask)
{
    uint64_t online = 0;
    for (unsigned i = 0; i < MAX_CPUS; i++)
        online |= (uint64_t)cpus[i].online << i;
    if (!(mask & online))
        return -1;
    t->affinity = mask;
    if (t->state == THREAD_RUNNING && !allowed(t, t->cpu)) {
        cpus[t->cpu].need_resched = true; /* moves at its next preemption point */
    } else if (t->state == THREAD_RUNNABLE && !allowed(t, t->cpu)) {
        struct cpu *c = &cpus[t->cpu];
        if (dequeue_thread(c, t)) /* waiting where it may not run: move it now */
            enqueue(t);
    }
    return 0;
}

/* Wake timed sleepers whose deadline passed (sched_lock held). */
static void wake_sleepers_locked(uint64_t now)
{
    if (!next_wake || now < next_wake)
        return;
    next_wake = 0;
    for (int i = 0; i < MAX_THREADS; i++) {
        struct thread *t = &threads[i];
        if (t->state != THREAD_SLEEPING || !t->wake_at)
            continue;
        if (t->wake_at <= now)
            enqueue(t);
        else if (!next_wake || t->wake_at < next_wake)
            next_wake = t->wake_at;
    }
}

void sched_tick(void)
{
    struct cpu *c = this_cpu();
    c->sched.ticks++;
    bool user_open = arch_user_access_open(); /* as the interrupt left it */
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    sched_stats.user_access_ticks += user_open;
    wake_sleepers_locked(arch_counter());
    struct thread *t = c->sched.current;
    if (t == c->sched.idle) {
        c->need_resched = work_for(c);
    } else if (t->slice == 0 || --t->slice == 0 || !allowed(t, c->id)) {
        c->need_resched = true;
    }
    spin_unlock_irqrestore(&sched_lock, flags);
}

/* Give the CPU away if it is wanted and nothing forbids it. in_kernel: the
 * thread was interrupted in kernel mode, so a user thread is inside a
 * system call (counted by switch_locked, like a yield in one). */
static void preempt(bool in_kernel)
{
    struct cpu *c = this_cpu();
    if (!c->need_resched || c->preempt_count != 0 || c->sched.current == c->sched.idle)
        return;
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    struct thread *t = c->sched.current;
    if (t->state == THREAD_RUNNING)
        enqueue(t);
    t->in_syscall = in_kernel && t->task != NULL;
    switch_locked();
    t->in_syscall = false;
    spin_unlock_irqrestore(&sched_lock, flags);
}

void sched_preempt_point(void)
{
    preempt(true);
}

void sched_preempt_user_return(void)
{
    preempt(false);
}
