/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/spin_table.c - starting a CPU by spin-table, where the
 * devicetree has no /psci (the Raspberry Pi 3; QEMU raspi3b).
 *
 * Devicetree Specification v0.4, 3.8.1 ("cpus/cpu*" node properties)
 * names the properties: enable-method = "spin-table", and cpu-release-addr,
 * the physical address the waiting CPU watches. On arm64 that address holds
 * one 64-bit word (the arm64 boot protocol's spin-table, which the Pi's
 * armstub and QEMU's raspi boot stub implement): the CPU waits in WFE until
 * the word is not zero, then jumps to it at the EL the boot CPU was given,
 * MMU and caches off, with no argument. So:
 *
 *   1. spin_table_entry (start.S) finds its own boot record by its
 *      MPIDR_EL1.Aff0 in arm64_spin_records[] and goes on as PSCI's
 *      secondary_entry does with the record in x0;
 *   2. the record and arm64_spin_records[] are cleaned to the point of
 *      coherency (the waiting CPU reads them uncached), the release word
 *      written through a device mapping;
 *   3. DSB, so the writes are complete, then SEV wakes the WFE loop (Arm
 *      ARM, "Wait For Event and Send Event").
 */
#include "arm64.h"
#include "kernel/arch_callbacks.h"
#include "lib/fdt.h"

/* By MPIDR_EL1.Aff0: the physical address of that CPU's boot record (smp.c). */
uint64_t arm64_spin_records[256];

/* The /cpus node whose reg is hwid, or a negative error. */
static int cpu_node(const struct fdt *f, uint64_t hwid)
{
    int list = fdt_path(f, "/cpus");
    for (int n = list >= 0 ? fdt_first_child(f, list) : -1; n >= 0; n = fdt_next_sibling(f, n)) {
        uint64_t reg, size;
        if (fdt_reg(f, n, 0, &reg, &size) == 0 && reg == hwid)
            return n;
    }
    return FDT_ERR_NOTFOUND;
}

/* The release address of the CPU with this hardware id, if it asks for spin-table. */
bool arm64_spin_table_release(uint64_t hwid, uint64_t *release)
{
    const struct fdt *f = boot_fdt();
    int node = f ? cpu_node(f, hwid) : FDT_ERR_NOTFOUND;
    return node >= 0 && fdt_cpu_enable_method(f, node, release) == FDT_CPU_SPIN_TABLE;
}

void arm64_spin_table_require(uint64_t hwid)
{
    const struct fdt *f = boot_fdt();
    int node = f ? cpu_node(f, hwid) : FDT_ERR_NOTFOUND;
    if (node < 0 || fdt_cpu_enable_method(f, node, NULL) != FDT_ERR_NORELEASE)
        return;
    struct trapframe tf;
    arch_capture_regs(&tf);
    panic_trap(&tf,
               "spin-table: devicetree node '%s' (cpu %#llx): enable-method \"spin-table\" "
               "without a usable cpu-release-addr",
               fdt_node_name(f, node), (unsigned long long)hwid);
}

int arm64_spin_table_start(const struct cpu *c, uint64_t entry_pa, uint64_t record_pa)
{
    uint64_t release;
    unsigned aff0 = c->hwid & 0xff;
    if (!arm64_spin_table_release(c->hwid, &release) || (c->hwid & ~0xffull) || (release & 7)) {
        kprintf("spin-table: cpu %#llx has no usable cpu-release-addr\n",
                (unsigned long long)c->hwid);
        return -1;
    }
    arm64_spin_records[aff0] = record_pa;
    arm64_dcache_clean_poc(&arm64_spin_records[aff0], sizeof(uint64_t));
    /* The release words' page is a /memreserve/ entry, outside the kernel's
     * map of RAM: mapped here as device memory, so the store goes straight
     * to memory, where the uncached reader looks. */
    static uint64_t mapped_page = ~0ull;
    static uintptr_t mapped_va;
    if ((release & ~0xfffull) != mapped_page) {
        mapped_va = (uintptr_t)ioremap(release & ~0xfffull, 0x1000);
        mapped_page = release & ~0xfffull;
    }
    volatile uint64_t *word = (volatile uint64_t *)(mapped_va + (release & 0xfff));
    *word = entry_pa;
    __asm__ volatile("dsb sy\n\tsev" : : : "memory");
    return 0;
}
