/* SPDX-License-Identifier: MIT */
/*
 * arch/riscv64/imsic.c - the boot hart's supervisor-level IMSIC interrupt
 * file, the receiving end of MSIs (RISC-V Advanced Interrupt Architecture
 * 1.0, chapter "Incoming MSI Controller (IMSIC)").
 *
 * Each hart with an IMSIC has an interrupt file per privilege level: a
 * 4 KiB page that devices (here the APLIC, aplic.c) write an identity
 * number to, and pending (eip) and enable (eie) bits per identity, 1 to
 * riscv,num-ids. The hart reaches its own S-level file only through CSRs
 * (Ssaia, "CSRs for external interrupts via an IMSIC"): siselect picks a
 * register, sireg reads or writes it (0x70 eidelivery, 0x72 eithreshold,
 * 0x80+k eip, 0xc0+k eie; on RV64 only even k exist, each 64 identities),
 * and stopei reports the top pending-and-enabled identity, which a write
 * in the same instruction claims ("Top external interrupt CSRs"). The
 * file raises sip.SEIP while eidelivery = 1 and an enabled identity below
 * eithreshold (0: no threshold) is pending.
 *
 * The devicetree's riscv,imsics node (what QEMU 7.2 writes for
 * virt,aia=aplic-imsic): "reg", "riscv,num-ids", and "interrupts-extended",
 * whose i-th entry is the file of hart index i: <cpu-intc 9> for S-level
 * files, <cpu-intc 11> for M-level ones (OpenSBI's). One group of harts
 * only (one reg region, no riscv,group-index-bits): the hart index an
 * APLIC's target register holds is then that i.
 *
 * Binutils 2.40 (Debian 12) knows the names siselect (0x150), sireg (0x151)
 * and stopei (0x15c); riscv.h's csr_* macros paste them in.
 */
#include "kernel/arch_callbacks.h"
#include "riscv.h"

#define IMSIC_EIDELIVERY  0x70
#define IMSIC_EITHRESHOLD 0x72
#define IMSIC_EIP(id)     (0x80u + 2 * ((id) / 64)) /* RV64: the even registers */
#define IMSIC_EIE(id)     (0xc0u + 2 * ((id) / 64))
#define IMSIC_MAX_IDS     2047 /* identities are 11 bits */
#define TOPEI_ID(v)       (((v) >> 16) & 0x7ff)

static void file_write(unsigned long reg, unsigned long v)
{
    csr_write(siselect, reg);
    csr_write(sireg, v);
}

static unsigned long file_read(unsigned long reg)
{
    csr_write(siselect, reg);
    return csr_read(sireg);
}

/* Every identity disabled and not pending, then only `id` enabled. */
static void file_reset(uint32_t num_ids, uint32_t id)
{
    file_write(IMSIC_EIDELIVERY, 0);
    file_write(IMSIC_EITHRESHOLD, 0);
    for (uint32_t first = 0; first <= num_ids; first += 64) {
        file_write(IMSIC_EIE(first), 0);
        file_write(IMSIC_EIP(first), 0);
    }
    file_write(IMSIC_EIE(id), 1ul << id % 64);
    file_write(IMSIC_EIDELIVERY, 1);
}

int riscv_imsic_init(const struct fdt *f, int node, uint32_t hart, uint32_t id)
{
    uint32_t num_ids = 0, groups = 0;
    uint64_t base, size, base2, size2;
    if (node < 0 || !fdt_is_compatible(f, node, "riscv,imsics") ||
        fdt_reg_cpu(f, node, 0, &base, &size, NULL) != 0 ||
        !fdt_prop_u32(f, node, "riscv,num-ids", &num_ids) || num_ids > IMSIC_MAX_IDS || id == 0 ||
        id > num_ids) {
        kprintf("imsic: no usable riscv,imsics node for the APLIC's msi-parent\n");
        return -1;
    }
    if (!riscv_hart_has_ext(f, hart, "ssaia")) {
        kprintf("imsic: hart %u has no Ssaia (riscv,isa): its interrupt file is out of reach\n",
                hart);
        return -1;
    }
    fdt_prop_u32(f, node, "riscv,group-index-bits", &groups);
    int index = riscv_s_external_index(f, node, hart);
    if (groups != 0 || fdt_reg_cpu(f, node, 1, &base2, &size2, NULL) == 0 || index < 0) {
        kprintf("imsic: hart %u has no S-level interrupt file in one group of harts\n", hart);
        return -1;
    }
    file_reset(num_ids, id);
    kprintf("imsic: @ %#llx, %u identities; hart %u's S-level file (index %d) takes identity %u\n",
            (unsigned long long)base, num_ids, hart, index, id);
    return index;
}

uint32_t riscv_imsic_claim(void)
{
    unsigned long v;
    __asm__ volatile("csrrw %0, stopei, zero" : "=r"(v) : : "memory");
    return TOPEI_ID(v);
}

void riscv_imsic_disable(uint32_t id)
{
    file_write(IMSIC_EIE(id), file_read(IMSIC_EIE(id)) & ~(1ul << id % 64));
}
