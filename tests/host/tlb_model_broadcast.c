/* SPDX-License-Identifier: MIT */
/*
 * tests/host/tlb_model_broadcast.c - kernel/mm/aspace_switch.h with the
 * arch hooks it gives an arch that has no inline of its own (the
 * arch_aspace_activate calls), for tests/host/test_tlb_model.c's
 * "broadcast" configurations. arm64's and riscv64's inlines do what those
 * calls do there; their arch_aspace_activate is the model's.
 */
#define arch_aspace_activate broadcast_aspace_activate
#include "kernel/mm/aspace_switch.h"
#include "tlb_model.h"

void broadcast_switch(struct cpu *c, struct aspace *as)
{
    aspace_switch_irqs_off(c, as);
}
