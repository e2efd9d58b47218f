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
    return lfsr113_next(&c->fallback_prng);
}

/*
 * The draw's out-of-line part: the reader at the end of the ring's buffer
 * (once per 65,536 calls), or the ring empty. Empty: refill a little here,
 * in steps with IRQs on between them (a key from the CRNG and eight
 * ChaCha20 blocks; once per KSTACK_POOL_PATH_BYTES calls at most), then
 * draw, IRQs masked again.
 */
uint32_t kstack_pool_dry(struct cpu *c)
{
    uint32_t offset;
    if (kstack_pool_draw_slow(&c->kstack.pool.ring, &offset))
        return offset; /* only the end of the buffer */
    KSTACK_COUNT(c, KSTACK_POOL, KSTACK_CNT_DRY);
    kstack_pool_cpu_refill(c, KSTACK_POOL_PATH_BYTES, false);
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
 * Append up to max_bytes of keystream on this CPU, c, called and returning
 * with IRQs off. The key comes fresh from the CRNG; the library then runs
 * ChaCha20 with fast key erasure one step at a time (KSTACK_POOL_STEP_BYTES,
 * one block: 1,700 to 2,700 instructions on the three arches), and IRQs are
 * on between steps, so an interrupt waits for one step at most, wherever
 * the refill runs. Preemption stays off throughout: only system calls on
 * this CPU draw from its ring, and none can start here before the refill
 * is done. until_work (the idle loop): stop early once this CPU has a
 * thread to run. The key is wiped at the end, so the pool's bytes cannot be
 * recomputed from anything left in memory.
 */
void kstack_pool_cpu_refill(struct cpu *c, unsigned max_bytes, bool until_work)
{
    struct kstack_pool_cpu *p = &c->kstack.pool;
    if (kstack_pool_level(&p->ring) == KSTACK_POOL_BYTES || max_bytes == 0)
        return;
    c->preempt_count++;
    arch_irq_enable(); /* whatever masked them before stays out of the steps' windows */
    arch_irq_disable();
    get_random_bytes(p->key, sizeof(p->key));
    for (unsigned made = 0; made < max_bytes;) {
        arch_irq_enable(); /* a pending interrupt is taken here */
        arch_irq_disable();
        if (made > 0 && until_work && (c->need_resched || c->sched.queued))
            break;
        uint32_t n = kstack_pool_refill_step(&p->ring, p->key,
                                             MIN(max_bytes - made, KSTACK_POOL_STEP_BYTES));
        p->written += n;
        made += n;
        if (n == 0)
            break;
    }
    memzero_explicit(p->key, sizeof(p->key));
    c->preempt_count--;
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
    /* At boot, before c runs and before interrupts are on: in one go. */
    get_random_bytes(p->key, sizeof(p->key));
    p->written += kstack_pool_refill(&p->ring, p->key, KSTACK_POOL_BYTES);
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
