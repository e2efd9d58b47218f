/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_fpu.c - the kernel keeps every thread's FP/SIMD registers its
 * own. argv[1] picks the part:
 *
 * threads: eight threads (on however many CPUs there are) alternate two
 *   kinds of rounds for a fixed time, with distinct values per thread:
 *   compute rounds, C floating-point and SIMD arithmetic with exact
 *   results, checked every time, with system calls that yield, sleep, move
 *   the thread to other CPUs or spin in the kernel in between; and pattern
 *   rounds, fpu_hold() in test_fpu_<arch>.S, which loads every FP/SIMD
 *   register and control register with a pattern, makes one such call or
 *   spins in user mode long enough to be preempted, and stores them all
 *   back for comparison.
 * clean: this new program, and a new thread created while its creator's
 *   registers hold a pattern, start with the defined state: every register
 *   zero, x86 FCW 0x37f and MXCSR 0x1f80, arm64 FPCR = FPSR = 0, riscv64
 *   fcsr = 0.
 * dirty-fault: fill the registers with a pattern, then read address 0: the
 *   kernel kills it (tests/kernel/test_fpu.c then runs "clean" again).
 * trap: make the hardware raise an FP exception from user mode where it
 *   can (x86 #XM, with the divide-by-zero exception unmasked in MXCSR);
 *   the kernel must kill the program. trap-x87: the same through x87
 *   (#MF). Elsewhere "trap" says why there is no such trap and exits 0
 *   (arm64: FPCR's trap enables read as zero on this CPU, i.e. trapping is
 *   not implemented; riscv64: the F and D extensions never trap, they set
 *   fflags - which it checks).
 */
#include "lib/user/ulib.h"

#define NTHREADS   8
#define STACK_SIZE (16 * 1024)
#define RUN_NS     1500000000ull
#define WAIT_NS    30000000000ull /* for every thread to see `stop` */
#define MAX_ROUNDS 40000ul        /* 20 times the 2,108 of RUN_NS on x86_64 (1,635 migrations) */

/* ---- The registers, per arch ------------------------------------------ */

#if defined(__x86_64__)
/* The FXSAVE image (Intel SDM vol. 2A, "FXSAVE", table 3-53): FCW at 0,
 * FSW 2, abridged FTW 4, MXCSR 24, ST0-ST7 (10 bytes each) from 32 in
 * 16-byte slots, XMM0-XMM15 from 160. fpu_hold loads it with FXRSTOR. */
struct fpu_regs {
    _Alignas(16) uint8_t fx[512];
};
#define NREGS 24 /* xmm0-15, then st0-7 */
#define NCTL  4  /* FCW, FSW, FTW, MXCSR */
static uint8_t *reg(struct fpu_regs *r, int i)
{
    return &r->fx[i < 16 ? 160 + 16 * i : 32 + 16 * (i - 16)];
}
static int reg_bytes(int i)
{
    return i < 16 ? 16 : 10;
}
static const int ctl_off[NCTL] = {0, 2, 4, 24}, ctl_size[NCTL] = {2, 2, 1, 4};
static const uint32_t ctl_default[NCTL] = {0x037f, 0, 0, 0x1f80};
#else
/* V0-V31 (arm64, 16 bytes each) or f0-f31 (riscv64, 8 bytes in 16-byte
 * slots), then FPCR and FPSR, or fcsr. */
struct fpu_regs {
    _Alignas(16) uint8_t r[32][16];
    uint64_t ctl[2];
};
#define NREGS 32
static uint8_t *reg(struct fpu_regs *r, int i)
{
    return r->r[i];
}
#if defined(__aarch64__)
#define NCTL 2
static int reg_bytes(int i)
{
    return 16;
}
#else
#define NCTL 1
static int reg_bytes(int i)
{
    return 8;
}
#endif
static const int ctl_off[2] = {512, 520}, ctl_size[2] = {8, 8};
static const uint32_t ctl_default[2] = {0, 0};
#endif

/* test_fpu_<arch>.S: load every FP/SIMD register from *in, make system
 * call nr(arg) unless nr < 0, count spin down to 0, store them all in *out,
 * then set the control registers back to their defaults. */
void fpu_hold(const struct fpu_regs *in, struct fpu_regs *out, long nr, long arg,
              unsigned long spin);
/* Store every FP/SIMD register in *out, changing none. */
void fpu_dump(struct fpu_regs *out);

static uint64_t mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x9e3779b97f4a7c15ull;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ull;
    return x ^ (x >> 32);
}

/* Up to 8 bytes (arm64 and riscv64 store their controls as 64-bit words),
 * little-endian: the low bytes of a uint64_t. */
static uint32_t get_ctl(struct fpu_regs *r, int c)
{
    uint64_t v = 0;
    memcpy(&v, (uint8_t *)r + ctl_off[c], ctl_size[c]);
    return (uint32_t)v;
}

static void set_ctl(struct fpu_regs *r, int c, uint32_t v)
{
    uint64_t w = v;
    memcpy((uint8_t *)r + ctl_off[c], &w, ctl_size[c]);
}

/* Control values a program may set, different for every seed. */
static void pattern_controls(struct fpu_regs *r, uint64_t s)
{
#if defined(__x86_64__)
    /* x87: exceptions masked, precision 53 or 64 bits, any rounding; every
     * register valid (FTW 0xff); SSE: exceptions masked, any rounding, some
     * sticky flags, maybe FZ (not DAZ, which not every CPU has). */
    set_ctl(r, 0, 0x027f | (uint32_t)(s & 1) << 8 | (uint32_t)(s >> 1 & 3) << 10);
    set_ctl(r, 2, 0xff);
    set_ctl(r, 3,
            0x1f80 | (uint32_t)(s >> 3 & 0x3f) | (uint32_t)(s >> 9 & 3) << 13 |
                (uint32_t)(s >> 11 & 1) << 15);
#elif defined(__aarch64__)
    /* FPCR: AHP, DN, FZ, RMode (bits 26-22); FPSR: QC and the cumulative flags. */
    set_ctl(r, 0, (uint32_t)(s & 0x1f) << 22);
    set_ctl(r, 1, (uint32_t)(s >> 5 & 0x9f) | (uint32_t)(s >> 13 & 1) << 27);
#else
    /* fcsr: frm 0-4 (bits 7-5), fflags (bits 4-0). */
    set_ctl(r, 0, (uint32_t)(s % 5) << 5 | (uint32_t)(s >> 3 & 0x1f));
#endif
}

static void pattern(struct fpu_regs *r, uint64_t seed)
{
    memset(r, 0, sizeof(*r));
    for (int i = 0; i < NREGS; i++) {
        uint64_t lo = mix(seed * 64 + (uint64_t)i), hi = mix(~seed * 64 + (uint64_t)i);
#if defined(__x86_64__)
        if (i >= 16) { /* a normal extended-precision number: integer bit set */
            lo |= 1ull << 63;
            hi = 0x3fff + (hi & 0xff);
        }
#endif
        memcpy(reg(r, i), &lo, 8);
        if (reg_bytes(i) > 8)
            memcpy(reg(r, i) + 8, &hi, (size_t)reg_bytes(i) - 8);
    }
    pattern_controls(r, mix(seed));
}

/* Bit i: register i differs; bit 32 + c: control c differs. */
static uint64_t differences(struct fpu_regs *a, struct fpu_regs *b)
{
    uint64_t bad = 0;
    for (int i = 0; i < NREGS; i++) {
        if (memcmp(reg(a, i), reg(b, i), (size_t)reg_bytes(i)) != 0)
            bad |= 1ull << i;
    }
    for (int c = 0; c < NCTL; c++) {
        if (get_ctl(a, c) != get_ctl(b, c))
            bad |= 1ull << (32 + c);
    }
    return bad;
}

/* ---- threads -------------------------------------------------------------- */

enum { V_GETPID, V_YIELD, V_SLEEP, V_KERNEL_SPIN, V_USER_SPIN, V_MIGRATE, NVARIANTS };
static const char *const variant_name[NVARIANTS] = {
    "getpid", "yield", "sleep", "preemption_in_syscall", "preemption_in_user", "migration",
};

struct worker {
    int id;
    uint64_t seed;
    unsigned long compute_rounds, compute_bad;
    unsigned long rounds[NVARIANTS], bad[NVARIANTS];
    uint64_t bad_mask;
    volatile int done;
};

static struct worker workers[NTHREADS];
static unsigned long online_mask;
static char *stacks;

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static unsigned long random_mask(uint64_t *seed)
{
    unsigned long m;
    do
        m = next_random(seed) & online_mask;
    while (!m);
    return m;
}

/* A system call between FP operations, inline so that the compiler keeps
 * its FP values in registers across it. */
static void some_call(uint64_t r, uint64_t *seed)
{
    switch (r % 5) {
    case 0: syscall0(SYS_getpid); break;
    case 1: syscall0(SYS_yield); break;
    case 2: syscall1(SYS_debug_sleep, r % 50000); break;
    case 3: syscall2(SYS_sched_setaffinity, 0, random_mask(seed)); break;
    default: syscall1(SYS_debug_spin, 20000); break;
    }
}

typedef double v2d __attribute__((vector_size(16)));
typedef float v4f __attribute__((vector_size(16)));

/* Arithmetic whose every intermediate is exact (small integers and halves),
 * so the result is known; values differ per thread and round. */
static bool compute_round(struct worker *w, uint64_t r)
{
    double base = (double)(w->id * 100000 + (int)(r % 1000));
    v2d acc[4];
    v4f f = {(float)w->id, (float)(w->id + 1), (float)(w->id + 2), (float)(w->id + 3)};
    double s = base;
    for (int k = 0; k < 4; k++)
        acc[k] = (v2d){base + 2 * k, base + 2 * k + 1};
    for (int i = 1; i <= 64; i++) {
        for (int k = 0; k < 4; k++)
            acc[k] = acc[k] + (v2d){0.5 * i, -0.5 * i};
        f = f * 2.0f - f;        /* stays f */
        s = s * 3.0 / 3.0 + 1.0; /* s + 1, exactly */
        if ((i & 15) == 0)
            some_call(next_random(&w->seed), &w->seed);
    }
    bool ok = s == base + 64;
    for (int k = 0; k < 4; k++)
        ok = ok && acc[k][0] == base + 2 * k + 1040 && acc[k][1] == base + 2 * k + 1 - 1040;
    for (int k = 0; k < 4; k++)
        ok = ok && f[k] == (float)(w->id + k);
    return ok;
}

static void pattern_round(struct worker *w, uint64_t r)
{
    static const long nr[NVARIANTS] = {SYS_getpid,     SYS_yield, SYS_debug_sleep,
                                       SYS_debug_spin, -1,        SYS_sched_setaffinity};
    struct fpu_regs in, out;
    int v = (int)(r % NVARIANTS);
    /* The kernel spin lasts 40 ticks: the thread is preempted inside the
     * one call several times, with other threads' FP run in between, and
     * runs on after each (its slice is 4 ticks, and seven others share the
     * CPUs: a spin of five ticks was over by the time it came back, so it
     * was seldom preempted twice in one call, which riscv64's stale-FS
     * mutant needs). */
    long arg = v == V_SLEEP ? (long)(r % 100000) : v == V_KERNEL_SPIN ? 40000000 : 0;
    if (v == V_MIGRATE) /* the call moves this thread: it may run elsewhere at once */
        syscall2(SYS_sched_setaffinity, 0, random_mask(&w->seed));
    pattern(&in, w->seed ^ r);
    fpu_hold(&in, &out, v == V_MIGRATE ? SYS_yield : nr[v], arg, v == V_USER_SPIN ? 400000 : 0);
    uint64_t bad = differences(&in, &out);
    w->rounds[v]++;
    if (bad) {
        w->bad[v]++;
        w->bad_mask |= bad;
    }
}

static volatile int stop;

static void work(void *arg)
{
    struct worker *w = arg;
    while (!stop) {
        uint64_t r = next_random(&w->seed);
        w->compute_rounds++;
        w->compute_bad += !compute_round(w, r);
        pattern_round(w, r >> 8);
    }
    w->done = 1;
}

static bool wait_all(void)
{
    uint64_t deadline = now_ns() + WAIT_NS;
    for (int i = 0; i < NTHREADS; i++) {
        while (!workers[i].done) {
            if (now_ns() > deadline)
                return false;
            sleep_ns(5000000);
        }
    }
    return true;
}

static void report_threads(unsigned long migrations)
{
    unsigned long rounds = 0, bad = 0;
    for (int i = 0; i < NTHREADS; i++) {
        rounds += workers[i].compute_rounds;
        bad += workers[i].compute_bad;
    }
    ktap_note("%d threads, %lu compute rounds, %lu wrong, %lu migrations", NTHREADS, rounds, bad,
              migrations);
    ktap_check(rounds > 0 && bad == 0, "fpu.threads_compute_without_corruption");
    for (int v = 0; v < NVARIANTS; v++) {
        unsigned long n = 0, nbad = 0;
        uint64_t mask = 0;
        for (int i = 0; i < NTHREADS; i++) {
            n += workers[i].rounds[v];
            nbad += workers[i].bad[v];
            mask |= workers[i].bad[v] ? workers[i].bad_mask : 0;
        }
        if (nbad || !n)
            ktap_note("%s: %lu of %lu rounds changed registers (mask %#lx)", variant_name[v], nbad,
                      n, (unsigned long)mask);
        ktap_check(n > 0 && nbad == 0, "fpu.pattern_kept_across_%s", variant_name[v]);
    }
}

static int test_threads(void)
{
    struct debug_stats before, after;
    syscall1(SYS_debug_stats, &before);
    online_mask = before.cpus_online >= 64 ? ~0ul : (1ul << before.cpus_online) - 1;
    stacks = sys_brk(0);
    if (sys_brk(stacks + NTHREADS * STACK_SIZE) != stacks + NTHREADS * STACK_SIZE) {
        ktap_check(false, "fpu.allocate_stacks");
        return ktap_done();
    }
    int started = 0;
    for (int i = 0; i < NTHREADS; i++) {
        workers[i].id = i + 1;
        workers[i].seed = 0x9e3779b97f4a7c15ull * (uint64_t)(i + 7);
        started += thread_create(work, &workers[i], stacks + i * STACK_SIZE, STACK_SIZE) > 0;
    }
    KTAP_EXPECT_EQ(started, NTHREADS, "fpu.threads_started");
    /* RUN_NS at least, and then until every variant has run and a thread
     * has migrated: guest events, so a slow host only makes it take
     * longer. A kernel that never migrates is stopped after MAX_ROUNDS
     * compute rounds, and the checks below say what was missing. */
    uint64_t end = now_ns() + RUN_NS;
    for (;;) {
        sleep_ns(10000000);
        unsigned long rounds = 0;
        bool every_variant = true;
        for (int v = 0; v < NVARIANTS; v++) {
            unsigned long n = 0;
            for (int i = 0; i < NTHREADS; i++)
                n += workers[i].rounds[v];
            every_variant = every_variant && n > 0;
        }
        for (int i = 0; i < NTHREADS; i++)
            rounds += workers[i].compute_rounds;
        syscall1(SYS_debug_stats, &after);
        bool seen =
            every_variant && (before.cpus_online < 2 || after.migrations != before.migrations);
        if ((seen && now_ns() >= end) || rounds >= MAX_ROUNDS)
            break;
    }
    stop = 1;
    ktap_check(wait_all(), "fpu.threads_finished");
    syscall1(SYS_debug_stats, &after);
    report_threads(after.migrations - before.migrations);
    if (before.cpus_online > 1)
        ktap_check(after.migrations > before.migrations, "fpu.threads_migrated");
    return ktap_done();
}

/* ---- clean --------------------------------------------------------------- */

static struct fpu_regs first_state; /* fpu_dump() before anything else runs */

/* 0 if r is the defined starting state, else a bit per register or control. */
static uint64_t not_clean(struct fpu_regs *r)
{
    struct fpu_regs want;
    memset(&want, 0, sizeof(want));
    for (int c = 0; c < NCTL; c++)
        set_ctl(&want, c, ctl_default[c]);
    return differences(r, &want);
}

static struct fpu_regs thread_state;
static volatile int thread_done;

static void dump_thread(void *arg)
{
    fpu_dump(&thread_state);
    thread_done = 1;
}

static int test_clean(void)
{
    uint64_t bad = not_clean(&first_state);
    if (bad)
        ktap_note("new program: registers/controls not in the starting state: mask %#lx",
                  (unsigned long)bad);
    ktap_check(bad == 0, "fpu.new_program_starts_clean");
    /* Dirty every register, then start a thread: it must not inherit them. */
    struct fpu_regs in, out;
    pattern(&in, 12345);
    fpu_hold(&in, &out, SYS_getpid, 0, 0);
    static char stack[STACK_SIZE] __attribute__((aligned(16)));
    int tid = thread_create(dump_thread, NULL, stack, sizeof(stack));
    while (tid > 0 && !thread_done)
        syscall0(SYS_yield);
    bad = not_clean(&thread_state);
    if (bad)
        ktap_note("new thread: registers/controls not in the starting state: mask %#lx",
                  (unsigned long)bad);
    ktap_check(tid > 0 && bad == 0, "fpu.new_thread_starts_clean");
    return ktap_done();
}

/* ---- faults and FP exceptions --------------------------------------------- */

static volatile double zero = 0.0;

static int dirty_fault(void)
{
    struct fpu_regs in, out;
    pattern(&in, 999);
    fpu_hold(&in, &out, -1, 0, 0);
    return *(volatile int *)0; /* killed here, FP registers full of the pattern */
}

#if defined(__x86_64__)
static int trap(bool x87)
{
    if (x87) { /* unmask ZE in the control word (SDM vol. 1 8.1.5); FWAIT delivers #MF */
        uint16_t fcw = 0x037f & ~(1u << 2);
        static volatile int32_t izero = 0;
        __asm__ volatile("fldcw %0\n\tfld1\n\tfidivl %1\n\tfwait" : : "m"(fcw), "m"(izero));
    } else { /* unmask ZM in MXCSR (SDM vol. 1 10.2.3.1): DIVSD raises #XM */
        uint32_t mxcsr = 0x1f80 & ~(1u << 9);
        __asm__ volatile("ldmxcsr %0" : : "m"(mxcsr));
        volatile double r = 1.0 / zero;
        (void)r;
        __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
        if (mxcsr & (1u << 2)) { /* ZE flag set, unmasked, and yet no #XM */
            printf("test_fpu: MXCSR %#x: divide-by-zero flagged but no #XM raised (QEMU's TCG "
                   "does not raise SIMD FP exceptions)\n",
                   mxcsr);
            return 0;
        }
    }
    printf("test_fpu: no FP exception was raised\n");
    return 1;
}
#elif defined(__aarch64__)
static int trap(bool x87)
{
    /* FPCR.DZE (bit 9) enables the divide-by-zero trap where the CPU
     * implements trapping; otherwise it is RES0 (Arm ARM, "FPCR"). */
    uint64_t fpcr = 1u << 9, got;
    __asm__ volatile("msr fpcr, %1\n\tmrs %0, fpcr" : "=r"(got) : "r"(fpcr));
    if (!(got & (1u << 9))) {
        printf("test_fpu: FPCR.DZE reads as 0: this CPU does not trap FP exceptions\n");
        return 0;
    }
    volatile double r = 1.0 / zero;
    (void)r;
    printf("test_fpu: DZE set, but no FP exception was raised\n");
    return 1;
}
#else
static int trap(bool x87)
{
    /* The F and D extensions never trap on FP exceptions; they set the
     * fflags bits (ISA spec, "Floating-Point Control and Status
     * Register"): DZ is bit 3. */
    unsigned long flags;
    __asm__ volatile("fsflags zero");
    volatile double r = 1.0 / zero;
    __asm__ volatile("frflags %0" : "=r"(flags));
    bool ok = r == __builtin_inf() && (flags & 8);
    printf("test_fpu: no FP traps on RISC-V; 1/0 = inf %s, fflags %#lx\n", ok ? "yes" : "no",
           flags);
    return ok ? 0 : 1;
}
#endif

int main(int argc, char **argv)
{
    fpu_dump(&first_state);
    const char *part = argc > 1 ? argv[1] : "";
    if (strcmp(part, "threads") == 0)
        return test_threads();
    if (strcmp(part, "clean") == 0)
        return test_clean();
    if (strcmp(part, "dirty-fault") == 0)
        return dirty_fault();
    if (strcmp(part, "trap") == 0 || strcmp(part, "trap-x87") == 0)
        return trap(strcmp(part, "trap-x87") == 0);
    printf("test_fpu: unknown part \"%s\"\n", part);
    return 2;
}
