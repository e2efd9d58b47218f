/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The stackshift authors */
/*
 * lib/kstack/kstack_pool.c - the ring of ChaCha20 keystream (see kstack.h).
 * A refill cuts the free room into contiguous runs up to the end of the
 * ring and fills each with fast-key-erasure output: the first 32 bytes of
 * keystream block 0 replace the key and are never output, the run starts at
 * byte 32. The next run continues from the replaced key.
 */
#include "kstack.h"

#include "kstack_internal.h"

#define BLOCK 64

/* Where the reader must stop: at the write position, or at the end of buf
 * if the write position is in the next pass (the writer is never more than
 * one pass ahead: it writes only where the reader has been). */
/*@ requires kstack_pool_frame(p) && \base_addr(p->next) == \base_addr(p->buf);
    requires p->buf <= p->next <= p->buf + p->size && p->lap % p->size == 0;
    requires p->lap <= kstack_pool_head_at(p) <= p->tail <= kstack_pool_head_at(p) + p->size;
    assigns p->stop;
    ensures kstack_pool_ok(p);
*/
static void set_stop(struct kstack_pool *p)
{
    uint64_t ahead = p->tail - p->lap; /* from buf[0] of the reader's pass */
    p->stop = p->buf + (ahead < p->size ? ahead : p->size);
}

bool kstack_pool_init(struct kstack_pool *p, uint8_t *buf, uint32_t size)
{
    if (size == 0 || (size & (size - 1)) != 0)
        return false;
    p->buf = buf;
    p->size = size;
    p->tail = 0;
    kstack_pool_discard(p);
    return true;
}

void kstack_pool_discard(struct kstack_pool *p)
{
    uint32_t at = (uint32_t)(p->tail % p->size);
    /*@ assert at_in_ring: at < p->size && at <= p->tail; */
    p->lap = p->tail - at;
    p->next = p->buf + at;
    set_stop(p);
}

bool kstack_pool_draw_slow(struct kstack_pool *p, uint32_t *offset)
{
    /*@ assert pass_end: p->next == p->buf + p->size ==> kstack_pool_head_at(p) <= p->tail; */
    if (p->next == p->buf + p->size) { /* the end of buf: the next pass */
        p->lap += p->size;
        p->next = p->buf;
        set_stop(p);
    }
    /*@ assert same_head: kstack_pool_ok(p) && p->tail == \at(p->tail, Pre) &&
            kstack_pool_head_at(p) == \at(kstack_pool_head_at(p), Pre); */
    return kstack_pool_draw_fast(p, offset);
}

/* len bytes of output into out and a new key into key, from key. */
/*@ requires \valid(key + (0 .. KSTACK_KEY_SIZE - 1)) && \valid(out + (0 .. len - 1));
    requires \separated(key + (0 .. KSTACK_KEY_SIZE - 1), out + (0 .. len - 1));
    requires len <= 0x100000000;
    assigns key[0 .. KSTACK_KEY_SIZE - 1], out[0 .. len - 1];
*/
static void generate(uint8_t key[KSTACK_KEY_SIZE], uint8_t *out, size_t len)
{
    static const uint8_t zero_nonce[12];
    uint8_t first[BLOCK];
    size_t from_first = len < BLOCK - KSTACK_KEY_SIZE ? len : BLOCK - KSTACK_KEY_SIZE;
    kstack_chacha20_stream(key, 0, zero_nonce, first, BLOCK);
    /*@ loop invariant 0 <= i <= from_first;
        loop assigns i, out[0 .. from_first - 1];
        loop variant from_first - i;
    */
    for (size_t i = 0; i < from_first; i++)
        out[i] = first[KSTACK_KEY_SIZE + i];
    if (len > from_first)
        kstack_chacha20_stream(key, 1, zero_nonce, out + from_first, len - from_first);
    /*@ loop invariant 0 <= i <= KSTACK_KEY_SIZE;
        loop assigns i, key[0 .. KSTACK_KEY_SIZE - 1];
        loop variant KSTACK_KEY_SIZE - i;
    */
    for (size_t i = 0; i < KSTACK_KEY_SIZE; i++)
        key[i] = first[i]; /* the old key is gone */
    kstack_wipe(first, sizeof(first));
}

uint32_t kstack_pool_refill_step(struct kstack_pool *p, uint8_t key[KSTACK_KEY_SIZE],
                                 uint32_t max_bytes)
{
    uint32_t room = p->size - kstack_pool_level(p);
    uint32_t todo = room < max_bytes ? room : max_bytes;
    uint32_t made = 0;
    /*@ loop invariant 0 <= made <= todo;
        loop invariant p->tail == \at(p->tail, Pre) + made;
        loop invariant room: p->tail + (todo - made) <= kstack_pool_head_at(p) + p->size;
        loop invariant unread_kept: \forall integer i;
            kstack_pool_head_at(p) <= i < \at(p->tail, Pre) ==>
            p->buf[kstack_pool_slot(p, i)] == \at(p->buf[kstack_pool_slot(p, i)], Pre);
        loop assigns made, p->tail, p->buf[0 .. p->size - 1], key[0 .. KSTACK_KEY_SIZE - 1];
        loop variant todo - made;
    */
    while (made < todo) {
        uint32_t at = (uint32_t)(p->tail % p->size);
        /*@ assert at_in_ring: at < p->size; */
        uint32_t run = p->size - at; /* up to the end of the ring */
        if (run > todo - made)
            run = todo - made;
        generate(key, p->buf + at, run);
        p->tail += run;
        made += run;
    }
    set_stop(p);
    return made;
}

uint32_t kstack_pool_refill(struct kstack_pool *p, uint8_t key[KSTACK_KEY_SIZE], uint32_t max_bytes)
{
    uint32_t made = kstack_pool_refill_step(p, key, max_bytes);
    kstack_wipe(key, KSTACK_KEY_SIZE);
    return made;
}
