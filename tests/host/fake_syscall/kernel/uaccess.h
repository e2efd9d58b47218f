/* SPDX-License-Identifier: MIT */
/*
 * tests/host/fake_syscall/kernel/uaccess.h - the user copies for a host test
 * of a system call handler (tests/host/test_sys_clock.c): a small user
 * memory model and a record of every copy. copy_to_user keeps the kernel's
 * contract (the range check of kernel/uaccess.h, then the arch copy, which
 * fails on a page that is not mapped writable); arch_copy_to_user, the
 * raw copy, is recorded apart, with whatever range it was handed.
 * (-Itests/host/fake_syscall comes before -I.: this file stands in for
 * kernel/uaccess.h, and arch/arch.h here for the real one.)
 */
#ifndef FAKE_UACCESS_H
#define FAKE_UACCESS_H

#include "arch/arch.h"
#include "kernel/types.h"
#include "kernel/uapi/syscall.h"

/* The kernel's rule (kernel/uaccess.h), which the test also uses as its oracle. */
static inline bool user_range_ok(uintptr_t p, size_t n)
{
    return p < USER_TOP && n <= USER_TOP - p;
}

bool user_access_ok(uintptr_t p, size_t n, bool write);
int copy_from_user(void *dst, uintptr_t src, size_t n);
int copy_to_user(uintptr_t dst, const void *src, size_t n);

#endif
