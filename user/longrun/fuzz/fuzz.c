/* SPDX-License-Identifier: MIT */
/*
 * user/longrun/fuzz/fuzz.c - random system calls, seeded and reproducible (trinity and
 * xv6 grind style; docs/fuzz.md tells the whole story).
 *
 *   fuzz [CALLS [SEED]]        the parent: runs CALLS calls (default 10^7)
 *   fuzz replay SEED BATCH     one batch again, printing each call before it is made
 *   fuzz child SEED BATCH ...  (what the parent spawns)
 *
 * The parent spawns children, 2 per CPU at a time, each making BATCH_CALLS
 * calls from its own generator, seeded from (SEED, batch number): a batch
 * is the same calls whenever it is run. Every call must end with a result,
 * an error code, or the child killed with a message. The parent respawns
 * children as they end, a watchdog thread in it reports a child that does
 * not finish its batch in HANG_NS, and at the end the free page count must
 * be back where it started and the kernel canaries untouched. A kernel
 * panic stops the machine, which the test runner reports.
 *
 * What is not fuzzed, or only in a constrained way, and why:
 *  - SYS_exit and SYS_thread_exit are never drawn: they end the caller (each
 *    child exits through SYS_exit, each thread through SYS_thread_exit).
 *  - Sleeps are bounded (debug_sleep, debug_spin, nanosleep 0.1 ms; nanosleep is given a
 *    timespec the fuzzer wrote, never memory it does not control): a sleep of
 *    2^63 ns is a correct answer, and it would stop the caller.
 *  - spawn starts only programs that end by themselves (child, hello, fault).
 *  - thread_create with a start address or stack the thread would fault on
 *    kills the child: that is drawn only as the last call of one batch in
 *    four (fatal_batch()), so the parent knows which children must be killed;
 *    elsewhere the thread is started on fuzz_thread with a stack of its own.
 *  - brk never shrinks the heap below the scratch pages the fuzzer uses.
 *  - writes to the console print at most one short line.
 *  - SYS_debug_leak_lock is fuzzed: it must answer -EPERM, as it does
 *    unless the command line says crash=lock-to-user (never run that way).
 *  - IPC: every call is drawn, with the handles the child holds tracked
 *    (user/longrun/fuzz/fuzz_ipc.c) so that no call waits for ever: each child serves one
 *    endpoint of its own from a server thread, whose handle it never closes;
 *    ipc_call through another endpoint handle, and ipc_recv/reply_recv
 *    through any handle that may receive, get a closed handle number
 *    instead; notify_wait on a live notification is preceded by a signal
 *    (or becomes notify_poll if no handle can signal it). Everything else
 *    about the calls (tags, lengths, buffers, rights, badges) is random.
 *    The IPC calls go through raw_ipc_syscall, which knows that they
 *    return words in argument registers 1-5.
 */
#include "kernel/uapi/kstack.h"
#include "kernel/uapi/latency.h"
#include "lib/user/ipc.h"
#include "lib/user/syscall_list.h"
#include "lib/user/ulib.h"
#include "user/common/pages.h"
#include "user/longrun/fuzz/fuzz_ipc.h"

#define CHILD_CONTROL_H 0 /* the child's control capability (spawn_child) */

#define BATCH_CALLS   2000
#define MAX_CHILDREN  16
#define HANG_NS       60000000000ull /* a batch takes well under a second */
#define PAGE          4096ul
#define SCRATCH_PAGES 8
#define KERNEL_TEXT   0xffffffff80000000ul
#define UNMAPPED      0x10000000ul /* below the program, never mapped */
#define THREAD_STACKS 16
#define MIN(a, b)     ((a) < (b) ? (a) : (b))

/* Child exit statuses besides 0 (batch done) and 128 + signal (killed). */
#define ST_KSTACK_CANARY 2 /* a call changed the caller's kernel stack canary */
#define ST_ENOSYS        3 /* an unknown number did not get -ENOSYS */
#define ST_BAD_ARGS      4
#define ST_SURVIVED      5 /* its fatal last call did not kill it (thread_create -EAGAIN) */

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
static bool fatal_batch(uint64_t seed, unsigned long batch)
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

/* Keep the call from stopping the caller (see the comment at the top). */
static void constrain(struct call *c, bool last_of_fatal_batch)
{
    if (fuzz_ipc_number(c->nr))
        fuzz_ipc_constrain(&c->nr, c->a, rnd());
    switch (c->nr) {
    case SYS_debug_sleep:
    case SYS_debug_spin: c->a[0] = (long)((unsigned long)c->a[0] % 100000); break;
    case SYS_nanosleep:
        if (c->cls[0] == A_USER_BUF || c->cls[0] == A_SMALL || c->cls[0] == A_PAGE_EDGE ||
            c->cls[0] == A_RANDOM) {
            static const long bad[][2] = {{-1, 0}, {0, 1000000000}, {0, -5}, {1l << 62, -1}};
            long *ts = (long *)fz.scratch;
            unsigned k = (unsigned)below(5);
            ts[0] = k < 4 ? bad[k][0] : 0;
            ts[1] = k < 4 ? bad[k][1] : (long)below(100000);
            c->a[0] = (long)ts;
        }
        break;
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
    case SYS_thread_create:
        if (last_of_fatal_batch) { /* a start address or a stack it faults on */
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
        break;
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

static int child_main(uint64_t seed, unsigned long batch, long calls, uintptr_t dmap_canary)
{
    fz.rng = batch_seed(seed, batch);
    bool fatal = fatal_batch(seed, batch);
    fz.scratch = sys_brk(0);
    fz.scratch_end = fz.scratch + SCRATCH_PAGES * PAGE;
    if (sys_brk(fz.scratch_end) != fz.scratch_end)
        return ST_BAD_ARGS;
    fz.brk = (uintptr_t)fz.scratch_end;
    fz.kstack_canary = (uintptr_t)syscall2(SYS_debug_kaddr, DEBUG_KADDR_STACK, DEBUG_KADDR_ARM);
    fz.dmap_canary = dmap_canary;
    fuzz_ipc_init(CHILD_CONTROL_H);
    unsigned long count[NOUTCOMES] = {0};
    int status = 0;
    long last = 0;
    for (long i = 0; i < calls; i++) {
        struct call c;
        bool last_fatal = fatal && i == calls - 1;
        draw(&c, last_fatal);
        if (last_fatal) /* before the call: the kill may come at once */
            tally(count, calls - 1, "its last call is fatal");
        if (fz.verbose)
            say("fuzz: %llu,%lu,%ld: nr %ld (%#lx, %#lx, %#lx, %#lx, %#lx, %#lx)\n",
                (unsigned long long)seed, batch, i, c.nr, c.a[0], c.a[1], c.a[2], c.a[3], c.a[4],
                c.a[5]);
        bool canary_call = c.nr == SYS_kstack_debug || c.nr == SYS_debug_kaddr;
        if (canary_call && !kstack_canary_intact())
            status = ST_KSTACK_CANARY;
        long r = make_call(&c);
        if (fuzz_ipc_number(c.nr)) {
            fuzz_ipc_track(c.nr, c.a, r);
            fz.ipc_calls++;
            fz.ipc_ok += r >= 0;
            fz.ipc_answered += c.nr == SYS_ipc_call && r >= 0;
        }
        count[outcome_of(r)]++;
        last = r;
        if (!in_table(c.nr) && r != -ENOSYS) {
            say("fuzz: %llu,%lu,%ld: unknown number %#lx returned %ld\n", (unsigned long long)seed,
                batch, i, (unsigned long)c.nr, r);
            status = ST_ENOSYS;
        }
        if (c.nr == SYS_brk)
            fz.brk = (uintptr_t)r;
        if (canary_call)
            syscall2(SYS_debug_kaddr, DEBUG_KADDR_STACK, DEBUG_KADDR_ARM);
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

/* ---- the parent: children, watchdog, checks ------------------------------ */

struct slot {
    volatile int pid; /* 0: free */
    unsigned long batch;
    volatile uint64_t started_ns;
    volatile unsigned long done_at_start; /* batches_done when it started */
};

/* Batches judged so far. A batch counts as hung after HANG_NS only if
 * HANG_OTHERS other batches finished meanwhile: a host that stops the whole
 * guest (TCG's clock follows the host's) stops them too. Without that
 * (one child at a time, or every child stuck) it takes 10 * HANG_NS. */
static volatile unsigned long batches_done;
#define HANG_OTHERS 4

static struct slot slots[MAX_CHILDREN];
static uint64_t seed;
static volatile int finished;
static char watchdog_stack[16384] __attribute__((aligned(16)));

static void replay_hint(unsigned long batch)
{
    ktap_note("reproduce: make fuzz FUZZ_SEED=%llu FUZZ_REPLAY=%lu (kernel command line "
              "run=fuzz run.args=replay,%llu,%lu kstack.debug run.control)",
              (unsigned long long)seed, batch, (unsigned long long)seed, batch);
}

/* Reports a child that has not finished its batch in HANG_NS, then ends the parent. */
static void watchdog(void *arg)
{
    int me = getpid();
    while (!finished) {
        sleep_ns(500000000);
        uint64_t now = now_ns();
        if (getpid() != me) { /* the kernel no longer answers correctly */
            ktap_check(false, "fuzz.kernel_answers");
            exit(1);
        }
        for (int i = 0; i < MAX_CHILDREN; i++) {
            int pid = slots[i].pid;
            uint64_t took = now - slots[i].started_ns;
            bool others = batches_done - slots[i].done_at_start >= HANG_OTHERS;
            if (pid && took > HANG_NS && (others || took > 10 * HANG_NS) && !finished) {
                ktap_note("HANG: child pid %d, batch %lu, made no progress for %llu s", pid,
                          slots[i].batch,
                          (unsigned long long)((now - slots[i].started_ns) / 1000000000ull));
                replay_hint(slots[i].batch);
                ktap_check(false, "fuzz.no_hangs");
                fflush(stdout);
                exit(1);
            }
        }
    }
}

static int spawn_child(unsigned long batch, long calls, uintptr_t canary, bool verbose)
{
    char s[24], b[24], n[24], k[24];
    snprintf(s, sizeof(s), "%llu", (unsigned long long)seed);
    snprintf(b, sizeof(b), "%lu", batch);
    snprintf(n, sizeof(n), "%ld", calls);
    snprintf(k, sizeof(k), "%lu", (unsigned long)canary);
    const char *argv[] = {"fuzz", "child", s, b, n, k, verbose ? "verbose" : NULL, NULL};
    /* The canary checks are debug calls, and the child's lines go to the
     * debug console: it gets DEBUG and CONSOLE, not KSTACK or LATENCY. */
    int ctl = handle_mint(IPC_CONTROL_HANDLE, IPC_RIGHT_DEBUG | IPC_RIGHT_CONSOLE, 0);
    int pid;
    for (;;) { /* the task table may be full for a moment: children's children */
        pid = ctl >= 0 ? spawn_with("fuzz", argv, &ctl, 1) : ctl;
        if (pid != -EAGAIN)
            break;
        sleep_ns(10000000);
    }
    if (ctl >= 0)
        handle_close(ctl);
    return pid;
}

struct tallies {
    unsigned long children, done, killed, survived, failed;
};

/* Sort out how a child ended; false if that is wrong. */
static bool judge(unsigned long batch, int status, struct tallies *t)
{
    bool fatal = fatal_batch(seed, batch);
    t->children++;
    if (status == 0 && !fatal) {
        t->done++;
        return true;
    }
    if (fatal && status > 128 && status < 160) {
        t->killed++;
        return true;
    }
    if (fatal && status == ST_SURVIVED) {
        t->survived++;
        return true;
    }
    static const char *const why[] = {"",
                                      "",
                                      "its kernel stack canary changed",
                                      "an unknown number did not return -ENOSYS",
                                      "bad arguments",
                                      "it survived a fatal call"};
    ktap_note("batch %lu ended with status %d (%s)", batch, status,
              status > 128 && status < 160 ? "killed, though its calls were all harmless"
              : status >= 0 && status < 6  ? why[status]
                                           : "?");
    replay_hint(batch);
    t->failed++;
    return false;
}

static int parent_main(long total, int ncpus)
{
    int parallel = 2 * ncpus > MAX_CHILDREN ? MAX_CHILDREN : 2 * ncpus;
    long strategy = syscall0(SYS_kstack_get);
    ktap_note("fuzz: seed %llu, %ld calls, %d children at a time, batches of %d",
              (unsigned long long)seed, total, parallel, BATCH_CALLS);
    fflush(stdout);
    long pages = pages_baseline();
    uintptr_t canary =
        (uintptr_t)syscall2(SYS_debug_kaddr, DEBUG_KADDR_DIRECT_MAP, DEBUG_KADDR_ARM);
    int wd = -1;
    for (int tries = 0; tries < 1000 && wd < 0; tries++) { /* the warm-up's threads are ending */
        wd = thread_create(watchdog, NULL, watchdog_stack, sizeof(watchdog_stack));
        if (wd < 0)
            sleep_ns(1000000);
    }
    if (wd < 0) {
        ktap_check(false, "fuzz.watchdog_started");
        return ktap_done();
    }
    struct tallies t = {0};
    unsigned long batches = (unsigned long)((total + BATCH_CALLS - 1) / BATCH_CALLS), next = 0;
    int live = 0;
    uint64_t start = now_ns();
    while (next < batches || live > 0) {
        while (next < batches && live < parallel) {
            int i = 0;
            while (slots[i].pid)
                i++;
            long calls = MIN(BATCH_CALLS, total - (long)next * BATCH_CALLS);
            slots[i].batch = next;
            slots[i].started_ns = now_ns();
            slots[i].done_at_start = batches_done;
            int pid = spawn_child(next++, calls, canary, false);
            if (pid < 0) {
                ktap_note("spawn: %d", pid);
                t.failed++;
                continue;
            }
            slots[i].pid = pid;
            live++;
        }
        int status = 0, pid = sys_wait(-1, &status);
        for (int i = 0; i < MAX_CHILDREN && pid > 0; i++) {
            if (slots[i].pid == pid) {
                judge(slots[i].batch, status, &t);
                batches_done++;
                slots[i].pid = 0;
                live--;
            }
        }
    }
    uint64_t ns = now_ns() - start;
    finished = 1;
    syscall1(SYS_kstack_set, strategy); /* the children chose others */
    syscall1(SYS_latency_ctl, LATENCY_OFF);
    long now;
    bool back = pages_back_to(pages, 30000000000ull, &now);
    long canary_changed = syscall2(SYS_debug_kaddr, DEBUG_KADDR_DIRECT_MAP, DEBUG_KADDR_CHECK);
    double secs = (double)ns / 1e9;
    ktap_note("fuzz: %ld calls in %.1f s of guest time: %.0f calls/s", total, secs,
              secs > 0 ? (double)total / secs : 0.0);
    ktap_note("fuzz: %lu children: %lu finished their batch, %lu killed by their fatal last "
              "call as planned, %lu survived it, %lu wrong",
              t.children, t.done, t.killed, t.survived, t.failed);
    ktap_note("fuzz: free pages %ld at the start, %ld at the end", pages, now);
    KTAP_EXPECT_EQ(t.children, batches, "fuzz.every_batch_ran");
    KTAP_EXPECT_EQ(t.failed, 0, "fuzz.children_ended_as_expected");
    ktap_check(t.killed > 0 || batches < 8, "fuzz.fatal_calls_killed_the_caller");
    ktap_check(true, "fuzz.no_hangs"); /* the watchdog would have said otherwise */
    char me[16];
    snprintf(me, sizeof(me), "%d", getpid());
    int status = -1, pid = spawn("child", (const char *[]){"child", "9", me, NULL});
    ktap_check(pid > 0 && sys_wait(pid, &status) == pid && status == 9, "fuzz.kernel_answers");
    KTAP_EXPECT_EQ(canary_changed, 0, "fuzz.kernel_canary_intact");
    ktap_check(back, "fuzz.no_pages_lost");
    return ktap_done();
}

static int replay(unsigned long batch)
{
    uintptr_t canary =
        (uintptr_t)syscall2(SYS_debug_kaddr, DEBUG_KADDR_DIRECT_MAP, DEBUG_KADDR_ARM);
    int status = -1, pid = spawn_child(batch, BATCH_CALLS, canary, true);
    if (pid < 0 || sys_wait(pid, &status) != pid)
        return 1;
    struct tallies t = {0};
    ktap_check(judge(batch, status, &t), "fuzz.replay_%lu", batch);
    return ktap_done();
}

static uint64_t number(const char *s)
{
    return strtoull(s, NULL, 0);
}

int main(int argc, char **argv)
{
    if (argc >= 6 && strcmp(argv[1], "child") == 0) {
        fz.verbose = argc > 6;
        return child_main(number(argv[2]), number(argv[3]), (long)number(argv[4]), number(argv[5]));
    }
    struct debug_stats st;
    syscall1(SYS_debug_stats, &st);
    if (argc >= 4 && strcmp(argv[1], "replay") == 0) {
        seed = number(argv[2]);
        return replay(number(argv[3]));
    }
    long total = argc > 1 ? (long)number(argv[1]) : 10000000;
    seed = argc > 2 && argv[2][0] ? number(argv[2]) : now_ns() ^ 0x5eed5eed5eed5eedull;
    if (total <= 0) {
        ktap_check(false, "fuzz.arguments");
        return 1;
    }
    return parent_main(total, (int)st.cpus_online);
}
