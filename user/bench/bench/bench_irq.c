/* SPDX-License-Identifier: MIT */
/* user/bench/bench/bench_irq.c - interrupt to user-space handler latency (see bench_irq.h). */
#include "user/bench/bench/bench_irq.h"

#include "kernel/uapi/latency.h"
#include "lib/user/counter.h"
#include "lib/user/ipc.h"
#include "lib/user/ulib.h"
#include "user/common/bench_ipc.h"
#include "user/common/uart_dev.h"

#define DEV_H    0
#define IRQ_BIT  1ul
#define STOP_BIT 2ul
#define WAIT_NS  1000000000ull

static struct uart_dev uart;
static int irq_n = -1, done_n = -1;
static unsigned long kind;
static volatile uint64_t handled_at;
static volatile int handler_running;
static int handler_tid;
static char handler_stack[16 * 1024] __attribute__((aligned(16)));

/* The handler thread: on the boot CPU, where the UART's interrupt arrives. */
static void handler(void *arg)
{
    (void)arg;
    sys_sched_setaffinity(0, 1ul);
    handler_running = 1;
    for (;;) {
        long bits = notify_wait(irq_n);
        uint64_t t = counter_end(kind);
        if (bits < 0 || (bits & STOP_BIT))
            break;
        uart_dev_irq_enable(&uart, false); /* the transmitter's interrupt off again */
        uart_dev_irq_clear(&uart);
        irq_ack(DEV_H);
        handled_at = t;
        notify_signal(done_n, IRQ_BIT);
    }
    handler_running = 0;
}

long bench_irq_start(void)
{
    long err = uart_dev_open(&uart, DEV_H);
    if (err)
        return err;
    irq_n = notify_create();
    done_n = notify_create();
    if (irq_n < 0 || done_n < 0)
        return irq_n < 0 ? irq_n : done_n;
    err = irq_bind(DEV_H, irq_n, IRQ_BIT);
    if (err)
        return err;
    handler_tid = thread_create(handler, NULL, handler_stack, sizeof(handler_stack));
    if (handler_tid < 0) {
        handle_close(DEV_H); /* unbinds: the kernel takes its console input back */
        return -EAGAIN;
    }
    while (!handler_running)
        yield();
    return 0;
}

/* Make the UART raise its transmitter interrupt. */
static void raise_irq(void)
{
    uart_dev_irq_enable(&uart, true);
    if (uart.kind == DEVICE_UART_PL011)
        uart_dev_putc(&uart, '\0');
}

/* The handler's signal, waited for at most WAIT_NS: false if it never came. */
static bool wait_handled(void)
{
    uint64_t deadline = now_ns() + WAIT_NS;
    while (notify_poll(done_n) == 0) {
        if (now_ns() > deadline)
            return false;
        yield();
    }
    return true;
}

/* The caller moves to the handler's CPU for the samples, so that both
 * readings come from one CPU's counter: arm64's PMCCNTR_EL0 is each CPU's
 * own, with no common zero (the span then includes the caller's yield). */
long bench_irq_samples(long n, long warm, unsigned long counter, uint64_t empty, struct hist *out)
{
    long missed = 0, home = sys_sched_getaffinity(0);
    kind = counter;
    sys_sched_setaffinity(0, 1ul);
    for (long i = 0; i < warm + n; i++) {
        uint64_t t0 = counter_begin(kind);
        raise_irq();
        if (!wait_handled()) {
            missed++;
            continue;
        }
        uint64_t d = handled_at - t0;
        if (i >= warm)
            hist_add(out, d > empty ? d - empty : 0);
    }
    if (home > 0)
        sys_sched_setaffinity(0, (unsigned long)home);
    return missed;
}

#define LOAD_MAX 8
static volatile int load_stop, load_running, load_kind, load_server;
static volatile long load_failed;
static char load_stacks[LOAD_MAX][8192] __attribute__((aligned(16)));
static int load_tids[LOAD_MAX];
static unsigned long load_bufs[LOAD_MAX][IPC_BUF_WORDS];
static struct hist load_hists[LOAD_MAX]; /* the storm's round trips: not reported */

/* One IPC storm thread's calls, a burst at a time, until stopped. */
static void storm(unsigned long c)
{
    ipc_set_buffer(load_bufs[c]);
    while (!load_stop) {
        long err;
        hist_reset(&load_hists[c]);
        long failed = bench_ipc_round_trips(load_server, 0, 64, 0, kind, 0, &load_hists[c], &err);
        if (failed) {
            __atomic_fetch_add(&load_failed, failed, __ATOMIC_RELAXED);
            break;
        }
    }
}

static void load_loop(void *arg)
{
    unsigned long c = (unsigned long)arg;
    sys_sched_setaffinity(0, 1ul << c);
    yield();
    __atomic_fetch_add(&load_running, 1, __ATOMIC_RELEASE);
    if (load_kind == BENCH_LOAD_IPC)
        storm(c);
    else {
        while (!load_stop)
            getpid();
    }
    __atomic_fetch_sub(&load_running, 1, __ATOMIC_RELEASE);
}

int bench_irq_load(unsigned cpus, int which, int ipc_server)
{
    int started = 0;
    load_stop = 0;
    load_failed = 0;
    load_kind = which;
    load_server = ipc_server;
    for (unsigned long c = 0; c < cpus && c < LOAD_MAX; c++) {
        load_tids[c] = thread_create(load_loop, (void *)c, load_stacks[c], sizeof(load_stacks[c]));
        started += load_tids[c] > 0;
    }
    while (__atomic_load_n(&load_running, __ATOMIC_ACQUIRE) < started)
        yield();
    return started;
}

long bench_irq_unload(void)
{
    load_stop = 1;
    for (unsigned c = 0; c < LOAD_MAX; c++) { /* ended: the next load reuses their stacks */
        if (load_tids[c] > 0)
            thread_join(load_tids[c]);
        load_tids[c] = 0;
    }
    return load_failed;
}

long bench_timer_samples(long ticks, struct hist *out)
{
    static struct hist h;
    long err = syscall6(SYS_latency_ctl, LATENCY_TIMER, -1, (long)&h, 1, 0, 0); /* start afresh */
    if (err)
        return err;
    sleep_ns((uint64_t)ticks * 1000000ull); /* SCHED_TICK_HZ: 1000 */
    err = syscall6(SYS_latency_ctl, LATENCY_TIMER, -1, (long)&h, 1, 0, 0);
    if (!err)
        hist_merge(out, &h);
    return err;
}

void bench_irq_stop(void)
{
    notify_signal(irq_n, STOP_BIT);
    thread_join(handler_tid); /* ended: the next start may reuse its stack */
    handle_close(DEV_H);      /* unbinds: the kernel takes its console input back */
    handle_close(irq_n);
    handle_close(done_n);
}
