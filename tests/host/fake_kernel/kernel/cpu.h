/* SPDX-License-Identifier: MIT */
/* tests/host/fake_kernel/kernel/cpu.h - see tests/host/fake_kernel/tlb_model.h. */
#ifndef FAKE_KERNEL_CPU_H
#define FAKE_KERNEL_CPU_H

#include "tlb_model.h"

#endif
