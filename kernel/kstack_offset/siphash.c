/* SPDX-License-Identifier: MIT */
/*
 * kernel/kstack_offset/siphash.c - the middle ground discussed for Linux:
 * SipHash-2-4 under a key drawn from the CRNG at boot, of a per-CPU counter
 * and the CPU number. One 64-bit hash serves ten system calls, 6 bits each
 * (4 bits are left over). Unlike LFSR113, observed offsets say nothing
 * usable about the next ones without the key. The generator is the
 * library's (lib/kstack/kstack_siphash.c); this file seeds it and checks it.
 */
#include "kernel/kstack_offset/kstack_offset.h"

#include "kernel/random/random.h"
#include "lib/string.h"

static uint8_t key[16]; /* one key for every CPU: the CPU number keeps them apart */

void kstack_siphash_key_init(void)
{
    get_random_bytes(key, sizeof(key));
}

void kstack_siphash_cpu_init(struct cpu *c)
{
    kstack_siphash_init(&c->kstack.sip, key, c->id);
}

/* This CPU, IRQs off: a key of its own from the (now seeded) CRNG; the
 * integrity check counts the draws from here. */
void kstack_siphash_cpu_reseed(struct cpu *c)
{
    uint8_t fresh[16];
    get_random_bytes(fresh, sizeof(fresh));
    kstack_siphash_init(&c->kstack.sip, fresh, c->id);
    memzero_explicit(fresh, sizeof(fresh));
    c->kstack.sip_seed_draws = c->kstack.count[KSTACK_SIPHASH][KSTACK_CNT_DRAWS];
}

/* The key this CPU's generator holds, as the 16 bytes SipHash takes. */
static void key_of(const struct kstack_siphash *g, uint8_t out[16])
{
    for (int i = 0; i < 8; i++) {
        out[i] = (uint8_t)(g->k0 >> (8 * i));
        out[8 + i] = (uint8_t)(g->k1 >> (8 * i));
    }
}

bool kstack_siphash_cpu_has_boot_key(const struct cpu *c)
{
    uint8_t mine[16];
    key_of(&c->kstack.sip, mine);
    bool same = memcmp(mine, key, sizeof(mine)) == 0;
    memzero_explicit(mine, sizeof(mine));
    return same;
}

/* The hash number n of this CPU, made the long way (the byte interface of
 * SipHash) so that the check does not trust the generator's shortcut. */
static uint64_t hash_of(const struct cpu *c, uint64_t n)
{
    uint8_t msg[16], k[16];
    for (int i = 0; i < 8; i++) {
        msg[i] = (uint8_t)(n >> (8 * i));
        msg[8 + i] = (uint8_t)((uint64_t)c->id >> (8 * i));
    }
    key_of(&c->kstack.sip, k);
    uint64_t h = kstack_siphash24(k, msg, sizeof(msg));
    memzero_explicit(k, sizeof(k));
    return h;
}

/* The counter and the unused bits must be what exactly `draws` draws leave. */
unsigned kstack_siphash_verify(struct cpu *c)
{
    const struct kstack_siphash *g = &c->kstack.sip;
    uint64_t draws = c->kstack.count[KSTACK_SIPHASH][KSTACK_CNT_DRAWS] - c->kstack.sip_seed_draws;
    if (g->counter * KSTACK_SIPHASH_OFFSETS - g->left != draws)
        return 1;
    if (g->counter == 0)
        return 0;
    unsigned used = KSTACK_SIPHASH_OFFSETS - g->left;
    return g->bits != hash_of(c, g->counter - 1) >> (6 * used);
}

const struct kstack_strategy kstack_siphash = {KSTACK_SIPHASH, "siphash", NULL};
