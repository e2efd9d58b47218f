/* SPDX-License-Identifier: MIT */
/*
 * kernel/kstack_offset/pool.c - `pool`, this project's strategy: a per-CPU
 * ring of ChaCha20 keystream, one byte per system call, consumed at entry
 * with IRQs masked and refilled OFF the system call path: by the timer tick
 * when it falls below the low-water mark, and by the idle loop whenever the
 * CPU has nothing else to do.
 *
 * Cost on the path: a compare, a load and an increment, with no separate
 * draw counter, since the read position is one (the cheapest draw of
 * all the strategies that use randomness); the keystream is paid for where
 * nobody is waiting. Strength: the bytes are cipher output under a key taken
 * fresh from the CRNG at every refill, so seeing any number of offsets says
 * nothing about the next (unlike LFSR113), and the CRNG's reseeding reaches
 * the pool within a refill.
 *
 * The rules: a byte is used at most once (head only moves forward and never
 * passes tail; the refill writes only where head has already been); a dry
 * pool never blocks and never reuses a byte: the draw counts a "dry" event
 * and takes its offset from this CPU's LFSR113 (the prng_u32() generator),
 * a visible, counted fallback.
 */
#include "kernel/kstack_offset/kstack_offset.h"

#include "kernel/mm/kvmap.h"
#include "kernel/panic.h"
#include "kernel/random/random.h"
#include "lib/chacha20.h"
#include "lib/string.h"

static uint32_t pool_dry(struct cpu *c)
{
    KSTACK_COUNT(c, KSTACK_POOL, KSTACK_CNT_DRY);
    return lfsr113_next(&c->prng);
}

static uint32_t pool_draw(struct cpu *c, struct thread *t)
{
    struct kstack_pool *p = &c->kstack.pool;
    if (__builtin_expect(p->head == p->tail, 0))
        return pool_dry(c);
    /* No draw counter: head itself counts them (kstack_pool_draws). */
    return (uint32_t)p->buf[p->head++ % KSTACK_POOL_BYTES] << 4;
}

unsigned long kstack_pool_draws(const struct cpu *c)
{
    return READ_ONCE(c->kstack.pool.head) - READ_ONCE(c->kstack.pool.drained);
}

unsigned kstack_pool_level(const struct cpu *c)
{
    return (unsigned)(c->kstack.pool.tail - c->kstack.pool.head);
}

/*
 * Append up to max_bytes of keystream (IRQs off, on c itself or before c
 * runs). The key comes fresh from the CRNG; chacha20_generate() then
 * overwrites it with keystream that is never output (fast key erasure), so
 * the pool's bytes cannot be recomputed from anything left in memory.
 */
void kstack_pool_refill(struct cpu *c, unsigned max_bytes)
{
    struct kstack_pool *p = &c->kstack.pool;
    unsigned room = KSTACK_POOL_BYTES - kstack_pool_level(c);
    unsigned n = MIN(room, max_bytes);
    if (n == 0)
        return;
    get_random_bytes(p->key, sizeof(p->key));
    while (n) {
        unsigned at = (unsigned)(p->tail % KSTACK_POOL_BYTES);
        unsigned chunk = MIN(n, KSTACK_POOL_BYTES - at); /* up to the end of the ring */
        chacha20_generate(p->key, p->buf + at, chunk);
        p->tail += chunk;
        p->written += chunk;
        n -= chunk;
    }
    memzero_explicit(p->key, sizeof(p->key));
    KSTACK_COUNT(c, KSTACK_POOL, KSTACK_CNT_REFILLS);
}

void kstack_pool_init(struct cpu *c)
{
    if (!c->kstack.pool.buf && !(c->kstack.pool.buf = kvmap_alloc(KSTACK_POOL_BYTES)))
        panic("kstack: no memory for cpu%u's %u KiB pool", c->id, KSTACK_POOL_BYTES / 1024);
    c->kstack.pool.head = c->kstack.pool.tail = c->kstack.pool.written = 0;
    kstack_pool_refill(c, KSTACK_POOL_BYTES);
}

/* Nothing read beyond what was written, the refill never ran ahead of what
 * was read, and the write position is exactly the bytes the refills made. */
unsigned kstack_pool_verify(struct cpu *c)
{
    const struct kstack_pool *p = &c->kstack.pool;
    return p->head > p->tail || p->tail - p->head > KSTACK_POOL_BYTES || p->tail != p->written;
}

void kstack_pool_drain(struct cpu *c)
{
    struct kstack_pool *p = &c->kstack.pool;
    p->drained += p->tail - p->head;
    p->head = p->tail;
}

const struct kstack_strategy kstack_pool = {KSTACK_POOL, "pool", pool_draw, NULL, NULL};
