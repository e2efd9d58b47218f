/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The stackshift authors */
/*
 * lib/kstack/test/test_vectors.c - the library against the known answers of
 * tests/vectors/ (written by tests/vectors/gen.py from its own reference
 * implementations): LFSR113 outputs and offsets, the RFC 8439 ChaCha20
 * vectors, the SipHash paper's 64 vectors and the siphash draws, the pool's
 * keystream-to-offset answers (ring wrap and a capped refill included), and
 * the 65-value carry that the range check must catch.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kstack.h"
#include "vectors.h"

/* ---- LFSR113 ------------------------------------------------------------ */

struct lfsr_ctx {
    struct kstack_prng g;
    unsigned long n; /* outputs taken from g */
    int outs;
};

static void lfsr_record(const struct vec_record *r, void *arg)
{
    struct lfsr_ctx *c = arg;
    if (strcmp(r->field[0], "seed") == 0 && r->nfields == 5) {
        uint32_t seed[4];
        for (int i = 0; i < 4; i++)
            seed[i] = (uint32_t)vec_num(r->field[1 + i]);
        kstack_prng_seed(&c->g, seed);
        c->n = 0;
        return;
    }
    CHECK(strcmp(r->field[0], "out") == 0 && r->nfields == 3);
    unsigned long want_n = (unsigned long)vec_num(r->field[1]);
    uint32_t want = (uint32_t)vec_num(r->field[2]);
    CHECK(want_n > c->n);
    while (c->n + 1 < want_n) {
        kstack_prng_next(&c->g);
        c->n++;
    }
    struct kstack_prng copy = c->g;
    CHECK_EQ(kstack_prng_draw(&copy), want & KSTACK_OFFSET_MASK);
    CHECK_EQ(kstack_prng_next(&c->g), want);
    c->n++;
    c->outs++;
}

static void lfsr113_known_answers(void)
{
    struct lfsr_ctx c = {0};
    CHECK(vec_each("lfsr113.txt", lfsr_record, &c) > 0);
    CHECK(c.outs >= 100);
}

/* ---- ChaCha20 ----------------------------------------------------------- */

static void chacha_record(const struct vec_record *r, void *arg)
{
    int *count = arg;
    bool cipher = strcmp(r->field[0], "cipher") == 0;
    CHECK(r->nfields == (cipher ? 6 : 5));
    if (r->nfields != (cipher ? 6 : 5))
        return;
    uint8_t key[32], nonce[12], in[1024], want[1024], got[1024];
    CHECK(vec_hex(r->field[1], key, sizeof(key)) == 32);
    CHECK(vec_hex(r->field[3], nonce, sizeof(nonce)) == 12);
    int len = vec_hex(r->field[cipher ? 5 : 4], want, sizeof(want));
    CHECK(len > 0);
    memset(in, 0, sizeof(in));
    if (cipher)
        CHECK(vec_hex(r->field[4], in, sizeof(in)) == len);
    kstack_chacha20_stream(key, (uint32_t)vec_num(r->field[2]), nonce, got, (size_t)len);
    for (int i = 0; i < len; i++)
        got[i] ^= in[i];
    CHECK(len > 0 && memcmp(got, want, (size_t)len) == 0);
    (*count)++;
}

static void chacha20_known_answers(void)
{
    int count = 0;
    vec_each("chacha20.txt", chacha_record, &count);
    CHECK(count >= 2); /* RFC 8439 2.3.2 and 2.4.2 at least */
}

/* ---- SipHash ------------------------------------------------------------ */

static void sip_record(const struct vec_record *r, void *arg)
{
    int *count = arg;
    uint8_t key[16], msg[256];
    CHECK(r->nfields >= 4 && vec_hex(r->field[1], key, sizeof(key)) == 16);
    if (strcmp(r->field[0], "siphash") == 0) {
        int len = vec_hex(r->field[2], msg, sizeof(msg));
        CHECK(len >= 0);
        CHECK_EQ(kstack_siphash24(key, msg, (size_t)len), vec_num(r->field[3]));
    } else {
        CHECK(strcmp(r->field[0], "sipdraw") == 0);
        struct kstack_siphash g;
        kstack_siphash_init(&g, key, vec_num(r->field[2]));
        for (int i = 3; i < r->nfields; i++)
            CHECK_EQ(kstack_siphash_draw(&g), vec_num(r->field[i]));
    }
    (*count)++;
}

static void siphash_known_answers(void)
{
    int count = 0;
    vec_each("siphash.txt", sip_record, &count);
    CHECK(count >= 64 + 1); /* the paper's 64 vectors and the draws */
}

/* ---- pool --------------------------------------------------------------- */

static void pool_record(const struct vec_record *r, void *arg)
{
    int *count = arg;
    CHECK(strcmp(r->field[0], "pool") == 0 && r->nfields >= 6);
    uint8_t key[32];
    CHECK(vec_hex(r->field[1], key, sizeof(key)) == 32);
    uint32_t size = (uint32_t)vec_num(r->field[2]);
    uint8_t *buf = calloc(size, 1);
    struct kstack_pool p;
    CHECK(buf && kstack_pool_init(&p, buf, size));
    p.tail = vec_num(r->field[3]);
    kstack_pool_discard(&p); /* read position = write position */
    uint32_t want = (uint32_t)(r->nfields - 5);
    CHECK_EQ(kstack_pool_refill(&p, key, (uint32_t)vec_num(r->field[4])), want);
    for (int i = 0; i < 32; i++)
        CHECK_EQ(key[i], 0); /* the caller's key is erased */
    for (uint32_t i = 0; i < want; i++) {
        uint32_t off = 0xdead;
        CHECK(kstack_pool_draw(&p, &off));
        CHECK_EQ(off, vec_num(r->field[5 + i]));
    }
    uint32_t off;
    CHECK(!kstack_pool_draw(&p, &off)); /* dry: never reuses a byte */
    free(buf);
    (*count)++;
}

static void pool_known_answers(void)
{
    int count = 0;
    vec_each("pool.txt", pool_record, &count);
    CHECK(count >= 3);
}

/* ---- the 65-value carry --------------------------------------------------- */

struct carry_ctx {
    int wrong_invalid, right_lines, distinct_wrong;
};

static uint32_t carrying_formula(uint32_t raw)
{
    return ((raw & 0x3FFu) + 15) & ~15u; /* the bug: round up after masking 10 bits */
}

static void carry_record(const struct vec_record *r, void *arg)
{
    struct carry_ctx *c = arg;
    CHECK(r->nfields == 3);
    if (r->nfields != 3)
        return;
    if (strcmp(r->field[0], "distinct") == 0) {
        if (strcmp(r->field[1], "wrong") == 0)
            c->distinct_wrong = (int)vec_num(r->field[2]);
        else
            CHECK_EQ(vec_num(r->field[2]), KSTACK_OFFSET_VALUES);
        return;
    }
    uint32_t raw = (uint32_t)vec_num(r->field[1]), offset = (uint32_t)vec_num(r->field[2]);
    if (strcmp(r->field[0], "wrong") == 0) {
        CHECK_EQ(carrying_formula(raw), offset); /* the file says what the bug does */
        c->wrong_invalid += !kstack_offset_valid(offset);
    } else {
        CHECK_EQ(kstack_offset_of(raw), offset);
        CHECK(kstack_offset_valid(offset));
        c->right_lines++;
    }
}

static void carry_fails_range_check(void)
{
    struct carry_ctx c = {0};
    vec_each("carry.txt", carry_record, &c);
    CHECK(c.wrong_invalid > 0);                           /* 1024 is refused */
    CHECK_EQ(c.distinct_wrong, KSTACK_OFFSET_VALUES + 1); /* 65 values */
    CHECK(c.right_lines > 0);
    CHECK(!kstack_offset_valid(1024) && !kstack_offset_valid(8) && kstack_offset_valid(1008));
}

/* The library's own mask: every raw value gives a valid offset, each of the
 * 64 equally often (over a range that is a multiple of 1024). */
static void mask_gives_64_values_evenly(void)
{
    static unsigned seen[KSTACK_OFFSET_MAX + 1];
    memset(seen, 0, sizeof(seen));
    for (uint32_t raw = 0; raw < (1u << 20); raw++) {
        uint32_t off = kstack_offset_of(raw * 2654435761u);
        CHECK(kstack_offset_valid(off));
        if (kstack_offset_valid(off))
            seen[off]++;
    }
    unsigned values = 0;
    for (unsigned off = 0; off <= KSTACK_OFFSET_MAX; off++) {
        values += seen[off] != 0;
        if (seen[off])
            CHECK_EQ(seen[off], (1u << 20) / KSTACK_OFFSET_VALUES);
    }
    CHECK_EQ(values, KSTACK_OFFSET_VALUES);
}

void run_vector_tests(void)
{
    RUN(lfsr113_known_answers);
    RUN(chacha20_known_answers);
    RUN(siphash_known_answers);
    RUN(pool_known_answers);
    RUN(carry_fails_range_check);
    RUN(mask_gives_64_values_evenly);
}
