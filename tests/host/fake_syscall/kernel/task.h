/* SPDX-License-Identifier: MIT */
/*
 * tests/host/fake_syscall/kernel/task.h - what kernel/syscall/sys_time.c's
 * other handlers need from the scheduler, so that the file compiles on the
 * host; a host test calls only sys_clock_gettime, and these trap if reached
 * (no <stdlib.h>: the host's struct timespec would clash with the kernel's).
 */
#ifndef FAKE_TASK_H
#define FAKE_TASK_H

#include "kernel/types.h"

struct cpu {
    unsigned id;
};
struct task {
    int pid;
};
struct thread {
    int tid;
    uint64_t affinity;
};
static int sched_lock;

static inline void sched_yield(void)
{
    __builtin_trap();
}
static inline void sched_sleep_ns(uint64_t ns)
{
    (void)ns;
    __builtin_trap();
}
static inline bool thread_killed(void)
{
    __builtin_trap();
}
static inline void preempt_disable(void)
{
    __builtin_trap();
}
static inline void preempt_enable(void) {}
static inline struct cpu *this_cpu(void)
{
    __builtin_trap();
}
static inline unsigned long spin_lock_irqsave(int *lock)
{
    (void)lock;
    __builtin_trap();
}
static inline void spin_unlock_irqrestore(int *lock, unsigned long flags)
{
    (void)lock, (void)flags;
}
static inline struct task *current_task(void)
{
    __builtin_trap();
}
static inline struct thread *current_thread(void)
{
    __builtin_trap();
}
static inline struct thread *sched_find_thread_locked(struct task *t, int tid)
{
    (void)t, (void)tid;
    __builtin_trap();
}
static inline int sched_set_affinity_locked(struct thread *t, uint64_t mask)
{
    (void)t, (void)mask;
    __builtin_trap();
}

#endif
