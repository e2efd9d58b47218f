/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/cpu.c - exception vectors, the per-CPU pointer, CPU controls, PSCI.
 *
 * TPIDR_EL1 holds this CPU's struct cpu (arch_this_cpu()); TPIDR_EL0 is
 * the user's thread pointer, kept per thread in the trapframe. PSCI (Arm
 * DEN0022, "Power State Coordination Interface") is the firmware interface
 * for CPU and system power; the devicetree's /psci node says whether it is
 * reached with HVC (a hypervisor or QEMU emulating EL2) or SMC (EL3
 * firmware). Devicetree binding: compatible "arm,psci-0.2" or
 * "arm,psci-1.0" means the standard function IDs; plain "arm,psci" (0.1)
 * has per-board IDs and no SYSTEM_OFF.
 */
#include "arm64.h"
#include "kernel/arch_callbacks.h"
#include "lib/fdt.h"
#include "lib/printf.h"
#include "lib/string.h"

#define FDT_MAX_SIZE       (4u << 20)
#define PSCI_NOT_SUPPORTED ((uint64_t)-1)

extern const char arm64_vectors[];
extern uint64_t kernel_phys_base;
extern uint64_t arm64_entry_el; /* start.S: CurrentEL.EL at the first instruction */

enum psci_conduit arm64_psci_conduit;
static uint32_t psci_version;

/*
 * CPACR_EL1 (Arm ARM D19.2 "CPACR_EL1"): FPEN (bits [21:20]) = 0b01 lets
 * EL1 use FP/SIMD and traps EL0's first use, which loads the running
 * thread's registers and lets EL0 have them (fpu.c, until its next
 * switch); the kernel, built -mgeneral-regs-only, touches them only
 * there. ZEN and SMEN stay 0b00:
 * SVE and SME instructions trap (EC 0x19, 0x1d), since the kernel does not
 * switch those registers, so a program that tries is killed (ILL).
 * CNTKCTL_EL1 = EL0VCTEN (bit 1) only: EL0 may read the virtual counter
 * (like RDTSC on x86), not the physical one, and no EL0 timer access.
 */
#define CNTKCTL_EL0VCTEN (1u << 1)

/* Every CPU, IRQs off: its own copies of the registers above. */
void arm64_cpu_init(struct cpu *c)
{
    WRITE_SYSREG(vbar_el1, (uintptr_t)arm64_vectors);
    WRITE_SYSREG(tpidr_el1, (uintptr_t)c);
    WRITE_SYSREG(cpacr_el1, CPACR_EL1_FPEN_EL0_TRAP);
    WRITE_SYSREG(cntkctl_el1, CNTKCTL_EL0VCTEN);
    /* EL0 can read TPIDRRO_EL0 and nothing else writes it: no firmware value must show. */
    WRITE_SYSREG(tpidrro_el0, 0);
    __asm__ volatile("isb" : : : "memory"); /* the new VBAR applies to the next exception */
    c->arch.mpidr = READ_SYSREG(mpidr_el1);
}

void arch_early_init(struct cpu *boot_cpu)
{
    arm64_cpu_init(boot_cpu);
    boot_cpu->hwid = arch_cpu_hwid();
}

/*
 * SMC Calling Convention (Arm DEN0028), SMC64/HVC64: function ID in w0,
 * arguments in x1-x3, result in x0; x4-x17 may be changed by the call.
 * Immediate 0 for PSCI. If the firmware does not implement the conduit
 * after all (no EL2 behind HVC, no EL3 behind SMC) the instruction is
 * undefined; the exception table then makes the call return NOT_SUPPORTED.
 */
#define PSCI_CALL(insn)                                                                            \
    register uint64_t x0 __asm__("x0") = fn;                                                       \
    register uint64_t x1 __asm__("x1") = a1, x2 __asm__("x2") = a2, x3 __asm__("x3") = a3;         \
    __asm__ volatile("1: " insn " #0\n"                                                            \
                     "2:\n"                                                                        \
                     ".pushsection .text.fixup, \"ax\"\n"                                          \
                     "3: mov x0, #-1\n"                                                            \
                     "   b 2b\n"                                                                   \
                     ".popsection\n" EXTABLE_ENTRY(1b, 3b)                                         \
                     : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3)                                      \
                     :                                                                             \
                     : "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14",      \
                       "x15", "x16", "x17", "memory");                                             \
    return x0

static uint64_t psci_hvc(uint32_t fn, uint64_t a1, uint64_t a2, uint64_t a3)
{
    PSCI_CALL("hvc");
}
static uint64_t psci_smc(uint32_t fn, uint64_t a1, uint64_t a2, uint64_t a3)
{
    PSCI_CALL("smc");
}

uint64_t arm64_psci_call(uint32_t fn, uint64_t a1, uint64_t a2, uint64_t a3)
{
    switch (arm64_psci_conduit) {
    case PSCI_HVC: return psci_hvc(fn, a1, a2, a3);
    case PSCI_SMC: return psci_smc(fn, a1, a2, a3);
    default: return PSCI_NOT_SUPPORTED;
    }
}

/*
 * No /psci: say how the CPUs ask to be started instead (Devicetree
 * Specification v0.4, 3.8.1), as the raw Raspberry Pi devicetrees do with
 * spin-table, which smp.c then uses (spin_table.c); with neither, only
 * the boot CPU runs (arch_cpu_start refuses).
 */
static void describe_cpu_start_without_psci(const struct fdt *f)
{
    int list = fdt_path(f, "/cpus"), cpu = list >= 0 ? fdt_first_child(f, list) : -1;
    uint64_t release = 0;
    int method = cpu >= 0 ? fdt_cpu_enable_method(f, cpu, &release) : FDT_ERR_NOTFOUND;
    const char *name = cpu >= 0 ? fdt_node_name(f, cpu) : "/cpus";
    if (method == FDT_CPU_SPIN_TABLE)
        kprintf("psci: none; %s asks for spin-table (release address %#llx): the other CPUs "
                "are started that way (spin_table.c)\n",
                name, (unsigned long long)release);
    else if (method < 0)
        kprintf("psci: none; %s has no usable enable-method (spin-table needs "
                "cpu-release-addr): the other CPUs stay off\n",
                name);
}

static void psci_init(const struct fdt *f)
{
    uint32_t len;
    int node = fdt_path(f, "/psci");
    if (node < 0 || !fdt_node_enabled(f, node)) {
        describe_cpu_start_without_psci(f);
        return;
    }
    if (!fdt_is_compatible(f, node, "arm,psci-1.0") &&
        !fdt_is_compatible(f, node, "arm,psci-0.2")) {
        kprintf("psci: only PSCI 0.1 described; not used\n");
        return;
    }
    const char *method = fdt_prop(f, node, "method", &len);
    if (method && strcmp(method, "hvc") == 0)
        arm64_psci_conduit = PSCI_HVC;
    else if (method && strcmp(method, "smc") == 0)
        arm64_psci_conduit = PSCI_SMC;
    else
        return;
    uint64_t v = arm64_psci_call(PSCI_VERSION, 0, 0, 0);
    if (v == PSCI_NOT_SUPPORTED) {
        kprintf("psci: no answer via %s; not used\n", method);
        arm64_psci_conduit = PSCI_NONE;
        return;
    }
    psci_version = (uint32_t)v;
}

void arch_init(const struct boot_info *bi)
{
    static const unsigned pa_bits[8] = {32, 36, 40, 42, 44, 48, 52, 56};
    struct fdt f;
    kprintf("arm64: entered at EL%lu, running at EL%lu; MPIDR %#lx; PARange %u bits\n",
            (unsigned long)arm64_entry_el, (unsigned long)((READ_SYSREG(CurrentEL) >> 2) & 3),
            (unsigned long)this_cpu()->arch.mpidr, pa_bits[READ_SYSREG(id_aa64mmfr0_el1) & 7]);
    if (!bi->fdt_phys)
        return;
    const void *blob = phys_to_virt(bi->fdt_phys);
    uint32_t size = fdt_header_size(blob);
    if (size && size <= FDT_MAX_SIZE && fdt_init(&f, blob, size) == FDT_OK) {
        psci_init(&f);
        arm64_gic_init(&f);
    }
    kprintf("arm64: PAN %s\n", arm64_has_pan() ? "on" : "not implemented");
}

void arch_describe_firmware(char *buf, size_t size)
{
    if (arm64_psci_conduit == PSCI_NONE) {
        snprintf(buf, size, "%s", "");
        return;
    }
    snprintf(buf, size, "PSCI %u.%u via %s", psci_version >> 16, psci_version & 0xffff,
             arm64_psci_conduit == PSCI_HVC ? "hvc" : "smc");
}

uint64_t arch_kernel_phys_base(void)
{
    return kernel_phys_base;
}
