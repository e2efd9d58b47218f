/* SPDX-License-Identifier: MIT */
/*
 * kernel/kstack_offset/pool.c - `pool`, this project's strategy: a per-CPU
 * ring of ChaCha20 keystream, one byte per system call, consumed at entry
 * with IRQs masked and refilled off the system call path: on the way back
 * to user mode once the timer tick finds it below the low-water mark
 * (select.c), and by the idle loop whenever the CPU has nothing else to do. A caller fast enough to
 * empty it anyway (or a tick that does not come) finds the draw refilling a little on the path.
 *
 * Cost on the path: a compare, a load and an increment, with no separate
 * draw counter, since the read position is one (the cheapest draw of
 * all the strategies that use randomness); the keystream is paid for where
 * nobody is waiting. Strength: the bytes are cipher output under a key taken
 * fresh from the CRNG at every refill, so seeing any number of offsets says
 * nothing about the next (unlike LFSR113), and the CRNG's reseeding reaches
 * the pool within a refill.
 *
 * The rules: a byte is used at most once (the read position only moves
 * forward and never passes the write position; the refill writes only
 * where the reader has already been); an empty pool never blocks and
 * never reuses a byte: the draw counts a "dry" event and refills
 * KSTACK_POOL_PATH_BYTES there and then, so the offset is keystream
 * whatever the call rate. Only if that refill made nothing would
 * the offset come from this CPU's LFSR113, counted as a fallback; no test
 * has seen one.
 */
#include "kernel/kstack_offset/draw.h"

#include "kernel/mm/kvmap.h"
#include "kernel/panic.h"
#include "kernel/random/random.h"
#include "lib/string.h"

/* The ring and its refill are the library's (lib/kstack/kstack_pool.c,
 * through kernel/kstack_offset/kstack_lib.c); the kernel adds where the
 * refills run, the fallback and the counters. */

/* The refills of the tick and the idle loop (KSTACK_DEBUG_POOL_TICK). */
static bool background_refills = true;

static uint32_t pool_fallback(struct cpu *c)
{
    KSTACK_COUNT(c, KSTACK_POOL, KSTACK_CNT_FALLBACK);
    return lfsr113_next(&c->prng);
}

/*
 * The draw's out-of-line part: the reader at the end of the ring's buffer
 * (once per 65,536 calls), or the ring empty. Empty: refill a little here,
 * with IRQs still masked (a key from the CRNG and five ChaCha20 blocks:
 * 10,350 to 15,430 instructions on the three arches, measured under -icount
 * by kstack.pool_hostile's note; once per KSTACK_POOL_PATH_BYTES calls at
 * most), then draw.
 */
uint32_t kstack_pool_dry(struct cpu *c)
{
    uint32_t offset;
    if (kstack_pool_draw_slow(&c->kstack.pool.ring, &offset))
        return offset; /* only the end of the buffer */
    KSTACK_COUNT(c, KSTACK_POOL, KSTACK_CNT_DRY);
    kstack_pool_cpu_refill(c, KSTACK_POOL_PATH_BYTES);
    if (!kstack_pool_draw(&c->kstack.pool.ring, &offset))
        return pool_fallback(c);
    return offset;
}

/* The draw itself is inline (draw.h): no draw counter, the ring's head
 * counts them (kstack_pool_draws). */

unsigned long kstack_pool_draws(const struct cpu *c)
{
    return kstack_pool_head(&c->kstack.pool.ring) - READ_ONCE(c->kstack.pool.drained);
}

unsigned kstack_pool_cpu_level(const struct cpu *c)
{
    return kstack_pool_level(&c->kstack.pool.ring);
}

/*
 * Append up to max_bytes of keystream (IRQs off, on c itself or before c
 * runs). The key comes fresh from the CRNG; the library then runs ChaCha20
 * with fast key erasure and wipes the key, so the pool's bytes cannot be
 * recomputed from anything left in memory.
 */
void kstack_pool_cpu_refill(struct cpu *c, unsigned max_bytes)
{
    struct kstack_pool_cpu *p = &c->kstack.pool;
    if (kstack_pool_level(&p->ring) == KSTACK_POOL_BYTES || max_bytes == 0)
        return;
    get_random_bytes(p->key, sizeof(p->key));
    p->written += kstack_pool_refill(&p->ring, p->key, max_bytes);
    KSTACK_COUNT(c, KSTACK_POOL, KSTACK_CNT_REFILLS);
}

bool kstack_pool_background_refills(void)
{
    return READ_ONCE(background_refills);
}

void kstack_pool_set_background_refills(bool on)
{
    WRITE_ONCE(background_refills, on);
}

void kstack_pool_cpu_init(struct cpu *c)
{
    struct kstack_pool_cpu *p = &c->kstack.pool;
    uint8_t *buf = p->ring.buf ? p->ring.buf : kvmap_alloc(KSTACK_POOL_BYTES);
    if (!buf || !kstack_pool_init(&p->ring, buf, KSTACK_POOL_BYTES))
        panic("kstack: no memory for cpu%u's %u KiB pool", c->id, KSTACK_POOL_BYTES / 1024);
    p->written = p->drained = 0;
    kstack_pool_cpu_refill(c, KSTACK_POOL_BYTES);
}

/* Nothing read beyond what was written, the refill never ran ahead of what
 * was read, and the write position is exactly the bytes the refills made. */
unsigned kstack_pool_verify(struct cpu *c)
{
    const struct kstack_pool_cpu *p = &c->kstack.pool;
    uint64_t head = kstack_pool_head(&p->ring);
    return head > p->ring.tail || p->ring.tail - head > KSTACK_POOL_BYTES ||
           p->ring.tail != p->written;
}

void kstack_pool_drain(struct cpu *c)
{
    struct kstack_pool_cpu *p = &c->kstack.pool;
    p->drained += kstack_pool_level(&p->ring);
    kstack_pool_discard(&p->ring);
}

const struct kstack_strategy kstack_pool = {KSTACK_POOL, "pool", NULL};
