/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_ipc_fast/guards.c - which calls take the fastpath, which fall back and why, and
 * the partners it resumes straight to user mode (the program: test_ipc_fast.c).
 */
#include "user/tests/test_ipc_fast/ipc_fast.h"

/* ---- which calls take it ----------------------------------------------------------- */

bool echo(int h, unsigned long len, unsigned long seed)
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

void test_hits(int h)
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

long fastpath_switch(long to)
{
    return syscall1(SYS_debug_ipc_fastpath, to);
}

/* The switch at run time (SYS_debug_ipc_fastpath, behind the debug gate):
 * off, 50 round trips count nothing at all; on, they are 100 hits; then
 * back as the boot had it (ipc.fastpath=0 in the *.smp3 boots). */
void test_runtime_switch(int h)
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

void note_direct(const char *what, struct fast f)
{
    ktap_note("%s: %ld hits, %ld resumed straight to user; not: exit work %ld, return checks "
              "%ld, slept elsewhere %ld; %ld ticks on CPU 0",
              what, f.hits, f.direct, f.not_direct[IPC_DIRECT_EXIT_WORK],
              f.not_direct[IPC_DIRECT_RETURN_CHECKS], f.not_direct[IPC_DIRECT_SLEPT_ELSEWHERE],
              f.ticks0);
}

/* Two round trips so that both sides sleep in the fastpath under the path
 * in force (the first after a switch of the path leaves each of them the
 * long way, recording its epoch: kernel/syscall/path.h), then 100 counted;
 * *updates: the strategy's exit updates in them. */
static struct fast round_trips(int h, bool *ok, long *updates)
{
    *ok = echo(h, 0, 1) && echo(h, 0, 2) && *ok;
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
 * exit, and with the latency timers on none is resumed directly either.
 * Their 200 hits are counted all the same (a hit is counted as what became
 * of its partner: here the long way back). */
static void exit_work_kept(int h)
{
    bool ok = syscall1(SYS_kstack_set, KSTACK_TASK) == 0;
    long updates;
    struct fast task = round_trips(h, &ok, &updates);
    bool task_right = task.hits == 200 && task.direct == 0 &&
                      task.not_direct[IPC_DIRECT_EXIT_WORK] == 200 && updates >= 300 &&
                      updates <= 310;
    if (!ok || !task_right) {
        ktap_note("task: %ld exit updates in 100 round trips, want 300 to 310", updates);
        note_direct("task, 100 round trips", task);
    }
    ok = ok && syscall1(SYS_kstack_set, KSTACK_OFF) == 0 &&
         syscall1(SYS_latency_ctl, LATENCY_ON) == 0;
    struct fast timed = round_trips(h, &ok, &updates);
    syscall1(SYS_latency_ctl, LATENCY_OFF);
    bool timed_right =
        timed.hits == 200 && timed.direct == 0 && timed.not_direct[IPC_DIRECT_EXIT_WORK] == 200;
    if (!ok || !timed_right)
        note_direct("off, timed, 100 round trips", timed);
    ktap_check(ok && task_right && timed_right, "ipc.fastpath_direct_keeps_exit_work");
}

void test_direct_resume(int h)
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

/* The words the kernel copied for one round trip of 64 words each way,
 * with the fastpath switched to `on` (and back after); *ok stays true if
 * the words came back. */
static long call64_words(int h, long on, bool *ok)
{
    long was = fastpath_switch(on);
    struct fast before = fast_now();
    *ok = echo(h, IPC_BUF_WORDS, 11) && *ok;
    long words = fast_since(before).words_copied;
    fastpath_switch(was);
    return words;
}

void test_fallbacks(int h, int e)
{
    struct fast before = fast_now();
    bool ok = echo(h, 4, 7);
    struct fast f = fast_since(before);
    ktap_check(ok, "ipc.fastpath_long_message_words");
    expect(f, 2, -1, 0, "ipc.fastpath_long_message_hits");

    /* 64 words each way, each copied twice on the ordinary path (the
     * caller's buffer into its slot, from there into the server's buffer;
     * and back): 256, where a copy from slot to slot would make it 384; and
     * once on the fastpath (buffer to buffer): 128. Both paths, whatever
     * the boot chose. */
    ok = true;
    long fast = call64_words(h, IPC_FASTPATH_ON, &ok);
    long slow = call64_words(h, IPC_FASTPATH_OFF, &ok);
    if (fast != 2 * IPC_BUF_WORDS || slow != 4 * IPC_BUF_WORDS)
        ktap_note("words copied for one call64 round trip: %ld on the fastpath (want %d), "
                  "%ld on the ordinary path (want %d)",
                  fast, 2 * IPC_BUF_WORDS, slow, 4 * IPC_BUF_WORDS);
    ktap_check(ok && fast == 2 * IPC_BUF_WORDS && slow == 4 * IPC_BUF_WORDS,
               "ipc.long_message_copied_twice");

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
 * it should, or if the queued caller was never served (no round then
 * helps). Timed by sleeps, so a host that stops the guest at the wrong
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
    /* The reply finds this thread asleep on CPU 0: a hit. A caller left
     * unserved for 5 s of guest time is no accident of timing: no more
     * rounds (each would wait as long). */
    if (!round_.served)
        return true;
    return matches(round_.no_receiver, 1, IPC_FAST_NO_PARTNER, 1) &&
           (!fastpath_on || round_.sender_waiting.misses[IPC_FAST_BUSY] >= 1);
}

void test_partner_missing(void)
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

void test_lent_slot(void)
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

int online_cpus(void)
{
    struct debug_stats st;
    syscall1(SYS_debug_stats, &st);
    return (int)st.cpus_online;
}

void test_other_cpu(void)
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
