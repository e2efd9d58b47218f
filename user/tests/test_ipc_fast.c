/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_ipc_fast.c - the IPC fastpath (kernel/ipc/fastpath.c):
 * which calls take it and which fall back to the ordinary path, by guard,
 * read from SYS_debug_stats; and one fixed-seed workload whose transcript
 * (every call with its result and the words that came back) must hash to
 * the same value with the fastpath on and off (ipc.fastpath=0, the
 * <arch>.*.smp3 boots). Prints the ipc.fastpath_* subtests; the
 * fastpath is also switched off and on at run time
 * (ipc.fastpath_runtime_switch).
 *
 * Servers are this program spawned again (test_ipc_fast server CPU) with
 * an endpoint as handle 0, pinned to one CPU; the client pins itself to
 * CPU 0. Nothing is printed between two readings of the counters: the
 * console server's own calls would count.
 */
#include "kernel/uapi/kstack.h"
#include "kernel/uapi/latency.h"
#include "lib/user/ipc.h"
#include "lib/user/ulib.h"

int main(int argc, char **argv);

#define MS         1000000ull
#define STACK_SIZE (16 * 1024)
#define UNUSED_H   20 /* a handle number no test holds */

enum { L_ECHO = 1, L_BADGE, L_SLOW, L_DIE, L_FP };

static char stacks[2][STACK_SIZE] __attribute__((aligned(16)));

static struct ipc_msg msg(unsigned long label, unsigned long len, unsigned long w0,
                          unsigned long w1, unsigned long w2, unsigned long w3)
{
    return (struct ipc_msg){.tag = IPC_TAG(label, len), .w = {w0, w1, w2, w3}};
}

/* ---- the server role ---------------------------------------------------------- */

static bool answer(struct ipc_msg *m, unsigned long *buf, long badge)
{
    unsigned long n = IPC_TAG_LEN(m->tag);
    switch (IPC_TAG_LABEL(m->tag)) {
    case L_ECHO:
        for (int i = 0; i < IPC_REG_WORDS; i++)
            m->w[i] = ~m->w[i];
        for (unsigned long i = 0; i < n; i++)
            buf[i] = ~buf[i];
        return true;
    case L_BADGE: *m = msg(L_BADGE, 0, (unsigned long)badge, 0, 0, 0); return true;
    case L_SLOW: /* at most 0.1 s: words a broken kernel mixed up cannot hang the test */
        sleep_ns(m->w[0] < 100 * MS ? m->w[0] : 100 * MS);
        *m = msg(L_SLOW, 0, 0, 0, 0, 0);
        return true;
    case L_DIE: exit(5);
    case L_FP: { /* some FP of the server's own between the client's */
        volatile double x = (double)m->w[0];
        x = x * 3.25 + 0.5;
        *m = msg(L_FP, 0, (unsigned long)(x * 4.0), 0, 0, 0);
        return true;
    }
    default: return false;
    }
}

static void serve(int h)
{
    unsigned long buf[IPC_BUF_WORDS];
    ipc_set_buffer(buf);
    struct ipc_msg m;
    long badge = ipc_recv(h, &m);
    while (badge >= 0 && answer(&m, buf, badge))
        badge = ipc_reply_recv(h, &m);
}

static int server_role(int cpu)
{
    sys_sched_setaffinity(0, 1ul << cpu);
    serve(0);
    return 0;
}

/* A server on `cpu` in another program, serving endpoint e. */
static int spawn_server(int e, int cpu)
{
    char cpu_arg[2] = {(char)('0' + cpu), 0};
    const char *argv[] = {"test_ipc_fast", "server", cpu_arg, NULL};
    return spawn_with("test_ipc_fast", argv, &e, 1);
}

/* Make the server behind e (program pid) exit: its caller gets -EPIPE. A
 * server that answered instead is not waited for (it would never end). */
static bool servers_ok = true;

static void stop_server(int e, int pid)
{
    struct ipc_msg m = msg(L_DIE, 0, 0, 0, 0, 0);
    int status = -1;
    bool ok = ipc_call(e, &m) == -EPIPE && sys_wait(pid, &status) == pid && status == 5;
    servers_ok = servers_ok && ok;
}

/* ---- counters ------------------------------------------------------------------- */

struct fast {
    long hits, misses[IPC_FAST_GUARDS];
    long words_copied;                        /* extra message words the kernel copied */
    long direct, not_direct[IPC_DIRECT_WHYS]; /* partners resumed straight to user, or why not */
    long ticks0;                              /* timer ticks on CPU 0 */
};

static bool fastpath_on, direct_built;

static struct fast fast_now(void)
{
    struct debug_stats st;
    struct fast f = {0};
    if (syscall1(SYS_debug_stats, &st) != 0)
        return f;
    fastpath_on = st.ipc_fastpath != 0;
    f.hits = (long)st.ipc_fast_hits;
    for (int g = 0; g < IPC_FAST_GUARDS; g++)
        f.misses[g] = (long)st.ipc_fast_misses[g];
    f.words_copied = (long)st.ipc_words_copied;
    direct_built = st.ipc_direct_built != 0;
    f.direct = (long)st.ipc_direct_resumes;
    for (int w = 0; w < IPC_DIRECT_WHYS; w++)
        f.not_direct[w] = (long)st.ipc_direct_not[w];
    f.ticks0 = (long)st.ticks[0];
    return f;
}

static struct fast fast_since(struct fast before)
{
    struct fast f = fast_now();
    f.hits -= before.hits;
    for (int g = 0; g < IPC_FAST_GUARDS; g++)
        f.misses[g] -= before.misses[g];
    f.words_copied -= before.words_copied;
    f.direct -= before.direct;
    for (int w = 0; w < IPC_DIRECT_WHYS; w++)
        f.not_direct[w] -= before.not_direct[w];
    f.ticks0 -= before.ticks0;
    return f;
}

static long misses(struct fast f)
{
    long n = 0;
    for (int g = 0; g < IPC_FAST_GUARDS; g++)
        n += f.misses[g];
    return n;
}

static void note(const char *what, struct fast f)
{
    ktap_note("%s: %ld hits; misses long %ld, bad handle %ld, no right %ld, no partner %ld, "
              "busy %ld, other cpu %ld, killed %ld",
              what, f.hits, f.misses[IPC_FAST_LONG], f.misses[IPC_FAST_BAD_HANDLE],
              f.misses[IPC_FAST_NO_RIGHT], f.misses[IPC_FAST_NO_PARTNER], f.misses[IPC_FAST_BUSY],
              f.misses[IPC_FAST_OTHER_CPU], f.misses[IPC_FAST_KILLED]);
}

/* With the fastpath on, exactly `hits` hits and `want` misses of `guard`
 * (-1: none); with it off, nothing counted at all. */
static bool matches(struct fast f, long hits, int guard, long want)
{
    if (!fastpath_on)
        return f.hits == 0 && misses(f) == 0;
    return f.hits == hits && misses(f) == (guard < 0 ? 0 : want) &&
           (guard < 0 || f.misses[guard] == want);
}

static void expect(struct fast f, long hits, int guard, long want, const char *name)
{
    bool ok = matches(f, hits, guard, want);
    if (!ok)
        note(name, f);
    ktap_check(ok, "%s", name);
}

/* ---- which calls take it ----------------------------------------------------------- */

static bool echo(int h, unsigned long len, unsigned long seed)
{
    static unsigned long buf[IPC_BUF_WORDS];
    ipc_set_buffer(buf);
    for (unsigned long i = 0; i < len; i++)
        buf[i] = seed * 31 + i;
    struct ipc_msg m = msg(L_ECHO, len, seed, seed << 1, ~seed, seed ^ 0x5a5a), sent = m;
    bool ok = ipc_call(h, &m) == 0 && m.tag == sent.tag;
    for (int i = 0; i < IPC_REG_WORDS; i++)
        ok = ok && m.w[i] == ~sent.w[i];
    for (unsigned long i = 0; i < len; i++)
        ok = ok && buf[i] == ~(seed * 31 + i);
    return ok;
}

/* A counter of the strategy in force (KSTACK_CNT_*) so far, all CPUs. */
static long kstack_count(int which)
{
    static struct kstack_stats st;
    long strategy = syscall0(SYS_kstack_get);
    if (strategy < 0 || strategy >= KSTACK_NR || syscall2(SYS_kstack_stats, -1, &st) != 0)
        return -1;
    return (long)st.count[strategy][which];
}

/* Stack offsets drawn so far under the strategy in force, all CPUs. */
static long draws(void)
{
    return kstack_count(KSTACK_CNT_DRAWS);
}

static void test_hits(int h)
{
    bool ok = echo(h, 0, 1); /* the server now waits in ipc_reply_recv */
    long draws_before = draws();
    struct fast before = fast_now();
    for (unsigned long i = 0; i < 100; i++)
        ok = ok && echo(h, 0, i);
    struct fast f = fast_since(before);
    long drawn = draws() - draws_before;
    ktap_check(ok, "ipc.fastpath_words_arrive");
    expect(f, 200, -1, 0, "ipc.fastpath_call_and_reply_hit");
    /* The fastpath runs below the dispatcher: each of the 300 system calls
     * (echo's ipc_set_buffer, ipc_call, the server's ipc_reply_recv) drew
     * its stack offset, as they do with ipc.fastpath=0, plus the few reads
     * between (nothing else runs). Under kstack=off nothing is drawn. */
    if (draws_before < 0 || syscall0(SYS_kstack_get) == KSTACK_OFF) {
        ktap_skip("ipc.fastpath_every_entry_draws_an_offset", "no draws to count");
        return;
    }
    if (drawn < 300 || drawn > 310)
        ktap_note("%ld offsets drawn in 100 round trips", drawn);
    ktap_check(drawn >= 300 && drawn <= 310, "ipc.fastpath_every_entry_draws_an_offset");
}

static long fastpath_switch(long to)
{
    return syscall1(SYS_debug_ipc_fastpath, to);
}

/* The switch at run time (SYS_debug_ipc_fastpath, behind the debug gate):
 * off, 50 round trips count nothing at all; on, they are 100 hits; then
 * back as the boot had it (ipc.fastpath=0 in the *.smp3 boots). */
static void test_runtime_switch(int h)
{
    long was = fastpath_switch(IPC_FASTPATH_QUERY);
    bool ok = (was == 0 || was == 1) && fastpath_switch(IPC_FASTPATH_OFF) == was;
    struct fast before = fast_now();
    bool said_off = !fastpath_on;
    for (unsigned long i = 0; i < 50; i++)
        ok = ok && echo(h, 0, i);
    struct fast off = fast_since(before);
    ok = ok && fastpath_switch(IPC_FASTPATH_ON) == 0;
    before = fast_now();
    bool said_on = fastpath_on;
    for (unsigned long i = 0; i < 50; i++)
        ok = ok && echo(h, 0, i);
    struct fast on = fast_since(before);
    ok = ok && fastpath_switch(was) == 1 && fastpath_switch(7) == -EINVAL;
    fast_now(); /* fastpath_on as the boot had it again */
    if (!ok || off.hits || misses(off) || on.hits != 100 || misses(on)) {
        ktap_note("switch: boot state %ld, debug_stats said off %d, on %d", was, said_off, said_on);
        note("switched off, 50 round trips", off);
        note("switched on, 50 round trips", on);
    }
    ktap_check(ok && said_off && said_on && off.hits == 0 && misses(off) == 0 && on.hits == 100 &&
                   misses(on) == 0,
               "ipc.fastpath_runtime_switch");
}

/* ---- straight back to user mode ----------------------------------------------------- */

static void note_direct(const char *what, struct fast f)
{
    ktap_note("%s: %ld hits, %ld resumed straight to user; not: exit work %ld, return checks "
              "%ld, slept elsewhere %ld; %ld ticks on CPU 0",
              what, f.hits, f.direct, f.not_direct[IPC_DIRECT_EXIT_WORK],
              f.not_direct[IPC_DIRECT_RETURN_CHECKS], f.not_direct[IPC_DIRECT_SLEPT_ELSEWHERE],
              f.ticks0);
}

/* One round trip so that both sides sleep in the fastpath under the path
 * in force, then 100 counted; *updates: the strategy's exit updates in them. */
static struct fast round_trips(int h, bool *ok, long *updates)
{
    *ok = echo(h, 0, 1) && *ok;
    long before_updates = kstack_count(KSTACK_CNT_EXIT_UPDATES);
    struct fast before = fast_now();
    for (unsigned long i = 0; i < 100; i++)
        *ok = echo(h, 0, i) && *ok;
    struct fast f = fast_since(before);
    *updates = kstack_count(KSTACK_CNT_EXIT_UPDATES) - before_updates;
    return f;
}

/* Under `off`, untimed, every one of the 200 partners woken is resumed
 * straight to user mode, but those a tick asked a reschedule or a refill
 * of first (at most one per tick on CPU 0, where both run). */
static void direct_resume(int h)
{
    bool ok = syscall1(SYS_kstack_set, KSTACK_OFF) == 0;
    long updates;
    struct fast f = round_trips(h, &ok, &updates);
    long checks = f.not_direct[IPC_DIRECT_RETURN_CHECKS];
    bool right = f.hits == 200 && f.direct + checks == 200 && checks <= f.ticks0 + 2 &&
                 f.not_direct[IPC_DIRECT_EXIT_WORK] == 0 &&
                 f.not_direct[IPC_DIRECT_SLEPT_ELSEWHERE] == 0;
    if (!ok || !right)
        note_direct("off, 100 round trips", f);
    ktap_check(ok && right, "ipc.fastpath_direct_resume");
}

/* A path that owes work after the handler is never skipped: under `task`
 * each of the 300 calls (ipc_set_buffer, ipc_call, the server's
 * ipc_reply_recv; plus the reads between) chooses its next offset at its
 * exit, and with the latency timers on none is resumed directly either. */
static void exit_work_kept(int h)
{
    bool ok = syscall1(SYS_kstack_set, KSTACK_TASK) == 0;
    long updates;
    struct fast task = round_trips(h, &ok, &updates);
    bool task_right = task.direct == 0 && task.not_direct[IPC_DIRECT_EXIT_WORK] == 200 &&
                      updates >= 300 && updates <= 310;
    if (!ok || !task_right) {
        ktap_note("task: %ld exit updates in 100 round trips, want 300 to 310", updates);
        note_direct("task, 100 round trips", task);
    }
    ok = ok && syscall1(SYS_kstack_set, KSTACK_OFF) == 0 &&
         syscall1(SYS_latency_ctl, LATENCY_ON) == 0;
    struct fast timed = round_trips(h, &ok, &updates);
    syscall1(SYS_latency_ctl, LATENCY_OFF);
    bool timed_right = timed.direct == 0 && timed.not_direct[IPC_DIRECT_EXIT_WORK] == 200;
    if (!ok || !timed_right)
        note_direct("off, timed, 100 round trips", timed);
    ktap_check(ok && task_right && timed_right, "ipc.fastpath_direct_keeps_exit_work");
}

static void test_direct_resume(int h)
{
    fast_now();
    if (!direct_built) {
        ktap_skip("ipc.fastpath_direct_resume", "no arch_switch_to_user on this arch yet");
        ktap_skip("ipc.fastpath_direct_keeps_exit_work", "no arch_switch_to_user on this arch yet");
        return;
    }
    long strategy = syscall0(SYS_kstack_get);
    long was = fastpath_switch(IPC_FASTPATH_ON);
    direct_resume(h);
    exit_work_kept(h);
    syscall1(SYS_kstack_set, strategy);
    fastpath_switch(was);
    fast_now();
}

static void test_fallbacks(int h, int e)
{
    struct fast before = fast_now();
    bool ok = echo(h, 4, 7);
    struct fast f = fast_since(before);
    ktap_check(ok, "ipc.fastpath_long_message_words");
    expect(f, 0, IPC_FAST_LONG, 2, "ipc.fastpath_long_message_falls_back");

    /* 64 words each way, each copied twice (the caller's buffer into its
     * slot, from there into the server's buffer; and back): 256. A copy
     * from slot to slot would make it 384. */
    before = fast_now();
    ok = echo(h, IPC_BUF_WORDS, 11);
    f = fast_since(before);
    if (f.words_copied != 4 * IPC_BUF_WORDS)
        ktap_note("%ld words copied for one call64 round trip, want %d", f.words_copied,
                  4 * IPC_BUF_WORDS);
    ktap_check(ok && f.words_copied == 4 * IPC_BUF_WORDS, "ipc.long_message_copied_twice");

    struct ipc_msg m = msg(L_ECHO, 0, 0, 0, 0, 0);
    before = fast_now();
    long r = ipc_call(UNUSED_H, &m);
    f = fast_since(before);
    expect(f, 0, IPC_FAST_BAD_HANDLE, 1, "ipc.fastpath_bad_handle_falls_back");
    KTAP_EXPECT_EQ(r, -EBADF, "ipc.fastpath_bad_handle_error");

    int recv_only = handle_mint(e, IPC_RIGHT_RECV, 0);
    before = fast_now();
    r = ipc_call(recv_only, &m);
    f = fast_since(before);
    expect(f, 0, IPC_FAST_NO_RIGHT, 1, "ipc.fastpath_no_right_falls_back");
    KTAP_EXPECT_EQ(r, -EPERM, "ipc.fastpath_no_right_error");
    handle_close(recv_only);
}

/* A server thread of this program that starts receiving late (no receiver
 * when the call comes), and serves a slow request while a second caller
 * queues (a sender waits when it replies). */
static struct {
    int e;
    volatile int started, done;
} late;

static void late_server(void *arg)
{
    (void)arg;
    sys_sched_setaffinity(0, 1);
    late.started = 1;
    sleep_ns(30 * MS);
    serve(late.e);
    late.done = 1;
}

static volatile long queued_result = 1;

static void queued_caller(void *arg)
{
    (void)arg;
    sys_sched_setaffinity(0, 1);
    sleep_ns(10 * MS); /* the server is in its L_SLOW by then */
    struct ipc_msg m = msg(L_ECHO, 0, 3, 0, 0, 0);
    queued_result = ipc_call(late.e, &m);
}

static struct {
    struct fast no_receiver, sender_waiting;
    bool words, served;
} round_;

/* One round of both cases on a fresh endpoint; true if each came out as
 * it should. Timed by sleeps, so a host that stops the guest at the wrong
 * moment can let the server reach its receive first: up to five rounds. */
static bool late_round(void)
{
    late.e = endpoint_create();
    late.started = late.done = 0;
    int server = thread_create(late_server, NULL, stacks[0], STACK_SIZE);
    while (!late.started)
        sleep_ns(MS);
    struct fast before = fast_now();
    round_.words = echo(late.e, 0, 9); /* no receiver yet: queued, then served */
    round_.no_receiver = fast_since(before);
    queued_result = 1;
    int caller = thread_create(queued_caller, NULL, stacks[1], STACK_SIZE);
    before = fast_now();
    struct ipc_msg m = msg(L_SLOW, 0, 100 * MS, 0, 0, 0);
    long r = ipc_call(late.e, &m);
    for (int i = 0; i < 5000 && queued_result == 1; i++)
        sleep_ns(MS);
    round_.sender_waiting = fast_since(before);
    round_.served = r == 0 && queued_result == 0;
    handle_close(late.e); /* the server's receive fails: it stops */
    for (int i = 0; i < 5000 && !late.done; i++)
        sleep_ns(MS);
    if (late.done && queued_result != 1) { /* both ended: the next round reuses their stacks */
        thread_join(server);
        thread_join(caller);
    }
    /* The reply finds this thread asleep on CPU 0: a hit. */
    return matches(round_.no_receiver, 1, IPC_FAST_NO_PARTNER, 1) &&
           (!fastpath_on || round_.sender_waiting.misses[IPC_FAST_BUSY] >= 1);
}

static void test_partner_missing(void)
{
    for (int i = 0; i < 5 && !late_round(); i++)
        ;
    expect(round_.no_receiver, 1, IPC_FAST_NO_PARTNER, 1, "ipc.fastpath_no_receiver_falls_back");
    ktap_check(round_.words, "ipc.fastpath_no_receiver_words");
    ktap_check(round_.served, "ipc.fastpath_queued_caller_served");
    bool busy = !fastpath_on || round_.sender_waiting.misses[IPC_FAST_BUSY] >= 1;
    if (!busy)
        note("sender waiting", round_.sender_waiting);
    ktap_check(busy, "ipc.fastpath_sender_waiting_falls_back");
}

/* ---- a lent slot ---------------------------------------------------------------------- */

/* An ipc_send's extra words stay in the sender's slot until the receiver
 * has copied them (kernel/ipc/types.h): a second long message, staged at
 * once while the receiver woken on this CPU has not run yet, must wait for
 * that copy rather than overwrite them. */
static struct {
    int e;
    volatile int done;
    volatile bool words_ok;
    unsigned long buf[IPC_BUF_WORDS];
} lent;

static void lent_receiver(void *arg)
{
    (void)arg;
    sys_sched_setaffinity(0, 1);
    ipc_set_buffer(lent.buf);
    struct ipc_msg m;
    long r = ipc_recv(lent.e, &m);
    bool ok = r >= 0 && IPC_TAG_LEN(m.tag) == IPC_BUF_WORDS;
    for (unsigned long i = 0; ok && i < IPC_BUF_WORDS; i++)
        ok = lent.buf[i] == 0xa0000 + i;
    lent.words_ok = ok;
    lent.done = 1;
}

static void test_lent_slot(void)
{
    static unsigned long buf[IPC_BUF_WORDS];
    lent.e = endpoint_create();
    lent.done = 0;
    thread_create(lent_receiver, NULL, stacks[0], STACK_SIZE);
    ipc_set_buffer(buf);
    for (unsigned long i = 0; i < IPC_BUF_WORDS; i++)
        buf[i] = 0xa0000 + i;
    struct ipc_msg m = msg(L_ECHO, IPC_BUF_WORDS, 0, 0, 0, 0);
    long r = -EAGAIN;
    for (int i = 0; i < 5000 && r == -EAGAIN; i++) { /* until the receiver waits */
        r = ipc_send(lent.e, &m);
        if (r == -EAGAIN)
            sleep_ns(MS);
    }
    for (unsigned long i = 0; i < IPC_BUF_WORDS; i++)
        buf[i] = 0xb0000 + i;
    ipc_send(lent.e, &m); /* -EAGAIN: nobody waits; but its words were staged first */
    for (int i = 0; i < 5000 && !lent.done; i++)
        sleep_ns(MS);
    if (r != 0 || !lent.words_ok)
        ktap_note("first send %ld, receiver %s", r,
                  !lent.done      ? "never done"
                  : lent.words_ok ? "ok"
                                  : "saw other words");
    ktap_check(r == 0 && lent.words_ok, "ipc.send_words_kept_until_received");
    handle_close(lent.e);
}

static int online_cpus(void)
{
    struct debug_stats st;
    syscall1(SYS_debug_stats, &st);
    return (int)st.cpus_online;
}

static void test_other_cpu(void)
{
    if (online_cpus() < 2) {
        ktap_skip("ipc.fastpath_other_cpu_falls_back", "one CPU");
        return;
    }
    int e = endpoint_create();
    int pid = spawn_server(e, 1);
    bool ok = pid > 0 && echo(e, 0, 1);
    struct fast before = fast_now();
    for (unsigned long i = 0; i < 10; i++)
        ok = ok && echo(e, 0, i);
    struct fast f = fast_since(before);
    bool right = !fastpath_on || (f.hits == 0 && f.misses[IPC_FAST_OTHER_CPU] >= 10);
    if (!right)
        note("other cpu", f);
    ktap_check(ok && right, "ipc.fastpath_other_cpu_falls_back");
    stop_server(e, pid);
    handle_close(e);
}

/* ---- FP state across IPC ---------------------------------------------------------------- */

/* The client keeps a double in its registers across 200 calls, alternating
 * between a server that does FP (L_FP) and one that does none (L_ECHO), all
 * on CPU 0: every switch between them is a fastpath hand-off, and each
 * side's FP registers must come back as it left them (arm64 and riscv64
 * load them only at a thread's first FP instruction after a switch). */
static void test_fp_chain(void)
{
    int fp_e = endpoint_create(), int_e = endpoint_create();
    int fp_pid = spawn_server(fp_e, 0), int_pid = spawn_server(int_e, 0);
    double acc = 1.0;
    bool ok = fp_pid > 0 && int_pid > 0;
    for (unsigned long i = 0; ok && i < 200; i++) {
        acc = acc * 1.001 + (double)i;
        struct ipc_msg m = msg(i % 2 ? L_FP : L_ECHO, 0, i, 0, 0, 0);
        long r = ipc_call(i % 2 ? fp_e : int_e, &m);
        ok = r == 0 && m.w[0] == (i % 2 ? (unsigned long)(((double)i * 3.25 + 0.5) * 4.0) : ~i);
    }
    volatile double want = 1.0;
    for (unsigned long i = 0; i < 200; i++)
        want = want * 1.001 + (double)i;
    ktap_check(ok && acc == want, "ipc.fastpath_fp_state_kept_across_ipc");
    stop_server(fp_e, fp_pid);
    stop_server(int_e, int_pid);
    handle_close(fp_e);
    handle_close(int_e);
}

/* ---- callee-saved registers across IPC ------------------------------------------------ */

/*
 * regs_syscall(nr, h, m, seed, got): system call nr on handle h with
 * message m (which the answer replaces), every callee-saved register of
 * the ABI, the frame pointer included, set to seed + 1, seed + 2, ... just
 * before the system call instruction and written to got[] just after it.
 * A thread the kernel resumes straight from its trapframe gets these back
 * only if its IPC entry stored them there (arch/<arch>/ipc_entry.S).
 * x86_64: rbx rbp r12-r15; arm64: x19-x29 and TPIDR_EL0; riscv64: s0-s11.
 */
long regs_syscall(long nr, long h, struct ipc_msg *m, unsigned long seed, unsigned long *got);
#if defined(__x86_64__)
#define CALLEE_SAVED 6
__asm__(".text\n.globl regs_syscall\nregs_syscall:\n"
        "push %rbx\npush %rbp\npush %r12\npush %r13\npush %r14\npush %r15\n"
        "push %r8\npush %rdx\n" /* got, m */
        "mov %rdi, %rax\nmov %rsi, %rdi\nmov %rdx, %r11\n"
        "lea 1(%rcx), %rbx\nlea 2(%rcx), %rbp\nlea 3(%rcx), %r12\n"
        "lea 4(%rcx), %r13\nlea 5(%rcx), %r14\nlea 6(%rcx), %r15\n"
        "mov 0(%r11), %rsi\nmov 8(%r11), %rdx\nmov 16(%r11), %r10\n"
        "mov 24(%r11), %r8\nmov 32(%r11), %r9\n"
        "syscall\n"
        "pop %r11\n" /* m */
        "mov %rsi, 0(%r11)\nmov %rdx, 8(%r11)\nmov %r10, 16(%r11)\n"
        "mov %r8, 24(%r11)\nmov %r9, 32(%r11)\n"
        "pop %r11\n" /* got */
        "mov %rbx, 0(%r11)\nmov %rbp, 8(%r11)\nmov %r12, 16(%r11)\n"
        "mov %r13, 24(%r11)\nmov %r14, 32(%r11)\nmov %r15, 40(%r11)\n"
        "pop %r15\npop %r14\npop %r13\npop %r12\npop %rbp\npop %rbx\nret\n");
#elif defined(__aarch64__)
/* x19-x29, then TPIDR_EL0: not a register of the procedure call standard,
 * but the thread's own (EL0 writes it), which the kernel keeps across a
 * system call and the direct return loads from the trapframe. */
#define CALLEE_SAVED 12
__asm__(".text\n.globl regs_syscall\nregs_syscall:\n"
        "stp x19, x20, [sp, #-128]!\nstp x21, x22, [sp, #16]\nstp x23, x24, [sp, #32]\n"
        "stp x25, x26, [sp, #48]\nstp x27, x28, [sp, #64]\nstp x29, x30, [sp, #80]\n"
        "stp x2, x4, [sp, #96]\n" /* m, got */
        "mrs x9, tpidr_el0\nstr x9, [sp, #112]\nadd x9, x3, #12\nmsr tpidr_el0, x9\n"
        "mov x8, x0\nmov x0, x1\nmov x9, x2\n"
        "add x19, x3, #1\nadd x20, x3, #2\nadd x21, x3, #3\nadd x22, x3, #4\n"
        "add x23, x3, #5\nadd x24, x3, #6\nadd x25, x3, #7\nadd x26, x3, #8\n"
        "add x27, x3, #9\nadd x28, x3, #10\nadd x29, x3, #11\n"
        "ldp x1, x2, [x9]\nldp x3, x4, [x9, #16]\nldr x5, [x9, #32]\n"
        "svc #0\n"
        "ldp x9, x10, [sp, #96]\n"
        "stp x1, x2, [x9]\nstp x3, x4, [x9, #16]\nstr x5, [x9, #32]\n"
        "stp x19, x20, [x10]\nstp x21, x22, [x10, #16]\nstp x23, x24, [x10, #32]\n"
        "stp x25, x26, [x10, #48]\nstp x27, x28, [x10, #64]\nmrs x9, tpidr_el0\n"
        "stp x29, x9, [x10, #80]\nldr x9, [sp, #112]\nmsr tpidr_el0, x9\n"
        "ldp x29, x30, [sp, #80]\nldp x27, x28, [sp, #64]\nldp x25, x26, [sp, #48]\n"
        "ldp x23, x24, [sp, #32]\nldp x21, x22, [sp, #16]\nldp x19, x20, [sp], #128\nret\n");
#elif defined(__riscv)
#define CALLEE_SAVED 12
__asm__(".text\n.globl regs_syscall\nregs_syscall:\n"
        "addi sp, sp, -112\n"
        "sd s0, 0(sp)\nsd s1, 8(sp)\nsd s2, 16(sp)\nsd s3, 24(sp)\nsd s4, 32(sp)\n"
        "sd s5, 40(sp)\nsd s6, 48(sp)\nsd s7, 56(sp)\nsd s8, 64(sp)\nsd s9, 72(sp)\n"
        "sd s10, 80(sp)\nsd s11, 88(sp)\nsd a2, 96(sp)\nsd a4, 104(sp)\n" /* m, got */
        "mv a7, a0\nmv a0, a1\nmv t0, a2\n"
        "addi s0, a3, 1\naddi s1, a3, 2\naddi s2, a3, 3\naddi s3, a3, 4\n"
        "addi s4, a3, 5\naddi s5, a3, 6\naddi s6, a3, 7\naddi s7, a3, 8\n"
        "addi s8, a3, 9\naddi s9, a3, 10\naddi s10, a3, 11\naddi s11, a3, 12\n"
        "ld a1, 0(t0)\nld a2, 8(t0)\nld a3, 16(t0)\nld a4, 24(t0)\nld a5, 32(t0)\n"
        "ecall\n"
        "ld t0, 96(sp)\nld t1, 104(sp)\n"
        "sd a1, 0(t0)\nsd a2, 8(t0)\nsd a3, 16(t0)\nsd a4, 24(t0)\nsd a5, 32(t0)\n"
        "sd s0, 0(t1)\nsd s1, 8(t1)\nsd s2, 16(t1)\nsd s3, 24(t1)\nsd s4, 32(t1)\n"
        "sd s5, 40(t1)\nsd s6, 48(t1)\nsd s7, 56(t1)\nsd s8, 64(t1)\nsd s9, 72(t1)\n"
        "sd s10, 80(t1)\nsd s11, 88(t1)\n"
        "ld s0, 0(sp)\nld s1, 8(sp)\nld s2, 16(sp)\nld s3, 24(sp)\nld s4, 32(sp)\n"
        "ld s5, 40(sp)\nld s6, 48(sp)\nld s7, 56(sp)\nld s8, 64(sp)\nld s9, 72(sp)\n"
        "ld s10, 80(sp)\nld s11, 88(sp)\naddi sp, sp, 112\nret\n");
#endif

/* The registers regs_syscall saw come back: how many are not the pattern. */
static int regs_wrong(unsigned long seed, const unsigned long *got)
{
    int wrong = 0;
    for (int i = 0; i < CALLEE_SAVED; i++)
        wrong += got[i] != seed + 1 + (unsigned long)i;
    return wrong;
}

/* A distinct pattern per call and side: a register left as an earlier
 * call had it (in a trapframe slot never written) does not match. */
static unsigned long regs_seed(unsigned long i, unsigned long side)
{
    return 0x5eed000000000000ul | i << 12 | side << 8;
}

/* The server of ipc.fastpath_callee_saved: each reply_recv with the
 * pattern, and in the reply's w0 how many registers came back wrong so far
 * (w1: the request's w0 + 1). */
static int regs_server_role(void)
{
    sys_sched_setaffinity(0, 1);
    struct ipc_msg m;
    unsigned long got[CALLEE_SAVED], wrong = 0;
    long r = ipc_recv(0, &m);
    for (unsigned long i = 0; r >= 0 && IPC_TAG_LABEL(m.tag) == L_ECHO; i++) {
        m = msg(L_ECHO, 0, wrong, m.w[0] + 1, 0, 0);
        r = regs_syscall(SYS_ipc_reply_recv, 0, &m, regs_seed(i, 1), got);
        wrong += (unsigned long)regs_wrong(regs_seed(i, 1), got);
    }
    return r >= 0 && IPC_TAG_LABEL(m.tag) == L_DIE ? 5 : 6;
}

/* 100 calls with the pattern set on both sides; the registers each side
 * had wrong (the server's as it counted them by the last reply). */
static long regs_round_trips(int h, bool *words)
{
    unsigned long got[CALLEE_SAVED];
    long wrong = 0;
    struct ipc_msg m;
    for (unsigned long i = 0; i < 101; i++) {
        m = msg(L_ECHO, 0, i, 0, 0, 0);
        long r = regs_syscall(SYS_ipc_call, h, &m, regs_seed(i, 2), got);
        wrong += regs_wrong(regs_seed(i, 2), got);
        *words = *words && r == 0 && m.w[1] == i + 1;
    }
    return wrong + (long)m.w[0];
}

/* 101 calls with the fastpath on under strategy s (if it may run here),
 * into *wrong and *direct; false if s could not be chosen. */
static bool regs_under(int h, long s, bool *words, long *wrong, long *direct)
{
    if (syscall1(SYS_kstack_set, s) != 0)
        return false;
    struct fast before = fast_now();
    *wrong += regs_round_trips(h, words);
    struct fast on = fast_since(before);
    *direct += on.direct;
    if (*wrong)
        note_direct("registers wrong", on);
    return true;
}

/* Both sides' callee-saved registers and frame pointer survive ipc_call and
 * ipc_reply_recv, with the fastpath on (resumed straight from the
 * trapframe, where the arch has it and the path allows it) under every
 * strategy, and with it off (through their C frames). */
static void test_callee_saved(void)
{
    int e = endpoint_create();
    const char *argv[] = {"test_ipc_fast", "regs-server", NULL};
    int pid = spawn_with("test_ipc_fast", argv, &e, 1);
    long was = fastpath_switch(IPC_FASTPATH_ON), strategy = syscall0(SYS_kstack_get);
    bool words = pid > 0;
    long wrong_on = 0, wrong_off = 0, direct = 0;
    int strategies = 0;
    for (long s = 0; s < KSTACK_NR; s++)
        strategies += regs_under(e, s, &words, &wrong_on, &direct);
    syscall1(SYS_kstack_set, strategy);
    fastpath_switch(IPC_FASTPATH_OFF);
    wrong_off = regs_round_trips(e, &words);
    fastpath_switch(was);
    stop_server(e, pid);
    handle_close(e);
    bool directed = !direct_built || direct > 0; /* under off at least */
    if (!words || wrong_on || wrong_off || !directed || strategies == 0)
        ktap_note("registers wrong: %ld with the fastpath on (%d strategies, %ld resumed "
                  "directly), %ld off; words %s",
                  wrong_on, strategies, direct, wrong_off, words ? "ok" : "wrong");
    ktap_check(words && wrong_on == 0 && wrong_off == 0 && directed && strategies > 0,
               "ipc.fastpath_callee_saved");
}

/* ---- the differential transcript ---------------------------------------------------- */

static unsigned long hash = 0xcbf29ce484222325ul; /* FNV-1a, 64 bits */

static void mix(unsigned long v)
{
    for (int i = 0; i < 8; i++) {
        hash ^= (v >> (8 * i)) & 0xff;
        hash *= 0x100000001b3ul;
    }
}

static unsigned long rnd_state = 42;

static unsigned long rnd(void)
{
    rnd_state = rnd_state * 6364136223846793005ul + 1442695040888963407ul;
    return rnd_state >> 33;
}

/* One call, into the transcript: what was asked, what came back. */
static void logged_call(int h, struct ipc_msg m, unsigned long *buf)
{
    mix((unsigned long)h);
    mix(m.tag);
    for (int i = 0; i < IPC_REG_WORDS; i++)
        mix(m.w[i]);
    long r = ipc_call(h, &m);
    mix((unsigned long)r);
    mix(m.tag);
    for (int i = 0; i < IPC_REG_WORDS; i++)
        mix(m.w[i]);
    for (unsigned long i = 0; r == 0 && i < IPC_TAG_LEN(m.tag); i++)
        mix(buf[i]);
}

static unsigned long tbuf[IPC_BUF_WORDS];

/* 400 calls of every kind, drawn from a fixed seed, on CPU 0 and (far) CPU 1. */
static void transcript(int h, int far)
{
    unsigned long *buf = tbuf;
    ipc_set_buffer(buf);
    int badged = handle_mint(h, IPC_RIGHT_SEND, 42), recv_only = handle_mint(h, IPC_RIGHT_RECV, 0);
    for (int i = 0; i < 400; i++) {
        unsigned long op = rnd() % 8, len = rnd() % 9, w = rnd();
        for (unsigned long k = 0; k < len; k++)
            buf[k] = w + k;
        switch (op) {
        case 0:
        case 1: logged_call(h, msg(L_ECHO, 0, w, w + 1, w + 2, w + 3), buf); break;
        case 2: logged_call(h, msg(L_ECHO, len, w, 0, 0, w), buf); break;
        case 3: logged_call(far, msg(L_ECHO, 0, w, ~w, w, 0), buf); break;
        case 4: logged_call(badged, msg(L_BADGE, 0, w, 0, 0, 0), buf); break;
        case 5: logged_call(UNUSED_H + (int)(w % 4), msg(L_ECHO, 0, w, 0, 0, 0), buf); break;
        case 6: logged_call(recv_only, msg(L_ECHO, 0, w, 0, 0, 0), buf); break;
        default: {
            int note = notify_create();
            notify_signal(note, w & IPC_NOTIFY_BITS);
            mix((unsigned long)notify_poll(note));
            handle_close(note);
        }
        }
    }
    handle_close(badged);
    handle_close(recv_only);
}

/* The transcript's hash with the fastpath off (a kernel built before the
 * fastpath gave the same): both modes must give it. */
#define TRANSCRIPT_HASH 0xf6eb0220f51c45d5ul

static void test_transcript(void)
{
    int near = endpoint_create(), far = endpoint_create();
    int near_pid = spawn_server(near, 0);
    int far_pid = spawn_server(far, online_cpus() > 1 ? 1 : 0);
    transcript(near, far);
    /* A server killed in the middle of a call, last: -EPIPE. */
    int e = endpoint_create();
    int pid = spawn_server(e, 0);
    struct ipc_msg m = msg(L_DIE, 0, 0, 0, 0, 0);
    mix((unsigned long)ipc_call(e, &m));
    int status = -1;
    if (sys_wait(pid, &status) != pid || status != 5)
        servers_ok = false;
    unsigned long got = hash;
    handle_close(e);
    stop_server(near, near_pid);
    stop_server(far, far_pid);
    handle_close(near);
    handle_close(far);
    if (got != TRANSCRIPT_HASH)
        ktap_note("transcript hash %#lx, expected %#lx", got, TRANSCRIPT_HASH);
    ktap_check(got == TRANSCRIPT_HASH, "ipc.fastpath_transcript_same_both_ways");
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "server") == 0)
        return server_role(argv[2][0] - '0');
    if (argc > 1 && strcmp(argv[1], "regs-server") == 0)
        return regs_server_role();
    sys_sched_setaffinity(0, 1);
    fast_now();
    ktap_note("IPC fastpath %s", fastpath_on ? "on" : "off (ipc.fastpath=0)");
    int e = endpoint_create();
    int pid = spawn_server(e, 0);
    test_hits(e);
    test_runtime_switch(e);
    test_direct_resume(e);
    test_fallbacks(e, e);
    stop_server(e, pid);
    handle_close(e);
    test_partner_missing();
    test_lent_slot();
    test_other_cpu();
    test_transcript();
    test_fp_chain();
    test_callee_saved();
    ktap_check(servers_ok, "ipc.fastpath_servers_stop");
    return ktap_done();
}
