/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/cpu.c - per-CPU descriptor tables and the early arch hooks.
 *
 * Each CPU gets its own GDT and TSS (inside struct cpu) and shares one IDT.
 * GS base points at the CPU's struct cpu (MSR_GS_BASE, SDM vol. 3A 3.4.4),
 * which is how arch_this_cpu() finds it with one `mov %gs:0`.
 */
#include "kernel/arch_callbacks.h"
#include "lib/string.h"
#include "x86.h"

_Static_assert(offsetof(struct cpu, arch) == CPU_ARCH, "impl.h offset");
_Static_assert(offsetof(struct cpu, arch.kstack_top) == CPU_KSTACK_TOP, "entry.S offset");
_Static_assert(offsetof(struct cpu, arch.user_rsp) == CPU_USER_RSP, "entry.S offset");
_Static_assert(offsetof(struct trapframe, rip) == TF_RIP, "entry.S offset");
_Static_assert(sizeof(struct trapframe) == TF_SIZE, "entry.S offset");

#define EFER_SCE            (1ull << 0)
/* RFLAGS bits SYSCALL clears: IF, TF, DF, AC, NT (SDM vol. 3A 5.8.8). */
#define SYSCALL_RFLAGS_MASK ((1u << 9) | (1u << 8) | (1u << 10) | (1u << 18) | (1u << 14))

/* TSS.IST[n - 1] is IST stack n; an IDT gate names one with n = 1..7 (SDM
 * vol. 3A 6.14.5, "Interrupt Stack Table"). Emergency stack i is IST i + 1. */
enum { IST_DOUBLE_FAULT = 1, IST_NMI = 2, IST_MACHINE_CHECK = 3 };
_Static_assert(ARCH_EMERGENCY_STACKS == 3, "one emergency stack per IST index above");
static const uint8_t ist_vector[ARCH_EMERGENCY_STACKS] = {
    [IST_DOUBLE_FAULT - 1] = VECTOR_DF,
    [IST_NMI - 1] = VECTOR_NMI,
    [IST_MACHINE_CHECK - 1] = VECTOR_MC,
};

struct idt_gate {
    uint16_t offset_low, selector;
    uint8_t ist, type_attr;
    uint16_t offset_mid;
    uint32_t offset_high, reserved;
} __attribute__((packed));

static struct idt_gate idt[256] __aligned(16);
extern const uint64_t x86_vector_stubs[256];
extern uint64_t kernel_phys_base;

/* Code/data descriptors: flat, 64-bit code has L=1 (SDM vol. 3A 3.4.5, 5.2.1). */
static const uint64_t gdt_template[GDT_ENTRIES] = {
    0,
    0x00af9a000000ffff, /* 0x08 kernel code: P, DPL 0, execute/read, L */
    0x00cf92000000ffff, /* 0x10 kernel data: P, DPL 0, read/write */
    0x00cff2000000ffff, /* 0x18 user data: P, DPL 3 */
    0x00affa000000ffff, /* 0x20 user code: P, DPL 3, L */
    0,
    0, /* 0x28 TSS, filled in per CPU */
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
                     :
                     : "m"(gdtr), "i"(GDT_KERNEL_CS), "i"(GDT_KERNEL_DS), "r"(GDT_TSS)
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
        set_gate(v, x86_vector_stubs[v],
                 0); /* IST 0: NMI, #DF, #MC too, until their stacks exist */
}

/*
 * NMI, #DF and #MC must not use a possibly broken stack: each gets an IST
 * stack of its own (SDM vol. 3A 6.14.5), which the CPU loads into RSP
 * whatever the privilege level. A kernel stack overflow is one: the #PF
 * from the guard page cannot push its frame, which raises #DF (SDM vol. 3A
 * 6.15, "Interrupt 8", table 6-5: a page fault during a page fault's
 * delivery), and #DF then runs on its IST stack. The TSS lives in struct
 * cpu, so a CPU not yet started gets its entries now and its cpu_tables_init
 * leaves them; a started one reads them from memory at the next delivery.
 * The IDT is shared: once CPU 0's are in, the gates may name them.
 */
void arch_set_emergency_stack(struct cpu *c, unsigned i, uintptr_t top)
{
    c->arch.tss.ist[i] = top;
    if (c->id == 0)
        set_gate(ist_vector[i], x86_vector_stubs[ist_vector[i]], (uint8_t)(i + 1));
}

static void cpu_tables_init(struct cpu *c)
{
    for (int i = 0; i < GDT_ENTRIES; i++)
        c->arch.gdt[i] = gdt_template[i];
    c->arch.tss.iomap_base = sizeof(c->arch.tss); /* no I/O permission bitmap */
    set_tss_descriptor(&c->arch.gdt[GDT_TSS / 8], &c->arch.tss);
    load_gdt(c);
    load_idt();
    /* Segment loads may clear the GS base, so set it after them. */
    x86_wrmsr(MSR_GS_BASE, (uint64_t)c);
    x86_wrmsr(MSR_KERNEL_GS_BASE, 0);
}

/* SYSCALL/SYSRET (SDM vol. 3A 5.8.8): STAR[47:32] is the kernel CS (SS =
 * CS + 8); STAR[63:48] + 16 is the user CS and + 8 the user SS for SYSRET
 * to 64-bit mode, which is why the GDT has user data before user code. */
static void syscall_init(void)
{
    x86_wrmsr(MSR_STAR, (uint64_t)(GDT_KERNEL_DS | 3) << 48 | (uint64_t)GDT_KERNEL_CS << 32);
    x86_wrmsr(MSR_LSTAR, (uint64_t)x86_syscall_entry);
    x86_wrmsr(MSR_FMASK, SYSCALL_RFLAGS_MASK);
    x86_wrmsr(MSR_EFER, x86_rdmsr(MSR_EFER) | EFER_SCE);
}

/* Every CPU: its descriptor tables, per-CPU pointer, SYSCALL and FP setup. */
void x86_cpu_init(struct cpu *c)
{
    cpu_tables_init(c);
    syscall_init();
    x86_fpu_cpu_init();
}

void arch_early_init(struct cpu *boot_cpu)
{
    build_idt();
    x86_cpu_init(boot_cpu);
}

int arch_copy_from_user(void *dst, uintptr_t user_src, size_t n)
{
    return x86_user_copy(dst, (const void *)user_src, n);
}

int arch_copy_to_user(uintptr_t user_dst, const void *src, size_t n)
{
    return x86_user_copy((void *)user_dst, src, n);
}

/* x86 keeps instruction fetches coherent with stores (SDM vol. 3A 11.6). */
void arch_sync_icache(const void *kva, size_t len) {}

void arch_sync_icache_done(void) {}

static const struct boot_info *boot_bi;

bool arch_console_irq(void (*handler)(void))
{
    return boot_bi && x86_console_irq_route(boot_bi, handler);
}

void arch_init(const struct boot_info *bi)
{
    boot_bi = bi;
    this_cpu()->hwid = arch_cpu_hwid();
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
