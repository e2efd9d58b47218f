/* SPDX-License-Identifier: MIT */
/*
 * linux/client/lx_sys.h - the few Linux system calls the client programs
 * make, without a C library (Debian's cross compilers come without an arm64
 * libc): the numbers from the Linux syscall ABI of each arch
 * (x86_64: arch/x86/entry/syscalls/syscall_64.tbl; arm64: the generic
 * table, include/uapi/asm-generic/unistd.h) and the calling convention of
 * syscall(2)'s "Architecture calling conventions" table.
 */
#ifndef LX_SYS_H
#define LX_SYS_H

#include <stdint.h>

#if defined(__x86_64__)
enum {
    NR_read = 0,
    NR_write = 1,
    NR_close = 3,
    NR_mmap = 9,
    NR_ioctl = 16,
    NR_sched_yield = 24,
    NR_getpid = 39,
    NR_clone = 56,
    NR_exit = 60,
    NR_wait4 = 61,
    NR_getppid = 110,
    NR_mount = 165,
    NR_reboot = 169,
    NR_sched_setaffinity = 203,
    NR_openat = 257,
    NR_finit_module = 313
};
#define LX_ARCH "x86_64"
#elif defined(__aarch64__)
enum {
    NR_read = 63,
    NR_write = 64,
    NR_close = 57,
    NR_mmap = 222,
    NR_ioctl = 29,
    NR_sched_yield = 124,
    NR_getpid = 172,
    NR_clone = 220,
    NR_exit = 93,
    NR_wait4 = 260,
    NR_getppid = 173,
    NR_mount = 40,
    NR_reboot = 142,
    NR_sched_setaffinity = 122,
    NR_openat = 56,
    NR_finit_module = 273
};
#define LX_ARCH "arm64"
#else
#error "linux/client: x86_64 and arm64 only (Debian 12 ships no riscv64 kernel)"
#endif

#define NR_INVALID 9999 /* as user/bench: a number no kernel has */

static inline long lx_syscall6(long nr, long a, long b, long c, long d, long e, long f)
{
#if defined(__x86_64__)
    register long r10 __asm__("r10") = d, r8 __asm__("r8") = e, r9 __asm__("r9") = f;
    long ret;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    return ret;
#else
    register long x8 __asm__("x8") = nr, x0 __asm__("x0") = a, x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c, x3 __asm__("x3") = d, x4 __asm__("x4") = e;
    register long x5 __asm__("x5") = f;
    __asm__ volatile("svc #0"
                     : "+r"(x0)
                     : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
                     : "memory");
    return x0;
#endif
}

#define lx_syscall0(n)          lx_syscall6((n), 0, 0, 0, 0, 0, 0)
#define lx_syscall1(n, a)       lx_syscall6((n), (long)(a), 0, 0, 0, 0, 0)
#define lx_syscall2(n, a, b)    lx_syscall6((n), (long)(a), (long)(b), 0, 0, 0, 0)
#define lx_syscall3(n, a, b, c) lx_syscall6((n), (long)(a), (long)(b), (long)(c), 0, 0, 0)

/* The counter user/bench reads (lib/user/counter.h): RDTSC between LFENCEs
 * on x86_64; CNTVCT_EL0 between ISBs on arm64 (Linux lets EL0 read the
 * virtual counter; PMCCNTR_EL0 it does not). Under QEMU -icount shift=0
 * both advance one per instruction (arm64 with a 1 GHz CNTFRQ). */
static inline uint64_t lx_counter(void)
{
#if defined(__x86_64__)
    uint32_t lo, hi;
    __asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) : : "memory");
    return (uint64_t)hi << 32 | lo;
#else
    uint64_t v;
    __asm__ volatile("isb; mrs %0, cntvct_el0; isb" : "=r"(v) : : "memory");
    return v;
#endif
}

static inline uint64_t lx_counter_hz(void)
{
#if defined(__x86_64__)
    return 0; /* unknown to a user program */
#else
    uint64_t v;
    __asm__ volatile("mrs %0, cntfrq_el0" : "=r"(v));
    return v;
#endif
}

#define LX_COUNTER_NAME (sizeof(LX_ARCH) == sizeof("x86_64") ? "tsc" : "cntvct")

#endif
