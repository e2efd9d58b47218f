/* SPDX-License-Identifier: MIT */
/*
 * lib/user/syscall_list.h - every system call number the kernel implements
 * that returns to its caller (kernel/uapi/syscall.h), for the programs that
 * call them all: the fuzzer draws from it (user/longrun/fuzz/fuzz.c), and the bad-input
 * test adds SYS_exit and SYS_thread_exit to tell implemented numbers from
 * the rest (user/tests/test_badinput.c). A new call goes here once.
 */
#ifndef LIB_USER_SYSCALL_LIST_H
#define LIB_USER_SYSCALL_LIST_H

#include "lib/user/ulib.h" /* newlib first, then the kernel's numbers */

/* clang-format off */
#define SYSCALLS_THAT_RETURN \
    SYS_write, \
    SYS_read, \
    SYS_getpid, \
    SYS_getppid, \
    SYS_yield, \
    SYS_nanosleep, \
    SYS_clock_gettime, \
    SYS_brk, \
    SYS_spawn, \
    SYS_wait, \
    SYS_getcpu, \
    SYS_thread_create, \
    SYS_gettid, \
    SYS_sched_setaffinity, \
    SYS_sched_getaffinity, \
    SYS_debug_sleep, \
    SYS_debug_free_pages, \
    SYS_debug_spin, \
    SYS_debug_stats, \
    SYS_debug_leak_lock, \
    SYS_kstack_set, \
    SYS_kstack_get, \
    SYS_kstack_probe, \
    SYS_kstack_stats, \
    SYS_kstack_debug, \
    SYS_latency_ctl, \
    SYS_latency_read, \
    SYS_debug_kaddr, \
    SYS_endpoint_create, \
    SYS_notify_create, \
    SYS_handle_mint, \
    SYS_handle_close, \
    SYS_ipc_call, \
    SYS_ipc_send, \
    SYS_ipc_recv, \
    SYS_ipc_reply_recv, \
    SYS_ipc_set_buffer, \
    SYS_notify_signal, \
    SYS_notify_wait, \
    SYS_notify_poll, \
    SYS_spawn_with, \
    SYS_device_info, \
    SYS_device_io, \
    SYS_irq_bind, \
    SYS_irq_ack, \
    SYS_device_map, \
    SYS_debug_ipc_fastpath,
/* clang-format on */

#endif
