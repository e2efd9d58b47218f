/* SPDX-License-Identifier: MIT */
/*
 * kernel/dev/virtio_rng.c - the virtio entropy device ("virtio-rng") behind
 * a virtio-mmio transport (devicetree "virtio,mmio"), as a seed source.
 *
 * Written from the OASIS Virtual I/O Device (VIRTIO) specification, 1.1
 * and 1.2 (section numbers below are 1.2's; 1.1 numbers the split
 * virtqueue chapter 2.6 instead of 2.7). All of virtio is little-endian
 * (1.2 section 1.4), as every arch here is, so fields are used as they are.
 *
 * One transport, one device: a "virtio,mmio" node is only a window of
 * registers, and the device type is its DeviceID register (4.2.2). QEMU
 * lists every transport it has, used or not, and an unused one reads
 * DeviceID 0, which the driver must ignore (4.2.3.1.1); one holding some
 * other device (virtio-blk is 2) is not ours either. Both make init
 * answer rng_not_this_device, without writing a register, so seed.c tries
 * the next node. An entropy device (DeviceID 4, section 5) on a legacy transport
 * (Version 1, 4.2.4) is reported and left alone: only Version 2 is driven.
 *
 * Polled, one request at a time: one device-writable 8-byte buffer in
 * descriptor 0, offered on the requestq (queue 0, 5.4.2), the transport
 * notified, then the used ring's idx polled until the device has filled it
 * (2.7.13, 2.7.14), for at most WAIT_MS. Interrupts are not used, and the
 * driver asks the device not to send them (2.7.7). A device that misses
 * the deadline still owns the buffer, so the driver stops using it.
 *
 * The queue memory is one page from the page allocator: its physical
 * address is what the device is given. No cache maintenance is done, so
 * the device must be cache-coherent ("dma-coherent"), as QEMU's are.
 *
 * Credit: the device passes on what the host's generator gives it (QEMU:
 * the host's getrandom or /dev/urandom), whose quality the guest cannot
 * check, and the host could replay it. The claim is the same modest one as
 * bcm2835-rng's: a 64-bit sample is credited 8 bits of min-entropy (one bit
 * in eight; seed.c's health tests run on every sample). 1024 samples at
 * boot credit the full 256 bits, and crng.c's reseed, which wants 256 bits
 * from at most 64 samples, gets them from 32.
 */
#include "arch/arch.h"
#include "kernel/arch_callbacks.h"
#include "kernel/dev/rng.h"
#include "lib/fdt.h"
#include "lib/string.h"

/* 4.2.2 MMIO Device Register Layout (offsets, 32-bit registers). */
#define VIRTIO_MMIO_MAGIC            0x000 /* "virt", little-endian */
#define VIRTIO_MMIO_VERSION          0x004 /* 2; legacy devices say 1 */
#define VIRTIO_MMIO_DEVICE_ID        0x008 /* 0: no device (5: device types) */
#define VIRTIO_MMIO_DEV_FEATURES     0x010
#define VIRTIO_MMIO_DEV_FEATURES_SEL 0x014
#define VIRTIO_MMIO_DRV_FEATURES     0x020
#define VIRTIO_MMIO_DRV_FEATURES_SEL 0x024
#define VIRTIO_MMIO_QUEUE_SEL        0x030
#define VIRTIO_MMIO_QUEUE_NUM_MAX    0x034
#define VIRTIO_MMIO_QUEUE_NUM        0x038
#define VIRTIO_MMIO_QUEUE_READY      0x044
#define VIRTIO_MMIO_QUEUE_NOTIFY     0x050
#define VIRTIO_MMIO_INT_STATUS       0x060
#define VIRTIO_MMIO_INT_ACK          0x064
#define VIRTIO_MMIO_STATUS           0x070
#define VIRTIO_MMIO_QUEUE_DESC_LO    0x080
#define VIRTIO_MMIO_QUEUE_DESC_HI    0x084
#define VIRTIO_MMIO_QUEUE_DRIVER_LO  0x090 /* the available ring */
#define VIRTIO_MMIO_QUEUE_DRIVER_HI  0x094
#define VIRTIO_MMIO_QUEUE_DEVICE_LO  0x0a0 /* the used ring */
#define VIRTIO_MMIO_QUEUE_DEVICE_HI  0x0a4
#define VIRTIO_MMIO_REGS_SIZE        0x100

#define VIRTIO_MMIO_MAGIC_VALUE 0x74726976u
#define VIRTIO_MMIO_MODERN      2
#define VIRTIO_MMIO_LEGACY      1
#define VIRTIO_ID_ENTROPY       4

/* 2.1 Device Status Field. */
#define STATUS_ACKNOWLEDGE 1
#define STATUS_DRIVER      2
#define STATUS_DRIVER_OK   4
#define STATUS_FEATURES_OK 8
#define STATUS_FAILED      128

/* 6 Reserved Feature Bits: VIRTIO_F_VERSION_1 is bit 32, bit 0 of the
 * second 32-bit feature word. The entropy device has no features (5.4.3). */
#define FEATURE_WORD_VERSION_1 1
#define FEATURE_VERSION_1_BIT  (1u << 0)

/* 2.7.5 descriptor flags; 2.7.6 available ring flags. */
#define VIRTQ_DESC_F_WRITE         2 /* the device writes this buffer */
#define VIRTQ_AVAIL_F_NO_INTERRUPT 1

#define REQUESTQ     0 /* 5.4.2: the only queue */
#define QUEUE_SIZE   4 /* entries offered; split queue sizes are powers of 2 (2.7) */
#define SAMPLE_BYTES 8
#define WAIT_MS      1000 /* per request; QEMU answers in microseconds */
#define MAX_PIECES   4    /* requests per sample, if the device fills less */

/* 2.7.5, 2.7.6, 2.7.8: the split virtqueue's three parts. */
struct virtq_desc {
    uint64_t addr;
    uint32_t len;
    uint16_t flags;
    uint16_t next;
};

struct virtq_avail {
    uint16_t flags;
    uint16_t idx;
    uint16_t ring[QUEUE_SIZE];
    uint16_t used_event;
};

struct virtq_used_elem {
    uint32_t id;
    uint32_t len;
};

struct virtq_used {
    uint16_t flags;
    uint16_t idx;
    struct virtq_used_elem ring[QUEUE_SIZE];
    uint16_t avail_event;
};

/* Where each part sits in the queue page: the descriptor table is 16-byte
 * aligned, the available ring 2, the used ring 4 (2.7, alignment table). */
#define PAGE_OFF_DESC  0x000
#define PAGE_OFF_AVAIL 0x100
#define PAGE_OFF_USED  0x200
#define PAGE_OFF_BUF   0x400

static uintptr_t base;
static uint64_t page_pa;
static struct virtq_desc *desc;
static struct virtq_avail *avail;
static struct virtq_used *used;
static uint8_t *buf;
static uint16_t queue_size, next_avail, next_used;
static bool dead; /* a request timed out: the device may still own the buffer */

static uint32_t reg_read(unsigned off)
{
    return arch_mmio_read32(base + off);
}

static void reg_write(unsigned off, uint32_t v)
{
    arch_mmio_write32(base + off, v);
}

static uint64_t deadline(void)
{
    return arch_counter() + arch_counter_hz() * WAIT_MS / 1000;
}

/* 2.4: writing 0 to Status resets the device (4.2.2); the reset is over
 * once Status reads 0 again. */
static bool device_reset(void)
{
    uint64_t end = deadline();
    reg_write(VIRTIO_MMIO_STATUS, 0);
    while (reg_read(VIRTIO_MMIO_STATUS) != 0) {
        if (arch_counter() > end)
            return false;
        arch_cpu_relax();
    }
    return true;
}

static void status_set(uint32_t bits)
{
    reg_write(VIRTIO_MMIO_STATUS, reg_read(VIRTIO_MMIO_STATUS) | bits);
}

/* 3.1.1 steps 4-6: accept VIRTIO_F_VERSION_1 and nothing else, then check
 * that the device kept FEATURES_OK. */
static const char *negotiate_features(void)
{
    reg_write(VIRTIO_MMIO_DEV_FEATURES_SEL, FEATURE_WORD_VERSION_1);
    if (!(reg_read(VIRTIO_MMIO_DEV_FEATURES) & FEATURE_VERSION_1_BIT))
        return "the device does not offer VIRTIO_F_VERSION_1";
    reg_write(VIRTIO_MMIO_DRV_FEATURES_SEL, 0);
    reg_write(VIRTIO_MMIO_DRV_FEATURES, 0);
    reg_write(VIRTIO_MMIO_DRV_FEATURES_SEL, FEATURE_WORD_VERSION_1);
    reg_write(VIRTIO_MMIO_DRV_FEATURES, FEATURE_VERSION_1_BIT);
    status_set(STATUS_FEATURES_OK);
    if (!(reg_read(VIRTIO_MMIO_STATUS) & STATUS_FEATURES_OK))
        return "the device refused the features (FEATURES_OK not kept)";
    return NULL;
}

static void write_addr(unsigned lo, uint64_t pa)
{
    reg_write(lo, (uint32_t)pa);
    reg_write(lo + 4, (uint32_t)(pa >> 32));
}

/* 4.2.3.2 Virtqueue Configuration, for the requestq, in a fresh zeroed page. */
static const char *setup_queue(void)
{
    reg_write(VIRTIO_MMIO_QUEUE_SEL, REQUESTQ);
    if (reg_read(VIRTIO_MMIO_QUEUE_READY) != 0)
        return "its requestq is already in use";
    uint32_t max = reg_read(VIRTIO_MMIO_QUEUE_NUM_MAX);
    if (max == 0)
        return "its requestq is not available (QueueNumMax 0)";
    queue_size = QUEUE_SIZE;
    while (queue_size > max)
        queue_size /= 2;
    page_pa = page_alloc();
    if (!page_pa)
        return "no memory for its queue";
    uint8_t *page = page_va(page_pa);
    desc = (struct virtq_desc *)(page + PAGE_OFF_DESC);
    avail = (struct virtq_avail *)(page + PAGE_OFF_AVAIL);
    used = (struct virtq_used *)(page + PAGE_OFF_USED);
    buf = page + PAGE_OFF_BUF;
    avail->flags = VIRTQ_AVAIL_F_NO_INTERRUPT; /* polled (2.7.7) */
    reg_write(VIRTIO_MMIO_QUEUE_NUM, queue_size);
    write_addr(VIRTIO_MMIO_QUEUE_DESC_LO, page_pa + PAGE_OFF_DESC);
    write_addr(VIRTIO_MMIO_QUEUE_DRIVER_LO, page_pa + PAGE_OFF_AVAIL);
    write_addr(VIRTIO_MMIO_QUEUE_DEVICE_LO, page_pa + PAGE_OFF_USED);
    reg_write(VIRTIO_MMIO_QUEUE_READY, 1);
    return NULL;
}

/* 3.1.1: reset, ACKNOWLEDGE, DRIVER, features, queue, DRIVER_OK; on any
 * failure the driver sets FAILED (2.1) and gives the page back. */
static const char *start_device(void)
{
    if (!device_reset())
        return "it does not finish its reset";
    status_set(STATUS_ACKNOWLEDGE);
    status_set(STATUS_DRIVER);
    const char *why = negotiate_features();
    if (!why)
        why = setup_queue();
    if (why) {
        status_set(STATUS_FAILED);
        if (page_pa)
            page_free(page_pa);
        page_pa = 0;
        return why;
    }
    status_set(STATUS_DRIVER_OK);
    return NULL;
}

/* 4.2.3.1.1: check MagicValue, then DeviceID (0: nothing there; another
 * type: not ours), then Version; only then write anything. */
static const char *virtio_rng_init(const struct fdt *f, int node)
{
    uint64_t pa, size;
    if (fdt_reg_cpu(f, node, 0, &pa, &size, NULL) || size < VIRTIO_MMIO_REGS_SIZE)
        return rng_not_this_device; /* a broken node; another may do */
    base = (uintptr_t)ioremap(pa, VIRTIO_MMIO_REGS_SIZE);
    if (!base)
        return rng_not_this_device; /* RAM or outside the direct map; another may do */
    if (reg_read(VIRTIO_MMIO_MAGIC) != VIRTIO_MMIO_MAGIC_VALUE ||
        reg_read(VIRTIO_MMIO_DEVICE_ID) != VIRTIO_ID_ENTROPY)
        return rng_not_this_device;
    uint32_t version = reg_read(VIRTIO_MMIO_VERSION);
    if (version == VIRTIO_MMIO_LEGACY)
        return "legacy virtio-mmio (version 1) not supported";
    if (version != VIRTIO_MMIO_MODERN)
        return "unknown virtio-mmio version";
    return start_device();
}

/* 2.7.13: offer descriptor 0 (len bytes at pa, device-writable), make the
 * descriptor and ring entry visible before idx (2.7.13.3.1), and idx
 * before the notification (2.7.13.4, 4.2.3.3). */
static void offer(uint64_t pa, uint32_t len)
{
    desc[0] = (struct virtq_desc){.addr = pa, .len = len, .flags = VIRTQ_DESC_F_WRITE};
    avail->ring[next_avail % queue_size] = 0;
    __atomic_thread_fence(__ATOMIC_RELEASE);
    __atomic_store_n(&avail->idx, ++next_avail, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    reg_write(VIRTIO_MMIO_QUEUE_NOTIFY, REQUESTQ);
}

/* 2.7.14: wait for the used ring's idx to move past the request, read it
 * only after idx (acquire), and return how many bytes the device wrote;
 * -1 once WAIT_MS has passed without an answer. */
static int wait_used(void)
{
    uint64_t end = deadline();
    while (__atomic_load_n(&used->idx, __ATOMIC_ACQUIRE) == next_used) {
        if (arch_counter() > end)
            return -1;
        arch_cpu_relax();
    }
    uint32_t len = used->ring[next_used % queue_size].len;
    next_used++;
    uint32_t pending = reg_read(VIRTIO_MMIO_INT_STATUS);
    if (pending)
        reg_write(VIRTIO_MMIO_INT_ACK, pending); /* in case it interrupted anyway */
    return (int)MIN(len, (uint32_t)SAMPLE_BYTES);
}

/* 5.4.6: the device fills as much of the buffer as it wants to, so a
 * sample may take more than one request. */
static unsigned virtio_rng_read(uint64_t *out)
{
    unsigned have = 0;
    for (int piece = 0; !dead && have < SAMPLE_BYTES && piece < MAX_PIECES; piece++) {
        offer(page_pa + PAGE_OFF_BUF + have, SAMPLE_BYTES - have);
        int got = wait_used();
        if (got < 0)
            dead = true;
        else
            have += MIN((unsigned)got, SAMPLE_BYTES - have);
    }
    if (have < SAMPLE_BYTES)
        return 0;
    memcpy(out, buf, SAMPLE_BYTES);
    memzero_explicit(buf, SAMPLE_BYTES);
    return 64;
}

const struct rng_driver virtio_rng_driver = {
    .name = "virtio-rng",
    .compatible = "virtio,mmio",
    .sample_bits = 64,
    .h_x8 = 8 * 8,
    .seed_class = true,
    .init = virtio_rng_init,
    .read = virtio_rng_read,
};
