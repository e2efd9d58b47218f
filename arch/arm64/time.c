/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/time.c - the generic timer's frequency.
 *
 * CNTFRQ_EL0 (Arm ARM, register CNTFRQ_EL0, bits [31:0]) holds the system
 * counter's frequency in Hz. The hardware does not set it: the firmware at
 * the highest EL writes it at boot, and every firmware this kernel boots
 * from does (QEMU's virt board also presets it, 62.5 MHz by default).
 */
#include "arm64.h"
#include "kernel/arch_callbacks.h"

uint64_t arch_counter_hz(void)
{
    return READ_SYSREG(cntfrq_el0) & 0xffffffffu;
}
