/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The stackshift authors */
/*
 * lib/kstack/kstack_internal.h - shared between the library's files only.
 */
#ifndef KSTACK_INTERNAL_H
#define KSTACK_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* Zero n bytes at p in a way the compiler may not remove. What the proof
 * says is what the C abstract machine does; a compiler may still have left
 * copies in registers or spilled them (docs/verification.md). */
/*@ requires \valid((uint8_t *)p + (0 .. n - 1));
    assigns ((uint8_t *)p)[0 .. n - 1];
    ensures wiped: \forall integer i; 0 <= i < n ==> ((uint8_t *)p)[i] == 0;
*/
void kstack_wipe(void *p, size_t n);

#endif
