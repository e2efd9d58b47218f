/* SPDX-License-Identifier: MIT */
/*
 * kernel/kstack_offset/hw.c - `hw`: the CPU's own random instruction on
 * every system call (RDRAND on x86_64, RNDR on arm64, the Zkr `seed` CSR on
 * riscv64 where the firmware enables it), the experiment of the 2019 x86
 * RFC, where RDRAND cost +54..78% on the null system call. Unavailable when
 * the CPU lacks the instruction or it failed its boot checks. A read that
 * fails after its bounded retries is counted as "dry" and replaced by this
 * CPU's LFSR113, so a call never waits on the hardware.
 */
#include "kernel/kstack_offset/draw.h"

#include "kernel/random/random.h"

/* Called from draw.h's inline draw. */
uint32_t kstack_hw_draw(struct cpu *c)
{
    uint64_t v;
    if (__builtin_expect(random_hw_read(&v) == 0, 0)) {
        KSTACK_COUNT(c, KSTACK_HW, KSTACK_CNT_DRY);
        KSTACK_COUNT(c, KSTACK_HW, KSTACK_CNT_FALLBACK);
        return lfsr113_next(&c->fallback_prng);
    }
    KSTACK_COUNT(c, KSTACK_HW, KSTACK_CNT_DRAWS);
    return (uint32_t)v;
}

const struct kstack_strategy kstack_hw = {KSTACK_HW, "hw", random_hw_available};
