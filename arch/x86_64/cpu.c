/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/cpu.c - per-CPU descriptor tables and the early arch hooks.
 *
 * Each CPU gets its own GDT and TSS (inside struct cpu) and shares one IDT.
 * GS base points at the CPU's struct cpu (MSR_GS_BASE, SDM vol. 3A 3.4.4),
 * which is how arch_this_cpu() finds it with one `mov %gs:0`.
 */
#include "kernel/arch_callbacks.h"
#include "x86.h"

#define IST_STACK_SIZE 4096
enum { IST_DOUBLE_FAULT = 1, IST_NMI = 2, IST_MACHINE_CHECK = 3 };

struct idt_gate {
    uint16_t offset_low, selector;
    uint8_t ist, type_attr;
    uint16_t offset_mid;
    uint32_t offset_high, reserved;
} __attribute__((packed));

static struct idt_gate idt[256] __aligned(16);
static uint8_t ist_stacks[MAX_CPUS][3][IST_STACK_SIZE] __aligned(16);
extern const uint64_t x86_vector_stubs[256];
extern uint64_t kernel_phys_base;

/* Code/data descriptors: flat, 64-bit code has L=1 (SDM vol. 3A 3.4.5, 5.2.1). */
static const uint64_t gdt_template[GDT_ENTRIES] = {
    0,
    0x00af9a000000ffff, /* 0x08 kernel code: P, DPL 0, execute/read, L */
    0x00cf92000000ffff, /* 0x10 kernel data: P, DPL 0, read/write */
    0x00cff2000000ffff, /* 0x18 user data: P, DPL 3 */
    0x00affa000000ffff, /* 0x20 user code: P, DPL 3, L */
    0, 0,               /* 0x28 TSS, filled in per CPU */
};

static void set_tss_descriptor(uint64_t *slot, const struct x86_tss *tss)
{
    uint64_t base = (uint64_t)tss, limit = sizeof(*tss) - 1;
    slot[0] = (limit & 0xffff) | (base & 0xffffff) << 16 | 0x89ull << 40 /* P, 64-bit TSS */ |
              ((limit >> 16) & 0xf) << 48 | ((base >> 24) & 0xff) << 56;
    slot[1] = base >> 32;
}

static void load_gdt(struct cpu *c)
{
    struct {
        uint16_t limit;
        uint64_t base;
    } __attribute__((packed)) gdtr = {sizeof(c->arch.gdt) - 1, (uint64_t)c->arch.gdt};
    __asm__ volatile("lgdt %0\n\t"
                     "pushq %1\n\t"
                     "leaq 1f(%%rip), %%rax\n\t"
                     "pushq %%rax\n\t"
                     "lretq\n" /* reload CS with the new kernel code selector */
                     "1: movl %2, %%eax\n\t"
                     "movl %%eax, %%ds\n\tmovl %%eax, %%es\n\tmovl %%eax, %%ss\n\t"
                     "xorl %%eax, %%eax\n\tmovl %%eax, %%fs\n\tmovl %%eax, %%gs\n\t"
                     "ltr %w3"
                     : : "m"(gdtr), "i"(GDT_KERNEL_CS), "i"(GDT_KERNEL_DS), "r"(GDT_TSS)
                     : "rax", "memory");
}

static void set_gate(int vec, uint64_t handler, uint8_t ist)
{
    idt[vec] = (struct idt_gate){
        .offset_low = (uint16_t)handler,
        .selector = GDT_KERNEL_CS,
        .ist = ist,
        .type_attr = 0x8e, /* present, DPL 0, 64-bit interrupt gate */
        .offset_mid = (uint16_t)(handler >> 16),
        .offset_high = (uint32_t)(handler >> 32),
    };
}

static void load_idt(void)
{
    struct {
        uint16_t limit;
        uint64_t base;
    } __attribute__((packed)) idtr = {sizeof(idt) - 1, (uint64_t)idt};
    __asm__ volatile("lidt %0" : : "m"(idtr));
}

static void build_idt(void)
{
    for (int v = 0; v < 256; v++)
        set_gate(v, x86_vector_stubs[v], 0);
    /* Faults that must not use a possibly broken stack get their own (SDM 6.14.5). */
    set_gate(2, x86_vector_stubs[2], IST_NMI);
    set_gate(8, x86_vector_stubs[8], IST_DOUBLE_FAULT);
    set_gate(18, x86_vector_stubs[18], IST_MACHINE_CHECK);
}

static void cpu_tables_init(struct cpu *c)
{
    for (int i = 0; i < GDT_ENTRIES; i++)
        c->arch.gdt[i] = gdt_template[i];
    for (int i = 0; i < 3; i++)
        c->arch.tss.ist[i] = (uint64_t)&ist_stacks[c->id][i][IST_STACK_SIZE];
    c->arch.tss.iomap_base = sizeof(c->arch.tss); /* no I/O permission bitmap */
    set_tss_descriptor(&c->arch.gdt[GDT_TSS / 8], &c->arch.tss);
    load_gdt(c);
    load_idt();
    /* Segment loads may clear the GS base, so set it after them. */
    x86_wrmsr(MSR_GS_BASE, (uint64_t)c);
    x86_wrmsr(MSR_KERNEL_GS_BASE, 0);
}

void arch_early_init(struct cpu *boot_cpu)
{
    build_idt();
    cpu_tables_init(boot_cpu);
}

void arch_init(const struct boot_info *bi)
{
    x86_power_init(bi);
    x86_time_init(bi);
}

uint64_t arch_kernel_phys_base(void)
{
    return kernel_phys_base;
}

void arch_describe_firmware(char *buf, size_t size)
{
    if (size)
        buf[0] = '\0';
}
