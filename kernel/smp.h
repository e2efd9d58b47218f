/* SPDX-License-Identifier: MIT */
/* kernel/smp.h - starting the other CPUs. */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include "boot/bootinfo.h"

/* Boot CPU, scheduler running: start every CPU the firmware describes (up
 * to MAX_CPUS). Each prints a line when it is online; one that does not come
 * up within a second is reported and skipped. Returns the CPUs online. */
unsigned smp_boot(const struct boot_info *bi);
/* Number of CPUs online. */
unsigned smp_online(void);

#endif
