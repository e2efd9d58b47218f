/* SPDX-License-Identifier: MIT */
/*
 * lib/siphash.c - SipHash-2-4 (see siphash.h), written from the paper's
 * description: initialisation with the constants "somepseudorandomlygenerat
 * edbytes", compression of each little-endian 8-byte word m as
 * v3 ^= m, two SipRounds, v0 ^= m; the last word carries the message
 * length in its top byte; finalisation v2 ^= 0xff, four SipRounds, and the
 * output v0 ^ v1 ^ v2 ^ v3.
 */
#include "lib/siphash.h"

struct sip_state {
    uint64_t v0, v1, v2, v3;
};

static inline uint64_t rotl64(uint64_t x, unsigned b)
{
    return (x << b) | (x >> (64 - b));
}

static inline void sip_round(struct sip_state *s)
{
    s->v0 += s->v1;
    s->v1 = rotl64(s->v1, 13);
    s->v1 ^= s->v0;
    s->v0 = rotl64(s->v0, 32);
    s->v2 += s->v3;
    s->v3 = rotl64(s->v3, 16);
    s->v3 ^= s->v2;
    s->v0 += s->v3;
    s->v3 = rotl64(s->v3, 21);
    s->v3 ^= s->v0;
    s->v2 += s->v1;
    s->v1 = rotl64(s->v1, 17);
    s->v1 ^= s->v2;
    s->v2 = rotl64(s->v2, 32);
}

static inline void sip_init(struct sip_state *s, const struct siphash_key *key)
{
    s->v0 = key->k0 ^ 0x736f6d6570736575ull; /* "somepseu" */
    s->v1 = key->k1 ^ 0x646f72616e646f6dull; /* "dorandom" */
    s->v2 = key->k0 ^ 0x6c7967656e657261ull; /* "lygenera" */
    s->v3 = key->k1 ^ 0x7465646279746573ull; /* "tedbytes" */
}

/* c = 2 compression rounds per message word. */
static inline void sip_compress(struct sip_state *s, uint64_t m)
{
    s->v3 ^= m;
    sip_round(s);
    sip_round(s);
    s->v0 ^= m;
}

/* d = 4 finalisation rounds. */
static inline uint64_t sip_finish(struct sip_state *s)
{
    s->v2 ^= 0xff;
    for (int i = 0; i < 4; i++)
        sip_round(s);
    return s->v0 ^ s->v1 ^ s->v2 ^ s->v3;
}

static uint64_t load_le64(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

uint64_t siphash24(const struct siphash_key *key, const void *data, size_t len)
{
    const uint8_t *p = data;
    struct sip_state s;
    sip_init(&s, key);
    size_t whole = len & ~(size_t)7;
    for (size_t i = 0; i < whole; i += 8)
        sip_compress(&s, load_le64(p + i, 8));
    sip_compress(&s, load_le64(p + whole, len - whole) | (uint64_t)(len & 0xff) << 56);
    return sip_finish(&s);
}

uint64_t siphash24_2u64(const struct siphash_key *key, uint64_t a, uint64_t b)
{
    struct sip_state s;
    sip_init(&s, key);
    sip_compress(&s, a);
    sip_compress(&s, b);
    sip_compress(&s, (uint64_t)16 << 56); /* no bytes left; the length 16 */
    return sip_finish(&s);
}
