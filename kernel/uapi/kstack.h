/* SPDX-License-Identifier: MIT */
/*
 * kernel/uapi/kstack.h - the kernel stack offset strategies as user space
 * sees them: their numbers and names, and the structures the kstack system
 * calls (kernel/uapi/syscall.h, SYS_kstack_*) copy out. docs/kstack.md
 * explains each strategy.
 */
#ifndef KERNEL_UAPI_KSTACK_H
#define KERNEL_UAPI_KSTACK_H

/*
 * The strategies, one line each in the order of their numbers:
 * X(NAME, name, "kstack=name"): the constant's suffix, the C identifier's
 * and the name the command line, SYS_kstack_set's users and the tools use.
 * docs/kstack.md explains each; "Adding a strategy" there says what else a
 * new one needs (its draw in draw.h and its own file). This one list makes:
 *   KSTACK_<NAME>, KSTACK_NR      the numbers (enum kstack_id below) and their count
 *   KSTACK_NAMES                  the names, an initializer for a char *[KSTACK_NR]
 *   KSTACK_VALID_NAMES            the names in one string, " off counter ... hw"
 *   kstack_<name>                 extern struct kstack_strategy, defined in the
 *                                 strategy's file (kernel/kstack_offset/kstack_offset.h)
 *   strategies[]                  kernel/kstack_offset/select.c
 *   syscall_dispatch_<name>,      the strategy's copies of the system call path
 *   syscall_dispatch_<name>_timed (kernel/syscall/syscall.c, SYSCALL_PATH)
 *   syscall_paths[][2]            their table (kernel/syscall/syscall.c)
 * and the Python tools' list (tests/harness.py: kstack_strategies(), which
 * reads the X(...) lines of this file).
 */
#define KSTACK_STRATEGIES(X)                                                                       \
    /* no randomisation: the baseline */                                                           \
    X(OFF, off, "off")                                                                             \
    /* Linux <= 7.0 x86: per-CPU, chosen at exit from the TSC */                                   \
    X(COUNTER, counter, "counter")                                                                 \
    /* Linux <= 7.0 arm64/riscv: per-CPU, get_random_u16() at exit */                              \
    X(CRNG16, crng16, "crng16")                                                                    \
    /* Linux 7.1 patch 1: chosen at exit, kept per thread */                                       \
    X(TASK, task, "task")                                                                          \
    /* SipHash-2-4 of a per-CPU counter, 10 offsets per hash */                                    \
    X(SIPHASH, siphash, "siphash")                                                                 \
    /* Linux 7.1: per-CPU LFSR113 drawn at entry (the default) */                                  \
    X(PRNG, prng, "prng")                                                                          \
    /* LFSR113 per thread, drawn at entry */                                                       \
    X(PRNG_TASK, prng_task, "prng-task")                                                           \
    /* ours: per-CPU ChaCha20 keystream, refilled off the path */                                  \
    X(POOL, pool, "pool")                                                                          \
    /* the CPU's random instruction on every call */                                               \
    X(HW, hw, "hw")

#define KSTACK_ID(NAME, name, str) KSTACK_##NAME,
enum kstack_id {
    KSTACK_STRATEGIES(KSTACK_ID) KSTACK_NR, /* the strategies a name selects */
    /* Not selectable by name: a constant offset (tests put the stack at its deepest). */
    KSTACK_FIXED = KSTACK_NR,
    KSTACK_DEFAULT = KSTACK_PRNG
};

#define KSTACK_NAME(NAME, name, str) str,
#define KSTACK_NAMES                                                                               \
    {                                                                                              \
        KSTACK_STRATEGIES(KSTACK_NAME)                                                             \
    }
#define KSTACK_SPACE_NAME(NAME, name, str) " " str
#define KSTACK_VALID_NAMES                 KSTACK_STRATEGIES(KSTACK_SPACE_NAME)

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
