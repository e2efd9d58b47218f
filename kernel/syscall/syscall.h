/* SPDX-License-Identifier: MIT */
/*
 * kernel/syscall/syscall.h - system call handlers.
 * A handler gets the six raw argument registers and converts each one
 * explicitly: they are untrusted numbers, pointers included (kernel/uaccess.h).
 */
#ifndef KERNEL_SYSCALL_H
#define KERNEL_SYSCALL_H

#include "kernel/types.h"
#include "kernel/uapi/syscall.h"

struct sysargs {
    uintptr_t a[6];
};

typedef long (*syscall_fn)(const struct sysargs *args);

/* A debug call (docs/security.md) may run: the gate is open (a kernel with
 * the debug calls, booted with kstack.debug) and the caller holds the
 * control capability's `right` (IPC_RIGHT_DEBUG, or IPC_RIGHT_LATENCY for
 * the timers). Otherwise the call answers -EPERM. */
bool debug_call_allowed(unsigned right);

long sys_exit(const struct sysargs *args);
long sys_write(const struct sysargs *args);
long sys_read(const struct sysargs *args);
long sys_getpid(const struct sysargs *args);
long sys_getppid(const struct sysargs *args);
long sys_yield(const struct sysargs *args);
long sys_nanosleep(const struct sysargs *args);
long sys_clock_gettime(const struct sysargs *args);
long sys_brk(const struct sysargs *args);
long sys_spawn(const struct sysargs *args);
long sys_wait(const struct sysargs *args);
long sys_getcpu(const struct sysargs *args);
long sys_thread_create(const struct sysargs *args);
long sys_thread_exit(const struct sysargs *args);
long sys_gettid(const struct sysargs *args);
long sys_sched_setaffinity(const struct sysargs *args);
long sys_sched_getaffinity(const struct sysargs *args);
long sys_debug_sleep(const struct sysargs *args);
long sys_debug_free_pages(const struct sysargs *args);
long sys_debug_spin(const struct sysargs *args);
long sys_debug_stats(const struct sysargs *args);
long sys_debug_leak_lock(const struct sysargs *args);
long sys_kstack_set(const struct sysargs *args);
long sys_kstack_get(const struct sysargs *args);
long sys_kstack_probe(const struct sysargs *args);
long sys_kstack_stats(const struct sysargs *args);
long sys_kstack_debug(const struct sysargs *args);
long sys_latency_ctl(const struct sysargs *args);
long sys_latency_read(const struct sysargs *args);
long sys_debug_kaddr(const struct sysargs *args);
long sys_debug_ipc_fastpath(const struct sysargs *args);
long sys_endpoint_create(const struct sysargs *args);
long sys_notify_create(const struct sysargs *args);
long sys_handle_mint(const struct sysargs *args);
long sys_handle_close(const struct sysargs *args);
long sys_ipc_call(const struct sysargs *args);
long sys_ipc_send(const struct sysargs *args);
long sys_ipc_recv(const struct sysargs *args);
long sys_ipc_reply_recv(const struct sysargs *args);
long sys_ipc_set_buffer(const struct sysargs *args);
long sys_notify_signal(const struct sysargs *args);
long sys_notify_wait(const struct sysargs *args);
long sys_notify_poll(const struct sysargs *args);
long sys_spawn_with(const struct sysargs *args);
long sys_device_info(const struct sysargs *args);
long sys_device_io(const struct sysargs *args);
long sys_irq_bind(const struct sysargs *args);
long sys_irq_ack(const struct sysargs *args);
long sys_device_map(const struct sysargs *args);
/* make VULN=1 only (kernel/syscall/sys_vuln.c). */
long sys_vuln_fill(const struct sysargs *args);
long sys_vuln_use(const struct sysargs *args);
long sys_vuln_leak(const struct sysargs *args);
long sys_vuln_write(const struct sysargs *args);
extern unsigned long vuln_granted; /* SYS_vuln_use calls that returned 1 */

/* Whether the system call table has a handler for nr (kernel/syscall/syscall.c). */
bool syscall_implemented(unsigned long nr);

#endif
