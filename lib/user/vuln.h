/* SPDX-License-Identifier: MIT */
/*
 * lib/user/vuln.h - the deliberately vulnerable system calls of a kernel
 * built with make VULN=1 (kernel/syscall/sys_vuln.c); any other kernel answers
 * -ENOSYS to each.
 */
#ifndef LIB_USER_VULN_H
#define LIB_USER_VULN_H

#include "kernel/uapi/vuln.h"
#include "lib/user/syscall.h"

/* Bug 1: leave *req in a kernel stack frame; then ask whether an
 * uninitialised local of a later call equals token (1 or 0). */
static inline long vuln_fill(const struct vuln_request *req)
{
    return syscall1(SYS_vuln_fill, req);
}

static inline long vuln_use(unsigned long token)
{
    return syscall1(SYS_vuln_use, token);
}

/* Bug 1, wide: VULN_WIDE_REQUESTS requests left in one kernel frame (a
 * spray over every depth); then the use, which checks the middle one. */
static inline long vuln_fill_wide(const struct vuln_request reqs[VULN_WIDE_REQUESTS])
{
    return syscall2(SYS_vuln_fill, reqs, 1);
}

static inline long vuln_use_wide(unsigned long token)
{
    return syscall2(SYS_vuln_use, token, 1);
}

/* Bug 2: the kernel stack address of a local; then a write to addr that
 * lands (1) only if addr is the same local in the write's own frame. */
static inline long vuln_leak(void)
{
    return syscall0(SYS_vuln_leak);
}

static inline long vuln_write(unsigned long addr, unsigned long value)
{
    return syscall2(SYS_vuln_write, addr, value);
}

#endif
