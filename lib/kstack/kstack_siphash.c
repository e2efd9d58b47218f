/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The stackshift authors */
/*
 * lib/kstack/kstack_siphash.c - SipHash-2-4 from the paper (Aumasson and
 * Bernstein, INDOCRYPT 2012): four state words initialised from the key and
 * "somepseudorandomlygeneratedbytes", two SipRounds per little-endian 8-byte
 * message word (v3 ^= m before, v0 ^= m after), the last word carrying the
 * length in its top byte, then v2 ^= 0xff, four SipRounds, v0^v1^v2^v3.
 */
#include "kstack.h"

_Static_assert(KSTACK_OFFSET_VALUES <= 64, "siphash spends 6 bits per offset");

struct sip {
    uint64_t v0, v1, v2, v3;
};

static inline uint64_t rotl64(uint64_t x, unsigned b)
{
    return (x << b) | (x >> (64 - b));
}

static inline void sip_round(struct sip *s)
{
    s->v0 += s->v1, s->v1 = rotl64(s->v1, 13), s->v1 ^= s->v0, s->v0 = rotl64(s->v0, 32);
    s->v2 += s->v3, s->v3 = rotl64(s->v3, 16), s->v3 ^= s->v2;
    s->v0 += s->v3, s->v3 = rotl64(s->v3, 21), s->v3 ^= s->v0;
    s->v2 += s->v1, s->v1 = rotl64(s->v1, 17), s->v1 ^= s->v2, s->v2 = rotl64(s->v2, 32);
}

static inline void sip_init(struct sip *s, uint64_t k0, uint64_t k1)
{
    s->v0 = k0 ^ 0x736f6d6570736575ull; /* "somepseu" */
    s->v1 = k1 ^ 0x646f72616e646f6dull; /* "dorandom" */
    s->v2 = k0 ^ 0x6c7967656e657261ull; /* "lygenera" */
    s->v3 = k1 ^ 0x7465646279746573ull; /* "tedbytes" */
}

static inline void sip_compress(struct sip *s, uint64_t m)
{
    s->v3 ^= m;
    sip_round(s);
    sip_round(s);
    s->v0 ^= m;
}

static inline uint64_t sip_finish(struct sip *s)
{
    s->v2 ^= 0xff;
    for (int i = 0; i < 4; i++)
        sip_round(s);
    return s->v0 ^ s->v1 ^ s->v2 ^ s->v3;
}

static uint64_t load_le(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

uint64_t kstack_siphash24(const uint8_t key[16], const void *data, size_t len)
{
    const uint8_t *p = data;
    struct sip s;
    sip_init(&s, load_le(key, 8), load_le(key + 8, 8));
    size_t whole = len - len % 8;
    for (size_t i = 0; i < whole; i += 8)
        sip_compress(&s, load_le(p + i, 8));
    sip_compress(&s, load_le(p + whole, len - whole) | (uint64_t)(len & 0xff) << 56);
    return sip_finish(&s);
}

void kstack_siphash_init(struct kstack_siphash *g, const uint8_t key[16], uint64_t cpu)
{
    g->k0 = load_le(key, 8);
    g->k1 = load_le(key + 8, 8);
    g->cpu = cpu;
    g->counter = 0;
    g->bits = 0;
    g->left = 0;
}

/* The 16-byte message counter || cpu, without the byte loop. */
uint64_t kstack_siphash_block(const struct kstack_siphash *g, uint64_t counter)
{
    struct sip s;
    sip_init(&s, g->k0, g->k1);
    sip_compress(&s, counter);
    sip_compress(&s, g->cpu);
    sip_compress(&s, (uint64_t)16 << 56); /* no bytes left; the length */
    return sip_finish(&s);
}
