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
#define KSTACK_POOL_BYTES      65536u
#define KSTACK_POOL_LOW_WATER  (KSTACK_POOL_BYTES / 4 * 3) /* refill below this */
#define KSTACK_POOL_TICK_BYTES 8192u
/* What a draw that finds the ring empty refills itself: 256 bytes, so the
 * key's fetch is spread over 256 calls and IRQs stay off briefly. */
#define KSTACK_POOL_PATH_BYTES 256u
#include "lib/kstack/kstack.h"

/* pool: the library's ring (lib/kstack/kstack.h: the bytes from the read
 * position to the write position are fresh keystream, each read at most
 * once) and what the kernel adds to it. */
struct kstack_pool_cpu {
    struct kstack_pool ring; /* buf: KSTACK_POOL_BYTES from kvmap_alloc */
    uint64_t drained;        /* bytes skipped by KSTACK_DEBUG_DRAIN (tests), never used */
    uint64_t written;        /* bytes the refills made (the integrity check: == tail) */
    uint8_t key[32];         /* the refill's ChaCha20 key, wiped after each refill */
};

struct kstack_offset_cpu {
    /* First, so that arm64 loads the ring's next and stop with one LDP
     * (whose offset reaches 504 bytes into struct cpu). */
    struct kstack_pool_cpu pool;
    uint32_t offset;           /* counter, crng16: chosen at exit, used at next entry */
    struct lfsr113 prng;       /* prng: this CPU's generator */
    struct lfsr113 prng_seed;  /* ... and where it started (the integrity test) */
    struct kstack_siphash sip; /* siphash: this CPU's counter and unused bits */
    uint32_t fixed;            /* KSTACK_FIXED: the offset to use */
    unsigned long count[KSTACK_NR + 1][KSTACK_NR_COUNTERS]; /* see kernel/uapi/kstack.h */
    /* Seeded while the CRNG was not yet seeded: the tick reseeds prng and
     * siphash once it is (select.c), and the integrity checks then replay
     * only the draws made since (the *_seed_draws). */
    bool crng_was_ready;
    unsigned reseeds;
    unsigned long prng_seed_draws, sip_seed_draws;
    struct lfsr113 prng_boot_seed; /* the seed of kstack_offset_init (tests) */
};

struct kstack_offset_thread {
    uint32_t offset;     /* task: chosen at exit, used at the thread's next entry */
    struct lfsr113 prng; /* prng-task: this thread's generator */
};

#endif
