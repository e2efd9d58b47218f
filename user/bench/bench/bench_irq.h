/* SPDX-License-Identifier: MIT */
/*
 * user/bench/bench/bench_irq.h - interrupt to user-space handler latency, for the
 * benchmark (user/bench/bench/bench.c), on the console UART: a program that holds the
 * console device as handle 0 (the kernel gives it to `run=` programs booted
 * with run.driver, and to init) binds the UART's interrupt to a
 * notification (irq_bind, docs/ipc.md) that a handler thread pinned to the
 * boot CPU, where the interrupt arrives, waits on. The caller moves to that
 * CPU for the samples: both counter readings are then one CPU's.
 *
 * One sample: the caller reads the counter, makes the UART raise its
 * interrupt (the transmitter-empty one, as user/tests/test_device.c does: a 16550
 * raises it as soon as it is enabled, a PL011 once a byte has gone, here a
 * NUL), and waits; the handler thread reads the counter when notify_wait
 * returns, then quiets the device and acknowledges (irq_ack), outside the
 * timed span. The span is thus: the device_io calls that raise it, the
 * interrupt and its entry, the kernel masking the line and signalling, and
 * the switch to the handler thread and its return to user mode.
 */
#ifndef USER_BENCH_BENCH_BENCH_IRQ_H
#define USER_BENCH_BENCH_BENCH_IRQ_H

#include <stdint.h>

#include "lib/hist.h"

/* Bind the interrupt and start the handler thread: 0, or -errno (no
 * device handle 0, no interrupt route, no thread), with nothing left bound. */
long bench_irq_start(void);

/* n timed samples after `warm` untimed ones, each minus `empty`, into out
 * (not reset first). Returns how many got no interrupt within 1 s. */
long bench_irq_samples(long n, long warm, unsigned long counter, uint64_t empty, struct hist *out);

/* The load of the rows under load (irq/uart-getpid, irq/uart-ipc,
 * irq/timer-getpid, irq/timer-ipc): a thread pinned to each of the first
 * `cpus` CPUs (at most 8), running until bench_irq_unload(): a getpid loop
 * (BENCH_LOAD_GETPID), or an IPC storm (BENCH_LOAD_IPC): call0 round trips
 * to echo server `ipc_server` (user/common/bench_ipc.h), as fast as they go.
 * Returns the threads started. */
#define BENCH_LOAD_GETPID 1
#define BENCH_LOAD_IPC    2
int bench_irq_load(unsigned cpus, int kind, int ipc_server);
/* Stop the load; the IPC storm's failed calls (0 for getpid). */
long bench_irq_unload(void);

/* How late the timer interrupt's handler ran after its programmed deadline
 * (SYS_latency_ctl LATENCY_TIMER; kernel/latency/timer_lag.c), every
 * CPU's, over `ticks` ticks of this thread sleeping: into out (not reset
 * first), in the timer counter's ticks. 0, or -errno. */
long bench_timer_samples(long ticks, struct hist *out);

/* Stop the handler thread and give the interrupt back to the kernel. */
void bench_irq_stop(void);

#endif
