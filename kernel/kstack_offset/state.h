/* SPDX-License-Identifier: MIT */
/*
 * kernel/kstack_offset/state.h - what the stack offset strategies keep per
 * CPU (in struct cpu) and per thread (in struct thread). Each strategy owns
 * its own fields, so switching strategy never mixes their state.
 */
#ifndef KERNEL_KSTACK_OFFSET_STATE_H
#define KERNEL_KSTACK_OFFSET_STATE_H

#include "kernel/uapi/kstack.h"
#include "lib/lfsr113.h"

#include <stdint.h>

/* Pool ring size: a power of two, one byte per system call. The tick tops
 * it up below three quarters, at most KSTACK_POOL_TICK_BYTES at a time (so
 * an interrupt never spends long on it), so a CPU can make 49152 calls
 * before the pool runs dry if the ticks stop: 49 ms of QEMU TCG's million
 * calls a second (a loaded host delays TCG's ticks by tens of ms), and the
 * tick keeps up with 8 million calls a second per CPU at 1000 Hz. */
#define KSTACK_POOL_BYTES 65536u
#define KSTACK_POOL_LOW_WATER (KSTACK_POOL_BYTES / 4 * 3) /* refill below this */
#define KSTACK_POOL_TICK_BYTES 8192u

struct kstack_pool {
    /* head and tail count bytes since boot and never wrap in practice (2^64):
     * bytes [head, tail) are fresh keystream, buf[i % SIZE]; a byte is read
     * at most once, since head only moves forward and never passes tail. */
    uint64_t head, tail;
    uint64_t drained; /* bytes skipped by KSTACK_DEBUG_DRAIN (tests), never used */
    uint64_t written; /* bytes the refills made (the integrity check: == tail) */
    uint8_t key[32]; /* this CPU's ChaCha20 key, replaced at every refill */
    uint8_t *buf; /* KSTACK_POOL_BYTES, from kvmap_alloc when the CPU is found */
};

struct kstack_offset_cpu {
    uint32_t offset;          /* counter, crng16: chosen at exit, used at next entry */
    struct lfsr113 prng;      /* prng: this CPU's generator */
    struct lfsr113 prng_seed; /* ... and where it started (the integrity test) */
    uint64_t sip_counter;     /* siphash: hashes made on this CPU */
    uint64_t sip_bits;        /* the unused part of the last hash */
    unsigned sip_left;        /* 6-bit offsets left in sip_bits */
    uint32_t fixed;           /* KSTACK_FIXED: the offset to use */
    unsigned long count[KSTACK_NR + 1][KSTACK_NR_COUNTERS]; /* see kernel/uapi/kstack.h */
    struct kstack_pool pool;
};

struct kstack_offset_thread {
    uint32_t offset;     /* task: chosen at exit, used at the thread's next entry */
    struct lfsr113 prng; /* prng-task: this thread's generator */
};

#endif
