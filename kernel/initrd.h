/* SPDX-License-Identifier: MIT */
/*
 * kernel/initrd.h - the user programs built into the kernel image.
 * scripts/mkinitrd.py turns the ELF files of user/ into a table of
 * (name, bytes, size) linked into .rodata; programs are started by name.
 */
#ifndef KERNEL_INITRD_H
#define KERNEL_INITRD_H

#include "kernel/types.h"

struct initrd_entry {
    const char *name;
    const void *data;
    uint64_t size;
};

/* The program called `name`, or NULL. */
const struct initrd_entry *initrd_find(const char *name);

#endif
