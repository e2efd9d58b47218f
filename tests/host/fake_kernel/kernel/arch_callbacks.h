/* SPDX-License-Identifier: MIT */
/* tests/host/fake_kernel/kernel/arch_callbacks.h - ioremap for a host test:
 * the register model's addresses are the physical ones. */
#ifndef FAKE_ARCH_CALLBACKS_H
#define FAKE_ARCH_CALLBACKS_H

#include "kernel/types.h"

static inline void *ioremap(uint64_t pa, size_t size)
{
    (void)size;
    return (void *)(uintptr_t)pa;
}

#endif
