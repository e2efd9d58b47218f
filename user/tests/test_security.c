/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_security.c - what an ordinary program may not do
 * (docs/security.md).
 *
 *   test_security gate-closed   booted without kstack.debug (tests/run.py's
 *                               <arch>.<fw>.gate-closed boot), holding the
 *                               control capability (run.control): the gate
 *                               alone refuses this program every debug call
 *                               (-EPERM, or -ENOSYS in a kernel built with
 *                               DEBUG_CALLS=0) and none of them changed
 *                               anything; a child without the capability is
 *                               refused those and kstack_set
 *                               (security.gate_closed)
 *   test_security unlocked      a self-test program, holding the control
 *   test_security locked        capability: a program without it, or with
 *                               only its KSTACK right, cannot choose the
 *                               strategy or a weak one; with kstack.lock
 *                               ("locked") nobody can, not even this one
 *                               (security.kstack_set_denied,
 *                               security.legacy_needs_debug,
 *                               security.kstack_lock); the debug calls, open
 *                               in this boot, still refuse a program without
 *                               the capability's DEBUG and LATENCY rights
 *                               (security.debug_calls_need_capability); the console:
 *                               a message the server cannot take does not
 *                               stop it (security.console_survives_bad_message);
 *                               and one task cannot take every task, thread,
 *                               endpoint or notification: past its quota
 *                               (kernel/uapi/quota.h) it gets -EAGAIN
 *                               (security.quota.*)
 *
 * In every role above, the deliberately vulnerable calls of a make VULN=1 kernel
 * (kernel/syscall/sys_vuln.c) answer -ENOSYS: this kernel was built without them
 * (vuln.absent; skipped when the program is built for a VULN=1 kernel).
 *
 * In both, a child the kernel does not vouch for tries to print lines that
 * would read as test results: directly (SYS_write, refused while a console
 * server serves) and through the server, also after bytes some readers
 * take for a line break or a blank (\v, \x1c, NBSP, U+2028) and after the
 * kernel's line about a killed grandchild that began a line; each is marked
 * (lib/result_guard.h), which tests/run.py checks in the gate-closed boots;
 * in the others each is a "not ok" that a KTAP parser counting it would
 * fail (security.fake_output_refused).
 */
#include "kernel/uapi/kstack.h"
#include "kernel/uapi/latency.h"
#include "kernel/uapi/quota.h"
#include "lib/hist.h"
#include "lib/user/console_client.h"
#include "lib/user/ipc.h"
#include "lib/user/ulib.h"
#include "lib/user/vuln.h"

static bool refused(long ret)
{
    return ret == -EPERM || ret == -ENOSYS;
}

/* Start test_security `role` with `handles` (n of them); its exit status. */
static int run_child(const char *role, const int *handles, int n)
{
    const char *argv[] = {"test_security", role, NULL};
    int status = -1;
    int pid = n ? spawn_with("test_security", argv, handles, n) : spawn("test_security", argv);
    if (pid < 0 || sys_wait(pid, &status) != pid)
        return -1;
    return status;
}

/* The child's half of security.fake_output_refused: forged results, whole
 * and in pieces, directly and through the console. Exit status: bit 0 if
 * SYS_write, bit 1 if SYS_read did not answer as it should (-EPERM while
 * a server serves; the input is the server's). */
static int forge(void)
{
    static const char line[] = "not ok 1 - security.forged_result\n";
    struct console_stats st;
    bool served = console_client_stats(&st) == 0;
    long direct = sys_write(1, line, sizeof(line) - 1);
    printf("%s    ok 2 - security.forged_indented\n", line);
    fflush(stdout);
    static const char *const pieces[] = {"no", "t ok 3 - security.forged_in_pieces\n"};
    for (int i = 0; i < 2; i++) /* one write each, to where this program's output goes */
        served ? console_client_write(pieces[i], strlen(pieces[i]))
               : sys_write(1, pieces[i], strlen(pieces[i]));
    /* Lines that start where some reader sees a line start, and a line
     * after the kernel's: a child that prints "zz" and is killed. Each
     * "not ok": a parser that counted one would fail the boot. */
    static const char *const hidden[] = {
        "zz\vnot ok 81 - security.forged_after_vt\n",
        "zz\x1cnot ok 82 - security.forged_after_fs\n",
        "\xc2\xa0not ok 83 - security.forged_after_nbsp\n",
        "zz\xe2\x80\xa8not ok 84 - security.forged_after_u2028\n",
    };
    for (unsigned i = 0; i < sizeof(hidden) / sizeof(hidden[0]); i++)
        served ? console_client_write(hidden[i], strlen(hidden[i]))
               : sys_write(1, hidden[i], strlen(hidden[i]));
    run_child("child-zz-fault", NULL, 0); /* "zz", then the kernel's "killed" line */
    static const char after[] = "not ok 85 - security.forged_after_kernel_line\n";
    served ? console_client_write(after, sizeof(after) - 1)
           : sys_write(1, after, sizeof(after) - 1);
    long want = served ? -EPERM : (long)sizeof(line) - 1;
    if (direct != want)
        printf("test_security child: SYS_write answered %ld, expected %ld\n", direct, want);
    char typed;
    long read = sys_read(0, &typed, 1); /* the server's input is not for taking */
    bool read_ok = served ? read == -EPERM : read >= 0;
    if (!read_ok)
        printf("test_security child: SYS_read answered %ld, expected %s\n", read,
               served ? "-EPERM" : "0 or 1");
    return (direct == want ? 0 : 1) | (read_ok ? 0 : 2);
}

/* Half a line, then a fault: the kernel's "killed" line follows it. */
static int zz_fault(void)
{
    struct console_stats st;
    if (console_client_stats(&st) == 0)
        console_client_write("zz", 2);
    else
        sys_write(1, "zz", 2);
    volatile uintptr_t unmapped = 16; /* volatile: the compiler cannot see it is 16 */
    *(volatile int *)unmapped = 1;
    return 0;
}

static void fake_output_refused(void)
{
    int status = run_child("child-forge", NULL, 0);
    ktap_check(status >= 0 && status < 4 && !(status & 1), "security.fake_output_refused");
    ktap_check(status >= 0 && status < 4 && !(status & 2),
               "security.console_read_refused_while_served");
}

struct debug_call {
    const char *what;
    long nr, a0, a1, a2, a3, a4;
};

/* Make each debug call with arguments that would succeed if it were
 * allowed; how many were not refused (each one noted). */
static int debug_calls_open(void)
{
    static struct kstack_probe probe;
    static struct kstack_stats kstats;
    static struct debug_stats dstats;
    static struct hist hist;
    const struct debug_call calls[] = {
        {"kstack_probe", SYS_kstack_probe, 0, 0, (long)&probe, 0, 0},
        {"kstack_debug(VERIFY)", SYS_kstack_debug, KSTACK_DEBUG_VERIFY, 0, 0, 0, 0},
        {"kstack_debug(DRAIN)", SYS_kstack_debug, KSTACK_DEBUG_DRAIN, 0, 0, 0, 0},
        {"kstack_debug(FIXED)", SYS_kstack_debug, KSTACK_DEBUG_FIXED, 64, 0, 0, 0},
        {"kstack_debug(PAINT)", SYS_kstack_debug, KSTACK_DEBUG_PAINT, 0, 0, 0, 0},
        {"kstack_debug(ERASE)", SYS_kstack_debug, KSTACK_DEBUG_ERASE, 0, 0, 0, 0},
        {"kstack_stats", SYS_kstack_stats, -1, (long)&kstats, 0, 0, 0},
        {"debug_kaddr(STACK, ARM)", SYS_debug_kaddr, DEBUG_KADDR_STACK, DEBUG_KADDR_ARM, 0, 0, 0},
        {"debug_kaddr(DIRECT_MAP, CHECK)", SYS_debug_kaddr, DEBUG_KADDR_DIRECT_MAP,
         DEBUG_KADDR_CHECK, 0, 0, 0},
        {"debug_stats", SYS_debug_stats, (long)&dstats, 0, 0, 0, 0},
        {"debug_ipc_fastpath(OFF)", SYS_debug_ipc_fastpath, IPC_FASTPATH_OFF, 0, 0, 0, 0},
        {"debug_ipc_fastpath(QUERY)", SYS_debug_ipc_fastpath, IPC_FASTPATH_QUERY, 0, 0, 0, 0},
        {"debug_spin", SYS_debug_spin, 1000, 0, 0, 0, 0},
        {"debug_sleep", SYS_debug_sleep, 1000, 0, 0, 0, 0},
        {"latency_ctl(ON)", SYS_latency_ctl, LATENCY_ON, 0, 0, 0, 0},
        {"latency_ctl(OFF)", SYS_latency_ctl, LATENCY_OFF, 0, 0, 0, 0},
        {"latency_read", SYS_latency_read, -1, 0, 0, (long)&hist, 0},
    };
    int open = 0;
    for (unsigned i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
        const struct debug_call *c = &calls[i];
        long ret = syscall6(c->nr, c->a0, c->a1, c->a2, c->a3, c->a4, 0);
        if (!refused(ret)) {
            ktap_note("%s answered %ld, not -EPERM or -ENOSYS", c->what, ret);
            open++;
        }
    }
    if (open)
        syscall1(SYS_latency_ctl, LATENCY_OFF); /* what an open latency_ctl(ON) did */
    return open;
}

/* The deliberately vulnerable calls (kernel/syscall/sys_vuln.c) are not in a kernel
 * built without make VULN=1: each answers -ENOSYS, whatever the gate. */
static void vuln_absent(void)
{
#if CONFIG_VULN
    ktap_skip("vuln.absent", "a make VULN=1 kernel: the calls are built in");
#else
    struct vuln_request req = {VULN_OP_NOP, 1};
    long fill = vuln_fill(&req), use = vuln_use(1), leak = vuln_leak(), write = vuln_write(0, 0);
    if (fill != -ENOSYS || use != -ENOSYS || leak != -ENOSYS || write != -ENOSYS)
        ktap_note("vuln calls answered fill %ld, use %ld, leak %ld, write %ld", fill, use, leak,
                  write);
    ktap_check(fill == -ENOSYS && use == -ENOSYS && leak == -ENOSYS && write == -ENOSYS,
               "vuln.absent");
#endif
}

/* Booted without kstack.debug, holding the control capability: the gate
 * alone must refuse every debug call; and an ordinary child is refused. */
static int gate_closed(void)
{
    static struct latency_status status;
    long strategy = syscall0(SYS_kstack_get);
    int open = debug_calls_open();
    if (open)
        ktap_note("%d debug calls answered a holder of the control capability: the gate is open",
                  open);
    int child = run_child("child-debug", NULL, 0);
    long now = syscall0(SYS_kstack_get);
    if (now != strategy)
        ktap_note("the strategy changed from %ld to %ld", strategy, now);
    /* The status stays readable, and says the timers are still off. */
    long st = syscall2(SYS_latency_ctl, LATENCY_STATUS, (long)&status);
    if (st != 0 || status.on)
        ktap_note("latency status: %ld, enabled %d", st, (int)status.on);
    ktap_check(open == 0 && child == 0 && now == strategy && st == 0 && !status.on,
               "security.gate_closed");
    fake_output_refused();
    vuln_absent();
    return ktap_done();
}

static long kstack_set(long id)
{
    return syscall1(SYS_kstack_set, id);
}

/* A child without the capability: every debug call and kstack_set refused.
 * Exit status 0 if so. */
static int child_debug(void)
{
    int open = debug_calls_open();
    long set = kstack_set(KSTACK_PRNG_TASK);
    if (set != -EPERM)
        ktap_note("kstack_set without the control capability answered %ld", set);
    return open == 0 && set == -EPERM ? 0 : 1;
}

/* A child's half: what kstack_set answers without the capability, or with
 * its KSTACK right only. Exit status 0 if every answer was right. */
static int child(bool kstack_right)
{
    long before = syscall0(SYS_kstack_get);
    long weak = kstack_set(KSTACK_COUNTER), off = kstack_set(KSTACK_OFF);
    long same = kstack_set(before); /* a strong strategy: the one in force */
    long after = syscall0(SYS_kstack_get);
    bool ok =
        weak == -EPERM && off == -EPERM && after == before && same == (kstack_right ? 0 : -EPERM);
    if (!ok)
        printf("test_security child (%s): counter %ld, off %ld, %ld again %ld, now %ld\n",
               kstack_right ? "KSTACK right" : "no capability", weak, off, before, same, after);
    return ok ? 0 : 1;
}

/* A message announcing an extra word, to a server that takes none: the
 * kernel refuses it to this sender, and the server serves on. */
static void console_survives_bad_message(void)
{
    static unsigned long words[IPC_BUF_WORDS];
    ipc_set_buffer(words);
    struct ipc_msg m = {.tag = IPC_TAG(CONSOLE_WRITE, 1), .w = {1, 'x'}};
    long bad = ipc_call(IPC_CONSOLE_HANDLE, &m);
    ipc_set_buffer(NULL);
    struct console_stats st;
    long after = console_client_stats(&st);
    if (bad != -EMSGSIZE || after != 0)
        ktap_note("the bad message: %ld (expected -EMSGSIZE); a console call after it: %ld", bad,
                  after);
    ktap_check(bad == -EMSGSIZE && after == 0, "security.console_survives_bad_message");
}

/* Children that exit at once hold their slots (zombies) until waited for:
 * QUOTA_CHILDREN of them, then -EAGAIN, and one more once one is collected. */
static void quota_tasks(void)
{
    const char *argv[] = {"test_security", "child-exit", NULL};
    int pids[QUOTA_CHILDREN], started = 0;
    for (int i = 0; i < QUOTA_CHILDREN; i++) {
        pids[i] = spawn("test_security", argv);
        started += pids[i] > 0;
    }
    long over = spawn("test_security", argv);
    int status = -1;
    bool waited = pids[0] > 0 && sys_wait(pids[0], &status) == pids[0];
    long again = spawn("test_security", argv);
    bool collected = again > 0 && sys_wait((int)again, &status) == again;
    for (int i = 1; i < QUOTA_CHILDREN; i++)
        if (pids[i] > 0)
            sys_wait(pids[i], &status);
    if (over > 0)
        sys_wait((int)over, &status);
    if (started != QUOTA_CHILDREN || over != -EAGAIN || !waited || !collected)
        ktap_note("%d of %d children started; one more: %ld (expected -EAGAIN); after a wait: %ld",
                  started, QUOTA_CHILDREN, over, again);
    ktap_check(started == QUOTA_CHILDREN && over == -EAGAIN && waited && collected,
               "security.quota.tasks");
}

/* Objects one task made: QUOTA of them, then -EAGAIN; closing one frees its place. */
static void quota_objects(const char *name, int (*create)(void), int quota)
{
    int h[QUOTA_ENDPOINTS > QUOTA_NOTIFICATIONS ? QUOTA_ENDPOINTS : QUOTA_NOTIFICATIONS];
    int made = 0;
    for (int i = 0; i < quota; i++) {
        h[i] = create();
        made += h[i] >= 0;
    }
    int over = create();
    bool closed = h[0] >= 0 && handle_close(h[0]) == 0;
    int again = create();
    h[0] = again;
    for (int i = 0; i < quota; i++)
        if (h[i] >= 0)
            handle_close(h[i]);
    if (over >= 0)
        handle_close(over);
    if (made != quota || over != -EAGAIN || !closed || again < 0)
        ktap_note("%s: %d of %d made; one more: %d (expected -EAGAIN); after a close: %d", name,
                  made, quota, over, again);
    ktap_check(made == quota && over == -EAGAIN && closed && again >= 0, "%s", name);
}

static volatile int threads_go, threads_left;
static char thread_stacks[QUOTA_THREADS][4096] __attribute__((aligned(16)));

static void quota_thread(void *arg)
{
    (void)arg;
    while (!threads_go)
        sleep_ns(1000000);
    __atomic_fetch_sub(&threads_left, 1, __ATOMIC_RELAXED);
}

/* This thread and QUOTA_THREADS - 1 more, then -EAGAIN. */
static void quota_threads(void)
{
    int made = 0;
    threads_go = 0;
    for (int i = 0; i < QUOTA_THREADS - 1; i++)
        made += thread_create(quota_thread, NULL, thread_stacks[i], sizeof(thread_stacks[i])) > 0;
    threads_left = made;
    int over = thread_create(quota_thread, NULL, thread_stacks[QUOTA_THREADS - 1],
                             sizeof(thread_stacks[0]));
    if (over > 0)
        threads_left++;
    threads_go = 1;
    for (int i = 0; i < 5000 && threads_left > 0; i++)
        sleep_ns(1000000);
    if (made != QUOTA_THREADS - 1 || over != -EAGAIN)
        ktap_note("%d of %d threads made; one more: %d (expected -EAGAIN)", made, QUOTA_THREADS - 1,
                  over);
    ktap_check(made == QUOTA_THREADS - 1 && over == -EAGAIN && threads_left == 0,
               "security.quota.threads");
}

static int privileged(bool locked)
{
    long before = syscall0(SYS_kstack_get);
    KTAP_EXPECT_EQ(run_child("child-none", NULL, 0), 0, "security.kstack_set_denied");
    /* The gate is open in this boot (kstack.debug): without the control
     * capability's DEBUG and LATENCY rights, the debug calls still refuse. */
    KTAP_EXPECT_EQ(run_child("child-debug", NULL, 0), 0, "security.debug_calls_need_capability");
    int kstack_only = handle_mint(IPC_CONTROL_HANDLE, IPC_RIGHT_KSTACK, 0);
    bool child_ok =
        kstack_only >= 0 && run_child(locked ? "child-none" : "child-kstack", &kstack_only, 1) == 0;
    if (kstack_only >= 0)
        handle_close(kstack_only);
    if (locked) {
        long same = kstack_set(before), other = kstack_set(KSTACK_POOL);
        long fixed = syscall2(SYS_kstack_debug, KSTACK_DEBUG_FIXED, 64);
        long now = syscall0(SYS_kstack_get);
        if (same != -EPERM || other != -EPERM || fixed != -EPERM || now != before)
            ktap_note("locked: set %ld again %ld, pool %ld, fixed %ld, now %ld", before, same,
                      other, fixed, now);
        ktap_check(same == -EPERM && other == -EPERM && fixed == -EPERM && now == before &&
                       child_ok,
                   "security.kstack_lock");
    } else {
        /* This program holds DEBUG too: it may choose a legacy design. */
        long legacy = kstack_set(KSTACK_CRNG16), now = syscall0(SYS_kstack_get);
        long back = kstack_set(before);
        if (legacy != 0 || now != KSTACK_CRNG16 || back != 0)
            ktap_note("with DEBUG: crng16 %ld (now %ld), back %ld", legacy, now, back);
        ktap_check(child_ok && legacy == 0 && now == KSTACK_CRNG16 && back == 0,
                   "security.legacy_needs_debug");
        console_survives_bad_message();
        fake_output_refused();
        quota_tasks();
        quota_threads();
        quota_objects("security.quota.endpoints", endpoint_create, QUOTA_ENDPOINTS);
        quota_objects("security.quota.notifications", notify_create, QUOTA_NOTIFICATIONS);
    }
    vuln_absent();
    return ktap_done();
}

int main(int argc, char **argv)
{
    const char *role = argc == 2 ? argv[1] : "";
    if (strcmp(role, "gate-closed") == 0)
        return gate_closed();
    if (strcmp(role, "unlocked") == 0 || strcmp(role, "locked") == 0)
        return privileged(strcmp(role, "locked") == 0);
    if (strcmp(role, "child-none") == 0 || strcmp(role, "child-kstack") == 0)
        return child(strcmp(role, "child-kstack") == 0);
    if (strcmp(role, "child-forge") == 0)
        return forge();
    if (strcmp(role, "child-exit") == 0)
        return 0;
    if (strcmp(role, "child-zz-fault") == 0)
        return zz_fault();
    if (strcmp(role, "child-debug") == 0)
        return child_debug();
    printf("usage: test_security gate-closed|unlocked|locked\n");
    return 2;
}
