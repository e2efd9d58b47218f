/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_ipc_fast/test_ipc_fast.c - the IPC fastpath (kernel/ipc/fastpath.c):
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
#include "user/tests/test_ipc_fast/ipc_fast.h"

char stacks[2][STACK_SIZE] __attribute__((aligned(16)));

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

void serve(int h)
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
int spawn_server(int e, int cpu)
{
    char cpu_arg[2] = {(char)('0' + cpu), 0};
    const char *argv[] = {"test_ipc_fast", "server", cpu_arg, NULL};
    return spawn_with("test_ipc_fast", argv, &e, 1);
}

/* Make the server behind e (program pid) exit: its caller gets -EPIPE. A
 * server that answered instead is not waited for (it would never end). */
bool servers_ok = true;

void stop_server(int e, int pid)
{
    struct ipc_msg m = msg(L_DIE, 0, 0, 0, 0, 0);
    int status = -1;
    bool ok = ipc_call(e, &m) == -EPIPE && sys_wait(pid, &status) == pid && status == 5;
    servers_ok = servers_ok && ok;
}

/* ---- counters ------------------------------------------------------------------- */

bool fastpath_on, direct_built;

struct fast fast_now(void)
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

struct fast fast_since(struct fast before)
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

long misses(struct fast f)
{
    long n = 0;
    for (int g = 0; g < IPC_FAST_GUARDS; g++)
        n += f.misses[g];
    return n;
}

void note(const char *what, struct fast f)
{
    ktap_note("%s: %ld hits; misses long %ld, bad handle %ld, no right %ld, no partner %ld, "
              "busy %ld, other cpu %ld, killed %ld",
              what, f.hits, f.misses[IPC_FAST_LONG], f.misses[IPC_FAST_BAD_HANDLE],
              f.misses[IPC_FAST_NO_RIGHT], f.misses[IPC_FAST_NO_PARTNER], f.misses[IPC_FAST_BUSY],
              f.misses[IPC_FAST_OTHER_CPU], f.misses[IPC_FAST_KILLED]);
}

/* With the fastpath on, exactly `hits` hits and `want` misses of `guard`
 * (-1: none); with it off, nothing counted at all. */
bool matches(struct fast f, long hits, int guard, long want)
{
    if (!fastpath_on)
        return f.hits == 0 && misses(f) == 0;
    return f.hits == hits && misses(f) == (guard < 0 ? 0 : want) &&
           (guard < 0 || f.misses[guard] == want);
}

void expect(struct fast f, long hits, int guard, long want, const char *name)
{
    bool ok = matches(f, hits, guard, want);
    if (!ok)
        note(name, f);
    ktap_check(ok, "%s", name);
}

int main(int argc, char **argv);

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
    test_long_messages();
    ktap_check(servers_ok, "ipc.fastpath_servers_stop");
    return ktap_done();
}
