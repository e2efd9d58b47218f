/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/time.c - the generic timer's frequency.
 *
 * CNTFRQ_EL0 (Arm ARM, register CNTFRQ_EL0, bits [31:0]) holds the system
 * counter's frequency in Hz. The hardware does not set it: the firmware at
 * the highest EL writes it at boot, and every firmware this kernel boots
 * from does (QEMU's virt board also presets it, 62.5 MHz by default).
 */
#include "arm64.h"
#include "kernel/arch_callbacks.h"
#include "kernel/panic.h"

uint64_t arch_counter_hz(void)
{
    return READ_SYSREG(cntfrq_el0) & 0xffffffffu;
}

/*
 * Latency timestamps. ID_AA64DFR0_EL1.PMUVer (bits [11:8]) is 0 without a
 * PMU and 0xF for an IMPLEMENTATION DEFINED one; anything else is PMUv3,
 * whose cycle counter is enabled by PMCR_EL0.E (bit 0) and PMCNTENSET_EL0.C
 * (bit 31), counts at EL0 and EL1 with PMCCFILTR_EL0 = 0, and becomes
 * readable at EL0 with PMUSERENR_EL0.CR (bit 2) alone (EL0 still cannot
 * write any PMU register). PMCR_EL0.LC (bit 6) makes it overflow at 64 bits
 * rather than 32 where the CPU has that choice.
 */
bool arm64_use_pmccntr;

#define PMCR_E       (1u << 0)
#define PMCR_LC      (1u << 6)
#define PMCNTEN_C    (1u << 31)
#define PMUSERENR_CR (1u << 2)

/*
 * MRS encodes the system register in bits [20:5] (op0, op1, CRn, CRm, op2;
 * Arm ARM C6.2, MRS): CNTVCT_EL0 is (3, 3, 14, 0, 2), PMCCNTR_EL0
 * (3, 3, 9, 13, 0).
 */
#define MRS_SYSREG             0x001fffe0u
#define MRS_REG(crn, crm, op2) (3u << 19 | 3u << 16 | (crn) << 12 | (crm) << 8 | (op2) << 5)
#define MRS_CNTVCT             MRS_REG(14u, 0u, 2u)
#define MRS_PMCCNTR            MRS_REG(9u, 13u, 0u)

/* This CPU's cycle counter on, counting at EL0 and EL1, readable at EL0. */
static void pmu_cycle_counter_on(void)
{
    WRITE_SYSREG(pmccfiltr_el0, 0);
    WRITE_SYSREG(pmcr_el0, READ_SYSREG(pmcr_el0) | PMCR_E | PMCR_LC);
    WRITE_SYSREG(pmcntenset_el0, PMCNTEN_C);
    WRITE_SYSREG(pmuserenr_el0, PMUSERENR_CR);
    __asm__ volatile("isb" : : : "memory");
}

/* The boot CPU, the first here, chooses for all (the reads are rewritten
 * once, before the others start); each other CPU follows its choice. */
void arch_timestamp_init(void)
{
    static bool chosen;
    unsigned pmuver = (READ_SYSREG(id_aa64dfr0_el1) >> 8) & 0xf;
    bool pmu = pmuver != 0 && pmuver != 0xf;
    if (!chosen) {
        chosen = true;
        if (!pmu)
            return; /* CNTVCT_EL0, readable at EL0 through CNTKCTL_EL1 (cpu.c) */
        pmu_cycle_counter_on();
        text_patch_timestamp_reads(MRS_SYSREG, MRS_CNTVCT, MRS_PMCCNTR);
        arm64_use_pmccntr = true;
        return;
    }
    if (arm64_use_pmccntr && !pmu)
        panic("arm64: this CPU has no PMUv3, whose cycle counter the boot CPU chose");
    if (arm64_use_pmccntr)
        pmu_cycle_counter_on();
}

const char *arch_timestamp_name(void)
{
    return arm64_use_pmccntr ? "pmccntr" : "cntvct";
}

uint64_t arch_timestamp_hz(void)
{
    return arm64_use_pmccntr ? 0 : arch_counter_hz();
}
