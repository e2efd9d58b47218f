/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/smp.c - starting the other CPUs with PSCI CPU_ON, or by
 * spin-table where the devicetree has no /psci (spin_table.c).
 *
 * The devicetree's /cpus `reg` values on Arm are MPIDR_EL1's affinity
 * fields: Aff2..Aff0 in bits [23:0], and Aff3 in bits [39:32] when /cpus
 * has two address cells; arch_cpu_hwid() reads the same fields on each CPU
 * (U, MT and the RES1 bit 31 left out). QEMU's virt board (checked with
 * -M virt,dumpdtb=...) has one address cell and reg = 0, 1, 2, ... in Aff0.
 *
 * PSCI CPU_ON (Arm DEN0022, function 0xC4000003, SMC64 convention): x1 =
 * the target's MPIDR affinity, x2 = the physical address it starts at, x3
 * = a context id it receives in x0. It starts with the MMU and caches off,
 * at EL2 or EL1 (start.S, secondary_entry, handles both). The context id
 * is the physical address of this CPU's own boot record below, so a CPU
 * that comes up late (after kernel/smp.c gave up on it and went on to the
 * next one) still reads its own data, not the next CPU's.
 */
#include "arm64.h"
#include "kernel/arch_callbacks.h"

#define PSCI_CPU_ON_64 0xc4000003u
#define MPIDR_AFFINITY 0xff00ffffffull /* Aff3 [39:32], Aff2..Aff0 [23:0] */

/* What secondary_entry (start.S, SB_* offsets) reads with the MMU off. */
struct arm64_cpu_boot {
    uint64_t cpu;         /* SB_CPU: struct cpu *, virtual */
    uint64_t stack_top;   /* SB_STACK: its idle thread's kernel stack top, virtual */
    uint64_t root;        /* SB_ROOT: the kernel's root table, physical */
    uint64_t tcr;         /* SB_TCR: TCR_EL1 as the boot CPU set it */
    uint64_t pa_minus_va; /* SB_PA_MINUS_VA: for arm64_replace_ttbr1 */
} __attribute__((aligned(64)));

_Static_assert(__builtin_offsetof(struct arm64_cpu_boot, stack_top) == 8, "SB_STACK");
_Static_assert(__builtin_offsetof(struct arm64_cpu_boot, root) == 16, "SB_ROOT");
_Static_assert(__builtin_offsetof(struct arm64_cpu_boot, tcr) == 24, "SB_TCR");
_Static_assert(__builtin_offsetof(struct arm64_cpu_boot, pa_minus_va) == 32, "SB_PA_MINUS_VA");

static struct arm64_cpu_boot boot_records[MAX_CPUS];
extern const char secondary_entry[], spin_table_entry[]; /* start.S */

/* Nothing to keep aside: PSCI needs no memory of ours beyond the image. */
void arch_memory_reserve(struct boot_info *bi) {}

uint64_t arch_cpu_hwid(void)
{
    return READ_SYSREG(mpidr_el1) & MPIDR_AFFINITY;
}

/* Physical address of something in the kernel image (text, data or bss). */
static uint64_t image_pa(const void *va)
{
    return arch_kernel_phys_base() + (uint64_t)((uintptr_t)va - (uintptr_t)_kernel_start);
}

static const char *psci_error(int64_t r)
{
    switch (r) {
    case -1: return "NOT_SUPPORTED";
    case -2: return "INVALID_PARAMETERS";
    case -3: return "DENIED";
    case -4: return "ALREADY_ON";
    case -5: return "ON_PENDING";
    case -6: return "INTERNAL_FAILURE";
    case -9: return "INVALID_ADDRESS";
    default: return "unknown error";
    }
}

const char *arch_smp_method(void)
{
    switch (arm64_psci_conduit) {
    case PSCI_SMC: return "PSCI CPU_ON via smc";
    case PSCI_HVC: return "PSCI CPU_ON via hvc";
    default:
        return arm64_spin_table_release(cpus[0].hwid, NULL) ? "spin-table" : "nothing (no PSCI)";
    }
}

int arch_cpu_start(struct cpu *c, uintptr_t stack_top)
{
    if (arm64_psci_conduit == PSCI_NONE && !arm64_spin_table_release(c->hwid, NULL)) {
        arm64_spin_table_require(c->hwid);
        return -1;
    }
    struct arm64_cpu_boot *b = &boot_records[c->id];
    *b = (struct arm64_cpu_boot){
        .cpu = (uintptr_t)c,
        .stack_top = stack_top,
        .root = arm64_kernel_root(),
        .tcr = READ_SYSREG(tcr_el1),
        .pa_minus_va = arch_kernel_phys_base() - (uintptr_t)_kernel_start,
    };
    /* The new CPU reads the record with its MMU (so its caches) off: push
     * it from this CPU's caches out to the PoC first. */
    arm64_dcache_clean_poc(b, sizeof(*b));
    if (arm64_psci_conduit == PSCI_NONE)
        return arm64_spin_table_start(c, image_pa(spin_table_entry), image_pa(b));
    int64_t r =
        (int64_t)arm64_psci_call(PSCI_CPU_ON_64, c->hwid, image_pa(secondary_entry), image_pa(b));
    if (r != 0) {
        kprintf("psci: CPU_ON %#llx: %s (%lld)\n", (unsigned long long)c->hwid, psci_error(r),
                (long long)r);
        return -1;
    }
    return 0;
}

/* secondary_entry, on the new CPU: kernel tables in TTBR1, TTBR0 still the
 * boot identity map, on its idle-thread stack, DAIF masked. */
__noreturn void arm64_secondary_start(struct cpu *c);
void arm64_secondary_start(struct cpu *c)
{
    arm64_cpu_init(c);    /* vectors, TPIDR_EL1, CPACR, CNTKCTL */
    arm64_mmu_cpu_init(); /* TTBR0 = the empty table, PAN */
    secondary_main(c);    /* its timer and GIC CPU interface, then idle */
}

/* Every AArch64 CPU has the VMSA MMU this kernel uses. */
bool arch_fdt_cpu_usable(const struct fdt *f, int node)
{
    (void)f;
    (void)node;
    return true;
}
