/* SPDX-License-Identifier: MIT */
/* tests/host/fake_kernel/kernel/panic.h - see tests/host/fake_kernel/tlb_model.h. */
#ifndef FAKE_KERNEL_PANIC_H
#define FAKE_KERNEL_PANIC_H

#include "tlb_model.h"

#endif
