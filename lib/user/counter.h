/* SPDX-License-Identifier: MIT */
/*
 * lib/user/counter.h - read, from user space, the counter the kernel's
 * latency timers use (SYS_latency_ctl LATENCY_STATUS says which: `kind`),
 * ordered like the kernel's reads (arch/arch.h, arch_timestamp_begin/end):
 * x86_64 LFENCE; RDTSC; LFENCE at both ends (user code does not know
 * whether the CPU has RDTSCP; this ordering is as strict); arm64 ISB around PMCCNTR_EL0 or
 * CNTVCT_EL0; riscv64 FENCE around rdcycle or rdtime.
 */
#ifndef LIB_USER_COUNTER_H
#define LIB_USER_COUNTER_H

#include <stdint.h>

#include "kernel/uapi/latency.h"

static inline uint64_t counter_begin(unsigned long kind)
{
#if defined(__x86_64__)
    uint32_t lo, hi;
    (void)kind;
    __asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) : : "memory");
    return (uint64_t)hi << 32 | lo;
#elif defined(__aarch64__)
    uint64_t v;
    if (kind == LATENCY_COUNTER_PMCCNTR)
        __asm__ volatile("isb; mrs %0, pmccntr_el0; isb" : "=r"(v) : : "memory");
    else
        __asm__ volatile("isb; mrs %0, cntvct_el0; isb" : "=r"(v) : : "memory");
    return v;
#else
    uint64_t v;
    if (kind == LATENCY_COUNTER_CYCLE)
        __asm__ volatile("fence; rdcycle %0; fence" : "=r"(v) : : "memory");
    else
        __asm__ volatile("fence; rdtime %0; fence" : "=r"(v) : : "memory");
    return v;
#endif
}

static inline uint64_t counter_end(unsigned long kind)
{
    return counter_begin(kind);
}

#endif
