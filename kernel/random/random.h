/* SPDX-License-Identifier: MIT */
/*
 * kernel/random/random.h - the kernel's random numbers.
 *
 * At boot, random_init() gathers seed material from every source it can
 * find (the CPU's generator, the firmware's seed, timer jitter), credits
 * each only what it can honestly carry, and keys a ChaCha20 CRNG with it.
 * Each CPU then draws from its own batch of CRNG output (cheap, no lock),
 * and keeps a small LFSR113 generator seeded from the CRNG for the per-
 * syscall stack offset.
 */
#ifndef KERNEL_RANDOM_RANDOM_H
#define KERNEL_RANDOM_RANDOM_H

#include "boot/bootinfo.h"
#include "kernel/types.h"

/* Bits of credited entropy the CRNG needs before it calls itself seeded. */
#define CRNG_READY_BITS 256

/* Boot CPU, after arch_init and before other CPUs start: collect seeds,
 * print where they came from, key the CRNG, seed this CPU's fallback LFSR113. */
void random_init(struct boot_info *bi);
/* Every other CPU as it comes online: seed its fallback LFSR113 from the
 * CRNG (kernel/random/fallback.c). */
void random_cpu_init(void);

/* True once CRNG_READY_BITS were credited and the ChaCha20 self-test passed. */
bool crng_ready(void);
/* CRNG output, any context. Cheap: per-CPU batches, IRQs masked briefly. */
void get_random_bytes(void *buf, size_t len);
uint16_t get_random_u16(void);
uint64_t get_random_u64(void);
/* Tests: make the next refill reseed from the hardware source (false if
 * there is none) and tell the current key generation. */
bool crng_reseed_soon(uint64_t *generation_now);
uint64_t crng_generation(void);
/* This CPU's fallback LFSR113 (not cryptographic: the self-tests, and
 * what `pool` and `hw` draw when their source is dry; the stack offset
 * strategies keep their own generators). Any context. */
uint32_t fallback_prng_u32(void);
/* The CPU's fastest random instruction that passed its boot checks (RDRAND,
 * RNDR, Zkr seed), for the `hw` stack offset strategy: whether there is one,
 * one read (bits delivered, 0 on failure after bounded retries; any
 * context), and its name. */
bool random_hw_available(void);
unsigned random_hw_read(uint64_t *out);
const char *random_hw_name(void);

#endif
