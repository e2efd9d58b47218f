/* SPDX-License-Identifier: MIT */
/*
 * tests/host/test_rng_devices.c - the devicetree RNG drivers of kernel/dev/
 * (bcm2835_rng.c, bcm2711_rng200.c) against register models of their
 * devices. The RNG200 has no QEMU model and the Pi 4 no boot in make test,
 * so this is where its start-up and reads are checked: enable and warm-up
 * written on a stopped device, a running one left alone, the two FIFO words
 * of a sample in order, and a device that never fills its FIFO given up on
 * in bounded time. The fake arch (tests/host/fake_kernel/) sends MMIO here
 * and advances the counter one tick (a microsecond) per read.
 */
#include "kernel/dev/rng.h"
#include "lib/fdt.h"
#include "tests/host/check.h"

#define BASE 0x40000000u

uint64_t fake_ticks;
bool fake_ioremap_refuses;

/* The device model: which one, its registers, and what it has made. */
static struct {
    bool rng200; /* else the BCM2835's */
    bool dead;   /* never produces a word */
    uint32_t ctrl, threshold;
    unsigned writes; /* register writes by the driver */
    uint64_t enabled_at;
    uint32_t next_word, words_read;
} dev;

static void model_reset(bool rng200)
{
    dev = (typeof(dev)){.rng200 = rng200, .next_word = 0x1000};
    fake_ticks = 0;
    fake_ioremap_refuses = false;
}

/* Words produced so far: the RNG200 after its warm-up threshold (in bits,
 * one per tick), then one per 32 ticks; the BCM2835 one per 32 ticks. */
static uint32_t words_made(void)
{
    bool on = dev.rng200 ? (dev.ctrl & 0x1fff) != 0 : (dev.ctrl & 1) != 0;
    if (!on || dev.dead)
        return 0;
    uint64_t bits = fake_ticks - dev.enabled_at;
    uint64_t warm = dev.rng200 ? dev.threshold : 0;
    return bits < warm ? 0 : (uint32_t)((bits - warm) / 32);
}

static uint32_t fifo_count(void)
{
    uint32_t waiting = words_made() - dev.words_read;
    return waiting > 16 ? 16 : waiting;
}

uint32_t fake_mmio_read32(uintptr_t addr)
{
    fake_ticks++; /* a read takes time: the BCM2835 driver counts polls */
    uint32_t off = (uint32_t)(addr - BASE);
    uint32_t data_reg = dev.rng200 ? 0x20 : 0x8;
    if (off == 0x0)
        return dev.ctrl;
    if (off == (dev.rng200 ? 0x24u : 0x4u))
        return dev.rng200 ? fifo_count() : fifo_count() << 24;
    if (off == data_reg && fifo_count()) {
        dev.words_read++;
        return dev.next_word++;
    }
    return 0;
}

void fake_mmio_write32(uintptr_t addr, uint32_t v)
{
    uint32_t off = (uint32_t)(addr - BASE);
    dev.writes++;
    if (off == 0x0) {
        if (dev.ctrl == 0 && v != 0)
            dev.enabled_at = fake_ticks;
        dev.ctrl = v;
    }
    if (dev.rng200 && off == 0x10)
        dev.threshold = v;
}

/* The one devicetree lookup the drivers make. */
int fdt_reg_cpu(const struct fdt *f, int node, int index, uint64_t *addr, uint64_t *size,
                int *why_node)
{
    (void)f, (void)node, (void)index, (void)why_node;
    *addr = BASE;
    *size = 0x28;
    return 0;
}

TEST(rng200_start_sets_warmup_then_enables)
{
    model_reset(true);
    CHECK(bcm2711_rng200_driver.init(NULL, 0) == NULL);
    CHECK_EQ_INT(dev.threshold, 0x40000);
    CHECK_EQ_INT(dev.ctrl & 0x1fff, 0x1fff);
    CHECK_EQ_INT(dev.ctrl >> 13, 3);
}

TEST(rng200_running_device_left_alone)
{
    model_reset(true);
    dev.ctrl = 0x1fff | 2u << 13; /* started by the boot loader */
    CHECK(bcm2711_rng200_driver.init(NULL, 0) == NULL);
    CHECK_EQ_INT(dev.writes, 0);
    CHECK_EQ_INT(dev.ctrl >> 13, 2);
}

TEST(rng200_first_sample_after_warmup)
{
    model_reset(true);
    uint64_t v = 0;
    CHECK(bcm2711_rng200_driver.init(NULL, 0) == NULL);
    CHECK_EQ_INT(bcm2711_rng200_driver.read(&v), 64);
    CHECK(fake_ticks >= 0x40000);                  /* waited for the warm-up */
    CHECK(v == ((uint64_t)0x1001 << 32 | 0x1000)); /* low word first */
    CHECK_EQ_INT(bcm2711_rng200_driver.read(&v), 64);
    CHECK(v == ((uint64_t)0x1003 << 32 | 0x1002));
}

TEST(rng200_dead_device_given_up)
{
    model_reset(true);
    dev.dead = true;
    uint64_t v = 0;
    CHECK(bcm2711_rng200_driver.init(NULL, 0) == NULL);
    CHECK_EQ_INT(bcm2711_rng200_driver.read(&v), 0);
    CHECK(fake_ticks <= 2 * 1000000); /* within its one second, plus reads */
}

TEST(bcm2835_start_sets_enable_keeps_other_bits)
{
    model_reset(false);
    dev.ctrl = 0x10;
    CHECK(bcm2835_rng_driver.init(NULL, 0) == NULL);
    CHECK_EQ_INT(dev.ctrl, 0x11);
}

TEST(bcm2835_sample_is_two_words_low_first)
{
    model_reset(false);
    uint64_t v = 0;
    CHECK(bcm2835_rng_driver.init(NULL, 0) == NULL);
    CHECK_EQ_INT(bcm2835_rng_driver.read(&v), 64);
    CHECK(v == ((uint64_t)0x1001 << 32 | 0x1000));
}

TEST(bcm2835_dead_device_given_up)
{
    model_reset(false);
    dev.dead = true;
    uint64_t v = 0;
    CHECK(bcm2835_rng_driver.init(NULL, 0) == NULL);
    CHECK_EQ_INT(bcm2835_rng_driver.read(&v), 0);
}

/* A reg the kernel will not map (RAM, past the direct map: a trimmed or
 * malformed devicetree): the driver gives up before touching anything. */
TEST(refused_reg_is_not_touched)
{
    const struct rng_driver *drivers[] = {&bcm2711_rng200_driver, &bcm2835_rng_driver};
    for (unsigned i = 0; i < 2; i++) {
        model_reset(i == 0);
        fake_ioremap_refuses = true;
        CHECK(drivers[i]->init(NULL, 0) != NULL);
        CHECK_EQ_INT(dev.writes, 0);
    }
}

RUN_TESTS("rng_devices", CASE(rng200_start_sets_warmup_then_enables),
          CASE(rng200_running_device_left_alone), CASE(rng200_first_sample_after_warmup),
          CASE(rng200_dead_device_given_up), CASE(bcm2835_start_sets_enable_keeps_other_bits),
          CASE(bcm2835_sample_is_two_words_low_first), CASE(bcm2835_dead_device_given_up),
          CASE(refused_reg_is_not_touched))
