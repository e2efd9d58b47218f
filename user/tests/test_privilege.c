/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_privilege.c - what a program's own CPU state cannot give
 * it (docs/security.md). Started by the kernel test user.privilege; prints
 * KTAP subtests and exits with the number of failures.
 *
 *   privilege.user_access_closed_in_handlers
 *       Two threads pinned to CPU 0 spin until the timer has ticked there
 *       and one has taken the CPU from the other; on x86_64 both spin with
 *       RFLAGS.AC set (popf), which with SMAP would open user pages to every
 *       handler the kernel runs on their time, and to the next thread if it
 *       were switched to that way. The kernel counts the ticks it handled
 *       with user pages reachable (struct debug_stats, a debug call): none.
 *       arm64 (PAN) and riscv64 (SUM) cannot be opened from user mode; the
 *       same count checks that no handler runs with them open.
 *   privilege.ac_kept_for_the_program
 *       (x86_64) the program's own AC survives the interrupts and switches.
 *   privilege.descriptor_read_kills
 *       A child reads what only the kernel may: x86_64 `sgdt` (faults only
 *       with CR4.UMIP, which the kernel sets where CPUID.(7,0):ECX[2] says
 *       the CPU has it; skipped where not), arm64 `mrs VBAR_EL1`, riscv64
 *       `csrr stvec`. The kernel kills it with a message.
 */
#include "lib/user/ulib.h"

#define MAX_WAIT_NS (60ull * 1000000000ull) /* a kernel that never preempts */
#define TICKS       20                      /* CPU 0's ticks to spin through */
#define SKIPPED     77                      /* the child's status: no UMIP here */

static volatile unsigned long other_spins;
static volatile int stop, other_done;
static char other_stack[16 * 1024] __attribute__((aligned(16)));

#if defined(__x86_64__)
#define RFLAGS_AC (1ul << 18)
static unsigned long rflags(void)
{
    unsigned long f;
    __asm__ volatile("pushfq; popq %0" : "=r"(f));
    return f;
}

static void set_ac(bool on)
{
    unsigned long f = on ? rflags() | RFLAGS_AC : rflags() & ~RFLAGS_AC;
    __asm__ volatile("pushq %0; popfq" : : "r"(f) : "cc", "memory");
}

static bool cpuid_bit(unsigned leaf, int reg, unsigned bit)
{
    unsigned r[4];
    __asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(0));
    return r[reg] >> bit & 1;
}
#else
static void set_ac(bool on)
{
    (void)on;
}
#endif

static bool ac_is_set(void)
{
#if defined(__x86_64__)
    return rflags() & RFLAGS_AC;
#else
    return true;
#endif
}

/* The other thread: spins with AC set (aligned accesses only: with CR0.AM
 * an unaligned one would raise #AC) until told to stop. */
static void other(void *arg)
{
    (void)arg;
    sys_sched_setaffinity(0, 1);
    while (getcpu() != 0) /* it moves at its next preemption point */
        sleep_ns(1000000);
    set_ac(true);
    while (!stop)
        other_spins = other_spins + 1;
    set_ac(false);
    other_done = 1;
}

static bool stats(struct debug_stats *st)
{
    return syscall1(SYS_debug_stats, st) == 0;
}

/* Spin on CPU 0 with AC set until TICKS ticks and a preemption: the other
 * thread, which runs only on CPU 0, counted meanwhile, and this one never
 * sleeps. Whether AC was still set at the end. */
static bool spin_through_ticks(const struct debug_stats *before, bool *preempted)
{
    uint64_t end = now_ns() + MAX_WAIT_NS;
    struct debug_stats now;
    bool ac = true;
    unsigned long seen = other_spins;
    *preempted = false;
    set_ac(true);
    for (unsigned long i = 0;; i++) {
        for (int k = 0; k < 1000; k++)
            ac &= ac_is_set();
        *preempted |= other_spins != seen;
        if (i % 64 == 0 && stats(&now) && now.ticks[0] >= before->ticks[0] + TICKS && *preempted)
            break;
        if (i % 64 == 0 && now_ns() > end)
            break;
    }
    ac &= ac_is_set();
    set_ac(false);
    return ac;
}

static void user_access_closed(void)
{
    struct debug_stats before, after;
    if (!stats(&before)) {
        ktap_skip("privilege.user_access_closed_in_handlers", "debug calls closed");
        return;
    }
    sys_sched_setaffinity(0, 1);
    stop = other_done = 0;
    int tid = thread_create(other, NULL, other_stack, sizeof(other_stack));
    bool preempted;
    bool ac_kept = spin_through_ticks(&before, &preempted);
    stop = 1;
    while (tid > 0 && !other_done)
        sleep_ns(1000000);
    stats(&after);
    if (!preempted || after.user_access_ticks != before.user_access_ticks)
        ktap_note("ticks on CPU 0: %lu; preempted: %d; ticks with user pages open: %lu",
                  after.ticks[0] - before.ticks[0], preempted,
                  after.user_access_ticks - before.user_access_ticks);
    ktap_check(tid > 0 && preempted && after.ticks[0] >= before.ticks[0] + TICKS &&
                   after.user_access_ticks == before.user_access_ticks,
               "privilege.user_access_closed_in_handlers");
#if defined(__x86_64__)
    ktap_check(ac_kept, "privilege.ac_kept_for_the_program");
#else
    (void)ac_kept;
#endif
}

/* The child: one read of a register only the kernel may read. */
static int read_privileged(void)
{
#if defined(__x86_64__)
    if (!cpuid_bit(7, 2, 2)) /* CPUID.(EAX=7,ECX=0):ECX.UMIP[bit 2] */
        return SKIPPED;
    struct __attribute__((packed)) {
        unsigned short limit;
        unsigned long base;
    } gdtr;
    __asm__ volatile("sgdt %0" : "=m"(gdtr));
    printf("test_privilege: sgdt from user mode gave base %#lx\n", gdtr.base);
#elif defined(__aarch64__)
    unsigned long v;
    __asm__ volatile("mrs %0, vbar_el1" : "=r"(v));
    printf("test_privilege: VBAR_EL1 from EL0 gave %#lx\n", v);
#elif defined(__riscv)
    unsigned long v;
    __asm__ volatile("csrr %0, stvec" : "=r"(v));
    printf("test_privilege: stvec from U mode gave %#lx\n", v);
#endif
    return 0;
}

static void descriptor_read_kills(void)
{
    const char *argv[] = {"test_privilege", "child-read", NULL};
    int status = -1, pid = spawn("test_privilege", argv);
    if (pid < 0 || sys_wait(pid, &status) != pid)
        status = -1;
    if (status == SKIPPED) {
        ktap_skip("privilege.descriptor_read_kills", "the CPU has no UMIP");
        return;
    }
#if defined(__x86_64__)
    int want = EXIT_KILLED_SEGV; /* #GP */
#else
    int want = EXIT_KILLED_ILL; /* an undefined or illegal instruction */
#endif
    KTAP_EXPECT_EQ(status, want, "privilege.descriptor_read_kills");
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "child-read") == 0)
        return read_privileged();
    user_access_closed();
    descriptor_read_kills();
    return ktap_done();
}
