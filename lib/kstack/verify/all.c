/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The stackshift authors */
/*
 * lib/kstack/verify/all.c - the library as one translation unit, for
 * Frama-C (make verify): its static inline functions are then analysed once,
 * not once per file that includes kstack.h. Never compiled into a kernel.
 */
#include "../kstack_chacha20.c"
#include "../kstack_pool.c"
#include "../kstack_prng.c"
#include "../kstack_siphash.c"
