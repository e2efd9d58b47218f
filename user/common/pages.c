/* SPDX-License-Identifier: MIT */
/* user/common/pages.c - free page accounting for the long-running tests (see pages.h). */
#include "user/common/pages.h"

#include "kernel/uapi/latency.h"
#include "lib/user/ulib.h"

#define WARM_THREADS 256 /* the kernel's MAX_THREADS: it says -EAGAIN before that */
#define WARM_STACK   2048

static volatile int release, alive;
static char warm_stacks[WARM_THREADS][WARM_STACK] __attribute__((aligned(16)));

static void warm_thread(void *arg)
{
    while (!release)
        sleep_ns(1000000);
    __atomic_sub_fetch(&alive, 1, __ATOMIC_RELAXED);
}

long pages_baseline(void)
{
    struct latency_status st;
    if (syscall2(SYS_latency_ctl, LATENCY_STATUS, &st) == 0 && !st.on) {
        syscall1(SYS_latency_ctl, LATENCY_ON); /* allocates the histograms, once */
        syscall1(SYS_latency_ctl, LATENCY_OFF);
    }
    release = 0;
    for (int i = 0; i < WARM_THREADS; i++) {
        __atomic_add_fetch(&alive, 1, __ATOMIC_RELAXED);
        if (thread_create(warm_thread, NULL, warm_stacks[i], WARM_STACK) < 0) {
            __atomic_sub_fetch(&alive, 1, __ATOMIC_RELAXED);
            break;
        }
    }
    release = 1;
    while (__atomic_load_n(&alive, __ATOMIC_RELAXED) > 0)
        sleep_ns(1000000);
    sleep_ns(20000000); /* their last switches out */
    return syscall0(SYS_debug_free_pages);
}

bool pages_back_to(long baseline, uint64_t timeout_ns, long *now)
{
    uint64_t end = now_ns() + timeout_ns;
    for (;;) {
        *now = syscall0(SYS_debug_free_pages);
        if (*now == baseline || now_ns() > end)
            return *now == baseline;
        sleep_ns(10000000);
    }
}
