/* SPDX-License-Identifier: MIT */
/*
 * kernel/uapi/ipc.h - IPC constants, shared by the kernel and user programs
 * (the calls are in kernel/uapi/syscall.h).
 *
 * Objects: an endpoint is a meeting point where threads wait to send or to
 * receive (it stores no messages); a notification is a word of bits that
 * signal ORs into and wait collects. A task names them through handles, the
 * indexes of its handle table, each with rights and a badge.
 *
 * A message is a tag and four words, in registers both ways. The tag's low
 * 7 bits say how many extra words follow in the thread's long-message buffer
 * (ipc_set_buffer, at most IPC_BUF_WORDS); the rest of the tag is the
 * program's own label, which the kernel passes on untouched.
 *
 * Errors: -EBADF no such handle (never opened, closed, out of range);
 * -EINVAL the handle is the wrong kind of object, or a bad tag length or
 * argument; -EPERM the handle lacks the right; -EFAULT a bad buffer (nothing
 * is delivered); -EPIPE no receiver will ever come (every handle that could
 * receive is closed, the server died), or the server will never reply (it
 * died, or received again without replying); -EAGAIN ipc_send found no
 * receiver waiting; -EINTR the caller's task is exiting; -EMFILE the handle
 * table is full; -ENOSPC no free object; -EMSGSIZE the message has extra
 * words and the receiver it would reach has no buffer for them (nothing is
 * delivered: the receiver never sees it); -EBUSY, -ENODEV: devices, below.
 */
#ifndef KERNEL_UAPI_IPC_H
#define KERNEL_UAPI_IPC_H

#define IPC_MAX_HANDLES           32 /* handles per task: 0..31 */
/* The console: while a console server serves (user/servers/console_server.c,
 * started by init), every task starts with a handle here that may send to
 * it, badged with its pid (kernel/ipc/console_service.c; the protocol is
 * lib/user/console_client.h). Closed or never given: the C library writes
 * to the kernel's debug console (SYS_write) instead. */
#define IPC_CONSOLE_HANDLE        (IPC_MAX_HANDLES - 1)
/* The control capability (docs/security.md): the kernel gives it to init
 * and to its own self-test programs here, with every right below and MINT;
 * a holder may hand minted subsets to the programs it starts (spawn_with).
 * A privileged call succeeds if the caller holds, in any slot, a control
 * handle with the right it needs; otherwise it answers -EPERM. */
#define IPC_CONTROL_HANDLE        (IPC_MAX_HANDLES - 2)
/* In the badge of a console handle: the client's output may read as test
 * results, so the server prints its lines as they are; every other
 * client's are guarded (lib/result_guard.h). The kernel sets it for a task
 * that starts holding the control capability's CONSOLE right (a program
 * the command line names, a self-test program); init, which holds the
 * unbadged handle, sets it for the programs its command line names. */
#define IPC_CONSOLE_BADGE_VOUCHED (1ul << 62)
#define IPC_BUF_WORDS             64 /* the most extra words one message carries */
#define IPC_REG_WORDS             4  /* message words in registers, besides the tag */
#define IPC_TAG_LEN_MASK          0x7ful
#define IPC_TAG_LEN(tag)          ((unsigned long)(tag)&IPC_TAG_LEN_MASK)
#define IPC_TAG(label, len)       (((unsigned long)(label) << 7) | (len)) /* label < 2^57 */
#define IPC_TAG_LABEL(tag)        ((unsigned long)(tag) >> 7)
#define IPC_BADGE_MAX             ((1ul << 63) - 1)    /* badges are 63 bits: results stay >= 0 */
#define IPC_NOTIFY_BITS           0x7ffffffffffffffful /* bit 63 is not a notification bit */

/* The guards of the IPC fastpath (docs/ipc.md "The fastpath"): an ipc_call
 * or ipc_reply_recv that fails one takes the ordinary path, and
 * SYS_debug_stats counts the first one it failed. */
#define IPC_FAST_LONG              0 /* extra words: over 64, or not copied (fastpath_long.c) */
#define IPC_FAST_BAD_HANDLE        1 /* no such handle, or not an endpoint */
#define IPC_FAST_NO_RIGHT          2 /* the handle lacks SEND (call) or RECV (reply_recv) */
#define IPC_FAST_NO_PARTNER        3 /* call: no receiver waits; reply_recv: no caller to answer */
#define IPC_FAST_BUSY              4 /* reply_recv: a sender waits, to be received at once */
#define IPC_FAST_OTHER_CPU         5 /* the partner is not asleep on this CPU, or may not run here */
#define IPC_FAST_KILLED            6 /* the calling thread's task is exiting */
#define IPC_FAST_GUARDS            7
/* Why a partner the fastpath woke did not leave straight from its
 * trapframe (docs/ipc.md, "Straight back to user mode"; SYS_debug_stats). */
#define IPC_DIRECT_EXIT_WORK       0 /* it slept while the path owed work after the handler */
#define IPC_DIRECT_RETURN_CHECKS   1 /* its way out owed work: a reschedule, a refill, a kill */
#define IPC_DIRECT_SLEPT_ELSEWHERE 2 /* it slept in the ordinary path */
#define IPC_DIRECT_NOT_BUILT       3 /* the arch has no arch_switch_to_user */
#define IPC_DIRECT_WHYS            4
/* SYS_debug_ipc_fastpath's argument: turn the fastpath off or on (for
 * every CPU, from the next call on), or only ask; the call returns the
 * state before (0 off, 1 on). Behind the debug gate (docs/security.md). */
#define IPC_FASTPATH_OFF           0
#define IPC_FASTPATH_ON            1
#define IPC_FASTPATH_QUERY         2

/* Rights a handle carries (handle_mint hands on a subset). */
#define IPC_RIGHT_SEND    0x01  /* endpoint: ipc_call, ipc_send */
#define IPC_RIGHT_RECV    0x02  /* endpoint: ipc_recv, ipc_reply_recv */
#define IPC_RIGHT_SIGNAL  0x04  /* notification: notify_signal */
#define IPC_RIGHT_WAIT    0x08  /* notification: notify_wait, notify_poll */
#define IPC_RIGHT_MINT    0x10  /* either: handle_mint may derive handles from it */
#define IPC_RIGHT_KSTACK  0x20  /* control: kstack_set (not with kstack.lock) */
#define IPC_RIGHT_DEBUG   0x40  /* control: kstack_set to the legacy strategies, the debug calls */
#define IPC_RIGHT_CONSOLE 0x80  /* control: output that may read as test results (below) */
#define IPC_RIGHT_LATENCY 0x100 /* control: the latency timers (with kstack.debug) */
#define IPC_RIGHTS_CONTROL                                                                         \
    (IPC_RIGHT_KSTACK | IPC_RIGHT_DEBUG | IPC_RIGHT_CONSOLE | IPC_RIGHT_LATENCY | IPC_RIGHT_MINT)
#define IPC_RIGHTS_ALL 0x1ff

/*
 * Devices (kernel/ipc/device.c). The kernel makes one device object at boot,
 * the console UART; only a task given a handle to it can drive it (init,
 * and run.driver programs, get it as handle 0). A device handle carries no
 * rights but IPC_RIGHT_MINT; the calls check the kind:
 *   device_info(dev_h) -> DEVICE_INFO_*: which UART, how its registers lie;
 *   device_io(dev_h, offset, value, how) -> the value read, or 0 written:
 *     one register access (how: DEVICE_IO_READ, DEVICE_IO_WRITE or
 *     DEVICE_IO_WRITE_VOUCHED) at byte `offset` of the device's window (x86
 *     I/O ports: DEVICE_PORTS of them, one byte; memory-mapped: from its
 *     first register to the end of that page, with the width the device
 *     needs, offset aligned to it); -EINVAL outside. A write to offset 0,
 *     the transmit register of every UART here, is a character on the
 *     console: it goes through the kernel's own result guard, the one line
 *     state of the UART (lib/result_guard.h), which marks it if it would
 *     complete a test result's start, unless DEVICE_IO_WRITE_VOUCHED (the
 *     driver vouches for the writer: its own lines, a vouched client's);
 *   irq_bind(dev_h, notify_h, bits) -> 0: from now on, when the device's
 *     interrupt fires the kernel masks the line at the interrupt controller
 *     and signals `bits` on the notification (notify_h needs SIGNAL) instead
 *     of reading the UART itself; -EBUSY if it is bound already (through
 *     any handle), -ENODEV if the interrupt is not routed or its line cannot
 *     be masked, -EINVAL if bits are 0 or not notification bits;
 *   irq_ack(dev_h) -> 0: the driver has served the device; the kernel
 *     unmasks the line (-EINVAL if this handle has not bound it). Look at
 *     the device once more after the ack: an edge that came while masked
 *     may be lost.
 * When the handle that bound the interrupt is closed (or its task dies)
 * the kernel unbinds it and takes the console input back (line unmasked,
 * the UART's receive interrupt enabled again).
 *   device_map(dev_h, va) -> 0: the page holding the device's registers
 *     mapped at va (user read-write, no execute, device memory attributes);
 *     they start DEVICE_INFO_PAGE_OFFSET(info) bytes into it (0 on most
 *     boards; the Raspberry Pi's mini UART is 0x40 into its page): -EINVAL for
 *     a port device (x86: use device_io) or a va that is 0, not page
 *     aligned or not below USER_TOP - 4096; -EEXIST if va is mapped.
 */
#define DEVICE_UART_NS16550        1
#define DEVICE_UART_PL011          2
#define DEVICE_UART_SIFIVE         3 /* "sifive,uart0": 32-bit registers */
#define DEVICE_INFO_KIND(i)        ((unsigned long)(i)&0xff)
#define DEVICE_INFO_REG_SHIFT(i)   (((unsigned long)(i) >> 8) & 0xff) /* register n at n << shift */
#define DEVICE_INFO_WIDTH(i)       (((unsigned long)(i) >> 16) & 0xff) /* bytes per access */
#define DEVICE_INFO_PORTS          0x1000000ul /* x86 I/O ports rather than memory */
/* Memory-mapped: where the first register lies in the page device_map maps. */
#define DEVICE_INFO_PAGE_OFFSET(i) (((unsigned long)(i) >> 32) & 0xfff)
#define DEVICE_PORTS               8 /* an x86 port device's window */
#define DEVICE_IO_READ             0
#define DEVICE_IO_WRITE            1
#define DEVICE_IO_WRITE_VOUCHED    2

#endif
