/* SPDX-License-Identifier: MIT */
/*
 * kernel/dev/bcm2711_rng200.c - the RNG200 hardware random number generator
 * of the BCM2711 (the Raspberry Pi 4; devicetree "brcm,bcm2711-rng200", CPU
 * 0xfe104000), as a seed source.
 *
 * Broadcom does not document this block either. The register layout is the
 * one the permissively licensed (BSD-2-Clause-Patent) Raspberry Pi 4 UEFI
 * firmware in edk2-platforms uses, Bcm2838Rng.h and its RNG driver:
 *   +0x00 control: bits [12:0] enable the generator (the vendor sets all
 *         thirteen), bits [20:13] a sample-rate divisor (a power of two);
 *   +0x10 warm-up threshold: the FIFO stays empty until the generator has
 *         produced this many bits since it was enabled;
 *   +0x20 FIFO data: the next 32-bit word;
 *   +0x24 FIFO count: bits [7:0], how many words wait in the FIFO.
 * QEMU 7.2 has no model of the BCM2711, so this driver has not run; a host
 * test checks that the Pi 4's devicetree leads it to 0xfe104000.
 *
 * The claim is the same modest one as the BCM2835's (bcm2835_rng.c): two
 * words make a sample, credited 8 bits; seed.c health-tests every sample.
 */
#include "arch/arch.h"
#include "kernel/arch_callbacks.h"
#include "kernel/dev/rng.h"
#include "lib/fdt.h"

#define RNG200_CTRL             0x00
#define RNG200_CTRL_ENABLE      0x1fff
#define RNG200_CTRL_DIV_SHIFT   13
#define RNG200_CTRL_DIV         3 /* bits at about 1 MHz on a 1.5 GHz part */
#define RNG200_WARMUP_THRESHOLD 0x10
#define RNG200_WARMUP_BITS      0x40000 /* about a quarter of a second */
#define RNG200_FIFO_DATA        0x20
#define RNG200_FIFO_COUNT       0x24
#define RNG200_FIFO_COUNT_MASK  0xff
#define WARMUP_WAIT_MS          1000 /* the first word: warm-up, with margin */
#define WORD_WAIT_MS            10   /* later words: at 1 MHz, 32 us each */

static uintptr_t base;
static bool warm;

static const char *rng200_init(const struct fdt *f, int node)
{
    uint64_t pa, size;
    if (fdt_reg_cpu(f, node, 0, &pa, &size, NULL))
        return "its reg cannot be translated";
    base = (uintptr_t)ioremap(pa, 0x1000);
    if (!base)
        return "its reg is RAM or outside the direct map";
    /* Enabled already (by U-Boot, say): keep its state and FIFO. */
    if ((arch_mmio_read32(base + RNG200_CTRL) & RNG200_CTRL_ENABLE) == 0) {
        arch_mmio_write32(base + RNG200_WARMUP_THRESHOLD, RNG200_WARMUP_BITS);
        arch_mmio_write32(base + RNG200_CTRL,
                          RNG200_CTRL_ENABLE | RNG200_CTRL_DIV << RNG200_CTRL_DIV_SHIFT);
    }
    return NULL;
}

/* One 32-bit word once the FIFO has one; false after `ms` milliseconds. */
static bool read_word(uint32_t *out, unsigned ms)
{
    uint64_t deadline = arch_counter() + arch_counter_hz() / 1000 * ms;
    do {
        if (arch_mmio_read32(base + RNG200_FIFO_COUNT) & RNG200_FIFO_COUNT_MASK) {
            *out = arch_mmio_read32(base + RNG200_FIFO_DATA);
            return true;
        }
        arch_cpu_relax();
    } while (arch_counter() < deadline);
    return false;
}

static unsigned rng200_read(uint64_t *out)
{
    uint32_t lo, hi;
    if (!read_word(&lo, warm ? WORD_WAIT_MS : WARMUP_WAIT_MS) || !read_word(&hi, WORD_WAIT_MS))
        return 0;
    warm = true;
    *out = (uint64_t)hi << 32 | lo;
    return 64;
}

const struct rng_driver bcm2711_rng200_driver = {
    .name = "rng200",
    .compatible = "brcm,bcm2711-rng200",
    .sample_bits = 64,
    .h_x8 = 8 * 8,
    .seed_class = true,
    .init = rng200_init,
    .read = rng200_read,
};
