/* SPDX-License-Identifier: MIT */
/*
 * lib/chacha20.h - the ChaCha20 stream cipher, written from RFC 8439.
 *
 * The block function (RFC 8439 section 2.3: quarter round 2.1, state layout,
 * 20 rounds, feed-forward, little-endian serialisation) and the keystream/XOR
 * cipher of section 2.4 with the RFC's 32-bit block counter and 96-bit nonce.
 * The state-word functions are exported so the known-answer tests can check
 * every intermediate the RFC prints. chacha20_generate() adds fast key
 * erasure for the kernel CRNG. No libc, no tables, no secret-dependent
 * branches or memory indices; freestanding, used by the kernel and by the
 * host unit tests.
 */
#ifndef LIB_CHACHA20_H
#define LIB_CHACHA20_H

#include <stddef.h>
#include <stdint.h>

#define CHACHA20_KEY_SIZE   32 /* bytes: eight little-endian words */
#define CHACHA20_NONCE_SIZE 12 /* bytes: three little-endian words */
#define CHACHA20_BLOCK_SIZE 64 /* bytes of keystream per block */

/* Load n little-endian 32-bit words from bytes (any alignment), as RFC 8439
 * section 2.3 reads the key and the nonce. */
void chacha20_load_le32(uint32_t *words, const uint8_t *bytes, size_t n);

/* QUARTERROUND(a, b, c, d) on state words a, b, c, d (sections 2.1, 2.2). */
void chacha20_quarter_round(uint32_t x[16], unsigned a, unsigned b, unsigned c, unsigned d);

/* The initial state of section 2.3: constants, key, block counter, nonce. */
void chacha20_setup(uint32_t state[16], const uint32_t key[8], uint32_t counter,
                    const uint32_t nonce[3]);

/* The 20 rounds (10 x column round + diagonal round) in place, without the
 * final addition: the RFC's "ChaCha state after 20 rounds". */
void chacha20_rounds(uint32_t x[16]);

/* The block function on a state: out = rounds(in) + in, word-wise mod 2^32. */
void chacha20_block_words(uint32_t out[16], const uint32_t in[16]);

/* chacha20_block(key, counter, nonce) of section 2.3.1: 64 serialised bytes. */
void chacha20_block(const uint32_t key[8], uint32_t counter, const uint32_t nonce[3],
                    uint8_t out[CHACHA20_BLOCK_SIZE]);

/*
 * The cipher of section 2.4: out = in XOR keystream, the keystream being the
 * blocks with counters counter, counter+1, ... (mod 2^32; callers keep
 * len <= (2^32 - counter) * 64 so no block is used twice). in == NULL means
 * all-zero input, i.e. out receives the plain keystream. in == out works;
 * other overlaps do not.
 */
void chacha20_xor(const uint8_t key[CHACHA20_KEY_SIZE], uint32_t counter,
                  const uint8_t nonce[CHACHA20_NONCE_SIZE], const uint8_t *in, uint8_t *out,
                  size_t len);

/*
 * Fast key erasure, for a CRNG. With S = the keystream of the current key,
 * block counter 0 and the all-zero nonce:
 *   new key = S[0 .. 31], out[0 .. len-1] = S[32 .. 32+len-1].
 * The bytes that become the new key are never output, the old key is
 * overwritten before this returns and no copy of it (or of the keystream)
 * is left on the stack, so a later compromise of the key does not reveal
 * earlier outputs. len <= 256 GiB - 32; out must not overlap key.
 */
void chacha20_generate(uint8_t key[CHACHA20_KEY_SIZE], uint8_t *out, size_t len);

#endif
