/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/smp.c - starting the other CPUs ("application processors").
 *
 * The MADT lists the CPUs' local APIC ids (kernel/platform.c). Each one is
 * started with the INIT-SIPI-SIPI sequence (SDM vol. 3A 8.4.4.1): an INIT
 * IPI, 10 ms, then two start-up IPIs 200 us apart whose vector is the
 * trampoline's page number. The trampoline (trampoline.S) brings the CPU
 * to long mode on the boot page tables; x86_ap_entry (start.S) switches to
 * the kernel's tables and stack and calls x86_secondary_entry below.
 */
#include "kernel/arch_callbacks.h"
#include "lib/memmap.h"
#include "lib/string.h"
#include "x86.h"

#define ICR_INIT    0x00004500 /* delivery mode INIT, level assert */
#define ICR_STARTUP 0x00004600 /* delivery mode start-up, level assert */

/* What x86_ap_entry picks up (start.S); one CPU starts at a time. */
struct x86_ap_boot {
    uint64_t cr3;
    uint64_t stack_top;
    struct cpu *cpu;
};
extern struct x86_ap_boot x86_ap_boot;
extern const uint8_t x86_trampoline_start[], x86_trampoline_end[];
extern uint32_t x86_trampoline_cr3;
extern char boot_pml4[];

static bool trampoline_page_ok;

/* The trampoline's page must be RAM nobody else uses: take it out of the map. */
void arch_memory_reserve(struct boot_info *bi)
{
    for (uint32_t i = 0; i < bi->mmap_count; i++) {
        const struct boot_mem_region *r = &bi->mmap[i];
        if (r->type == BOOT_MEM_USABLE && r->base <= X86_TRAMPOLINE_BASE &&
            r->base + r->size >= X86_TRAMPOLINE_BASE + PAGE_SIZE) {
            trampoline_page_ok = memmap_set(bi->mmap, &bi->mmap_count, BOOT_MMAP_MAX,
                                            X86_TRAMPOLINE_BASE, PAGE_SIZE, BOOT_MEM_KERNEL) == 0;
            return;
        }
    }
}

/* The APIC id, as the MADT lists it: the 32-bit x2APIC id from CPUID leaf
 * 0BH (EDX) where that leaf exists, else the 8-bit initial APIC id in
 * CPUID.1:EBX[31:24] (SDM vol. 2A, CPUID). Both equal the local APIC's ID
 * register after reset. */
uint64_t arch_cpu_hwid(void)
{
    uint32_t r[4];
    x86_cpuid(0, 0, r);
    if (r[0] >= 0xb) {
        x86_cpuid(0xb, 0, r);
        if (r[1] != 0) /* EBX = 0: leaf 0BH not supported */
            return r[3];
    }
    x86_cpuid(1, 0, r);
    return r[1] >> 24;
}

static void delay_us(uint64_t us)
{
    uint64_t end = arch_counter() + arch_counter_hz() / 1000000 * us;
    while (arch_counter() < end)
        arch_cpu_relax();
}

/* SDM vol. 3A 8.4.4.1, as above. */
const char *arch_smp_method(void)
{
    return "INIT-SIPI-SIPI (local APIC)";
}

int arch_cpu_start(struct cpu *c, uintptr_t stack_top)
{
    if (!trampoline_page_ok)
        return -1;
    uint8_t *page = phys_to_virt(X86_TRAMPOLINE_BASE);
    size_t size = (size_t)(x86_trampoline_end - x86_trampoline_start);
    memcpy(page, x86_trampoline_start, size);
    /* The boot tables: below 4 GiB (the loader put the image there), and
     * they map the trampoline 1:1 as well as the kernel image. */
    uint64_t boot_tables = arch_kernel_phys_base() + (uint64_t)(boot_pml4 - _kernel_start);
    uint32_t cr3 = (uint32_t)boot_tables;
    memcpy(page + ((const uint8_t *)&x86_trampoline_cr3 - x86_trampoline_start), &cr3, sizeof(cr3));
    x86_ap_boot = (struct x86_ap_boot){x86_kernel_root(), stack_top, c};
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    uint32_t apic = (uint32_t)c->hwid;
    x86_lapic_send(apic, ICR_INIT);
    delay_us(10000);
    for (int i = 0; i < 2; i++) {
        x86_lapic_send(apic, ICR_STARTUP | (X86_TRAMPOLINE_BASE >> 12));
        delay_us(200);
    }
    return 0;
}

/* The new CPU, from x86_ap_entry: on the kernel's page tables and its stack. */
void x86_secondary_entry(struct cpu *c)
{
    x86_paging_features_init();
    x86_cpu_init(c);
    x86_lapic_init();
    secondary_main(c);
}

/* x86 CPUs come from the MADT; a devicetree, if any, has nothing to rule out. */
bool arch_fdt_cpu_usable(const struct fdt *f, int node)
{
    (void)f;
    (void)node;
    return true;
}
