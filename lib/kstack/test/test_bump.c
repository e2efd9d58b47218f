/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The stackshift authors */
/*
 * lib/kstack/test/test_bump.c - KSTACK_BUMP moves the frames of whatever the
 * bumping function calls down by exactly the offset: the callee's local
 * lands offset bytes lower than with offset 0, for all 64 offsets, and bits
 * outside the mask change nothing. Built with optimisation (the Makefile's
 * -O2) so a compiler that dropped or rounded the block would show here.
 */
#include <stdint.h>

#include "check.h"
#include "kstack.h"

/* The address of a local of a function called after the bump (through a
 * volatile global, which compilers do not warn about). */
static volatile uintptr_t callee_local_address;

static __attribute__((noinline)) uintptr_t callee_frame(void)
{
    volatile char local = 0;
    callee_local_address = (uintptr_t)&local;
    return callee_local_address;
}

/* What a system call entry does: bump, then call the handler. The asm after
 * the call keeps it from being a tail call even without
 * -fno-optimize-sibling-calls (a tail call would release the block first). */
static __attribute__((noinline)) uintptr_t entry(uint32_t raw)
{
    KSTACK_BUMP(raw);
    uintptr_t where = callee_frame();
    __asm__ volatile("" : : : "memory");
    return where;
}

static void bump_moves_callee_by_offset(void)
{
    uintptr_t base = entry(0);
    for (uint32_t off = 0; off <= KSTACK_OFFSET_MAX; off += KSTACK_OFFSET_ALIGN)
        CHECK_EQ(base - entry(off), off);
}

static void bump_ignores_bits_outside_mask(void)
{
    uintptr_t base = entry(0);
    CHECK_EQ(base - entry(0xFFFFFC0Fu), 0);                    /* every bit but 4..9 */
    CHECK_EQ(base - entry(0x12345678u), 0x12345678u & 0x3F0u); /* 0x270 */
}

/* AddressSanitizer pads every alloca with red zones, so depths differ. */
#if defined(__SANITIZE_ADDRESS__)
#define KSTACK_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KSTACK_TEST_ASAN 1
#endif
#endif

void run_bump_tests(void)
{
#ifdef KSTACK_TEST_ASAN
    printf("# bump tests skipped: AddressSanitizer pads every alloca\n");
    return;
#endif
    RUN(bump_moves_callee_by_offset);
    RUN(bump_ignores_bits_outside_mask);
}
