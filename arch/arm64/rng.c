/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/rng.c - FEAT_RNG: the RNDR and RNDRRS registers (Arm ARM,
 * "RNDR, Random Number" and "RNDRRS, Reseeded Random Number"). Present when
 * ID_AA64ISAR0_EL1.RNDR (bits [63:60]) is 1. A read that cannot deliver
 * sets PSTATE.NZCV to 0b0100 (Z set) and returns 0; it is retried a
 * bounded number of times. RNDRRS reseeds from the entropy source before
 * answering, so it is the seed-class source; RNDR is a DRBG's output.
 * The registers are written by encoding (S3_3_C2_C4_0 and _1) so that the
 * baseline -march=armv8-a assembler accepts them.
 */
#include "kernel/arch_callbacks.h"

#define RNG_RETRIES 10

enum { SRC_RNDRRS, SRC_RNDR };

static bool has_rng;

int arch_rng_probe(const struct boot_info *bi, struct arch_rng_info *out, int max)
{
    uint64_t isar0;
    if (max < 2)
        return 0;
    __asm__ volatile("mrs %0, id_aa64isar0_el1" : "=r"(isar0));
    has_rng = (isar0 >> 60) & 0xf;
    enum arch_rng_state st = has_rng ? ARCH_RNG_OK : ARCH_RNG_ABSENT;
    /* H = 32 bits per 64-bit read: half of the architectural promise (lib/health.h). */
    out[SRC_RNDRRS] =
        (struct arch_rng_info){"RNDRRS", true, 64, 32 * 8, st, "ID_AA64ISAR0_EL1.RNDR is 0"};
    out[SRC_RNDR] =
        (struct arch_rng_info){"RNDR", false, 64, 32 * 8, st, "ID_AA64ISAR0_EL1.RNDR is 0"};
    return 2;
}

static bool read_rndrrs(uint64_t *v)
{
    uint64_t ok;
    __asm__ volatile("mrs %0, s3_3_c2_c4_1\n\tcset %1, ne" : "=r"(*v), "=r"(ok) : : "cc");
    return ok;
}

static bool read_rndr(uint64_t *v)
{
    uint64_t ok;
    __asm__ volatile("mrs %0, s3_3_c2_c4_0\n\tcset %1, ne" : "=r"(*v), "=r"(ok) : : "cc");
    return ok;
}

unsigned arch_rng_read(int i, uint64_t *out)
{
    if (!has_rng || i < 0 || i > 1)
        return 0;
    for (int tries = 0; tries < RNG_RETRIES; tries++) {
        uint64_t v;
        if (i == SRC_RNDRRS ? read_rndrrs(&v) : read_rndr(&v)) {
            *out = v;
            return 64;
        }
        arch_cpu_relax();
    }
    *out = 0;
    return 0;
}
