/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The stackshift authors */
/*
 * lib/kstack/kstack.h - per-syscall kernel stack offset randomisation, as a
 * library another kernel can copy: the bump that moves the stack pointer and
 * three generators for the offset.
 *
 * What the caller supplies. Every state below is a plain struct the caller
 * owns: put one per CPU (or per thread) wherever that kernel keeps per-CPU
 * data. The library takes no locks, masks no interrupts and knows no
 * random source: the caller
 *   - seeds each generator from its CRNG (a fresh, secret value per CPU);
 *   - draws with interrupts (and so preemption) masked, on the CPU that owns
 *     the state and that will use the offset, in the function that bumps;
 *   - refills the pool off the system call path (timer tick, idle loop),
 *     also with interrupts masked on the owning CPU.
 * docs/porting.md gives the rules and the bugs each one prevents.
 *
 * The offset. A draw returns a byte count: a multiple of KSTACK_OFFSET_ALIGN
 * (16) no larger than KSTACK_OFFSET_MAX (1008), so KSTACK_OFFSET_VALUES (64)
 * values. The mask keeps bits 4 to 9 of a random word; because the masked
 * value is already aligned, nothing rounds it up, so no carry can produce a
 * 65th value (1024).
 *
 * Files: kstack.h (this), kstack_prng.c (LFSR113 seeding), kstack_pool.c
 * (the ChaCha20 ring), kstack_chacha20.c (RFC 8439 block function),
 * kstack_siphash.c (SipHash-2-4), kstack_internal.h (shared by those). C11
 * plus the GNU builtins and inline asm of KSTACK_BUMP; nothing from libc
 * but <stdbool.h>, <stddef.h> and <stdint.h>. A kernel that has ChaCha20
 * already may leave kstack_chacha20.c out and supply its two functions,
 * kstack_chacha20_stream() and kstack_wipe() (kstack_internal.h).
 */
#ifndef KSTACK_KSTACK_H
#define KSTACK_KSTACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A C++ kernel includes this header as it is and links the C objects. */
#ifdef __cplusplus
extern "C" {
#define KSTACK_STATIC_ASSERT static_assert
#else
#define KSTACK_STATIC_ASSERT _Static_assert
#endif

/* ---- The offset ------------------------------------------------------- */

/* Override both before including this header for an ABI with another stack
 * alignment (e.g. 8 and 0x1F8 for 8-byte aligned stacks). The mask must be
 * a contiguous run of bits starting at log2(KSTACK_OFFSET_ALIGN). */
#ifndef KSTACK_OFFSET_ALIGN
#define KSTACK_OFFSET_ALIGN 16u /* the ABI's stack alignment at calls */
#endif
#ifndef KSTACK_OFFSET_MASK
#define KSTACK_OFFSET_MASK 0x3F0u /* bits 4..9: 64 values, 0..1008 */
#endif
#define KSTACK_OFFSET_MAX      KSTACK_OFFSET_MASK
/* The alignment KSTACK_BUMP asks for, in bits: 64, or the ABI's own if it is
 * smaller (asking for more would round small offsets together). */
#define KSTACK_BUMP_ALIGN_BITS (KSTACK_OFFSET_ALIGN < 8 ? KSTACK_OFFSET_ALIGN * 8 : 64)
#define KSTACK_OFFSET_VALUES   (KSTACK_OFFSET_MASK / KSTACK_OFFSET_ALIGN + 1)

KSTACK_STATIC_ASSERT(KSTACK_OFFSET_ALIGN != 0 &&
                         (KSTACK_OFFSET_ALIGN & (KSTACK_OFFSET_ALIGN - 1)) == 0,
                     "KSTACK_OFFSET_ALIGN: a power of two");
KSTACK_STATIC_ASSERT(KSTACK_OFFSET_MASK >= KSTACK_OFFSET_ALIGN &&
                         (KSTACK_OFFSET_MASK & (KSTACK_OFFSET_ALIGN - 1)) == 0 &&
                         ((KSTACK_OFFSET_MASK + KSTACK_OFFSET_ALIGN) & KSTACK_OFFSET_MASK) == 0,
                     "KSTACK_OFFSET_MASK: contiguous bits from log2(KSTACK_OFFSET_ALIGN) up");

/* The specifications below are ACSL (the comments that start with an @),
 * proved with Frama-C by `make verify` (docs/verification.md). An offset is
 * valid when it is at most the maximum and its bits below the alignment
 * are zero: for a power-of-two alignment, a multiple of it. A macro, not an
 * ACSL predicate, so that WP's simplifier sees the bit operations. */
#define KSTACK_OFFSET_OK(o)                                                                        \
    (0 <= (o) && (o) <= KSTACK_OFFSET_MAX && ((o) & (KSTACK_OFFSET_ALIGN - 1)) == 0)
/* The geometry the static assertions above allow, as a precondition of
 * every function that makes an offset: with this header's constants it is
 * true at once; verify/geometry.c makes the alignment and mask unknowns and
 * proves the same contracts for every geometry that satisfies it. */
#define KSTACK_GEOMETRY_OK                                                                         \
    (0 < KSTACK_OFFSET_ALIGN && (KSTACK_OFFSET_ALIGN & (KSTACK_OFFSET_ALIGN - 1)) == 0 &&          \
     KSTACK_OFFSET_MASK >= KSTACK_OFFSET_ALIGN &&                                                  \
     (KSTACK_OFFSET_MASK & (KSTACK_OFFSET_ALIGN - 1)) == 0 &&                                      \
     ((KSTACK_OFFSET_MASK + KSTACK_OFFSET_ALIGN) & KSTACK_OFFSET_MASK) == 0)

/* The offset a raw random word gives. */
/*@ requires geometry: KSTACK_GEOMETRY_OK;
    assigns \nothing;
    ensures offset_ok: KSTACK_OFFSET_OK(\result);
    ensures masked: \result == (raw & KSTACK_OFFSET_MASK);
*/
static inline uint32_t kstack_offset_of(uint32_t raw)
{
    return raw & KSTACK_OFFSET_MASK;
}

/* True for a value a correct implementation can produce: aligned, at most
 * KSTACK_OFFSET_MAX. The conformance kit applies the same check. */
static inline bool kstack_offset_valid(uint32_t offset)
{
    return offset % KSTACK_OFFSET_ALIGN == 0 && offset <= KSTACK_OFFSET_MAX;
}

/*
 * KSTACK_BUMP(offset): move the stack pointer down by
 * kstack_offset_of(offset) bytes for the rest of the calling function, and
 * so for everything it calls afterwards (the system call handler).
 *
 *  - It must be expanded in the function that then calls the handler: an
 *    alloca in a helper is released when the helper returns. For the same
 *    reason it is one statement, not a do { } while (0) block: gcc
 *    documents that an alloca_with_align block lives only to the end of the
 *    block that makes it, so expand it directly in the function's body.
 *  - The alignment asked for is 64 bits (8 bytes), or the ABI's if smaller:
 *    the size is already a multiple of the ABI's alignment, so the stack
 *    stays aligned, and gcc emits only an AND and a subtraction (plain
 *    alloca rounds again).
 *  - The empty asm takes the block as a memory input and clobbers memory,
 *    so the compiler cannot prove the block unused and drop it (as memory,
 *    not a pointer in a register: arm64 would copy sp to hand that over).
 *  - The calling function must not tail-call the handler (build it with
 *    -fno-optimize-sibling-calls, or make the call not the last thing it
 *    does): a sibling call releases the block first.
 *  - gcc's -fstack-clash-protection changes what this compiles to (a probe
 *    loop): build the function that bumps without it (docs/porting.md).
 *    clang's -ftrivial-auto-var-init=pattern|zero would fill the block (a
 *    memset of up to KSTACK_OFFSET_MAX bytes on every call) but for the
 *    _uninitialized builtin, used where the compiler has it (clang 14 has
 *    it; gcc 12, which never fills an alloca block, does not).
 */
#if defined(__has_builtin)
#if __has_builtin(__builtin_alloca_with_align_uninitialized)
#define KSTACK_ALLOCA_WITH_ALIGN __builtin_alloca_with_align_uninitialized
#endif
#endif
#ifndef KSTACK_ALLOCA_WITH_ALIGN
#define KSTACK_ALLOCA_WITH_ALIGN __builtin_alloca_with_align
#endif
#define KSTACK_BUMP(offset)                                                                        \
    __asm__ volatile(                                                                              \
        ""                                                                                         \
        :                                                                                          \
        : "m"(*(char *)KSTACK_ALLOCA_WITH_ALIGN(kstack_offset_of(offset), KSTACK_BUMP_ALIGN_BITS)) \
        : "memory")

/* ---- prng: LFSR113 ----------------------------------------------------- */

/*
 * L'Ecuyer's LFSR113 (Math. Comp. 68, 1999): four Tausworthe components,
 * (k, q, s) = (31, 6, 18), (29, 2, 2), (28, 13, 7), (25, 3, 13); the output
 * is the XOR of the four words. Fast, but linear over GF(2): about 19
 * observed offsets give away the state and every later offset. Use it only
 * where no offset ever leaks (docs/attacks.md).
 */
struct kstack_prng {
    uint32_t z[4]; /* component words; the top k bits of each are the state */
};

/* Seed from four CRNG words. A word below 2, 8, 16, 128 (its component's
 * state would be all zero, stuck for ever) gets that minimum added. */
/*@ logic integer kstack_prng_minimum(integer k) =
        k == 31 ? 2 : k == 29 ? 8 : k == 28 ? 16 : k == 25 ? 128 : 0;
    predicate kstack_prng_alive(struct kstack_prng *g) =
        g->z[0] >= 2 && g->z[1] >= 8 && g->z[2] >= 16 && g->z[3] >= 128;
*/
/*@ requires \valid(g) && \valid_read(seed + (0 .. 3));
    assigns g->z[0 .. 3];
    ensures alive: kstack_prng_alive(g);
*/
void kstack_prng_seed(struct kstack_prng *g, const uint32_t seed[4]);

/* One component step: the new bits x(m+k) = x(m) ^ x(m+q), the state shifted
 * up by s to take them in (L'Ecuyer's word algorithm). That a state whose top
 * k bits are not all zero stays so is proved by make verify over 32-bit
 * vectors (verify/lfsr_bv.py translates this body: keep it to uint32_t
 * definitions and a return) and checked again by its rank check. */
/*@ requires 0 < 2 * q < k <= 32 && 0 < s <= k - q;
    assigns \nothing;
*/
static inline uint32_t kstack_lfsr_step(uint32_t z, unsigned k, unsigned q, unsigned s)
{
    uint32_t fresh = ((z << q) ^ z) >> (k - s);
    return ((z & (0xFFFFFFFFu << (32 - k))) << s) ^ fresh;
}

/* The next 32-bit output (steps first, then outputs). */
/*@ requires \valid(g);
    assigns g->z[0 .. 3];
*/
static inline uint32_t kstack_prng_next(struct kstack_prng *g)
{
    g->z[0] = kstack_lfsr_step(g->z[0], 31, 6, 18);
    g->z[1] = kstack_lfsr_step(g->z[1], 29, 2, 2);
    g->z[2] = kstack_lfsr_step(g->z[2], 28, 13, 7);
    g->z[3] = kstack_lfsr_step(g->z[3], 25, 3, 13);
    return g->z[0] ^ g->z[1] ^ g->z[2] ^ g->z[3];
}

/* The next offset. */
/*@ requires \valid(g) && KSTACK_GEOMETRY_OK;
    assigns g->z[0 .. 3];
    ensures offset_ok: KSTACK_OFFSET_OK(\result);
*/
static inline uint32_t kstack_prng_draw(struct kstack_prng *g)
{
    return kstack_offset_of(kstack_prng_next(g));
}

/* ---- pool: a ring of ChaCha20 keystream -------------------------------- */

#define KSTACK_KEY_SIZE 32 /* a ChaCha20 key */

/*
 * One keystream byte per draw: its low 6 bits, times the alignment (16), are
 * the offset. Bytes are counted from init: the ring holds the fresh ones,
 * from the read position (head) to the write position (tail); byte i lives
 * at buf[i % size]. head only moves forward and never passes tail, and a
 * refill writes only where head has been, so no byte is used twice.
 *
 * The reader keeps head as a pointer, next, so that a draw is a compare, a
 * load and an increment: `stop` is where it must stop, the write position
 * or the end of buf, whichever comes first, and `lap` is the count of the
 * byte at buf[0] in the reader's pass over buf (head = lap + (next - buf)).
 * Reaching the end of buf, a draw takes the out-of-line path, which starts
 * the next pass.
 */
struct kstack_pool {
    const uint8_t *next; /* the next byte to draw */
    const uint8_t *stop; /* draws stop here (tail, or the end of buf) */
    uint64_t lap;        /* the count of the byte at buf[0] in next's pass */
    uint64_t tail;       /* bytes written since init (2^64 never wraps in practice) */
    uint8_t *buf;        /* the caller's memory, size bytes */
    uint32_t size;       /* a power of two */
};

/*
 * The ring's invariant, in ACSL. head_at: bytes drawn since init; stop_at:
 * where the reader must stop, counted from buf; slot: where byte number i
 * lives (buf[i % size]). The frame: the caller's memory. ok: the reader
 * never passes the writer (head <= tail), the writer is never more than a
 * ring ahead (tail <= head + size), lap is a whole number of passes (so the
 * reader's pointer is the slot of head), and stop is where set_stop() puts
 * it.
 */
/*@ logic integer kstack_pool_head_at(struct kstack_pool *p) = p->lap + (p->next - p->buf);
    logic integer kstack_pool_slot(struct kstack_pool *p, integer i) = i % p->size;
    logic integer kstack_pool_stop_at(struct kstack_pool *p) =
        p->tail - p->lap < p->size ? p->tail - p->lap : p->size;
    predicate kstack_pool_frame(struct kstack_pool *p) =
        \valid(p) && 0 < p->size && \valid(p->buf + (0 .. p->size - 1)) &&
        \separated(p, p->buf + (0 .. p->size - 1));
    predicate kstack_pool_ok(struct kstack_pool *p) =
        kstack_pool_frame(p) && \base_addr(p->next) == \base_addr(p->buf) &&
        p->buf <= p->next <= p->buf + p->size && p->lap % p->size == 0 &&
        kstack_pool_head_at(p) <= p->tail <= kstack_pool_head_at(p) + p->size &&
        p->stop == p->buf + kstack_pool_stop_at(p);
*/
/* The ring's arithmetic (n: the size; proved by make verify's lemma run).
 * A slot is in bounds; the slots of any n consecutive byte numbers are
 * distinct (the mapping is injective over a window of one ring), so a run
 * of slots a refill writes after the window's fresh bytes misses all of
 * theirs; and a whole number of passes plus k < n is slot k. */
/*@ lemma kstack_ring_slot_in_bounds: \forall integer n, i; 0 < n && 0 <= i ==> 0 <= i % n < n;
    lemma kstack_ring_slots_distinct: \forall integer n, h, i, j;
        0 < n && 0 <= h <= i < j < h + n ==> i % n != j % n;
    lemma kstack_ring_run_misses_fresh: \forall integer n, h, t, r, i;
        0 < n && 0 <= h <= i < t && t + r <= h + n && t % n + r <= n ==>
        !(t % n <= i % n < t % n + r);
    lemma kstack_ring_passes: \forall integer n, q; 0 < n && 0 <= q ==> (n * q) % n == 0;
    lemma kstack_ring_pass_start: \forall integer n, t; 0 < n && 0 <= t ==> (t - t % n) % n == 0;
    lemma kstack_ring_next_pass:
        \forall integer n, l; 0 < n && 0 <= l && l % n == 0 ==> (l + n) % n == 0;
    lemma kstack_ring_slot_in_pass: \forall integer n, l, k;
        0 < n && 0 <= l && l % n == 0 && 0 <= k < n ==> (l + k) % n == k;
*/

/* An empty ring over buf (size: a power of two; false otherwise). */
/*@ requires \valid(p) && \separated(p, buf + (0 .. size - 1));
    requires size > 0 ==> \valid(buf + (0 .. size - 1));
    assigns *p;
    ensures \result ==> kstack_pool_ok(p) && p->tail == 0 && kstack_pool_head_at(p) == 0;
*/
bool kstack_pool_init(struct kstack_pool *p, uint8_t *buf, uint32_t size);

/* Bytes drawn since init (the read position). */
/*@ requires kstack_pool_ok(p);
    assigns \nothing;
    ensures \result == kstack_pool_head_at(p);
*/
static inline uint64_t kstack_pool_head(const struct kstack_pool *p)
{
    return p->lap + (uint64_t)(p->next - p->buf);
}

/* Fresh bytes waiting to be drawn. */
/*@ requires kstack_pool_ok(p);
    assigns \nothing;
    ensures \result == p->tail - kstack_pool_head_at(p);
*/
static inline uint32_t kstack_pool_level(const struct kstack_pool *p)
{
    return (uint32_t)(p->tail - kstack_pool_head(p));
}

/* Skip every fresh byte: the read position jumps to the write position
 * (tests use it to empty the ring; nothing skipped is ever drawn). */
/*@ requires kstack_pool_frame(p);
    assigns p->lap, p->next, p->stop;
    ensures kstack_pool_ok(p) && kstack_pool_head_at(p) == p->tail;
*/
void kstack_pool_discard(struct kstack_pool *p);

/*
 * Append min(max_bytes, free room) bytes of keystream and return how many.
 * key: 32 fresh bytes from the caller's CRNG. The keystream is ChaCha20's
 * with fast key erasure (the all-zero nonce, block 0's first 32 bytes become
 * the next key, the output starts at its byte 32), restarted for each
 * contiguous run up to the end of the ring; key is overwritten with
 * zeros before this returns, so the bytes cannot be recomputed later.
 * The proofs assume fewer than 2^64 - size bytes written (tail never wraps).
 */
/*@ requires kstack_pool_ok(p) && p->tail <= UINT64_MAX - p->size;
    requires \valid(key + (0 .. KSTACK_KEY_SIZE - 1));
    requires \separated(key + (0 .. KSTACK_KEY_SIZE - 1), p, p->buf + (0 .. p->size - 1));
    assigns p->tail, p->stop, p->buf[0 .. p->size - 1], key[0 .. KSTACK_KEY_SIZE - 1];
    ensures ring_ok: kstack_pool_ok(p);
    ensures reader_kept: p->next == \old(p->next) && p->lap == \old(p->lap);
    ensures appended: p->tail == \old(p->tail) + \result;
    ensures unread_kept: \forall integer i; kstack_pool_head_at(p) <= i < \old(p->tail) ==>
        p->buf[kstack_pool_slot(p, i)] == \old(p->buf[kstack_pool_slot(p, i)]);
    ensures fills: \result == (max_bytes < p->size - \old(p->tail - kstack_pool_head_at(p))
                                ? max_bytes : p->size - \old(p->tail - kstack_pool_head_at(p)));
    ensures key_wiped: \forall integer i; 0 <= i < KSTACK_KEY_SIZE ==> key[i] == 0;
*/
uint32_t kstack_pool_refill(struct kstack_pool *p, uint8_t key[KSTACK_KEY_SIZE],
                            uint32_t max_bytes);

/* The same, but key is left holding the next key rather than wiped: a
 * refill cut into short steps (KSTACK_POOL_STEP_BYTES, one ChaCha20 block
 * each: 32 bytes of key, 32 of output) calls this once per step with the
 * same key array and wipes it after the last one. The bytes and the ring's
 * rules are a refill's: only the key's lifetime differs. */
#define KSTACK_POOL_STEP_BYTES 32u
/*@ requires kstack_pool_ok(p) && p->tail <= UINT64_MAX - p->size;
    requires \valid(key + (0 .. KSTACK_KEY_SIZE - 1));
    requires \separated(key + (0 .. KSTACK_KEY_SIZE - 1), p, p->buf + (0 .. p->size - 1));
    assigns p->tail, p->stop, p->buf[0 .. p->size - 1], key[0 .. KSTACK_KEY_SIZE - 1];
    ensures ring_ok: kstack_pool_ok(p);
    ensures reader_kept: p->next == \old(p->next) && p->lap == \old(p->lap);
    ensures appended: p->tail == \old(p->tail) + \result;
    ensures unread_kept: \forall integer i; kstack_pool_head_at(p) <= i < \old(p->tail) ==>
        p->buf[kstack_pool_slot(p, i)] == \old(p->buf[kstack_pool_slot(p, i)]);
    ensures fills: \result == (max_bytes < p->size - \old(p->tail - kstack_pool_head_at(p))
                                ? max_bytes : p->size - \old(p->tail - kstack_pool_head_at(p)));
*/
uint32_t kstack_pool_refill_step(struct kstack_pool *p, uint8_t key[KSTACK_KEY_SIZE],
                                 uint32_t max_bytes);

/* The common case of a draw, inline: false at the stop (the ring empty, or
 * the reader at the end of buf), where kstack_pool_draw_slow() takes over.
 * A draw hands out the byte numbered head, which is below tail (written and
 * never drawn), and moves head on by one; nothing ever moves head back, so
 * no byte is handed out twice. */
/*@ predicate kstack_pool_drew{Before, After}(struct kstack_pool *p, uint32_t offset) =
        \at(kstack_pool_head_at(p), Before) < \at(p->tail, After) &&
        \at(kstack_pool_head_at(p), After) == \at(kstack_pool_head_at(p), Before) + 1 &&
        \at(p->buf < p->next, After) &&
        offset == \at((uint32_t)(*(p->next - 1) * KSTACK_OFFSET_ALIGN) & KSTACK_OFFSET_MASK, After);
*/
/*@ requires kstack_pool_ok(p) && \valid(offset) && KSTACK_GEOMETRY_OK;
    requires \separated(offset, p, p->buf + (0 .. p->size - 1));
    assigns p->next, *offset;
    ensures ring_ok: kstack_pool_ok(p);
    ensures fresh_byte: \result ==> kstack_pool_drew{Pre, Post}(p, *offset);
    ensures slot: \result ==>
        p->next - 1 == p->buf + kstack_pool_slot(p, \old(kstack_pool_head_at(p)));
    ensures offset_ok: \result ==> KSTACK_OFFSET_OK(*offset);
    ensures at_stop: !\result <==> \old(p->next == p->stop);
    ensures kept: !\result ==> p->next == \old(p->next);
*/
static inline bool kstack_pool_draw_fast(struct kstack_pool *p, uint32_t *offset)
{
    if (__builtin_expect(p->next == p->stop, 0))
        return false;
    *offset = kstack_offset_of(*p->next++ * KSTACK_OFFSET_ALIGN);
    return true;
}

/* A draw at the stop, out of line: starts the reader's next pass over buf
 * if it was at the end, then draws; false only when the ring is empty. */
/*@ requires kstack_pool_ok(p) && \valid(offset) && KSTACK_GEOMETRY_OK;
    requires \separated(offset, p, p->buf + (0 .. p->size - 1));
    assigns p->next, p->lap, p->stop, *offset;
    ensures ring_ok: kstack_pool_ok(p) && p->tail == \old(p->tail);
    ensures fresh_byte: \result ==> kstack_pool_drew{Pre, Post}(p, *offset);
    ensures slot: \result ==>
        p->next - 1 == p->buf + kstack_pool_slot(p, \old(kstack_pool_head_at(p)));
    ensures offset_ok: \result ==> KSTACK_OFFSET_OK(*offset);
    ensures empty: !\result ==> kstack_pool_head_at(p) == \old(kstack_pool_head_at(p)) == p->tail;
*/
bool kstack_pool_draw_slow(struct kstack_pool *p, uint32_t *offset);

/* Take the next offset into *offset; false when the ring is empty. The
 * caller must then refill (or use a fallback, say its kstack_prng) and
 * count the event: never block, never reuse a byte. */
/*@ requires kstack_pool_ok(p) && \valid(offset) && KSTACK_GEOMETRY_OK;
    requires \separated(offset, p, p->buf + (0 .. p->size - 1));
    assigns p->next, p->lap, p->stop, *offset;
    ensures ring_ok: kstack_pool_ok(p) && p->tail == \old(p->tail);
    ensures fresh_byte: \result ==> kstack_pool_drew{Pre, Post}(p, *offset);
    ensures slot: \result ==>
        p->next - 1 == p->buf + kstack_pool_slot(p, \old(kstack_pool_head_at(p)));
    ensures offset_ok: \result ==> KSTACK_OFFSET_OK(*offset);
    ensures empty: !\result ==> kstack_pool_head_at(p) == \old(kstack_pool_head_at(p)) == p->tail;
*/
static inline bool kstack_pool_draw(struct kstack_pool *p, uint32_t *offset)
{
    return kstack_pool_draw_fast(p, offset) || kstack_pool_draw_slow(p, offset);
}

/* The ChaCha20 keystream of RFC 8439 (32-bit block counter, 96-bit nonce),
 * len bytes from block `counter` on: what the pool is cut from, exported for
 * the known-answer tests. */
/*@ requires \valid_read(key + (0 .. KSTACK_KEY_SIZE - 1)) && \valid_read(nonce + (0 .. 11));
    requires \valid(out + (0 .. len - 1)) && len <= 64 * (0x100000000 - counter);
    assigns out[0 .. len - 1];
*/
void kstack_chacha20_stream(const uint8_t key[KSTACK_KEY_SIZE], uint32_t counter,
                            const uint8_t nonce[12], uint8_t *out, size_t len);

/* ---- siphash: SipHash-2-4 of a counter ---------------------------------- */

/*
 * Aumasson and Bernstein's SipHash-2-4 (INDOCRYPT 2012) under a secret key,
 * of the 16-byte message counter || cpu (each little-endian). One 64-bit hash
 * gives ten 6-bit offsets, low bits first; the top 4 bits are dropped.
 */
#define KSTACK_SIPHASH_OFFSETS 10

struct kstack_siphash {
    uint64_t k0, k1;  /* the key's bytes 0-7 and 8-15, little-endian */
    uint64_t cpu;     /* the second message word: keeps CPUs apart under one key */
    uint64_t counter; /* hashes made */
    uint64_t bits;    /* the unused part of the last hash */
    unsigned left;    /* offsets left in bits */
};

/* key: 16 bytes from the caller's CRNG (one key may serve every CPU). */
/*@ requires \valid(g) && \valid_read(key + (0 .. 15));
    assigns *g;
    ensures g->counter == 0 && g->left == 0;
*/
void kstack_siphash_init(struct kstack_siphash *g, const uint8_t key[16], uint64_t cpu);

/* Hash number `counter` of this generator (the message counter || cpu):
 * out of line, as it is taken once every KSTACK_SIPHASH_OFFSETS draws. */
/*@ requires \valid_read(g);
    assigns \nothing;
*/
uint64_t kstack_siphash_block(const struct kstack_siphash *g, uint64_t counter);

/* The next offset; hashes once every KSTACK_SIPHASH_OFFSETS draws. Inline,
 * so that the nine draws out of ten that only shift cost no call. The
 * message counter wraps after 2^64 hashes (unsigned: defined, and then the
 * offsets would repeat, 10 x 2^64 draws on). */
/*@ requires \valid(g) && g->left <= KSTACK_SIPHASH_OFFSETS && KSTACK_GEOMETRY_OK;
    assigns g->bits, g->left, g->counter;
    ensures offset_ok: KSTACK_OFFSET_OK(\result);
    ensures left_in_range: g->left < KSTACK_SIPHASH_OFFSETS;
    behavior rekey:
        assumes g->left == 0;
        ensures counter_next: \old(g->counter) < UINT64_MAX ==> g->counter == \old(g->counter) + 1;
        ensures counter_wraps: g->counter == (uint64_t)(\old(g->counter) + 1);
        ensures g->left == KSTACK_SIPHASH_OFFSETS - 1;
    behavior shift:
        assumes g->left != 0;
        ensures g->counter == \old(g->counter) && g->left == \old(g->left) - 1;
    complete behaviors;
    disjoint behaviors;
*/
static inline uint32_t kstack_siphash_draw(struct kstack_siphash *g)
{
    if (g->left == 0) {
        g->bits = kstack_siphash_block(g, g->counter++);
        g->left = KSTACK_SIPHASH_OFFSETS;
    }
    uint32_t offset = kstack_offset_of((uint32_t)(g->bits & 63) * KSTACK_OFFSET_ALIGN);
    g->bits >>= 6;
    g->left--;
    return offset;
}

/* SipHash-2-4 of len bytes: the primitive, exported for the known answers. */
/*@ requires \valid_read(key + (0 .. 15)) && \valid_read((const uint8_t *)data + (0 .. len - 1));
    assigns \nothing;
*/
uint64_t kstack_siphash24(const uint8_t key[16], const void *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif
