/* SPDX-License-Identifier: MIT */
/*
 * kernel/uapi/kstack.h - the kernel stack offset strategies as user space
 * sees them: their numbers and names, and the structures the kstack system
 * calls (kernel/uapi/syscall.h, SYS_kstack_*) copy out. docs/kstack.md
 * explains each strategy.
 */
#ifndef KERNEL_UAPI_KSTACK_H
#define KERNEL_UAPI_KSTACK_H

/* Strategy numbers; the names (what kstack=<name> takes) are KSTACK_NAMES. */
#define KSTACK_OFF       0 /* no randomisation: the baseline */
#define KSTACK_COUNTER   1 /* Linux <= 7.0 x86: per-CPU, chosen at exit from the TSC */
#define KSTACK_CRNG16    2 /* Linux <= 7.0 arm64/riscv: per-CPU, get_random_u16() at exit */
#define KSTACK_TASK      3 /* Linux 7.1 patch 1: chosen at exit, kept per thread */
#define KSTACK_SIPHASH   4 /* SipHash-2-4 of a per-CPU counter, 10 offsets per hash */
#define KSTACK_PRNG      5 /* Linux 7.1: per-CPU LFSR113 drawn at entry (the default) */
#define KSTACK_PRNG_TASK 6 /* LFSR113 per thread, drawn at entry */
#define KSTACK_POOL      7 /* ours: per-CPU ChaCha20 keystream, refilled off the path */
#define KSTACK_HW        8 /* the CPU's random instruction on every call */
#define KSTACK_NR        9
/* Not selectable by name: a constant offset (tests put the stack at its deepest). */
#define KSTACK_FIXED     9
#define KSTACK_DEFAULT   KSTACK_PRNG

#define KSTACK_NAMES                                                                               \
    {                                                                                              \
        "off", "counter", "crng16", "task", "siphash", "prng", "prng-task", "pool", "hw"           \
    }

/* The offset is rnd & KSTACK_OFFSET_MASK: 64 values, 0..1008 in 16-byte steps. */
#define KSTACK_OFFSET_MASK 0x3F0u
#define KSTACK_OFFSET_MAX  KSTACK_OFFSET_MASK /* 1008: the largest offset */

/* SYS_kstack_probe flags. */
#define KSTACK_PROBE_MIGRATE 1u /* move the caller to target_cpu in the middle of the call */
#define KSTACK_PROBE_DEPTH   4u /* return the depth instead of writing the struct (no copy out) */

/* What SYS_kstack_probe reports about the call itself. */
struct kstack_probe {
    unsigned long depth;         /* kstack_top - the handler's frame address, bytes */
    unsigned long entry_cpu;     /* CPU the handler started on */
    unsigned long exit_cpu;      /* CPU it finished on (differs after a migration) */
    unsigned long entry_updates; /* exit updates the entry CPU had made, at the start */
    unsigned long strategy;      /* the strategy in force when the call was made */
};

/* Counters per strategy (SYS_kstack_stats), indices into kstack_stats.count[s][]. */
#define KSTACK_CNT_DRAWS        0 /* offsets drawn at entry */
#define KSTACK_CNT_EXIT_UPDATES 1 /* offsets chosen at exit (counter, crng16, task) */
#define KSTACK_CNT_REFILLS      2 /* pool refills (tick, idle and on the path) */
#define KSTACK_CNT_DRY          3 /* pool found empty (refilled on the path) / hw read failed */
#define KSTACK_CNT_CROSS_CPU    4 /* crng16: exit update read one CPU's state, wrote another's */
#define KSTACK_CNT_FALLBACK     5 /* offsets from the CPU's LFSR113 instead (pool, hw) */
#define KSTACK_NR_COUNTERS      6

struct kstack_stats {
    unsigned long count[KSTACK_NR + 1][KSTACK_NR_COUNTERS];
    unsigned long pool_level; /* bytes of keystream waiting in the pool (this CPU or all) */
    /* Strategy and timer switches: each rewrites the entry code's call to
     * the copy of the path in force with every other CPU held (all CPUs). */
    unsigned long switches;
    unsigned long switch_ns_total, switch_ns_max; /* how long the others were held */
};

/* SYS_kstack_debug operations (tests only; refused unless the boot has kstack.debug). */
#define KSTACK_DEBUG_VERIFY     0 /* () -> KSTACK_VERIFY_* bits: this CPU's wrong states */
/* KSTACK_DEBUG_VERIFY's answer: a bit for each strategy whose per-CPU state
 * is not what its seed and the draws counted make it. */
#define KSTACK_VERIFY_PRNG      1 /* the LFSR113 is not its seed stepped once per draw */
#define KSTACK_VERIFY_SIPHASH   2 /* the counter is not the draws made */
#define KSTACK_VERIFY_POOL      4 /* the ring read past what was written, or wrote ahead */
#define KSTACK_DEBUG_DRAIN      1 /* () -> 0: empty this CPU's pool (the next pool draw is dry) */
#define KSTACK_DEBUG_PAINT      2 /* () -> 0: fill the caller's unused kernel stack with a pattern */
#define KSTACK_DEBUG_HIGHWATER  3 /* () -> deepest bytes of the caller's kernel stack used since */
#define KSTACK_DEBUG_FIXED      4 /* (offset) -> 0: strategy KSTACK_FIXED with that offset */
#define KSTACK_DEBUG_STACK_SIZE 5 /* () -> bytes in a kernel stack */
#define KSTACK_DEBUG_POOL_TICK                                                                     \
    6                        /* (on) -> 0: the tick's and idle loop's pool refills on or           \
                              * off on every CPU (off: a caller outruns them) */
#define KSTACK_DEBUG_ERASE 7 /* (on) -> 0: kstack.erase on or off (the control capability) */

#endif
