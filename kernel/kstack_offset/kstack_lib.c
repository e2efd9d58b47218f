/* SPDX-License-Identifier: MIT */
/*
 * kernel/kstack_offset/kstack_lib.c - the thin shim through which the
 * kernel uses lib/kstack/, the stack offset library other kernels copy.
 * The kernel builds the library's ring (kstack_pool.c) and SipHash
 * (kstack_siphash.c) as they are; the two things the library leaves to its
 * host come from here: the ChaCha20 keystream, from the kernel's own RFC
 * 8439 code (lib/chacha20.c, which the CRNG uses too), and the wipe that the
 * compiler may not remove. The library's own kstack_chacha20.c is for hosts
 * without a cipher. `prng` stays on lib/lfsr113.h, the generator of the
 * course lab on LFSR113; the library's copy gives the same outputs (a host
 * test of make -C lib/kstack test compares them).
 */
#include "lib/kstack/kstack.h"

#include "lib/chacha20.h"
#include "lib/kstack/kstack_internal.h"
#include "lib/string.h"

void kstack_chacha20_stream(const uint8_t key[KSTACK_KEY_SIZE], uint32_t counter,
                            const uint8_t nonce[12], uint8_t *out, size_t len)
{
    chacha20_xor(key, counter, nonce, NULL, out, len);
}

void kstack_wipe(void *p, size_t n)
{
    memzero_explicit(p, n);
}
