/* SPDX-License-Identifier: MIT */
/*
 * lib/user/ipc.h - the IPC calls for user programs (kernel/uapi/ipc.h).
 *
 * A message is a tag and four words, which travel in argument registers
 * 1-5 both ways; IPC_TAG_LEN(tag) extra words travel through the buffer
 * registered with ipc_set_buffer (per thread). Like the other ulib calls
 * these return -errno in the C library's numbering and leave errno alone;
 * ipc_recv and ipc_reply_recv return the sender's badge (>= 0).
 */
#ifndef LIB_USER_IPC_H
#define LIB_USER_IPC_H

#include <stdint.h>

#include "kernel/uapi/ipc.h"
#include "lib/user/syscall.h"

struct ipc_msg {
    unsigned long tag;
    unsigned long w[IPC_REG_WORDS];
};

/*
 * One IPC system call: the message in m goes out in argument registers
 * 1-5 and whatever the kernel puts there comes back into m. The raw
 * result: a badge, 0 or -errno in the kernel's numbering.
 */
static inline long raw_ipc_syscall(long n, long h, struct ipc_msg *m)
{
    /* w1..w3 live in variables named after x86_64's registers on every
     * arch, so that the common tail below reads them back. */
#if defined(__x86_64__)
    long ret;
    register long r10 __asm__("r10") = (long)m->w[1];
    register long r8 __asm__("r8") = (long)m->w[2];
    register long r9 __asm__("r9") = (long)m->w[3];
    long rsi = (long)m->tag, rdx = (long)m->w[0];
    __asm__ volatile("syscall"
                     : "=a"(ret), "+S"(rsi), "+d"(rdx), "+r"(r10), "+r"(r8), "+r"(r9), "+D"(h)
                     : "a"(n)
                     : "rcx", "r11", "memory");
    m->tag = (unsigned long)rsi;
    m->w[0] = (unsigned long)rdx;
#elif defined(__aarch64__)
    register long x8 __asm__("x8") = n;
    register long x0 __asm__("x0") = h;
    register long x1 __asm__("x1") = (long)m->tag;
    register long x2 __asm__("x2") = (long)m->w[0];
    register long r10 __asm__("x3") = (long)m->w[1];
    register long r8 __asm__("x4") = (long)m->w[2];
    register long r9 __asm__("x5") = (long)m->w[3];
    __asm__ volatile("svc #0"
                     : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(r10), "+r"(r8), "+r"(r9)
                     : "r"(x8)
                     : "memory");
    long ret = x0;
    m->tag = (unsigned long)x1;
    m->w[0] = (unsigned long)x2;
#elif defined(__riscv)
    register long a7 __asm__("a7") = n;
    register long a0 __asm__("a0") = h;
    register long a1 __asm__("a1") = (long)m->tag;
    register long a2 __asm__("a2") = (long)m->w[0];
    register long r10 __asm__("a3") = (long)m->w[1];
    register long r8 __asm__("a4") = (long)m->w[2];
    register long r9 __asm__("a5") = (long)m->w[3];
    __asm__ volatile("ecall"
                     : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(r10), "+r"(r8), "+r"(r9)
                     : "r"(a7)
                     : "memory");
    long ret = a0;
    m->tag = (unsigned long)a1;
    m->w[0] = (unsigned long)a2;
#else
#error "unsupported architecture"
#endif
    m->w[1] = (unsigned long)r10;
    m->w[2] = (unsigned long)r8;
    m->w[3] = (unsigned long)r9;
    return ret;
}

/* The same, with the error in the C library's numbering. */
static inline long ipc_syscall(long n, long h, struct ipc_msg *m)
{
    long r = raw_ipc_syscall(n, h, m);
    return (unsigned long)r >= -4095ul ? -errno_from_kernel((int)-r) : r;
}

/* Send m and wait for the reply, which replaces m: 0 or -errno. */
static inline long ipc_call(int h, struct ipc_msg *m)
{
    return ipc_syscall(SYS_ipc_call, h, m);
}
/* Send m if a receiver waits: 0, else -EAGAIN (m is left as it was). */
static inline long ipc_send(int h, const struct ipc_msg *m)
{
    struct ipc_msg copy = *m;
    return ipc_syscall(SYS_ipc_send, h, &copy);
}
/* Wait for a message, into m: the sender's badge or -errno. */
static inline long ipc_recv(int h, struct ipc_msg *m)
{
    *m = (struct ipc_msg){0};
    return ipc_syscall(SYS_ipc_recv, h, m);
}
/* Reply m to the last caller, then as ipc_recv. */
static inline long ipc_reply_recv(int h, struct ipc_msg *m)
{
    return ipc_syscall(SYS_ipc_reply_recv, h, m);
}

static inline int endpoint_create(void)
{
    return (int)syscall0(SYS_endpoint_create);
}
static inline int notify_create(void)
{
    return (int)syscall0(SYS_notify_create);
}
static inline int handle_mint(int h, unsigned rights, unsigned long badge)
{
    return (int)syscall3(SYS_handle_mint, h, rights, badge);
}
static inline int handle_close(int h)
{
    return (int)syscall1(SYS_handle_close, h);
}
/* This thread's buffer of IPC_BUF_WORDS words for long messages (NULL: none). */
static inline int ipc_set_buffer(unsigned long *buf)
{
    return (int)syscall1(SYS_ipc_set_buffer, buf);
}
static inline int notify_signal(int h, unsigned long bits)
{
    return (int)syscall2(SYS_notify_signal, h, bits);
}
static inline long notify_wait(int h)
{
    return syscall1(SYS_notify_wait, h);
}
static inline long notify_poll(int h)
{
    return syscall1(SYS_notify_poll, h);
}
/* spawn, and the child gets handles[0..n-1] as its handles 0..n-1. */
static inline int spawn_with(const char *name, const char *const argv[], const int *handles, int n)
{
    return (int)syscall6(SYS_spawn_with, (long)name, (long)argv, (long)handles, n, 0, 0);
}

/* The console device (handle dev, kernel/uapi/ipc.h): DEVICE_INFO_*, one
 * register access, its interrupt bound to notification bits, acknowledged. */
static inline long device_info(int dev)
{
    return syscall1(SYS_device_info, dev);
}
static inline long device_read(int dev, unsigned long offset)
{
    return syscall6(SYS_device_io, dev, (long)offset, 0, 0, 0, 0);
}
static inline long device_write(int dev, unsigned long offset, unsigned long value)
{
    return syscall6(SYS_device_io, dev, (long)offset, (long)value, DEVICE_IO_WRITE, 0, 0);
}
/* A write the driver vouches for: a character sent at offset 0 is not
 * marked even if it completes a test result's start. */
static inline long device_write_vouched(int dev, unsigned long offset, unsigned long value)
{
    return syscall6(SYS_device_io, dev, (long)offset, (long)value, DEVICE_IO_WRITE_VOUCHED, 0, 0);
}
static inline int irq_bind(int dev, int notify, unsigned long bits)
{
    return (int)syscall3(SYS_irq_bind, dev, notify, bits);
}
static inline int irq_ack(int dev)
{
    return (int)syscall1(SYS_irq_ack, dev);
}
static inline int device_map(int dev, void *va)
{
    return (int)syscall2(SYS_device_map, dev, va);
}

#endif
