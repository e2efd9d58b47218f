/* SPDX-License-Identifier: MIT */
/*
 * kernel/cpu.h - per-CPU data.
 *
 * One struct cpu per CPU, reached with arch_this_cpu() in one instruction
 * (the arch keeps a pointer to it in GS base, TPIDR_EL1 or tp) and, checked,
 * with this_cpu() (kernel/this_cpu.c). The rule: only
 * use this_cpu() while the thread cannot move to another CPU, i.e. with IRQs
 * or preemption disabled, and never keep the pointer across a schedule point.
 */
#ifndef KERNEL_CPU_H
#define KERNEL_CPU_H

#include "arch/arch.h"
#include "kernel/ipc/types.h"
#include "kernel/kstack_offset/state.h"
#include "kernel/latency/irqsoff.h"
#include "kernel/uapi/latency.h"
#include "lib/lfsr113.h"

/* Logical CPU ids fit in a 64-bit mask (thread affinity). Memory per CPU
 * grows with cpus_present: struct cpu is small, its large parts (the pool's
 * ring, emergency stacks) come from kvmap_alloc for the CPUs found. */
#define MAX_CPUS 64

struct thread;
struct hist;
struct latency_sample;

/* This CPU's latency timers (kernel/latency/latency.h). Each copy of the
 * system call path writes samples at its `next`; the drains (ring full, the
 * tick, a read on this CPU) turn them into the histograms. */
struct latency_cpu {
    /* The next free entry of each strategy's ring; NULL until timing is first on. */
    struct latency_sample *next[KSTACK_NR + 1];
    struct latency_sample *ring[KSTACK_NR + 1]; /* a page each, not yet in the histograms */
    uint64_t mark; /* id + interrupts taken * LATENCY_MARK_IRQ (kernel/latency/latency.h) */
    unsigned long migrated; /* samples dropped here: the call began on another CPU */
    struct hist *hist[KSTACK_NR + 1][LATENCY_SLOTS]; /* NULL until timing is first on */
    struct hist *timer; /* the tick's lateness (kernel/latency/timer_lag.c); NULL until then */
};

/* The scheduler's per-CPU state (kernel/sched/sched.c). */
struct sched_cpu {
    struct thread *current;
    struct thread *idle;
    struct thread *queue_head, *queue_tail; /* runnable threads waiting for this CPU */
    unsigned queued;
    struct thread *dead;    /* switched away from while dead: free its stack next */
    struct aspace *user_as; /* the user address space this CPU has loaded, or NULL */
    uint64_t ticks;
};

/* This CPU's share of the CRNG (kernel/random/crng.c): its own key and a
 * batch of output, so get_random_*() never takes a lock on the fast path.
 * 32 bytes: a batch is then one ChaCha20 block (its other 32 bytes are the
 * next key), made with IRQs masked: 1,700 to 2,700 instructions, where 128
 * bytes took three blocks, beyond the IRQs-off bound (kernel/latency/irqsoff.h). */
#define CRNG_BATCH 32
struct crng_cpu {
    uint8_t key[32];
    uint8_t batch[CRNG_BATCH];
    unsigned used;       /* bytes of batch already handed out (and wiped) */
    uint64_t generation; /* the CRNG key generation this CPU's key came from */
};

struct cpu {
    struct cpu *self;     /* must stay first: x86 reads it as %gs:0 */
    struct arch_cpu arch; /* second: entry code finds it at a fixed offset */
    unsigned id;          /* logical index, 0 = boot CPU */
    uint64_t hwid;        /* APIC id, MPIDR affinity or hart id */
    bool online;
    /* What every return to user mode tests (kernel/syscall/user_return.h), but the
     * thread's own flag, in one aligned 8-byte word so that the test loads
     * them at once. The padding after pool_low stays zero: cpus[] is
     * static, and nothing writes the word itself. */
    union {
        struct {
            unsigned preempt_count; /* > 0: no preemption (spinlocks held, preempt_disable) */
            bool need_resched;      /* the scheduler wants this CPU (kernel/sched/sched.c) */
            bool pool_low;          /* refill the stack offset pool (kstack_offset_tick) */
        };
        uint64_t return_checks; /* all three, for the test alone */
    };
    uint64_t interrupts;   /* taken on this CPU (interrupt_enter) */
    const char *lock_site; /* file:line of the last spinlock taken (diagnostics) */
    struct sched_cpu sched;
    struct crng_cpu crng;
    struct lfsr113 fallback_prng;    /* pool's and hw's fallback (kernel/random/fallback.c) */
    struct kstack_offset_cpu kstack; /* the stack offset strategies (kernel/kstack_offset/) */
    uintptr_t emergency_stack[ARCH_EMERGENCY_STACKS]; /* their tops (kernel/emergency_stack.c) */
    struct latency_cpu latency;                       /* kernel/latency/ */
    struct irqsoff_cpu irqsoff;                       /* kernel/latency/irqsoff.h */
    struct ipc_fast_stats ipc_fast; /* kernel/ipc/fastpath.c: one add off the CPU it holds */
};

_Static_assert(offsetof(struct cpu, self) == 0, "arch_this_cpu() relies on self at offset 0");

/* Whether a return to user mode would stop (kernel/syscall/user_return.h)
 * once sched_lock, the one lock the caller holds, is let go: return_checks
 * less that lock's preempt count of 1 (preempt_count is the word's low
 * half on these little-endian CPUs). A reschedule asked for counts, though
 * a switch clears it. For the IPC fastpath's switch straight to user mode. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "return_checks' low half");
static inline bool cpu_return_checks_but_sched_lock(const struct cpu *c)
{
    return c->return_checks != 1;
}

extern struct cpu cpus[MAX_CPUS];
/* cpus[0 .. cpus_present - 1] are the CPUs the firmware described (kernel/smp.c);
 * some may have failed to start: `online` says which run. */
extern unsigned cpus_present;

/* this_cpu() was called where the thread could migrate (kernel/panic.c). */
__attribute__((noreturn)) void this_cpu_misuse(void *where);

/* This CPU's struct cpu, refused (this_cpu_misuse) where the caller could
 * move to another CPU (kernel/this_cpu.c). Out of line, so that lab 2's
 * region is one .c file; the paths that count every instruction (system
 * call entry and exit, the IPC fastpath, the spinlocks) run with IRQs
 * masked and use arch_this_cpu() instead. */
struct cpu *this_cpu(void);

#endif
