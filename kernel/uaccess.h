/* SPDX-License-Identifier: MIT */
/*
 * kernel/uaccess.h - the only way the kernel touches user memory.
 *
 * Every pointer a system call receives is an untrusted number. These helpers
 * first check that the whole range lies in user space (so a user cannot
 * make the kernel read or write kernel memory), then copy with the arch's
 * fault-tolerant routine: an unmapped or protected page ends the copy with
 * -EFAULT through the exception table instead of a kernel panic.
 */
#ifndef KERNEL_UACCESS_H
#define KERNEL_UACCESS_H

#include "kernel/mm/vm.h"

static inline bool user_range_ok(uintptr_t p, size_t n)
{
    return p < USER_TOP && n <= USER_TOP - p;
}

/* True if every page of [p, p + n) is mapped for user access (and writable
 * if `write`) in the current address space: for calls that may end up
 * copying nothing, so that a bad buffer still gives -EFAULT. */
bool user_access_ok(uintptr_t p, size_t n, bool write);

/* 0, or -EFAULT if any byte is outside user space or not accessible. */
int copy_from_user(void *dst, uintptr_t src, size_t n);
int copy_to_user(uintptr_t dst, const void *src, size_t n);
/* Copy a NUL-terminated string of at most max-1 characters: its length,
 * -EFAULT, or -E2BIG if it does not fit. */
long strncpy_from_user(char *dst, uintptr_t src, size_t max);

#endif
