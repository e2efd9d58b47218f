/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/rng.c - RDSEED and RDRAND (Intel SDM vol. 1 7.3.17, vol. 2
 * "RDSEED", "RDRAND"). Both set CF when the value is valid; both may fail
 * for a while (RDSEED especially, under load), so each read retries a
 * bounded number of times: 10 for RDRAND, as Intel's DRNG guide advises,
 * 100 for RDSEED, with a pause between. Some AMD parts have returned all-ones
 * (and some 0) with CF set after a fault: such values count as failures.
 * Detected with CPUID.1:ECX[30] (RDRAND) and CPUID.(EAX=7,ECX=0):EBX[18]
 * (RDSEED).
 */
#include "kernel/arch_callbacks.h"
#include "x86.h"

enum { SRC_RDSEED, SRC_RDRAND };

static bool has[2];

int arch_rng_probe(const struct boot_info *bi, struct arch_rng_info *out, int max)
{
    uint32_t r[4];
    if (max < 2)
        return 0;
    x86_cpuid(7, 0, r);
    has[SRC_RDSEED] = r[1] & (1u << 18);
    x86_cpuid(1, 0, r);
    has[SRC_RDRAND] = r[2] & (1u << 30);
    /* H = 32 bits per 64-bit word: half of what the vendor claims (lib/health.h). */
    out[SRC_RDSEED] = (struct arch_rng_info){"RDSEED",
                                             true,
                                             64,
                                             32 * 8,
                                             has[SRC_RDSEED] ? ARCH_RNG_OK : ARCH_RNG_ABSENT,
                                             "CPUID.7:EBX.RDSEED is 0"};
    out[SRC_RDRAND] = (struct arch_rng_info){"RDRAND",
                                             false,
                                             64,
                                             32 * 8,
                                             has[SRC_RDRAND] ? ARCH_RNG_OK : ARCH_RNG_ABSENT,
                                             "CPUID.1:ECX.RDRAND is 0"};
    return 2;
}

static bool rdseed(uint64_t *v)
{
    uint8_t ok;
    __asm__ volatile("rdseed %0; setc %1" : "=r"(*v), "=qm"(ok) : : "cc");
    return ok;
}

static bool rdrand(uint64_t *v)
{
    uint8_t ok;
    __asm__ volatile("rdrand %0; setc %1" : "=r"(*v), "=qm"(ok) : : "cc");
    return ok;
}

unsigned arch_rng_read(int i, uint64_t *out)
{
    if (i < 0 || i > 1 || !has[i])
        return 0;
    int tries = i == SRC_RDSEED ? 100 : 10;
    while (tries--) {
        uint64_t v;
        bool ok = i == SRC_RDSEED ? rdseed(&v) : rdrand(&v);
        if (ok && v != 0 && v != ~0ull) {
            *out = v;
            return 64;
        }
        arch_cpu_relax();
    }
    *out = 0;
    return 0;
}
