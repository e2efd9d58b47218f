/* SPDX-License-Identifier: MIT */
/* tests/host/fake_kernel/kernel/arch_callbacks.h - ioremap for a host test:
 * the register model's addresses are the physical ones, unless the test
 * has the kernel refuse the range (fake_ioremap_refuses: RAM, say). */
#ifndef FAKE_ARCH_CALLBACKS_H
#define FAKE_ARCH_CALLBACKS_H

#include "kernel/types.h"

extern bool fake_ioremap_refuses;

static inline void *ioremap(uint64_t pa, size_t size)
{
    (void)size;
    return fake_ioremap_refuses ? NULL : (void *)(uintptr_t)pa;
}

#endif
