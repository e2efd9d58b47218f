/* SPDX-License-Identifier: MIT */
/*
 * arch/riscv64/sbi.c - the SBI calling convention and the few calls we use.
 *
 * SBI spec chapter 3: `ecall` from S mode traps into the firmware (M mode)
 * with a7 = extension ID (EID), a6 = function ID (FID), a0-a5 = arguments.
 * It returns a0 = error code, a1 = value; every other register is preserved.
 * Legacy extensions (EID 0x00-0x0F, chapter 5) ignore a6 and return only a0.
 */
#include "sbi.h"

struct sbiret sbi_ecall4(unsigned long eid, unsigned long fid, unsigned long arg0,
                         unsigned long arg1, unsigned long arg2, unsigned long arg3)
{
    register unsigned long a0 __asm__("a0") = arg0;
    register unsigned long a1 __asm__("a1") = arg1;
    register unsigned long a2 __asm__("a2") = arg2;
    register unsigned long a3 __asm__("a3") = arg3;
    register unsigned long a6 __asm__("a6") = fid;
    register unsigned long a7 __asm__("a7") = eid;
    __asm__ volatile("ecall" : "+r"(a0), "+r"(a1) : "r"(a2), "r"(a3), "r"(a6), "r"(a7) : "memory");
    return (struct sbiret){(long)a0, (long)a1};
}

struct sbiret sbi_ecall(unsigned long eid, unsigned long fid, unsigned long arg0,
                        unsigned long arg1)
{
    return sbi_ecall4(eid, fid, arg0, arg1, 0, 0);
}

/* BASE function IDs (SBI spec 4.1-4.4). */
enum { BASE_SPEC_VERSION = 0, BASE_IMPL_ID = 1, BASE_IMPL_VERSION = 2, BASE_PROBE = 3 };

static long base_call(unsigned long fid, unsigned long arg)
{
    struct sbiret r = sbi_ecall(SBI_EXT_BASE, fid, arg, 0);
    return r.error ? r.error : r.value;
}

long sbi_spec_version(void)
{
    return base_call(BASE_SPEC_VERSION, 0);
}

long sbi_impl_id(void)
{
    return base_call(BASE_IMPL_ID, 0);
}

long sbi_impl_version(void)
{
    return base_call(BASE_IMPL_VERSION, 0);
}

/* probe_extension returns 0 for "absent", an extension-specific nonzero otherwise. */
bool sbi_probe_extension(unsigned long eid)
{
    return base_call(BASE_PROBE, eid) > 0;
}

/* The implementation IDs of SBI spec 4.9. */
const char *sbi_impl_name(long id)
{
    static const char *const names[] = {"Berkeley BBL", "OpenSBI", "Xvisor", "KVM",
                                        "RustSBI",      "Diosix",  "Coffer", "Xen"};
    return id >= 0 && id < (long)ARRAY_SIZE(names) ? names[id] : "SBI";
}

void sbi_set_timer(uint64_t stime)
{
    static int has_time = -1; /* probed on first use */
    if (has_time < 0)
        has_time = sbi_spec_version() > 0 && sbi_probe_extension(SBI_EXT_TIME);
    sbi_ecall(has_time ? SBI_EXT_TIME : SBI_EXT_LEGACY_SET_TIMER, 0, stime, 0);
}

struct sbiret sbi_send_ipi(unsigned long hart_mask, unsigned long hart_mask_base)
{
    return sbi_ecall(SBI_EXT_IPI, 0, hart_mask, hart_mask_base);
}

bool sbi_has_rfence(void)
{
    static int has = -1; /* probed on first use; a racing second probe agrees */
    if (has < 0)
        has = sbi_spec_version() > 0 && sbi_probe_extension(SBI_EXT_RFENCE);
    return has;
}

struct sbiret sbi_remote_sfence_vma(unsigned long hart_mask, unsigned long hart_mask_base,
                                    unsigned long start_addr, unsigned long size)
{
    return sbi_ecall4(SBI_EXT_RFENCE, 1, hart_mask, hart_mask_base, start_addr, size);
}

struct sbiret sbi_hart_start(unsigned long hartid, unsigned long start_addr, unsigned long opaque)
{
    return sbi_ecall4(SBI_EXT_HSM, 0, hartid, start_addr, opaque, 0);
}

struct sbiret sbi_system_reset(unsigned long type, unsigned long reason)
{
    return sbi_ecall(SBI_EXT_SRST, 0, type, reason);
}

void sbi_legacy_shutdown(void)
{
    sbi_ecall(SBI_EXT_LEGACY_SHUTDOWN, 0, 0, 0);
}
