/* SPDX-License-Identifier: MIT */
/* tests/host/fake_kernel/arch/x86_64/pcid_hw.h - see tests/host/fake_kernel/tlb_model.h. */
#ifndef FAKE_ARCH_X86_64_PCID_HW_H
#define FAKE_ARCH_X86_64_PCID_HW_H

#include "tlb_model.h"

#endif
