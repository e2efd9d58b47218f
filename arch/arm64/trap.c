/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/trap.c - decide what an exception or interrupt means.
 *
 * vectors.S calls arm64_trap(tf) for everything except system calls (an
 * SVC from EL0 goes straight to syscall_dispatch). Exceptions from EL0 end
 * the program (user_fault) with a status by kind; IRQs are the GIC's
 * (irq.c); exceptions in the kernel are resolved by the exception table or
 * reported by panic_trap. Whatever came from EL0 goes back through
 * user_return(); an IRQ that interrupted the kernel ends at
 * sched_preempt_point().
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

_Static_assert(offsetof(struct cpu, arch) == CPU_ARCH, "impl.h's inline hooks");
_Static_assert(offsetof(struct cpu, arch.kstack_top) == CPU_KSTACK_TOP, "vectors.S offset");
_Static_assert(offsetof(struct cpu, arch.overflow_stack) == CPU_OVERFLOW_STACK, "vectors.S offset");
_Static_assert(PAGE_SIZE == 4096, "STACK_OVERFLOW_WINDOW: one guard page of 4 KiB");
_Static_assert(TF_SIZE % 16 == 0, "STACK_OVERFLOW_WINDOW counts 16-byte units");

#define FSC_ALIGNMENT       0x21
#define FSC_KIND_PERMISSION 0x3 /* FSC[5:2] */

enum {
    EC_UNKNOWN = 0x00, /* includes undefined instructions (and HLT without a debugger) */
    EC_FP = 0x07,      /* FP/SIMD access trapped by CPACR_EL1.FPEN */
    EC_IABT_LOWER = 0x20,
    EC_IABT_CUR = 0x21,
    EC_PC_ALIGN = 0x22,
    EC_DABT_LOWER = 0x24,
    EC_DABT_CUR = 0x25,
    EC_SP_ALIGN = 0x26,
    EC_FP_EXC = 0x2c, /* trapped FP exception (FPCR trap enables, where implemented) */
};

enum { GROUP_EL1_SP0, GROUP_EL1, GROUP_EL0, GROUP_EL0_AARCH32 }; /* vector entry / 4 */
enum { KIND_SYNC, KIND_IRQ, KIND_FIQ, KIND_SERROR };             /* vector entry % 4 */

static const char *ec_name(unsigned ec)
{
    switch (ec) {
    case 0x00: return "undefined instruction";
    case 0x01: return "trapped WFI/WFE";
    case 0x07: return "FP/SIMD instruction (FP/SIMD is off)";
    case 0x0e: return "illegal execution state";
    case 0x15: return "SVC from AArch64";
    case 0x16: return "HVC from AArch64";
    case 0x17: return "SMC from AArch64";
    case 0x18: return "trapped MSR/MRS/system instruction";
    case 0x19: return "trapped SVE access";
    case 0x20: return "instruction abort from EL0";
    case 0x21: return "instruction abort";
    case 0x22: return "PC alignment fault";
    case 0x24: return "data abort from EL0";
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

/* "data abort (translation fault, level 3, write)" */
static void describe_abort(char *buf, size_t size, const struct trapframe *tf)
{
    unsigned ec = ESR_EC(tf->esr), iss = ESR_ISS(tf->esr), fsc = ISS_FSC(iss);
    bool data = ec == EC_DABT_CUR || ec == EC_DABT_LOWER;
    char level[16] = "";
    if (fsc_has_level(fsc))
        snprintf(level, sizeof(level), ", level %u", fsc & 3);
    snprintf(buf, size, "%s (%s%s, %s%s)", ec_name(ec), fsc_name(fsc), level,
             data ? ((iss & ISS_WNR) ? "write" : "read") : "instruction fetch",
             (iss & ISS_FNV) ? ", FAR not valid" : "");
}

/* A fault in user mode ends the program (SIGSEGV-, SIGILL-, SIGBUS-like statuses). */
static __noreturn void user_exception(struct trapframe *tf)
{
    unsigned ec = ESR_EC(tf->esr);
    char why[96];
    int status = EXIT_KILLED_SEGV;
    uintptr_t addr = tf->elr;
    switch (ec) {
    case EC_DABT_LOWER:
    case EC_IABT_LOWER:
        addr = tf->far;
        describe_abort(why, sizeof(why), tf);
        if (ISS_FSC(ESR_ISS(tf->esr)) == FSC_ALIGNMENT)
            status = EXIT_KILLED_BUS;
        break;
    case EC_UNKNOWN:
    case EC_FP:
        status = EXIT_KILLED_ILL;
        snprintf(why, sizeof(why), "%s", ec_name(ec));
        break;
    case EC_FP_EXC:
        status = EXIT_KILLED_FPE;
        snprintf(why, sizeof(why), "%s, ESR_EL1 %#lx", ec_name(ec), (unsigned long)tf->esr);
        break;
    case EC_PC_ALIGN:
    case EC_SP_ALIGN:
        status = EXIT_KILLED_BUS;
        addr = ec == EC_PC_ALIGN ? tf->far : tf->sp;
        snprintf(why, sizeof(why), "%s", ec_name(ec));
        break;
    default: snprintf(why, sizeof(why), "%s, ESR_EL1 %#lx", ec_name(ec), (unsigned long)tf->esr);
    }
    user_fault(why, addr, tf->elr, status);
}

/* In the kernel: an exception-table fix-up, or a panic. */
static void kernel_exception(struct trapframe *tf)
{
    unsigned ec = ESR_EC(tf->esr), fsc = ISS_FSC(ESR_ISS(tf->esr));
    if ((ec == EC_DABT_CUR || ec == EC_UNKNOWN) && extable_fixup(tf))
        return;
    /* A stack overflow that vectors.S did not see: an access far below sp. */
    if (ec == EC_DABT_CUR && kstack_is_guard(tf->far))
        panic_stack_overflow(tf, tf->far);
    if (ec == EC_DABT_CUR || ec == EC_IABT_CUR) {
        char why[96];
        describe_abort(why, sizeof(why), tf);
        const char *hint = "";
        if (ec == EC_DABT_CUR && tf->far < USER_TOP && (fsc >> 2) == FSC_KIND_PERMISSION &&
            arm64_has_pan())
            hint = ": PAN stopped a direct access to user memory";
        else if (ec == EC_IABT_CUR && tf->far < USER_TOP && (fsc >> 2) == FSC_KIND_PERMISSION)
            hint = ": PXN stopped the kernel running user code";
        panic_trap(tf, "%s at address %#lx, kernel mode%s", why, (unsigned long)tf->far, hint);
    }
    panic_trap(tf, "%s, ESR_EL1 %#lx (EC %#x, ISS %#x)", ec_name(ec), (unsigned long)tf->esr, ec,
               (unsigned)ESR_ISS(tf->esr));
}

void arm64_stack_overflow(struct trapframe *tf)
{
    panic_stack_overflow(tf, tf->sp);
}

void arm64_trap(struct trapframe *tf)
{
    static const char *const kinds[4] = {"synchronous", "IRQ", "FIQ", "SError"};
    unsigned group = tf->vector / 4, kind = tf->vector % 4;
    bool user = group >= GROUP_EL0;
    if (group == GROUP_EL1_SP0 || kind == KIND_FIQ || kind == KIND_SERROR)
        panic_trap(tf, "unexpected %s exception (vector entry %lu)", kinds[kind],
                   (unsigned long)tf->vector);
    if (kind == KIND_IRQ)
        arm64_irq(tf);
    else if (user && ESR_EC(tf->esr) == EC_FP && arm64_fpu_first_use())
        ; /* FP/SIMD registers loaded at first use (fpu.c): the instruction runs again */
    else if (user)
        user_exception(tf);
    else
        kernel_exception(tf);
    if (user)
        user_return();
    else if (kind == KIND_IRQ)
        interrupt_exit();
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

int arch_safe_write64(uintptr_t addr, uint64_t val)
{
    int err = 0;
    __asm__ volatile("1: str %2, [%1]\n"
                     "2:\n"
                     ".pushsection .text.fixup, \"ax\"\n"
                     "3: mov %w0, %3\n"
                     "   b 2b\n"
                     ".popsection\n" EXTABLE_ENTRY(1b, 3b)
                     : "+r"(err)
                     : "r"(addr), "r"(val), "i"(-EFAULT)
                     : "memory");
    return err;
}
