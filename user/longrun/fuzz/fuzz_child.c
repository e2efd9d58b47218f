/* SPDX-License-Identifier: MIT */
/*
 * user/longrun/fuzz/fuzz_child.c - the syscall fuzzer's child: one batch of
 * calls drawn from the batch's own generator, each constrained so that it
 * cannot stop the caller (fuzz.c's comment says which and why), made, and
 * its outcome counted; the kernel's canaries checked around them.
 */
#include "kernel/uapi/kstack.h"
#include "kernel/uapi/latency.h"
#include "lib/user/ipc.h"
#include "lib/user/syscall_list.h"
#include "lib/user/ulib.h"
#include "user/common/pages.h"
#include "user/longrun/fuzz/fuzz_ipc.h"

#include "user/longrun/fuzz/fuzz.h"

#define CHILD_CONTROL_H 0 /* the child's control capability (spawn_child) */

#define PAGE          4096ul
#define SCRATCH_PAGES 8
#define KERNEL_TEXT   0xffffffff80000000ul
#define UNMAPPED      0x10000000ul /* below the program, never mapped */
#define THREAD_STACKS 16

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t batch_seed(uint64_t seed, unsigned long batch)
{
    uint64_t s = seed ^ (batch * 0xd1b54a32d192ed03ull);
    return splitmix(&s);
}

/* One batch in four ends with a call that gets the child killed. */
bool fatal_batch(uint64_t seed, unsigned long batch)
{
    return batch_seed(seed, batch) % 4 == 0;
}

/* ---- the child: drawing and making the calls ---------------------------- */

static const long valid_numbers[] = {SYSCALLS_THAT_RETURN};
#define NVALID (sizeof(valid_numbers) / sizeof(valid_numbers[0]))

enum arg_class {
    A_ZERO,
    A_SMALL,
    A_NEGATIVE,
    A_PAGE_EDGE,
    A_USER_BUF,
    A_UNMAPPED,
    A_KERNEL,
    A_NONCANONICAL,
    A_HUGE,
    A_RANDOM,
    NCLASSES
};

struct call {
    long nr;
    long a[6];
    enum arg_class cls[6];
};

static struct {
    uint64_t rng;
    char *scratch, *scratch_end; /* heap pages the fuzzer owns; the kernel writes there */
    uintptr_t brk;               /* the break as last reported */
    uintptr_t kstack_canary, dmap_canary;
    unsigned long ipc_calls, ipc_ok,
        ipc_answered; /* IPC calls made, succeeded, ipc_call answered */
    bool verbose;
} fz;

static char thread_stacks[THREAD_STACKS][1024] __attribute__((aligned(16)));
static const char console_line[] = "fuzz: a fuzzed write\n";

static uint64_t rnd(void)
{
    return splitmix(&fz.rng);
}
static uint64_t below(uint64_t n)
{
    return rnd() % n;
}

static long arg_value(enum arg_class c)
{
    static const long small_offsets[] = {-16, -8, -4, -1, 0, 1, 4, 8, 16};
    static const unsigned long huge[] = {1ul << 30, (1ul << 30) + 1, 1ul << 31,
                                         1ul << 32, 1ul << 40,       0x7ffffffffffffffful,
                                         ~0ul,      ~0ul - 15,       1ul << 63};
    uintptr_t edges[] = {(uintptr_t)fz.scratch_end,
                         (fz.brk + PAGE - 1) & ~(PAGE - 1),
                         USER_TOP,
                         USER_TOP - PAGE,
                         USER_TOP - PAGE - (64 << 10),
                         (uintptr_t)0x400000,
                         UNMAPPED};
    switch (c) {
    case A_ZERO: return 0;
    case A_SMALL: return (long)below(17);
    case A_NEGATIVE: {
        static const long neg[] = {
            -1, -2, -16, -4095, -4096, (long)0xffffffff80000000ul, (long)(1ul << 63)};
        return neg[below(sizeof(neg) / sizeof(neg[0]))];
    }
    case A_PAGE_EDGE:
        return (long)(edges[below(sizeof(edges) / sizeof(edges[0]))] +
                      small_offsets[below(sizeof(small_offsets) / sizeof(small_offsets[0]))]);
    case A_USER_BUF: return (long)(fz.scratch + (below(SCRATCH_PAGES * PAGE - 512) & ~7ul));
    case A_UNMAPPED: return (long)(UNMAPPED + below(1ul << 24));
    case A_KERNEL: {
        uintptr_t k[] = {KERNEL_TEXT + below(1ul << 24), fz.kstack_canary, fz.dmap_canary,
                         fz.dmap_canary + 4096 * below(64), ~0ul - below(1ul << 20)};
        return (long)k[below(sizeof(k) / sizeof(k[0]))];
    }
    case A_NONCANONICAL: {
        uintptr_t n[] = {USER_TOP + below(1ul << 30), 0x0000800000000000ul + below(1ul << 40),
                         0x8000000000000000ul | rnd(), 0x00007ffffffff000ul + below(8192)};
        return (long)n[below(sizeof(n) / sizeof(n[0]))];
    }
    case A_HUGE: return (long)huge[below(sizeof(huge) / sizeof(huge[0]))];
    default: return (long)rnd();
    }
}

static long draw_number(void)
{
    uint64_t r = below(100);
    if (r < 85)
        return valid_numbers[below(NVALID)];
    if (r < 95) { /* unknown: 0, just past the table, anywhere below 2^16, negative */
        long unknown[] = {0, NR_SYSCALLS, NR_SYSCALLS + (long)below(65536 - NR_SYSCALLS), -1,
                          -(long)below(4096) - 1};
        return unknown[below(5)];
    }
    long huge[] = {(long)((1ul << 32) + valid_numbers[below(NVALID)]),
                   (long)((1ul << 63) | valid_numbers[below(NVALID)]), (long)(rnd() | (1ul << 40))};
    return huge[below(3)];
}

static bool user_addr(long v)
{
    return (unsigned long)v < USER_TOP;
}

/* Start address and stack the child's own threads run on. It uses its
 * stack (so that a bad one kills it) but never relies on what is there:
 * two threads may share one of the stacks. */
static void fuzz_thread(long arg) __attribute__((noreturn));
static void fuzz_thread(long arg)
{
    volatile long on_stack = arg;
    (void)on_stack;
    raw_syscall6(SYS_getcpu, 0, 0, 0, 0, 0, 0);
    raw_syscall6(SYS_yield, 0, 0, 0, 0, 0, 0);
    raw_syscall6(SYS_gettid, 0, 0, 0, 0, 0, 0);
    raw_syscall6(SYS_thread_exit, 0, 0, 0, 0, 0, 0);
    for (;;)
        ;
}

static long thread_stack_top(void)
{
    return (long)(thread_stacks[below(THREAD_STACKS)] + sizeof(thread_stacks[0]) - 64);
}

/* Write a name and argv the kernel may start into the scratch area at p. */
static long controlled_spawn(struct call *c)
{
    static const char *const names[] = {"child", "child", "fault", "nope", "", "#not a program"};
    static const char *const fault_cases[] = {"null", "illegal"};
    char *name = fz.scratch, *strs = fz.scratch + 64;
    const char **argv = (const char **)(fz.scratch + 512);
    unsigned k = (unsigned)below(sizeof(names) / sizeof(names[0]));
    strcpy(name, names[k]);
    unsigned argc = 0;
    argv[argc++] = name;
    if (k == 2) {
        argv[argc++] = strcpy(strs, fault_cases[below(2)]);
    } else if (k <= 1) { /* child STATUS PPID SLEEP_MS: ends within 5 ms */
        argv[argc++] = "7";
        argv[argc++] = "1";
        argv[argc++] = below(2) ? "0" : "5";
    }
    unsigned extra = below(8) == 0 ? 20 : 0; /* -E2BIG */
    for (unsigned i = 0; i < extra; i++)
        argv[argc++] = "x";
    argv[argc] = NULL;
    if (k == 2 || c->cls[1] == A_USER_BUF) /* fault needs its argument */
        c->a[1] = (long)argv;
    else if (c->cls[1] == A_SMALL)
        c->a[1] = 0;
    return (long)name;
}

/* One call: the IPC ones through the wrapper that knows they return words. */
static long make_call(const struct call *c)
{
    if (fuzz_ipc_number(c->nr))
        return fuzz_ipc_make(c->nr, c->a);
    return syscall6(c->nr, c->a[0], c->a[1], c->a[2], c->a[3], c->a[4], c->a[5]);
}

/* A timespec in scratch memory, bad or a short sleep, not a random pointer's. */
static void constrain_nanosleep(struct call *c)
{
    if (c->cls[0] == A_USER_BUF || c->cls[0] == A_SMALL || c->cls[0] == A_PAGE_EDGE ||
        c->cls[0] == A_RANDOM) {
        static const long bad[][2] = {{-1, 0}, {0, 1000000000}, {0, -5}, {1l << 62, -1}};
        long *ts = (long *)fz.scratch;
        unsigned k = (unsigned)below(5);
        ts[0] = k < 4 ? bad[k][0] : 0;
        ts[1] = k < 4 ? bad[k][1] : (long)below(100000);
        c->a[0] = (long)ts;
    }
}

/* A thread that runs fuzz_thread on a stack of its own; in a fatal
 * batch's last call, a start address or a stack it faults on. */
static void constrain_thread_create(struct call *c, bool last_of_fatal_batch)
{
    if (last_of_fatal_batch) {
        static const long pcs[] = {0, UNMAPPED, 0x400000 - PAGE};
        if (below(2)) {
            c->a[0] = (long)fuzz_thread;
            c->a[2] = below(2) ? (long)(UNMAPPED + PAGE) : 64;
        } else {
            long p[] = {pcs[below(3)], (long)fz.scratch};
            c->a[0] = p[below(2)];
            c->a[2] = thread_stack_top();
        }
    } else if (user_addr(c->a[0]) && user_addr(c->a[2])) {
        c->a[0] = (long)fuzz_thread;
        c->a[2] = thread_stack_top();
    }
}

/* Keep the call from stopping the caller (see the comment at the top). */
static void constrain(struct call *c, bool last_of_fatal_batch)
{
    if (fuzz_ipc_number(c->nr))
        fuzz_ipc_constrain(&c->nr, c->a, rnd());
    switch (c->nr) {
    case SYS_debug_sleep:
    case SYS_debug_spin: c->a[0] = (long)((unsigned long)c->a[0] % 100000); break;
    case SYS_nanosleep: constrain_nanosleep(c); break;
    case SYS_write:
        if ((c->a[0] == 1 || c->a[0] == 2) && user_addr(c->a[1]) &&
            (unsigned long)c->a[2] <= (1ul << 30)) {
            c->a[1] = (long)console_line;
            c->a[2] = below(64) == 0 ? (long)(sizeof(console_line) - 1) : 0;
        }
        break;
    case SYS_spawn:
    case SYS_spawn_with: /* the same name and argv; the handle list stays random */
        if (c->cls[0] == A_USER_BUF || c->cls[0] == A_SMALL || c->cls[0] == A_PAGE_EDGE)
            c->a[0] = controlled_spawn(c);
        else if (user_addr(c->a[0]) && user_addr(c->a[1]))
            c->a[1] = 0; /* a string the fuzzer did not write: no argv from it either */
        break;
    case SYS_debug_ipc_fastpath: /* only asks: a switch would change what other tests count */
        if (c->a[0] == IPC_FASTPATH_OFF || c->a[0] == IPC_FASTPATH_ON)
            c->a[0] = IPC_FASTPATH_QUERY;
        break;
    case SYS_debug_kaddr: /* re-arming the shared canary would hide another child's damage */
        if (c->a[0] == DEBUG_KADDR_DIRECT_MAP && c->a[1] == DEBUG_KADDR_ARM)
            c->a[1] = DEBUG_KADDR_CHECK;
        break;
    case SYS_brk:
        if (user_addr(c->a[0]) && (uintptr_t)c->a[0] < (uintptr_t)fz.scratch_end)
            c->a[0] = (long)fz.scratch_end;
        break;
    case SYS_thread_create: constrain_thread_create(c, last_of_fatal_batch); break;
    }
}

static void draw(struct call *c, bool last_of_fatal_batch)
{
    c->nr = last_of_fatal_batch ? SYS_thread_create : draw_number();
    for (int i = 0; i < 6; i++) {
        c->cls[i] = (enum arg_class)below(NCLASSES);
        c->a[i] = arg_value(c->cls[i]);
    }
    constrain(c, last_of_fatal_batch);
}

static bool in_table(long nr)
{
    return (unsigned long)nr < NR_SYSCALLS && nr != 0;
}

/* What the calls returned: results, then the common error codes, then the rest. */
enum {
    O_RESULT,
    O_EFAULT,
    O_EINVAL,
    O_ENOSYS,
    O_EPERM,
    O_ESRCH,
    O_ECHILD,
    O_ENOENT,
    O_E2BIG,
    O_EAGAIN,
    O_ENODEV,
    O_EBADF,
    O_OTHER,
    NOUTCOMES
};
static const char *const outcome_names[NOUTCOMES] = {
    "result", "EFAULT", "EINVAL", "ENOSYS", "EPERM", "ESRCH", "ECHILD",
    "ENOENT", "E2BIG",  "EAGAIN", "ENODEV", "EBADF", "other"};
static const int outcome_errno[NOUTCOMES] = {0,      EFAULT, EINVAL, ENOSYS, EPERM, ESRCH, ECHILD,
                                             ENOENT, E2BIG,  EAGAIN, ENODEV, EBADF, 0};

static int outcome_of(long r)
{
    if ((unsigned long)r < -4095ul)
        return O_RESULT;
    for (int k = 1; k < O_OTHER; k++) {
        if (-r == outcome_errno[k])
            return k;
    }
    return O_OTHER;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    char line[320];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    sys_write(1, line, (size_t)(n < (int)sizeof(line) ? n : (int)sizeof(line) - 1));
}

/* The caller's kernel stack canary: only SYS_kstack_debug(PAINT) may change it. */
static bool kstack_canary_intact(void)
{
    return syscall2(SYS_debug_kaddr, DEBUG_KADDR_STACK, DEBUG_KADDR_CHECK) == 0;
}

/* One line per child, which make fuzz (scripts/longrun.py) adds up. */
static void tally(const unsigned long *count, long calls, const char *why)
{
    char line[320];
    int n = snprintf(line, sizeof(line), "fuzz: tally calls=%ld", calls);
    for (int k = 0; k < NOUTCOMES; k++)
        n += snprintf(line + n, sizeof(line) - (size_t)n, " %s=%lu", outcome_names[k], count[k]);
    n += snprintf(line + n, sizeof(line) - (size_t)n, " ipc=%lu ipc_ok=%lu ipc_answered=%lu",
                  fz.ipc_calls, fz.ipc_ok, fz.ipc_answered);
    say("%s (%s)\n", line, why);
}

/* The child's scratch pages and canaries: false if its heap would not grow. */
static bool child_setup(uint64_t seed, unsigned long batch, uintptr_t dmap_canary)
{
    fz.rng = batch_seed(seed, batch);
    fz.scratch = sys_brk(0);
    fz.scratch_end = fz.scratch + SCRATCH_PAGES * PAGE;
    if (sys_brk(fz.scratch_end) != fz.scratch_end)
        return false;
    fz.brk = (uintptr_t)fz.scratch_end;
    fz.kstack_canary = (uintptr_t)syscall2(SYS_debug_kaddr, DEBUG_KADDR_STACK, DEBUG_KADDR_ARM);
    fz.dmap_canary = dmap_canary;
    fuzz_ipc_init(CHILD_CONTROL_H);
    return true;
}

/* Call i of the batch made and checked: what it returned; *status set to
 * the batch's failure if it found one. */
static long one_call(const struct call *c, uint64_t seed, unsigned long batch, long i,
                     unsigned long *count, int *status)
{
    if (fz.verbose)
        say("fuzz: %llu,%lu,%ld: nr %ld (%#lx, %#lx, %#lx, %#lx, %#lx, %#lx)\n",
            (unsigned long long)seed, batch, i, c->nr, c->a[0], c->a[1], c->a[2], c->a[3], c->a[4],
            c->a[5]);
    bool canary_call = c->nr == SYS_kstack_debug || c->nr == SYS_debug_kaddr;
    if (canary_call && !kstack_canary_intact())
        *status = ST_KSTACK_CANARY;
    long r = make_call(c);
    if (fuzz_ipc_number(c->nr)) {
        fuzz_ipc_track(c->nr, c->a, r);
        fz.ipc_calls++;
        fz.ipc_ok += r >= 0;
        fz.ipc_answered += c->nr == SYS_ipc_call && r >= 0;
    }
    count[outcome_of(r)]++;
    if (!in_table(c->nr) && r != -ENOSYS) {
        say("fuzz: %llu,%lu,%ld: unknown number %#lx returned %ld\n", (unsigned long long)seed,
            batch, i, (unsigned long)c->nr, r);
        *status = ST_ENOSYS;
    }
    if (c->nr == SYS_brk)
        fz.brk = (uintptr_t)r;
    if (canary_call)
        syscall2(SYS_debug_kaddr, DEBUG_KADDR_STACK, DEBUG_KADDR_ARM);
    return r;
}

int child_main(uint64_t seed, unsigned long batch, long calls, uintptr_t dmap_canary, bool verbose)
{
    fz.verbose = verbose;
    bool fatal = fatal_batch(seed, batch);
    if (!child_setup(seed, batch, dmap_canary))
        return ST_BAD_ARGS;
    unsigned long count[NOUTCOMES] = {0};
    int status = 0;
    long last = 0;
    for (long i = 0; i < calls; i++) {
        struct call c;
        bool last_fatal = fatal && i == calls - 1;
        draw(&c, last_fatal);
        if (last_fatal) /* before the call: the kill may come at once */
            tally(count, calls - 1, "its last call is fatal");
        last = one_call(&c, seed, batch, i, count, &status);
    }
    if (!kstack_canary_intact())
        status = ST_KSTACK_CANARY;
    if (fatal) { /* the thread it started faults: wait to be killed */
        uint64_t until = now_ns() + 10000000000ull;
        while (last > 0 && now_ns() < until)
            sleep_ns(5000000);
        say("fuzz: %llu,%lu: survived its fatal last call, which returned %ld\n",
            (unsigned long long)seed, batch, last);
        return status ? status : ST_SURVIVED;
    }
    tally(count, calls, "done");
    return status;
}
