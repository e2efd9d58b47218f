/* SPDX-License-Identifier: MIT */
/*
 * kernel/kstack_offset/siphash.c - the middle ground discussed for Linux:
 * SipHash-2-4 (lib/siphash.c) under a key drawn from the CRNG at boot, of a
 * per-CPU counter and the CPU number. One 64-bit hash serves ten system
 * calls, 6 bits each (4 bits are left over). Unlike LFSR113, observed
 * offsets say nothing usable about the next ones without the key.
 */
#include "kernel/kstack_offset/kstack_offset.h"

#include "kernel/random/random.h"
#include "lib/siphash.h"
#include "lib/string.h"

#define OFFSETS_PER_HASH 10 /* 10 x 6 of the 64 bits */

static struct siphash_key key;

void kstack_siphash_init(void)
{
    get_random_bytes(&key, sizeof(key));
}

static uint64_t hash_of(struct cpu *c, uint64_t n)
{
    return siphash24_2u64(&key, n, c->id);
}

/* Bits 4-9 of the result are the offset (the mechanism masks with 0x3F0). */
static uint32_t siphash_draw(struct cpu *c, struct thread *t)
{
    struct kstack_offset_cpu *k = &c->kstack;
    KSTACK_COUNT(c, KSTACK_SIPHASH, KSTACK_CNT_DRAWS);
    if (k->sip_left == 0) {
        k->sip_bits = hash_of(c, k->sip_counter++);
        k->sip_left = OFFSETS_PER_HASH;
    }
    uint32_t v = (uint32_t)k->sip_bits << 4;
    k->sip_bits >>= 6;
    k->sip_left--;
    return v;
}

/* The counter and the unused bits must be what exactly `draws` draws leave. */
unsigned kstack_siphash_verify(struct cpu *c)
{
    const struct kstack_offset_cpu *k = &c->kstack;
    uint64_t draws = k->count[KSTACK_SIPHASH][KSTACK_CNT_DRAWS];
    if (k->sip_counter * OFFSETS_PER_HASH - k->sip_left != draws)
        return 1;
    if (k->sip_counter == 0)
        return 0;
    unsigned used = OFFSETS_PER_HASH - k->sip_left;
    return k->sip_bits != hash_of(c, k->sip_counter - 1) >> (6 * used);
}

const struct kstack_strategy kstack_siphash = {KSTACK_SIPHASH, "siphash", siphash_draw, NULL, NULL};
