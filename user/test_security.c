/* SPDX-License-Identifier: MIT */
/*
 * user/test_security.c - what an ordinary program may not do
 * (docs/security.md).
 *
 *   test_security gate-closed   booted without kstack.debug (tests/run.py's
 *                               <arch>.<fw>.gate-closed boot): every debug
 *                               call answers -EPERM, or -ENOSYS in a kernel
 *                               built with DEBUG_CALLS=0, and none of them
 *                               changed anything, and kstack_set answers
 *                               -EPERM: no control capability
 *                               (security.gate_closed)
 *   test_security unlocked      a self-test program, holding the control
 *   test_security locked        capability: a program without it, or with
 *                               only its KSTACK right, cannot choose the
 *                               strategy or a weak one; with kstack.lock
 *                               ("locked") nobody can, not even this one
 *                               (security.kstack_set_denied,
 *                               security.legacy_needs_debug,
 *                               security.kstack_lock)
 */
#include "kernel/uapi/kstack.h"
#include "kernel/uapi/latency.h"
#include "lib/hist.h"
#include "lib/user/ipc.h"
#include "lib/user/ulib.h"

static bool refused(long ret)
{
    return ret == -EPERM || ret == -ENOSYS;
}

struct debug_call {
    const char *what;
    long nr, a0, a1, a2, a3, a4;
};

/* Each call with arguments that would succeed if the gate were open. */
static int gate_closed(void)
{
    static struct kstack_probe probe;
    static struct kstack_stats kstats;
    static struct debug_stats dstats;
    static struct hist hist;
    static struct latency_status status;
    const struct debug_call calls[] = {
        {"kstack_probe", SYS_kstack_probe, 0, 0, (long)&probe, 0, 0},
        {"kstack_debug(VERIFY)", SYS_kstack_debug, KSTACK_DEBUG_VERIFY, 0, 0, 0, 0},
        {"kstack_debug(DRAIN)", SYS_kstack_debug, KSTACK_DEBUG_DRAIN, 0, 0, 0, 0},
        {"kstack_debug(FIXED)", SYS_kstack_debug, KSTACK_DEBUG_FIXED, 64, 0, 0, 0},
        {"kstack_debug(PAINT)", SYS_kstack_debug, KSTACK_DEBUG_PAINT, 0, 0, 0, 0},
        {"kstack_stats", SYS_kstack_stats, -1, (long)&kstats, 0, 0, 0},
        {"debug_kaddr(STACK, ARM)", SYS_debug_kaddr, DEBUG_KADDR_STACK, DEBUG_KADDR_ARM, 0, 0, 0},
        {"debug_kaddr(DIRECT_MAP, CHECK)", SYS_debug_kaddr, DEBUG_KADDR_DIRECT_MAP,
         DEBUG_KADDR_CHECK, 0, 0, 0},
        {"debug_stats", SYS_debug_stats, (long)&dstats, 0, 0, 0, 0},
        {"debug_spin", SYS_debug_spin, 1000, 0, 0, 0, 0},
        {"debug_sleep", SYS_debug_sleep, 1000, 0, 0, 0, 0},
        {"latency_ctl(ON)", SYS_latency_ctl, LATENCY_ON, 0, 0, 0, 0},
        {"latency_ctl(OFF)", SYS_latency_ctl, LATENCY_OFF, 0, 0, 0, 0},
        {"latency_read", SYS_latency_read, -1, 0, 0, (long)&hist, 0},
    };
    long strategy = syscall0(SYS_kstack_get);
    int open = 0;
    for (unsigned i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
        const struct debug_call *c = &calls[i];
        long ret = syscall6(c->nr, c->a0, c->a1, c->a2, c->a3, c->a4, 0);
        if (!refused(ret)) {
            ktap_note("%s answered %ld, not -EPERM or -ENOSYS", c->what, ret);
            open++;
        }
    }
    long set = syscall1(SYS_kstack_set, KSTACK_PRNG_TASK);
    if (set != -EPERM) {
        ktap_note("kstack_set without the control capability answered %ld", set);
        open++;
    }
    long now = syscall0(SYS_kstack_get);
    if (now != strategy)
        ktap_note("the strategy changed from %ld to %ld", strategy, now);
    /* The status stays readable, and says the timers are still off. */
    long st = syscall2(SYS_latency_ctl, LATENCY_STATUS, (long)&status);
    if (st != 0 || status.on)
        ktap_note("latency status: %ld, enabled %d", st, (int)status.on);
    ktap_check(open == 0 && now == strategy && st == 0 && !status.on,
               "security.gate_closed");
    return ktap_done();
}

static long kstack_set(long id)
{
    return syscall1(SYS_kstack_set, id);
}

/* A child's half: what kstack_set answers without the capability, or with
 * its KSTACK right only. Exit status 0 if every answer was right. */
static int child(bool kstack_right)
{
    long before = syscall0(SYS_kstack_get);
    long weak = kstack_set(KSTACK_COUNTER), off = kstack_set(KSTACK_OFF);
    long same = kstack_set(before); /* a strong strategy: the one in force */
    long after = syscall0(SYS_kstack_get);
    bool ok = weak == -EPERM && off == -EPERM && after == before &&
              same == (kstack_right ? 0 : -EPERM);
    if (!ok)
        printf("test_security child (%s): counter %ld, off %ld, %ld again %ld, now %ld\n",
               kstack_right ? "KSTACK right" : "no capability", weak, off, before, same, after);
    return ok ? 0 : 1;
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

static int privileged(bool locked)
{
    long before = syscall0(SYS_kstack_get);
    KTAP_EXPECT_EQ(run_child("child-none", NULL, 0), 0, "security.kstack_set_denied");
    int kstack_only = handle_mint(IPC_CONTROL_HANDLE, IPC_RIGHT_KSTACK, 0);
    bool child_ok = kstack_only >= 0 && run_child(locked ? "child-none" : "child-kstack",
                                                  &kstack_only, 1) == 0;
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
                       child_ok, "security.kstack_lock");
    } else {
        /* This program holds DEBUG too: it may choose a legacy design. */
        long legacy = kstack_set(KSTACK_CRNG16), now = syscall0(SYS_kstack_get);
        long back = kstack_set(before);
        if (legacy != 0 || now != KSTACK_CRNG16 || back != 0)
            ktap_note("with DEBUG: crng16 %ld (now %ld), back %ld", legacy, now, back);
        ktap_check(child_ok && legacy == 0 && now == KSTACK_CRNG16 && back == 0,
                   "security.legacy_needs_debug");
    }
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
    printf("usage: test_security gate-closed|unlocked|locked\n");
    return 2;
}
