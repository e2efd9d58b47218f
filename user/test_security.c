/* SPDX-License-Identifier: MIT */
/*
 * user/test_security.c - what an ordinary program may not do
 * (docs/security.md).
 *
 *   test_security gate-closed   booted without kstack.debug (tests/run.py's
 *                               <arch>.<fw>.gate-closed boot): every debug
 *                               call answers -EPERM, or -ENOSYS in a kernel
 *                               built with DEBUG_CALLS=0, and none of them
 *                               changed anything (security.gate_closed)
 */
#include "kernel/uapi/kstack.h"
#include "kernel/uapi/latency.h"
#include "lib/hist.h"
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

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "gate-closed") == 0)
        return gate_closed();
    printf("usage: test_security gate-closed\n");
    return 2;
}
