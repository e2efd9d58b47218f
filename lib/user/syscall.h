/* SPDX-License-Identifier: MIT */
/*
 * lib/user/syscall.h - the system call instruction, per architecture.
 * The register assignment is the ABI in kernel/uapi/syscall.h.
 *
 * raw_syscall6() returns what the kernel returned: -errno in the kernel's
 * numbering on failure. syscall6() and the syscallN() macros turn that into
 * -errno in the C library's numbering (newlib's <errno.h>, which differs in
 * ENOSYS), so results compare with -EFAULT, -ENOSYS, ... as written.
 */
#ifndef LIB_USER_SYSCALL_H
#define LIB_USER_SYSCALL_H

/* kernel/uapi/syscall.h has its own struct timespec, laid out like newlib's
 * (lib/user/ulib.h checks): here it is called struct kernel_timespec. */
#define timespec kernel_timespec
#include "kernel/uapi/syscall.h"
#undef timespec

static inline long raw_syscall6(long n, long a0, long a1, long a2, long a3, long a4, long a5)
{
#if defined(__x86_64__)
    long ret;
    register long r10 __asm__("r10") = a3;
    register long r8 __asm__("r8") = a4;
    register long r9 __asm__("r9") = a5;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(n), "D"(a0), "S"(a1), "d"(a2), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    return ret;
#elif defined(__aarch64__)
    register long x8 __asm__("x8") = n;
    register long x0 __asm__("x0") = a0;
    register long x1 __asm__("x1") = a1;
    register long x2 __asm__("x2") = a2;
    register long x3 __asm__("x3") = a3;
    register long x4 __asm__("x4") = a4;
    register long x5 __asm__("x5") = a5;
    __asm__ volatile("svc #0"
                     : "+r"(x0)
                     : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
                     : "memory");
    return x0;
#elif defined(__riscv)
    register long a7r __asm__("a7") = n;
    register long a0r __asm__("a0") = a0;
    register long a1r __asm__("a1") = a1;
    register long a2r __asm__("a2") = a2;
    register long a3r __asm__("a3") = a3;
    register long a4r __asm__("a4") = a4;
    register long a5r __asm__("a5") = a5;
    __asm__ volatile("ecall"
                     : "+r"(a0r)
                     : "r"(a7r), "r"(a1r), "r"(a2r), "r"(a3r), "r"(a4r), "r"(a5r)
                     : "memory");
    return a0r;
#else
#error "unsupported architecture"
#endif
}

int errno_from_kernel(int kernel_errno);

static inline long syscall6(long n, long a0, long a1, long a2, long a3, long a4, long a5)
{
    long r = raw_syscall6(n, a0, a1, a2, a3, a4, a5);
    return (unsigned long)r >= -4095ul ? -errno_from_kernel((int)-r) : r;
}

#define raw_syscall0(n)      raw_syscall6((n), 0, 0, 0, 0, 0, 0)
#define syscall0(n)          syscall6((n), 0, 0, 0, 0, 0, 0)
#define syscall1(n, a)       syscall6((n), (long)(a), 0, 0, 0, 0, 0)
#define syscall2(n, a, b)    syscall6((n), (long)(a), (long)(b), 0, 0, 0, 0)
#define syscall3(n, a, b, c) syscall6((n), (long)(a), (long)(b), (long)(c), 0, 0, 0)

#endif
