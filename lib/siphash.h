/* SPDX-License-Identifier: MIT */
/*
 * lib/siphash.h - SipHash-2-4, a keyed 64-bit pseudorandom function.
 *
 * Source: J.-P. Aumasson and D. J. Bernstein, "SipHash: a fast short-input
 * PRF" (INDOCRYPT 2012): a 128-bit key, four 64-bit state words, 2 rounds
 * per 8-byte message word and 4 finalisation rounds. Unlike LFSR113 its
 * outputs reveal nothing usable about the key, so it is a middle ground for
 * the stack offset: one hash yields 64 bits, i.e. ten 6-bit offsets.
 * Freestanding; kernel and host tests.
 */
#ifndef LIB_SIPHASH_H
#define LIB_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

struct siphash_key {
    uint64_t k0, k1; /* the key's bytes 0-7 and 8-15, little-endian */
};

/* SipHash-2-4 of len bytes at data. */
uint64_t siphash24(const struct siphash_key *key, const void *data, size_t len);

/* The same of the 16-byte message a, b (each little-endian), without the
 * byte loop: what the stack offset strategy hashes (a counter and a CPU). */
uint64_t siphash24_2u64(const struct siphash_key *key, uint64_t a, uint64_t b);

#endif
