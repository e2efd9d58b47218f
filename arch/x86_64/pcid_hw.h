/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/pcid_hw.h - the instructions and per-CPU data the PCID
 * bookkeeping (arch/x86_64/pcid.c) uses, and nothing else. pcid.c includes
 * this file by its path from the top of the tree, so that the host test
 * tests/host/test_tlb_model.c can put a TLB model in its place
 * (tests/host/fake_kernel/arch/x86_64/pcid_hw.h) and run pcid.c as it is.
 */
#ifndef ARCH_X86_64_PCID_HW_H
#define ARCH_X86_64_PCID_HW_H

#include "arch/x86_64/cr3.h"
#include "arch/x86_64/x86.h"
#include "kernel/cpu.h"
#include "kernel/mm/page_alloc.h"

static inline void x86_invpcid(uint64_t type, uint64_t pcid, uintptr_t va)
{
    struct {
        uint64_t pcid, va;
    } desc = {pcid, va};
    __asm__ volatile("invpcid %0, %1" : : "m"(desc), "r"(type) : "memory");
}

/* Ask another CPU to run x86_tlb_serve_request (the shootdown vector). */
static inline void x86_send_shootdown(const struct cpu *c)
{
    x86_lapic_send((uint32_t)c->hwid, (1u << 14) | VECTOR_TLB_SHOOTDOWN);
}

#endif
