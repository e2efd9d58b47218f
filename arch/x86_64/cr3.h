/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/cr3.h - the MOV to CR3, alone in its file: the host test
 * tests/host/test_tlb_model.c puts its TLB model in its place
 * (tests/host/fake_kernel/arch/x86_64/cr3.h) and runs the loads of
 * arch/x86_64/pcid_load.h and pcid.c as they are.
 */
#ifndef ARCH_X86_64_CR3_H
#define ARCH_X86_64_CR3_H

#include "kernel/types.h"

static inline void x86_write_cr3(uint64_t v)
{
    __asm__ volatile("mov %0, %%cr3" : : "r"(v) : "memory");
}

#endif
