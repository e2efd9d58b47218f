/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_ipc_fast/long.c - long messages on the fastpath
 * (the program: test_ipc_fast.c).
 */
#include "user/tests/test_ipc_fast/ipc_fast.h"

/* ---- long messages on the fastpath ------------------------------------------------- */

#define PAGE 4096ul

/* 100 same-CPU round trips of 64 words each way: all 200 legs take the
 * fastpath, and each word is copied once per leg (buffer to buffer). */
static void test_long_hits(int h)
{
    bool ok = echo(h, IPC_BUF_WORDS, 1);
    struct fast before = fast_now();
    for (unsigned long i = 0; ok && i < 100; i++) /* a broken kernel may hang the next */
        ok = echo(h, IPC_BUF_WORDS, i + 2);
    struct fast f = fast_since(before);
    ktap_check(ok, "ipc.fastpath_long_words_arrive");
    expect(f, 200, -1, 0, "ipc.fastpath_long_call_and_reply_hit");
    long want = (fastpath_on ? 200 : 400) * IPC_BUF_WORDS;
    if (f.words_copied != want)
        ktap_note("100 call64 round trips: %ld words copied, want %ld", f.words_copied, want);
    ktap_check(f.words_copied == want, "ipc.fastpath_long_copied_once");
}

/* A page of the heap, mapped now; sys_brk(page) unmaps it again. */
static unsigned long *heap_page(void)
{
    char *start = (char *)(((uintptr_t)sys_brk(0) + PAGE - 1) & ~(PAGE - 1));
    return sys_brk(start + PAGE) == start + PAGE ? (unsigned long *)start : NULL;
}

/* A sender whose buffer was unmapped after ipc_set_buffer, once a long
 * call from it went through (the fastpath keeps where the buffer is): the
 * fastpath's copy misses, the ordinary path's staging fails: -EFAULT,
 * nothing delivered, and the server serves on. */
static void test_long_bad_sender_buffer(int h)
{
    unsigned long *page = heap_page();
    bool ok = page && ipc_set_buffer(page) == 0;
    struct ipc_msg m = msg(L_ECHO, IPC_BUF_WORDS, 1, 2, 3, 4);
    for (unsigned long i = 0; ok && i < IPC_BUF_WORDS; i++)
        page[i] = i;
    ok = ok && ipc_call(h, &m) == 0 && page[IPC_BUF_WORDS - 1] == ~(IPC_BUF_WORDS - 1ul);
    if (page)
        sys_brk(page);
    m = msg(L_ECHO, IPC_BUF_WORDS, 1, 2, 3, 4);
    struct fast before = fast_now();
    long r = ipc_call(h, &m);
    struct fast f = fast_since(before);
    KTAP_EXPECT_EQ(ok ? r : 1, -EFAULT, "ipc.fastpath_long_bad_sender_buffer_error");
    expect(f, 0, IPC_FAST_LONG, 1, "ipc.fastpath_long_bad_sender_buffer_falls_back");
    ktap_check(echo(h, IPC_BUF_WORDS, 5), "ipc.fastpath_long_bad_sender_buffer_server_serves");
}

/* A server thread of this program on CPU 0 with no buffer, then with one
 * that was unmapped: what its receives ended with. */
static struct {
    int e;
    unsigned long *bad;
    volatile long first, good, second;
    volatile bool good_words;
    volatile int ready, done;
} nb;

static void nobuf_server(void *arg)
{
    (void)arg;
    sys_sched_setaffinity(0, 1);
    ipc_set_buffer(NULL);
    struct ipc_msg m;
    nb.ready = 1;
    nb.first = ipc_recv(nb.e, &m); /* the long call is refused: a short one comes */
    ipc_set_buffer(nb.bad);        /* mapped until the caller unmaps it */
    m = msg(L_ECHO, 0, 7, 0, 0, 0);
    nb.good = ipc_reply_recv(nb.e, &m); /* a long call arrives, into nb.bad */
    nb.good_words = nb.good == 0 && nb.bad[IPC_BUF_WORDS - 1] == 0x77;
    m = msg(L_ECHO, 0, 9, 0, 0, 0);
    nb.second = ipc_reply_recv(nb.e, &m); /* the next, once unmapped: its words cannot */
    m = msg(L_ECHO, 0, 8, 0, 0, 0);
    ipc_reply_recv(nb.e, &m); /* answered all the same; then the handle is closed */
    nb.done = 1;
}

/* The three calls of test_long_receivers, nothing printed between (no
 * heap use while the page is unmapped under the allocator). */
static struct {
    long refused, refused_f, answered_r;
    bool short_ok, answered;
    struct fast refused_c, bad_c;
} lr;

static void long_receiver_calls(void)
{
    struct ipc_msg m = msg(L_ECHO, IPC_BUF_WORDS, 1, 2, 3, 4);
    struct fast before = fast_now();
    lr.refused = ipc_call(nb.e, &m);
    lr.refused_c = fast_since(before);
    m = msg(L_ECHO, 0, 1, 0, 0, 0);
    lr.short_ok = ipc_call(nb.e, &m) == 0 && m.w[0] == 7;
    m = msg(L_ECHO, IPC_BUF_WORDS, 1, 2, 3, 4);
    lr.short_ok = lr.short_ok && ipc_call(nb.e, &m) == 0 && m.w[0] == 9;
    sys_brk(nb.bad); /* the server's buffer is gone */
    m = msg(L_ECHO, IPC_BUF_WORDS, 1, 2, 3, 4);
    before = fast_now();
    lr.answered_r = ipc_call(nb.e, &m);
    lr.bad_c = fast_since(before);
    lr.answered = lr.answered_r == 0 && m.w[0] == 8;
}

/* A receiver without a buffer refuses a long message (-EMSGSIZE to the
 * sender); one with a bad buffer gets it with -EFAULT, the words lost,
 * and still owes its caller the reply (which takes the fastpath). Both
 * long calls miss the fastpath's copy (IPC_FAST_LONG). */
static void test_long_receivers(void)
{
    static char stack[STACK_SIZE] __attribute__((aligned(16)));
    static unsigned long buf[IPC_BUF_WORDS];
    for (unsigned long i = 0; i < IPC_BUF_WORDS; i++)
        buf[i] = 0x77;
    ipc_set_buffer(buf);
    nb.e = endpoint_create();
    nb.bad = heap_page();
    nb.first = nb.good = nb.second = 1;
    nb.good_words = false;
    nb.ready = nb.done = 0;
    int tid = nb.bad ? thread_create(nobuf_server, NULL, stack, STACK_SIZE) : -1;
    for (int i = 0; i < 5000 && tid >= 0 && !nb.ready; i++)
        sleep_ns(MS);
    sleep_ns(MS); /* on this CPU, the server goes from ready to its wait at once */
    long_receiver_calls();
    KTAP_EXPECT_EQ(lr.refused, -EMSGSIZE, "ipc.fastpath_long_receiver_without_buffer_error");
    expect(lr.refused_c, 0, IPC_FAST_LONG, 1, "ipc.fastpath_long_message_falls_back");
    KTAP_EXPECT_EQ(nb.first, 0, "ipc.fastpath_long_receiver_without_buffer_unaffected");
    ktap_check(nb.good == 0 && nb.good_words, "ipc.fastpath_long_receiver_buffer_words");
    KTAP_EXPECT_EQ(nb.second, -EFAULT, "ipc.fastpath_long_receiver_bad_buffer_error");
    ktap_check(lr.short_ok && lr.answered, "ipc.fastpath_long_receiver_bad_buffer_answers");
    expect(lr.bad_c, 1, IPC_FAST_LONG, 1, "ipc.fastpath_long_receiver_bad_buffer_falls_back");
    handle_close(nb.e);
    for (int i = 0; i < 5000 && !nb.done; i++)
        sleep_ns(MS);
    if (tid >= 0 && nb.done)
        thread_join(tid);
}

/* 64 words each way with the server on CPU 1: the ordinary path, the
 * words intact. */
static void test_long_other_cpu(void)
{
    if (online_cpus() < 2) {
        ktap_skip("ipc.fastpath_long_other_cpu", "one CPU");
        ktap_skip("ipc.fastpath_long_back_after_skips", "one CPU");
        return;
    }
    int e = endpoint_create();
    int pid = spawn_server(e, 1);
    bool ok = pid > 0 && echo(e, IPC_BUF_WORDS, 1);
    struct fast before = fast_now();
    for (unsigned long i = 0; i < 10; i++)
        ok = echo(e, IPC_BUF_WORDS, i + 3) && ok;
    struct fast f = fast_since(before);
    bool right = !fastpath_on || (f.hits == 0 && f.misses[IPC_FAST_OTHER_CPU] >= 10);
    if (!ok || !right)
        note("long, other cpu", f);
    ktap_check(ok && right, "ipc.fastpath_long_other_cpu");
    stop_server(e, pid);
    handle_close(e);
    /* A few long messages after those skip the fastpath without a look
     * (fastpath.c LONG_SKIPS, at most 3), then a server here is reached. */
    e = endpoint_create();
    pid = spawn_server(e, 0);
    ok = pid > 0;
    before = fast_now();
    for (unsigned long i = 0; i < 5; i++)
        ok = echo(e, IPC_BUF_WORDS, i + 20) && ok;
    f = fast_since(before);
    right = !fastpath_on || (f.misses[IPC_FAST_OTHER_CPU] <= 3 && f.hits >= 4);
    if (!ok || !right)
        note("long, back on this cpu", f);
    ktap_check(ok && right, "ipc.fastpath_long_back_after_skips");
    stop_server(e, pid);
    handle_close(e);
}

void test_long_messages(void)
{
    int e = endpoint_create();
    int pid = spawn_server(e, 0);
    test_long_hits(e);
    test_long_bad_sender_buffer(e);
    stop_server(e, pid);
    handle_close(e);
    test_long_receivers();
    test_long_other_cpu();
}
