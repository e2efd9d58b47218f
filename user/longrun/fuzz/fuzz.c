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

#include "user/longrun/fuzz/fuzz.h"

#define MAX_CHILDREN 16
#define HANG_NS      60000000000ull /* a batch takes well under a second */
#define MIN(a, b)    ((a) < (b) ? (a) : (b))

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

/* The watchdog thread: false if it could not be started. */
static bool start_watchdog(void)
{
    int wd = -1;
    for (int tries = 0; tries < 1000 && wd < 0; tries++) { /* the warm-up's threads are ending */
        wd = thread_create(watchdog, NULL, watchdog_stack, sizeof(watchdog_stack));
        if (wd < 0)
            sleep_ns(1000000);
    }
    return wd >= 0;
}

/* Batch `next` spawned into a free slot: false if the spawn failed. */
static bool start_batch(unsigned long next, long total, uintptr_t canary)
{
    int i = 0;
    while (slots[i].pid)
        i++;
    long calls = MIN(BATCH_CALLS, total - (long)next * BATCH_CALLS);
    slots[i].batch = next;
    slots[i].started_ns = now_ns();
    slots[i].done_at_start = batches_done;
    int pid = spawn_child(next, calls, canary, false);
    if (pid < 0) {
        ktap_note("spawn: %d", pid);
        return false;
    }
    slots[i].pid = pid;
    return true;
}

/* Every batch run, `parallel` children at a time, each judged as it ends. */
static void run_batches(unsigned long batches, long total, int parallel, uintptr_t canary,
                        struct tallies *t)
{
    unsigned long next = 0;
    int live = 0;
    while (next < batches || live > 0) {
        while (next < batches && live < parallel) {
            if (start_batch(next++, total, canary))
                live++;
            else
                t->failed++;
        }
        int status = 0, pid = sys_wait(-1, &status);
        for (int i = 0; i < MAX_CHILDREN && pid > 0; i++) {
            if (slots[i].pid == pid) {
                judge(slots[i].batch, status, t);
                batches_done++;
                slots[i].pid = 0;
                live--;
            }
        }
    }
}

/* After the batches: the kernel still answers, its canary and pages intact. */
static void check_kernel_after(bool back, long canary_changed)
{
    ktap_check(true, "fuzz.no_hangs"); /* the watchdog would have said otherwise */
    char me[16];
    snprintf(me, sizeof(me), "%d", getpid());
    int status = -1, pid = spawn("child", (const char *[]){"child", "9", me, NULL});
    ktap_check(pid > 0 && sys_wait(pid, &status) == pid && status == 9, "fuzz.kernel_answers");
    KTAP_EXPECT_EQ(canary_changed, 0, "fuzz.kernel_canary_intact");
    ktap_check(back, "fuzz.no_pages_lost");
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
    if (!start_watchdog()) {
        ktap_check(false, "fuzz.watchdog_started");
        return ktap_done();
    }
    struct tallies t = {0};
    unsigned long batches = (unsigned long)((total + BATCH_CALLS - 1) / BATCH_CALLS);
    uint64_t start = now_ns();
    run_batches(batches, total, parallel, canary, &t);
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
    check_kernel_after(back, canary_changed);
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
        return child_main(number(argv[2]), number(argv[3]), (long)number(argv[4]), number(argv[5]),
                          argc > 6);
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
