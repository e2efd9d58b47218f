/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The stackshift authors */
/*
 * lib/kstack/kstack_chacha20.c - the ChaCha20 keystream, written from
 * RFC 8439 (quarter round 2.1, block function 2.3, counter mode 2.4), for
 * the pool. Bytes are assembled with shifts, so it is endian- and
 * alignment-neutral; working copies of key material are wiped.
 */
#include "kstack.h"

#include "kstack_internal.h"

static uint32_t rotl32(uint32_t v, unsigned n)
{
    return (v << n) | (v >> (32 - n)); /* n is 7, 8, 12 or 16 */
}

static uint32_t load_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* RFC 8439 2.1: the quarter round on words a, b, c, d of x. */
static void quarter_round(uint32_t x[16], int a, int b, int c, int d)
{
    x[a] += x[b], x[d] = rotl32(x[d] ^ x[a], 16);
    x[c] += x[d], x[b] = rotl32(x[b] ^ x[c], 12);
    x[a] += x[b], x[d] = rotl32(x[d] ^ x[a], 8);
    x[c] += x[d], x[b] = rotl32(x[b] ^ x[c], 7);
}

/* 2.3: 20 rounds (ten column + diagonal pairs), then the input added back. */
static void block(uint32_t out[16], const uint32_t in[16])
{
    for (int i = 0; i < 16; i++)
        out[i] = in[i];
    for (int i = 0; i < 10; i++) {
        quarter_round(out, 0, 4, 8, 12);
        quarter_round(out, 1, 5, 9, 13);
        quarter_round(out, 2, 6, 10, 14);
        quarter_round(out, 3, 7, 11, 15);
        quarter_round(out, 0, 5, 10, 15);
        quarter_round(out, 1, 6, 11, 12);
        quarter_round(out, 2, 7, 8, 13);
        quarter_round(out, 3, 4, 9, 14);
    }
    for (int i = 0; i < 16; i++)
        out[i] += in[i];
}

/* 2.3: "expand 32-byte k", the key, the block counter, the nonce. */
static void setup(uint32_t state[16], const uint8_t key[32], uint32_t counter,
                  const uint8_t nonce[12])
{
    state[0] = 0x61707865u;
    state[1] = 0x3320646eu;
    state[2] = 0x79622d32u;
    state[3] = 0x6b206574u;
    for (int i = 0; i < 8; i++)
        state[4 + i] = load_le32(key + 4 * i);
    state[12] = counter;
    for (int i = 0; i < 3; i++)
        state[13 + i] = load_le32(nonce + 4 * i);
}

void kstack_chacha20_stream(const uint8_t key[KSTACK_KEY_SIZE], uint32_t counter,
                            const uint8_t nonce[12], uint8_t *out, size_t len)
{
    uint32_t state[16], words[16];
    setup(state, key, counter, nonce);
    for (size_t done = 0; done < len; done++) {
        if (done % 64 == 0) {
            block(words, state);
            state[12]++; /* 2.4: the next block; callers stay below 2^32 blocks */
        }
        out[done] = (uint8_t)(words[done % 64 / 4] >> (8 * (done % 4)));
    }
    kstack_wipe(state, sizeof(state));
    kstack_wipe(words, sizeof(words));
}

void kstack_wipe(void *p, size_t n)
{
    volatile uint8_t *v = p; /* volatile: a dead-store pass may not drop it */
    /*@ loop invariant 0 <= n <= \at(n, Pre) && v == (uint8_t *)p + (\at(n, Pre) - n);
        loop invariant \forall integer i; 0 <= i < \at(n, Pre) - n ==> ((uint8_t *)p)[i] == 0;
        loop assigns n, v, ((uint8_t *)p)[0 .. \at(n, Pre) - 1];
        loop variant n;
    */
    while (n--)
        *v++ = 0;
}
