/* SPDX-License-Identifier: MIT */
/*
 * arch/riscv64/smp.c - starting the other harts, and keeping their
 * instruction fetches coherent with code the kernel writes.
 *
 * The devicetree lists the harts (kernel/platform.c); the SBI firmware
 * keeps every hart but the boot hart parked, in the HSM "stopped" state.
 * HSM hart_start (SBI spec 9.1) starts one in S mode with the MMU off at a
 * physical address, a0 = its hart id and a1 = an opaque word. Here the
 * opaque word is the physical address of that hart's boot record: the
 * kernel's satp, the stack to run on (its idle thread's) and its struct
 * cpu. start.S (riscv_secondary_entry) turns paging on with the boot page
 * tables, reads the record, switches to the kernel's tables and stack and
 * calls riscv_secondary_main below.
 *
 * Each hart has a record of its own, so a hart that arrives after the boot
 * hart gave up waiting for it still finds its own data, never the next
 * hart's. The record also names its hart: now and then the firmware sends a
 * started hart to the image's entry (_start) rather than to start_addr,
 * without the opaque word, and start.S then finds the record by hart id.
 */
#include "kernel/arch_callbacks.h"
#include "lib/fdt.h"
#include "lib/string.h"
#include "riscv.h"
#include "sbi.h"

struct riscv_hart_boot {
    uint64_t satp;      /* HART_BOOT_SATP: the kernel's page tables */
    uint64_t stack_top; /* HART_BOOT_STACK: the idle thread's kernel stack */
    struct cpu *cpu;    /* HART_BOOT_CPU: becomes tp; 0 = record unused */
    uint64_t hwid;      /* HART_BOOT_HWID: the hart it is for (start.S's search) */
    uint64_t stray_a1;  /* HART_BOOT_STRAY: a1 if the hart came in at _start, else 0 */
};
_Static_assert(offsetof(struct riscv_hart_boot, satp) == HART_BOOT_SATP, "start.S offset");
_Static_assert(offsetof(struct riscv_hart_boot, stack_top) == HART_BOOT_STACK, "start.S offset");
_Static_assert(offsetof(struct riscv_hart_boot, cpu) == HART_BOOT_CPU, "start.S offset");
_Static_assert(offsetof(struct riscv_hart_boot, hwid) == HART_BOOT_HWID, "start.S offset");
_Static_assert(offsetof(struct riscv_hart_boot, stray_a1) == HART_BOOT_STRAY, "start.S offset");
_Static_assert(sizeof(struct riscv_hart_boot) == HART_BOOT_SIZE, "start.S size");

/* Global, with their size, for start.S: a hart the firmware sends to _start
 * instead of riscv_secondary_entry looks its record up by hart id there. */
struct riscv_hart_boot riscv_hart_boot[MAX_CPUS];
const uint64_t riscv_hart_boot_size = sizeof(riscv_hart_boot);

extern char riscv_secondary_entry[]; /* start.S */

/* The physical address of something in the kernel image (start.S maps the
 * image at KERNEL_VBASE from its physical base, and so do the kernel's tables). */
static uint64_t image_phys(const void *p)
{
    return arch_kernel_phys_base() + ((uintptr_t)p - (uintptr_t)_kernel_start);
}

/* Nothing to set aside: the entry code and the records live in the image. */
void arch_memory_reserve(struct boot_info *bi)
{
    (void)bi;
}

static bool has_hsm(void)
{
    static int hsm = -1; /* probed on first use, by the boot hart */
    if (hsm < 0) {
        hsm = sbi_spec_version() > 0 && sbi_probe_extension(SBI_EXT_HSM);
        if (!hsm)
            kprintf("smp: the SBI firmware has no HSM extension: the other harts stay stopped\n");
    }
    return hsm;
}

const char *arch_smp_method(void)
{
    return "SBI HSM hart_start";
}

int arch_cpu_start(struct cpu *c, uintptr_t stack_top)
{
    if (c->id >= MAX_CPUS || !has_hsm())
        return -1;
    struct riscv_hart_boot *rec = &riscv_hart_boot[c->id];
    rec->satp = SATP_MODE_SV39 | riscv_kernel_root() >> 12; /* ASID 0, as mmu.c */
    rec->stack_top = stack_top;
    rec->hwid = c->hwid;
    rec->stray_a1 = 0;
    rec->cpu = c;
    /* The record must be in memory before the hart can read it; the ecall
     * is not a fence by itself. */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    struct sbiret r = sbi_hart_start(c->hwid, image_phys(riscv_secondary_entry), image_phys(rec));
    if (r.error != SBI_SUCCESS) {
        rec->cpu = NULL; /* not for a hart that turns up at _start later */
        kprintf("cpu%u: SBI HSM hart_start(hart %llu) failed: error %ld%s\n", c->id,
                (unsigned long long)c->hwid, r.error,
                r.error == SBI_ERR_ALREADY_AVAILABLE ? " (already started)" : "");
        return -1;
    }
    return 0;
}

/* The new hart, from start.S: kernel tables, its stack, tp and stvec set. */
void riscv_secondary_main(struct cpu *c)
{
    /* What arch_mmu_switch does on the boot hart: SUM and MXR off, and the
     * same root again (start.S already switched), with a full flush. */
    arch_mmu_switch(riscv_kernel_root());
    riscv_counters_init();
    uint64_t stray = riscv_hart_boot[c->id].stray_a1;
    if (stray)
        kprintf("cpu%u: the firmware started hart %llu at the image entry (a1 = %#llx), not "
                "at the HSM start address: recovered\n",
                c->id, (unsigned long long)c->hwid, (unsigned long long)stray);
    secondary_main(c);
}

/*
 * exec wrote a user program's code through the direct map. FENCE.I orders
 * only this hart's fetches after its own stores (ISA, "Zifencei"); the
 * program may run on any hart, now or after a migration, so every hart must
 * execute one before it fetches from those pages. They are fetched only
 * through the new program's address space, and a hart loads that address
 * space (arch_aspace_activate) before it runs it. So instead of interrupting
 * every hart (RFENCE remote_fence_i), arch_sync_icache_done() counts one
 * more code write here, after making the stores visible, and a hart that
 * loads an address space while its count is behind runs FENCE.I first
 * (arch_aspace_activate, impl.h). No interrupts: under QEMU -icount every firmware
 * round trip to the other harts could wait a whole 100 ms slice of the
 * round-robin vCPU thread, and one per program took minutes at times.
 */
uint64_t riscv_icache_writes;

void arch_sync_icache(const void *kva, size_t len)
{
    (void)kva;
    (void)len;
    __asm__ volatile("fence rw, rw\n\tfence.i" : : : "memory");
}

void arch_sync_icache_done(void)
{
    __asm__ volatile("fence rw, rw" : : : "memory");
    __atomic_add_fetch(&riscv_icache_writes, 1, __ATOMIC_RELEASE);
}

/*
 * A hart this kernel can run on has Sv39 paging: its devicetree node's
 * "mmu-type" (RISC-V devicetree cpus binding) is "riscv,sv39", "riscv,sv48"
 * or "riscv,sv57" (a hart with Sv48 or Sv57 must also support Sv39: priv
 * spec, "Sv48" and "Sv57"). Monitor cores without an MMU, such as hart 0 of
 * SiFive's FU540 and FU740 (an E51 or S7), say "riscv,none" or nothing.
 */
bool arch_fdt_cpu_usable(const struct fdt *f, int node)
{
    uint32_t len;
    const char *mmu = fdt_prop(f, node, "mmu-type", &len);
    return mmu && len > 0 && mmu[len - 1] == '\0' &&
           (strcmp(mmu, "riscv,sv39") == 0 || strcmp(mmu, "riscv,sv48") == 0 ||
            strcmp(mmu, "riscv,sv57") == 0);
}
