/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The stackshift authors */
/*
 * lib/kstack/kstack_internal.h - shared between the library's files only.
 */
#ifndef KSTACK_INTERNAL_H
#define KSTACK_INTERNAL_H

#include <stddef.h>

/* Zero n bytes at p in a way the compiler may not remove. */
void kstack_wipe(void *p, size_t n);

#endif
