/* SPDX-License-Identifier: MIT */
/* tests/host/fake_kernel/kernel/printk.h - see tests/host/fake_kernel/tlb_model.h. */
#ifndef FAKE_KERNEL_PRINTK_H
#define FAKE_KERNEL_PRINTK_H

#include "tlb_model.h"

#endif
