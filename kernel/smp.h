/* SPDX-License-Identifier: MIT */
/* kernel/smp.h - starting the other CPUs. */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include "boot/bootinfo.h"

/* Boot CPU, before anything per-CPU is set up: number the CPUs the firmware
 * describes (the boot CPU is 0, the others follow in the firmware's order,
 * up to MAX_CPUS), record their hardware ids and set cpus_present. */
void smp_find_cpus(const struct boot_info *bi);
/* Boot CPU, scheduler running: start the CPUs smp_find_cpus numbered. Each prints a line when it is
 * online; one that does not come up within a second is reported and skipped. Returns the CPUs
 * online. */
unsigned smp_boot(const struct boot_info *bi);
/* Number of CPUs online. */
unsigned smp_online(void);

#endif
