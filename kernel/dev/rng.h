/* SPDX-License-Identifier: MIT */
/* kernel/dev/rng.h - random number generator devices found in the devicetree,
 * as seed sources for kernel/random/seed.c (after the CPU's instructions). */
#ifndef KERNEL_DEV_RNG_H
#define KERNEL_DEV_RNG_H

#include "kernel/types.h"

struct fdt;

struct rng_driver {
    const char *name;       /* as the "random:" lines print it */
    const char *compatible; /* the devicetree compatible it drives */
    unsigned sample_bits;   /* bits per successful read */
    unsigned h_x8;          /* min-entropy claimed per sample, in eighths of a bit */
    bool seed_class;        /* a noise source, not a DRBG */
    /* Map and start the device of node `node`; NULL, or why it cannot be
     * used, or rng_not_this_device when the node holds no such device (a
     * virtio-mmio transport of another type, or an empty one): seed.c then
     * tries the next node with the same compatible. */
    const char *(*init)(const struct fdt *f, int node);
    /* One sample: the number of good bits in *out, 0 after bounded waiting. */
    unsigned (*read)(uint64_t *out);
};

/* init's answer for "some other device, or none": compared by address. */
extern const char rng_not_this_device[];

extern const struct rng_driver bcm2835_rng_driver;
extern const struct rng_driver bcm2711_rng200_driver;
extern const struct rng_driver virtio_rng_driver;

#endif
