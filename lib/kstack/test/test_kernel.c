/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The stackshift authors */
/*
 * lib/kstack/test/test_kernel.c - inside stackshift only: the library gives
 * what the kernel's strategies give today for the same seed or key. The
 * references are lib/lfsr113.c (prng), lib/chacha20.c's fast-key-erasure
 * generator with the refill loop and draw of kernel/kstack_offset/pool.c
 * (restated below). The kernel's siphash strategy is this library's own
 * (tests/host/test_siphash.c checks it against the paper's vector). Also:
 * the vectors file agrees with the RFC 8439 vectors as typed into
 * lib/chacha20_kat.c.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kstack.h"
#include "lib/chacha20.h"
#include "lib/chacha20_kat.h"
#include "lib/lfsr113.h"
#include "vectors.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t test_rand(void) /* xorshift64: reproducible inputs */
{
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return rng_state;
}

static void fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)test_rand();
}

static void prng_same_as_lib_lfsr113(void)
{
    for (int trial = 0; trial < 200; trial++) {
        uint32_t seed[4];
        for (int i = 0; i < 4; i++) /* small words too: the seeding rule */
            seed[i] = trial < 20 ? (uint32_t)(test_rand() % 300) : (uint32_t)test_rand();
        struct lfsr113 ref;
        struct kstack_prng lib;
        lfsr113_seed(&ref, seed);
        kstack_prng_seed(&lib, seed);
        for (int n = 0; n < 1000; n++) {
            uint32_t want = lfsr113_next(&ref);
            CHECK_EQ(kstack_prng_next(&lib), want);
            if (check_failures)
                return;
        }
    }
}

static void stream_same_as_lib_chacha20(void)
{
    uint8_t key[32], nonce[12], want[300], got[300];
    for (int trial = 0; trial < 100; trial++) {
        fill(key, sizeof(key)), fill(nonce, sizeof(nonce));
        uint32_t counter = (uint32_t)test_rand();
        size_t len = test_rand() % sizeof(want);
        chacha20_xor(key, counter, nonce, NULL, want, len);
        kstack_chacha20_stream(key, counter, nonce, got, len);
        CHECK(memcmp(want, got, len) == 0);
    }
}

/* kernel/kstack_offset/pool.c's refill, restated: runs up to the ring's end,
 * each from chacha20_generate() with the key it left behind. */
static void kernel_refill(uint8_t *buf, uint32_t size, uint64_t *tail, uint8_t key[32], uint32_t n)
{
    while (n) {
        uint32_t at = (uint32_t)(*tail % size);
        uint32_t chunk = n < size - at ? n : size - at;
        chacha20_generate(key, buf + at, chunk);
        *tail += chunk;
        n -= chunk;
    }
}

static void pool_same_as_kernel_pool(void)
{
    static const uint32_t sizes[] = {64, 256, 4096, 65536};
    for (int trial = 0; trial < 60; trial++) {
        uint32_t size = sizes[trial % 4];
        uint64_t start = test_rand() % (3 * size);
        uint32_t n = (uint32_t)(test_rand() % (size + 1));
        uint8_t key[32], key_copy[32];
        fill(key, sizeof(key));
        memcpy(key_copy, key, sizeof(key));
        uint8_t *kbuf = calloc(size, 1), *lbuf = calloc(size, 1);
        uint64_t ktail = start, khead = start;
        kernel_refill(kbuf, size, &ktail, key_copy, n);
        struct kstack_pool p;
        CHECK(kstack_pool_init(&p, lbuf, size));
        p.tail = start;
        kstack_pool_discard(&p);
        CHECK_EQ(kstack_pool_refill(&p, key, n), n);
        CHECK_EQ(p.tail, ktail);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t off = 0, want = ((uint32_t)kbuf[khead++ % size] << 4) & 0x3F0u;
            CHECK(kstack_pool_draw(&p, &off));
            CHECK_EQ(off, want);
        }
        free(kbuf), free(lbuf);
        if (check_failures)
            return;
    }
}

/* Each stream/cipher record of chacha20.txt that the RFC table also has
 * (same key, counter, nonce, length) must have the same bytes. */
static void rfc_record(const struct vec_record *r, void *arg)
{
    int *matched = arg;
    bool cipher = strcmp(r->field[0], "cipher") == 0;
    uint8_t key[32], nonce[12], out[1024];
    vec_hex(r->field[1], key, sizeof(key));
    vec_hex(r->field[3], nonce, sizeof(nonce));
    int len = vec_hex(r->field[cipher ? 5 : 4], out, sizeof(out));
    for (int i = 0; i < CHACHA20_KAT_COUNT; i++) {
        const struct chacha20_kat *kat = &chacha20_kats[i];
        if (memcmp(kat->key, key, 32) || memcmp(kat->nonce, nonce, 12) ||
            kat->counter != vec_num(r->field[2]) || (int)kat->len != len ||
            (kat->plaintext != NULL) != cipher)
            continue;
        CHECK(memcmp(kat->expected, out, (size_t)len) == 0);
        (*matched)++;
    }
}

static void vectors_agree_with_rfc_table(void)
{
    int matched = 0;
    vec_each("chacha20.txt", rfc_record, &matched);
    CHECK(matched >= 2); /* 2.3.2 and 2.4.2 */
}

void run_kernel_tests(void)
{
    RUN(prng_same_as_lib_lfsr113);
    RUN(stream_same_as_lib_chacha20);
    RUN(pool_same_as_kernel_pool);
    RUN(vectors_agree_with_rfc_table);
}
