/* SPDX-License-Identifier: MIT */
/* kernel/uaccess.c - range-checked user copies (see uaccess.h). */
#include "kernel/uaccess.h"

#include "kernel/errno.h"
#include "kernel/task.h"

bool user_access_ok(uintptr_t p, size_t n, bool write)
{
    if (!user_range_ok(p, n))
        return false;
    struct task *t = current_task();
    for (uintptr_t page = ALIGN_DOWN(p, PAGE_SIZE); page < p + n; page += PAGE_SIZE) {
        uint64_t pa;
        unsigned prot;
        if (!vm_query(&t->as, page, &pa, &prot) || !(prot & VM_USER) ||
            (write && !(prot & VM_WRITE)))
            return false;
    }
    return true;
}

int copy_from_user(void *dst, uintptr_t src, size_t n)
{
    if (n == 0)
        return 0;
    if (!user_range_ok(src, n))
        return -EFAULT;
    return arch_copy_from_user(dst, src, n);
}

int copy_to_user(uintptr_t dst, const void *src, size_t n)
{
    if (n == 0)
        return 0;
    if (!user_range_ok(dst, n))
        return -EFAULT;
    return arch_copy_to_user(dst, src, n);
}

long strncpy_from_user(char *dst, uintptr_t src, size_t max)
{
    for (size_t i = 0; i < max; i++) {
        if (copy_from_user(&dst[i], src + i, 1) != 0)
            return -EFAULT;
        if (dst[i] == '\0')
            return (long)i;
    }
    return -E2BIG;
}
