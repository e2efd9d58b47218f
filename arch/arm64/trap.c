/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/trap.c - decide what an exception means.
 *
 * The syndrome is ESR_EL1 (Arm ARM, register ESR_EL1): EC, the exception
 * class, in bits [31:26]; IL in bit 25; ISS in [24:0]. For aborts, ISS[5:0]
 * is the fault status code (DFSC for data, IFSC for instruction aborts),
 * ISS[6] (WnR) says a data abort was a write, ISS[10] (FnV) that FAR_EL1 is
 * not valid. Codes from the ESR_EL1 description, "ISS encoding for an
 * exception from a Data Abort".
 */
#include "arm64.h"
#include "kernel/arch_callbacks.h"
#include "kernel/errno.h"
#include "lib/printf.h"

#define ESR_EC(esr)  (((esr) >> 26) & 0x3f)
#define ESR_ISS(esr) (0x1ffffff & (esr))
#define ISS_FSC(iss) (0x3f & (iss))
#define ISS_WNR      (1u << 6)
#define ISS_FNV      (1u << 10)

enum {
    EC_UNKNOWN = 0x00, /* includes undefined instructions (and HLT without a debugger) */
    EC_DABT_LOWER = 0x24,
    EC_DABT_CUR = 0x25,
    EC_IABT_LOWER = 0x20,
    EC_IABT_CUR = 0x21,
};

static const char *ec_name(unsigned ec)
{
    switch (ec) {
    case 0x00: return "unknown reason (undefined instruction)";
    case 0x01: return "trapped WFI/WFE";
    case 0x07: return "trapped FP/SIMD access";
    case 0x0e: return "illegal execution state";
    case 0x15: return "SVC from AArch64";
    case 0x16: return "HVC from AArch64";
    case 0x17: return "SMC from AArch64";
    case 0x18: return "trapped MSR/MRS/system instruction";
    case 0x19: return "trapped SVE access";
    case 0x20: return "instruction abort from a lower EL";
    case 0x21: return "instruction abort";
    case 0x22: return "PC alignment fault";
    case 0x24: return "data abort from a lower EL";
    case 0x25: return "data abort";
    case 0x26: return "SP alignment fault";
    case 0x2c: return "FP exception";
    case 0x2f: return "SError";
    case 0x30:
    case 0x31: return "breakpoint";
    case 0x32:
    case 0x33: return "software step";
    case 0x34:
    case 0x35: return "watchpoint";
    case 0x3c: return "BRK instruction";
    default: return "unexpected exception class";
    }
}

/* DFSC/IFSC: bits [5:2] the kind, bits [1:0] the translation table level. */
static const char *fsc_name(unsigned fsc)
{
    switch (fsc >> 2) {
    case 0x0: return "address size fault";
    case 0x1: return "translation fault";
    case 0x2: return "access flag fault";
    case 0x3: return "permission fault";
    case 0x5: return "synchronous external abort on a table walk";
    }
    switch (fsc) {
    case 0x10: return "synchronous external abort";
    case 0x11: return "tag check fault";
    case 0x21: return "alignment fault";
    case 0x30: return "TLB conflict abort";
    default: return "other fault";
    }
}

static bool fsc_has_level(unsigned fsc)
{
    unsigned kind = fsc >> 2;
    return kind <= 0x3 || kind == 0x5;
}

static __noreturn void abort_panic(struct trapframe *tf, unsigned ec)
{
    unsigned iss = ESR_ISS(tf->esr), fsc = ISS_FSC(iss);
    bool data = ec == EC_DABT_CUR || ec == EC_DABT_LOWER;
    char level[16] = "";
    if (fsc_has_level(fsc))
        snprintf(level, sizeof(level), ", level %u", fsc & 3);
    panic_trap(
        tf, "%s at address %#lx (%s%s, %s%s, %s)", ec_name(ec), (unsigned long)tf->far,
        fsc_name(fsc), level, data ? ((iss & ISS_WNR) ? "write" : "read") : "instruction fetch",
        (iss & ISS_FNV) ? ", FAR not valid" : "", (tf->spsr & 0xc) ? "kernel mode" : "user mode");
}

void arm64_trap(struct trapframe *tf)
{
    static const char *const kinds[4] = {"synchronous", "IRQ", "FIQ", "SError"};
    unsigned kind = tf->vector & 3, ec = ESR_EC(tf->esr);
    if (kind != 0)
        panic_trap(tf, "unexpected %s exception (vector entry %lu)", kinds[kind],
                   (unsigned long)tf->vector);
    if (ec == EC_DABT_CUR || ec == EC_DABT_LOWER || ec == EC_UNKNOWN) {
        if (extable_fixup(tf))
            return;
    }
    if (ec == EC_DABT_CUR || ec == EC_DABT_LOWER || ec == EC_IABT_CUR || ec == EC_IABT_LOWER)
        abort_panic(tf, ec);
    panic_trap(tf, "%s, ESR_EL1 %#lx (EC %#x, ISS %#x)", ec_name(ec), (unsigned long)tf->esr, ec,
               (unsigned)ESR_ISS(tf->esr));
}

int arch_safe_read64(uintptr_t addr, uint64_t *val)
{
    int err = 0;
    uint64_t v = 0;
    __asm__ volatile("1: ldr %1, [%2]\n"
                     "2:\n"
                     ".pushsection .text.fixup, \"ax\"\n"
                     "3: mov %w0, %3\n"
                     "   b 2b\n"
                     ".popsection\n" EXTABLE_ENTRY(1b, 3b)
                     : "+r"(err), "+r"(v)
                     : "r"(addr), "i"(-EFAULT)
                     : "memory");
    *val = v;
    return err;
}
