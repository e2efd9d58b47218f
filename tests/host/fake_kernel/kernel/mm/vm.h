/* SPDX-License-Identifier: MIT */
/* tests/host/fake_kernel/kernel/mm/vm.h - see tests/host/fake_kernel/tlb_model.h. */
#ifndef FAKE_KERNEL_MM_VM_H
#define FAKE_KERNEL_MM_VM_H

#include "tlb_model.h"

#endif
