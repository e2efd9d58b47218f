/* SPDX-License-Identifier: MIT */
/*
 * kernel/dev/bcm2835_rng.c - the BCM2835/6/7 hardware random number
 * generator (devicetree "brcm,bcm2835-rng"; the Raspberry Pi 1-3, CPU
 * 0x3f104000 on the BCM2837), as a seed source.
 *
 * Broadcom's BCM2835 ARM Peripherals manual does not document this block.
 * The register layout here is the one the permissively licensed (ISC)
 * OpenBSD bcmrng(4) driver uses, sys/dev/fdt/bcm2835_rng.c: control at
 * +0x0 (bit 0 enables the generator), status at +0x4 (bits [31:24]: how
 * many 32-bit words wait in its FIFO), data at +0x8 (the next word).
 *
 * Its quality is not documented either, so the claim is modest: a sample
 * is two 32-bit words, credited 8 bits of min-entropy (one bit in eight;
 * seed.c's health tests run on every sample). 1024 samples at boot credit
 * the full 256 bits, and crng.c's reseed, which wants 256 bits from at
 * most 64 samples, gets them from 32.
 */
#include "arch/arch.h"
#include "kernel/arch_callbacks.h"
#include "kernel/dev/rng.h"
#include "lib/fdt.h"

#define RNG_CTRL        0x0
#define RNG_CTRL_ENABLE 0x1
#define RNG_STATUS      0x4 /* [31:24] words available */
#define RNG_DATA        0x8
#define WAIT_SPINS      1000000

static uintptr_t base;

static const char *bcm2835_rng_init(const struct fdt *f, int node)
{
    uint64_t pa, size;
    if (fdt_reg_cpu(f, node, 0, &pa, &size, NULL))
        return "its reg cannot be translated";
    base = (uintptr_t)ioremap(pa, 0x1000);
    if (!base)
        return "its reg is RAM or outside the direct map";
    arch_mmio_write32(base + RNG_CTRL, arch_mmio_read32(base + RNG_CTRL) | RNG_CTRL_ENABLE);
    return NULL;
}

/* One 32-bit word once the FIFO has one; false after WAIT_SPINS polls. */
static bool read_word(uint32_t *out)
{
    for (unsigned spins = 0; spins < WAIT_SPINS; spins++) {
        if (arch_mmio_read32(base + RNG_STATUS) >> 24) {
            *out = arch_mmio_read32(base + RNG_DATA);
            return true;
        }
        arch_cpu_relax();
    }
    return false;
}

static unsigned bcm2835_rng_read(uint64_t *out)
{
    uint32_t lo, hi;
    if (!read_word(&lo) || !read_word(&hi))
        return 0;
    *out = (uint64_t)hi << 32 | lo;
    return 64;
}

const struct rng_driver bcm2835_rng_driver = {
    .name = "bcm2835-rng",
    .compatible = "brcm,bcm2835-rng",
    .sample_bits = 64,
    .h_x8 = 8 * 8,
    .seed_class = true,
    .init = bcm2835_rng_init,
    .read = bcm2835_rng_read,
};
