/* SPDX-License-Identifier: MIT */
/* kernel/random/internal.h - between the seed collector and the CRNG. */
#ifndef KERNEL_RANDOM_INTERNAL_H
#define KERNEL_RANDOM_INTERNAL_H

#include "kernel/types.h"

/* crng.c: absorb seed material into the pool (see crng.c for how). */
void crng_mix(const void *data, size_t len);
/* crng.c: run the ChaCha20 known-answer self-test; false if it fails. */
bool crng_selftest(void);
/* crng.c: key the CRNG from the pool; `credited` bits of entropy went in. */
void crng_seed(unsigned credited, bool selftest_ok);
/* crng.c: fresh seed material for periodic reseeding (64 bits, 0 = none). */
void crng_set_reseed_source(unsigned (*read64)(uint64_t *out));

/* jitter.c: timer-jitter samples mixed into the pool; returns bits credited
 * (0 when the counter is deterministic, e.g. under QEMU -icount) and how many
 * of the samples the best estimator could guess. */
unsigned jitter_collect(unsigned *samples, unsigned *guessable);

#endif
