/* SPDX-License-Identifier: MIT */
/* tests/host/fake_kernel/arch/x86_64/cr3.h - see tests/host/fake_kernel/tlb_model.h. */
#ifndef FAKE_ARCH_X86_64_CR3_H
#define FAKE_ARCH_X86_64_CR3_H

#include "tlb_model.h"

#endif
