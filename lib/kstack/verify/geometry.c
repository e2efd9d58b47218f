/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The stackshift authors */
/*
 * lib/kstack/verify/geometry.c - the library with its offset geometry left
 * unknown, for Frama-C's WP (make verify). KSTACK_OFFSET_ALIGN and
 * KSTACK_OFFSET_MASK become two constant globals with no value, so a
 * contract proved here holds for every alignment and mask that satisfy
 * KSTACK_GEOMETRY_OK (kstack.h): a power-of-two alignment and a contiguous
 * mask from log2 of the alignment up, the header's static assertions, which
 * C cannot evaluate on unknowns and WP checks instead as a precondition.
 * Never compiled into a kernel.
 */
#include <stdint.h>

extern const uint32_t kstack_any_align;
extern const uint32_t kstack_any_mask;

#define KSTACK_OFFSET_ALIGN kstack_any_align
#define KSTACK_OFFSET_MASK  kstack_any_mask
/* Each static assertion becomes an empty declaration: KSTACK_GEOMETRY_OK,
 * in the requires of every function that makes an offset, states it. */
#define _Static_assert(cond, why) struct kstack_geometry_checked_by_wp

#include "all.c"
