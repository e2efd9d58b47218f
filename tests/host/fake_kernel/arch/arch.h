/* SPDX-License-Identifier: MIT */
/*
 * tests/host/fake_kernel/arch/arch.h - what a device driver of kernel/dev/
 * needs from the arch contract, for a host test: MMIO goes to the test's
 * register model, and the counter advances one tick per read.
 * (-Itests/host/fake_kernel comes before -I., so this file stands in for
 * arch/arch.h and fake_kernel/kernel/arch_callbacks.h for the real one.)
 */
#ifndef FAKE_ARCH_H
#define FAKE_ARCH_H

#include "kernel/types.h"

uint32_t fake_mmio_read32(uintptr_t addr);
void fake_mmio_write32(uintptr_t addr, uint32_t v);
extern uint64_t fake_ticks;

static inline uint32_t arch_mmio_read32(uintptr_t addr)
{
    return fake_mmio_read32(addr);
}
static inline void arch_mmio_write32(uintptr_t addr, uint32_t v)
{
    fake_mmio_write32(addr, v);
}
static inline uint64_t arch_counter(void)
{
    return fake_ticks++;
}
static inline uint64_t arch_counter_hz(void)
{
    return 1000000;
}
static inline void arch_cpu_relax(void) {}

#endif
