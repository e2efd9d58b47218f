/* SPDX-License-Identifier: MIT */
/*
 * arch/riscv64/sbi.h - calls into the Supervisor Binary Interface firmware
 * (OpenSBI here), RISC-V SBI specification v1.0.0.
 */
#ifndef ARCH_RISCV64_SBI_H
#define ARCH_RISCV64_SBI_H

#include "arch/arch.h"

/* Extension IDs (SBI spec chapters 4-10). */
#define SBI_EXT_LEGACY_SET_TIMER 0x00 /* legacy, chapter 5 */
#define SBI_EXT_LEGACY_SHUTDOWN  0x08 /* legacy, chapter 5 */
#define SBI_EXT_BASE             0x10
#define SBI_EXT_TIME             0x54494d45 /* "TIME", chapter 6 */
#define SBI_EXT_IPI              0x735049   /* "sPI", chapter 7 */
#define SBI_EXT_RFENCE           0x52464e43 /* "RFNC", chapter 8 */
#define SBI_EXT_HSM              0x48534d   /* "HSM", chapter 9 */
#define SBI_EXT_SRST             0x53525354 /* "SRST" */

/* Error codes returned in a0 (SBI spec 3, table 1). */
#define SBI_SUCCESS               0
#define SBI_ERR_ALREADY_AVAILABLE (-6)

/* System reset types and reasons (SBI spec 10.1). */
#define SBI_RESET_SHUTDOWN        0
#define SBI_REASON_NONE           0
#define SBI_REASON_SYSTEM_FAILURE 1

/* Implementation IDs (SBI spec 4.9). */
#define SBI_IMPL_OPENSBI 1

struct sbiret {
    long error; /* a0: SBI_SUCCESS or a negative SBI_ERR_* */
    long value; /* a1 */
};

struct sbiret sbi_ecall(unsigned long eid, unsigned long fid, unsigned long arg0,
                        unsigned long arg1);
/* The same with two more arguments (a2, a3). */
struct sbiret sbi_ecall4(unsigned long eid, unsigned long fid, unsigned long arg0,
                         unsigned long arg1, unsigned long arg2, unsigned long arg3);

/* BASE extension: always present since SBI v0.2. */
long sbi_spec_version(void); /* bits 30:24 major, 23:0 minor; < 0 on v0.1 */
long sbi_impl_id(void);
long sbi_impl_version(void);
bool sbi_probe_extension(unsigned long eid);
const char *sbi_impl_name(long id);

/* TIME set_timer (SBI spec 6.1), or the legacy call on v0.1 firmware: a
 * timer interrupt once the time CSR reaches stime; clears a pending one. */
void sbi_set_timer(uint64_t stime);
/* IPI send_ipi (SBI spec 7.1): a supervisor software interrupt to the harts
 * hart_mask_base + i for each bit i of hart_mask. */
struct sbiret sbi_send_ipi(unsigned long hart_mask, unsigned long hart_mask_base);

/* RFENCE (SBI spec 8): does the firmware have it (probed once)? */
bool sbi_has_rfence(void);
/* RFENCE remote_sfence_vma (SBI spec 8.2): the harts in the mask execute
 * SFENCE.VMA for [start_addr, start_addr + size), every address space. */
struct sbiret sbi_remote_sfence_vma(unsigned long hart_mask, unsigned long hart_mask_base,
                                    unsigned long start_addr, unsigned long size);
/* HSM hart_start (SBI spec 9.1): start stopped hart `hartid` in S mode at
 * physical start_addr, MMU off, with a0 = hartid and a1 = opaque. */
struct sbiret sbi_hart_start(unsigned long hartid, unsigned long start_addr, unsigned long opaque);

/* SRST: returns only if the call failed. */
struct sbiret sbi_system_reset(unsigned long type, unsigned long reason);
/* Legacy shutdown (EID 0x08), for SBI v0.1 firmware: returns only on failure. */
void sbi_legacy_shutdown(void);

#endif
