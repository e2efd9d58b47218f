/* SPDX-License-Identifier: MIT */
/* kernel/platform.h - what the firmware tables say about the machine. */
#ifndef KERNEL_PLATFORM_H
#define KERNEL_PLATFORM_H

#include "boot/bootinfo.h"
#include "kernel/types.h"

struct platform_cpu {
    uint64_t hwid; /* APIC id, MPIDR affinity bits, or hart id */
};

/*
 * The CPUs the firmware describes (ACPI MADT on x86_64, the devicetree's
 * /cpus elsewhere), up to max of them stored in out; returns how many there
 * are (0 if no table says) and sets *source to the table used.
 */
int platform_cpus(const struct boot_info *bi, struct platform_cpu *out, int max,
                  const char **source);

#endif
