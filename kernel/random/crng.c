/* SPDX-License-Identifier: MIT */
/*
 * kernel/random/crng.c - the ChaCha20 CRNG.
 *
 * Seeding: all seed material is absorbed into a 32-byte pool by ChaCha-based
 * extraction: for each 32-byte chunk m of input, pool = the first 32 bytes of
 * ChaCha20_block(key = pool XOR m, counter = n, nonce = "absorb"), n counting
 * the chunks. As long as ChaCha20's block function behaves as a
 * pseudorandom function of its key (the assumption its use as a stream
 * cipher already makes), the pool is unpredictable if any input was, and
 * one primitive - the one with the RFC 8439 self-test - does everything,
 * which is why no separate hash is used. crng_seed() then takes the pool as
 * the CRNG's base key.
 *
 * Output: fast key erasure (chacha20_generate): every request produces a
 * fresh key as well as the output, and the old key is overwritten, so a
 * later compromise of the state reveals nothing already produced. Each CPU
 * holds its own key, derived from the base key, and a batch of output;
 * get_random_*() take bytes from that batch with IRQs masked and wipe them
 * as they go. When the base key changes (reseeding) the generation number
 * moves and every CPU re-derives its key at its next refill.
 *
 * Reseeding: if a hardware seed source passed its checks, the base key is
 * refreshed with 256 new bits from it every RESEED_INTERVAL_NS, at the next
 * refill after the interval has passed. A CRNG that was not seeded at boot
 * (rng.credit_late withholds the boot's credit, as on a machine whose source
 * is trusted only later) is seeded by its first such reseed.
 */
#include "kernel/random/internal.h"
#include "kernel/random/random.h"

#include "kernel/cpu.h"
#include "kernel/panic.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"
#include "lib/chacha20.h"
#include "lib/chacha20_kat.h"
#include "lib/string.h"

#define RESEED_INTERVAL_NS (60ull * 1000000000ull)

static struct spinlock base_lock = SPINLOCK_INIT;
static uint8_t pool[CHACHA20_KEY_SIZE];
static uint32_t pool_chunks;
static uint8_t base_key[CHACHA20_KEY_SIZE];
static uint64_t generation;
static bool ready;
static bool selftest_passed;
static unsigned (*reseed_read)(uint64_t *out);
static uint64_t next_reseed_ns;

/* pool = ChaCha20_block(pool XOR chunk, n, "absorb")[0..31] (see above). */
static void absorb_chunk(const uint8_t chunk[CHACHA20_KEY_SIZE])
{
    static const uint32_t nonce[3] = {0x6f736261, 0x00627200, 0}; /* "absorb" */
    uint32_t key[8];
    uint8_t k[CHACHA20_KEY_SIZE], block[CHACHA20_BLOCK_SIZE];
    for (int i = 0; i < CHACHA20_KEY_SIZE; i++)
        k[i] = pool[i] ^ chunk[i];
    chacha20_load_le32(key, k, 8);
    chacha20_block(key, pool_chunks++, nonce, block);
    memcpy(pool, block, sizeof(pool));
    memzero_explicit(k, sizeof(k));
    memzero_explicit(key, sizeof(key));
    memzero_explicit(block, sizeof(block));
}

void crng_mix(const void *data, size_t len)
{
    const uint8_t *p = data;
    uint8_t chunk[CHACHA20_KEY_SIZE];
    unsigned long flags = spin_lock_irqsave(&base_lock);
    while (len) {
        size_t n = MIN(len, sizeof(chunk));
        memset(chunk, 0, sizeof(chunk));
        memcpy(chunk, p, n);
        absorb_chunk(chunk);
        p += n;
        len -= n;
    }
    memzero_explicit(chunk, sizeof(chunk));
    spin_unlock_irqrestore(&base_lock, flags);
}

bool crng_selftest(void)
{
    const char *failed = NULL;
    return chacha20_selftest(&failed) == 0;
}

void crng_seed(unsigned credited, bool selftest_ok)
{
    unsigned long flags = spin_lock_irqsave(&base_lock);
    memcpy(base_key, pool, sizeof(base_key));
    memzero_explicit(pool, sizeof(pool));
    generation++;
    selftest_passed = selftest_ok;
    ready = selftest_ok && credited >= CRNG_READY_BITS;
    next_reseed_ns = time_now_ns() + RESEED_INTERVAL_NS;
    spin_unlock_irqrestore(&base_lock, flags);
}

void crng_set_reseed_source(unsigned (*read64)(uint64_t *out))
{
    reseed_read = read64;
}

/* Make the next refill on any CPU reseed (tests): returns false if there is
 * no hardware source to reseed from, else the generation before. */
bool crng_reseed_soon(uint64_t *generation_now)
{
    unsigned long flags = spin_lock_irqsave(&base_lock);
    *generation_now = generation;
    next_reseed_ns = 0;
    spin_unlock_irqrestore(&base_lock, flags);
    return reseed_read != NULL;
}

uint64_t crng_generation(void)
{
    return READ_ONCE(generation);
}

bool crng_ready(void)
{
    return READ_ONCE(ready);
}

/* Fold CRNG_READY_BITS of fresh hardware seed into the base key (base_lock
 * held); if the source cannot deliver them in 64 reads, keep the old key. */
static void reseed_locked(void)
{
    uint64_t fresh[4];
    unsigned bits = 0;
    memcpy(pool, base_key, sizeof(pool));
    for (int i = 0; i < 64 && bits < CRNG_READY_BITS; i++) {
        unsigned got = reseed_read(&fresh[i % 4]);
        if (!got)
            break;
        bits += got;
        if (i % 4 == 3)
            absorb_chunk((const uint8_t *)fresh);
    }
    if (bits >= CRNG_READY_BITS) {
        absorb_chunk((const uint8_t *)fresh);
        memcpy(base_key, pool, sizeof(base_key));
        generation++;
        /* CRNG_READY_BITS of health-tested seed: seeded now, if it was not
         * at boot (the offset generators follow: kernel/kstack_offset). */
        WRITE_ONCE(ready, selftest_passed);
    }
    memzero_explicit(pool, sizeof(pool));
    memzero_explicit(fresh, sizeof(fresh));
    next_reseed_ns = time_now_ns() + RESEED_INTERVAL_NS;
}

/* A new batch for this CPU (IRQs off). */
static void refill(struct crng_cpu *c)
{
    if (READ_ONCE(generation) != c->generation ||
        (reseed_read && time_now_ns() >= READ_ONCE(next_reseed_ns))) {
        unsigned long flags = spin_lock_irqsave(&base_lock);
        if (reseed_read && time_now_ns() >= next_reseed_ns)
            reseed_locked();
        chacha20_generate(base_key, c->key, sizeof(c->key));
        c->generation = generation;
        spin_unlock_irqrestore(&base_lock, flags);
    }
    chacha20_generate(c->key, c->batch, sizeof(c->batch));
    c->used = 0;
}

void get_random_bytes(void *buf, size_t len)
{
    uint8_t *out = buf;
    while (len) {
        unsigned long flags = arch_irq_save();
        struct crng_cpu *c = &arch_this_cpu()->crng; /* IRQs off: this CPU, no check needed */
        BUG_ON(READ_ONCE(generation) == 0);          /* random_init() has not run yet */
        if (c->used == CRNG_BATCH || c->generation != READ_ONCE(generation))
            refill(c);
        size_t n = MIN(len, (size_t)(CRNG_BATCH - c->used));
        memcpy(out, c->batch + c->used, n);
        memzero_explicit(c->batch + c->used, n); /* handed out: forget it */
        c->used += (unsigned)n;
        arch_irq_restore(flags);
        out += n;
        len -= n;
    }
}

#define GET_RANDOM(type, name)                                                                     \
    type name(void)                                                                                \
    {                                                                                              \
        type v;                                                                                    \
        get_random_bytes(&v, sizeof(v));                                                           \
        return v;                                                                                  \
    }

GET_RANDOM(uint16_t, get_random_u16)
GET_RANDOM(uint64_t, get_random_u64)
