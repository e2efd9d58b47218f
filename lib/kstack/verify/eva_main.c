/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The stackshift authors */
/*
 * lib/kstack/verify/eva_main.c - the entry point of Frama-C's value analysis
 * (EVA) over the library (make verify, docs/verification.md). It calls every
 * function under the preconditions kstack.h states, with every secret input
 * (keys, seeds, counters, random words) unknown, so that zero alarms means
 * no undefined behaviour for any of those inputs. The pool runs whole lives
 * on rings of 1, 2, 4 and 8 bytes: fill, draw past the end of the buffer,
 * refill in pieces that wrap, draw to empty, discard; the schedule is
 * concrete (EVA keeps no relation between the ring's pointers), the bytes
 * unknown. Every state the invariant allows, not only these, is WP's part
 * (-wp-rte and the contracts in kstack.h).
 * Never compiled into a kernel; all.c is the library as one unit.
 */
#include "all.c"

static uint8_t ring[8];

/* A volatile read is any value to EVA: the harness's unknown inputs. */
static volatile uint8_t any_byte;
static volatile uint32_t any_word;

static void unknown(void *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ((uint8_t *)p)[i] = any_byte;
}

/* A value in [lo, hi], any of them. */
static uint32_t any_in(uint32_t lo, uint32_t hi)
{
    uint32_t v = any_word;
    return v < lo ? lo : v > hi ? hi : v;
}

/* EVA runs on the C alone (-no-annot: the ACSL contracts are WP's part), so
 * the harness states its checks in C: EVA is sound, so if it never reports
 * this call reached, cond held in every state it computed. */
void Frama_C_show_each_failed_check(int line);
void Frama_C_show_each_reached_the_end(int yes);
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond))                                                                               \
            Frama_C_show_each_failed_check(__LINE__);                                              \
    } while (0)

static void offsets(void)
{
    uint32_t raw = any_in(0, 0xFFFFFFFFu);
    uint32_t o = kstack_offset_of(raw);
    CHECK(o % KSTACK_OFFSET_ALIGN == 0 && o <= KSTACK_OFFSET_MAX);
    (void)kstack_offset_valid(raw);
}

static void prng(void)
{
    uint32_t seed[4];
    struct kstack_prng g;
    unknown(seed, sizeof(seed));
    kstack_prng_seed(&g, seed);
    for (int i = 0; i < 4; i++) {
        uint32_t o = kstack_prng_draw(&g);
        CHECK(o % KSTACK_OFFSET_ALIGN == 0 && o <= KSTACK_OFFSET_MAX);
    }
}

static void siphash(void)
{
    uint8_t key[16], msg[40];
    struct kstack_siphash g;
    unknown(key, sizeof(key));
    unknown(msg, sizeof(msg));
    kstack_siphash_init(&g, key, any_in(0, 0xFFFFFFFFu));
    unknown(&g.counter, sizeof(g.counter)); /* any counter, the last before the wrap too */
    for (int i = 0; i < 2 * KSTACK_SIPHASH_OFFSETS + 1; i++) {
        uint32_t o = kstack_siphash_draw(&g);
        CHECK(o % KSTACK_OFFSET_ALIGN == 0 && o <= KSTACK_OFFSET_MAX);
    }
    for (size_t len = 0; len <= sizeof(msg); len++)
        (void)kstack_siphash24(key, msg, len);
}

/* Draw until the ring is empty; every offset checked. */
static void drain(struct kstack_pool *p)
{
    uint32_t o;
    while (kstack_pool_draw(p, &o)) {
        CHECK(o % KSTACK_OFFSET_ALIGN == 0 && o <= KSTACK_OFFSET_MAX);
    }
}

/* One life of a ring of size bytes: filled, drawn from, refilled with up to
 * max bytes (wrapping round the end of buf), drained, refilled, discarded. */
static void pool(uint32_t size, uint32_t first_draws, uint32_t max)
{
    struct kstack_pool p;
    uint8_t key[KSTACK_KEY_SIZE];
    uint32_t o;
    if (!kstack_pool_init(&p, ring, size))
        return;
    unknown(key, sizeof(key));
    kstack_pool_refill(&p, key, 0xFFFFFFFFu); /* full */
    for (uint32_t i = 0; i < first_draws; i++)
        (void)kstack_pool_draw(&p, &o);
    unknown(key, sizeof(key));
    kstack_pool_refill(&p, key, max);
    drain(&p);
    unknown(key, sizeof(key));
    kstack_pool_refill(&p, key, 1 + size / 2);
    (void)kstack_pool_level(&p);
    kstack_pool_discard(&p);
    drain(&p);
}

static void chacha20(void)
{
    uint8_t key[KSTACK_KEY_SIZE], nonce[12], out[130];
    unknown(key, sizeof(key));
    unknown(nonce, sizeof(nonce));
    kstack_chacha20_stream(key, any_in(0, 0xFFFFFFFDu), nonce, out, any_in(0, sizeof(out)));
}

void eva_main(void)
{
    offsets();
    prng();
    siphash();
    chacha20();
    for (uint32_t size = 1; size <= sizeof(ring); size *= 2) {
        const uint32_t draws[] = {0, size / 2, size}, maxes[] = {0, 1, size / 2 + 1, size};
        for (int d = 0; d < 3; d++)
            for (int m = 0; m < 4; m++)
                pool(size, draws[d], maxes[m]);
    }
    (void)kstack_pool_init(&(struct kstack_pool){0}, ring, 6); /* not a power of two */
    Frama_C_show_each_reached_the_end(1);                      /* verify.py checks EVA got here */
}
