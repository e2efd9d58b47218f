/* SPDX-License-Identifier: MIT */
/*
 * tests/kernel/test_boot.c - self-tests of the boot platform, run in the
 * kernel on every arch (ktest=boot or ktest=all). Each checks something the
 * rest of the kernel relies on and that a broken port would get wrong.
 */
#include "arch/arch.h"
#include "kernel/bootinfo.h"
#include "kernel/cpu.h"
#include "kernel/errno.h"
#include "kernel/ktest.h"
#include "kernel/mm.h"
#include "kernel/platform.h"
#include "kernel/time.h"
#include "lib/memmap.h"
#include "lib/printf.h"
#include "lib/string.h"

static uint8_t zero_filled[4096]; /* in .bss: booti does not zero it, start.S must */

KTEST(boot, bss_is_zeroed)
{
    unsigned nonzero = 0;
    for (unsigned i = 0; i < sizeof(zero_filled); i++)
        nonzero += zero_filled[i] != 0;
    KEXPECT_EQ(nonzero, 0);
}

KTEST(boot, runs_in_high_half)
{
    int local;
    KEXPECT((uintptr_t)&local >= ARCH_KERNEL_VBASE);
    KEXPECT((uintptr_t)_kernel_start == ARCH_KERNEL_VBASE);
    KEXPECT((uintptr_t)__builtin_return_address(0) >= ARCH_KERNEL_VBASE);
}

KTEST(boot, stack_is_aligned)
{
    char probe[1] __aligned(ARCH_STACK_ALIGN);
    KEXPECT((uintptr_t)probe % ARCH_STACK_ALIGN == 0);
    KEXPECT((uintptr_t)__builtin_frame_address(0) % 8 == 0);
}

KTEST(boot, per_cpu_pointer)
{
    unsigned long flags = arch_irq_save(); /* this_cpu() needs the thread to stay put */
    struct cpu *c = this_cpu();
    arch_irq_restore(flags);
    KEXPECT(c->self == c);
    KEXPECT(c >= &cpus[0] && c < &cpus[MAX_CPUS]);
}

KTEST(boot, memory_map_is_sane)
{
    const struct boot_info *bi = &boot_info;
    KEXPECT(bi->mmap_count > 0);
    for (uint32_t i = 0; i + 1 < bi->mmap_count; i++)
        KEXPECT(bi->mmap[i].base + bi->mmap[i].size <= bi->mmap[i + 1].base);
    KEXPECT(memmap_total(bi->mmap, bi->mmap_count, BOOT_MEM_USABLE) >= MiB(64));
    /* The kernel image is never usable memory. */
    for (uint32_t i = 0; i < bi->mmap_count; i++) {
        const struct boot_mem_region *r = &bi->mmap[i];
        bool overlaps =
            r->base < bi->kernel_phys + bi->kernel_size && bi->kernel_phys < r->base + r->size;
        if (overlaps)
            KEXPECT_EQ(r->type, BOOT_MEM_KERNEL);
    }
    KEXPECT(bi->kernel_phys % MiB(2) == 0);
}

KTEST(boot, kernel_image_mapped_at_its_physical_copy)
{
    /* The same byte seen through the high mapping and the identity map. */
    const volatile uint8_t *high = (const uint8_t *)_kernel_start;
    const volatile uint8_t *low = phys_to_virt(boot_info.kernel_phys);
    KEXPECT(high[0] == low[0] && high[64] == low[64]);
}

KTEST(boot, firmware_describes_cpus)
{
    struct platform_cpu ids[MAX_CPUS];
    const char *source;
    int n = platform_cpus(&boot_info, ids, MAX_CPUS, &source);
    ktest_note("%d CPUs from %s", n, source);
    KEXPECT(n >= 1);
}

/* Interrupts CPU c took that were not timer ticks: IPIs (and, on the boot
 * CPU, the console's). interrupt_enter counts an interrupt before
 * sched_tick counts the tick, so a read in between is one too many: take
 * a value only once it has held for a millisecond, far longer than a tick
 * handler runs. */
static uint64_t other_interrupts(const struct cpu *c)
{
    uint64_t v = ~0ull;
    for (int i = 0; i < 100; i++) {
        uint64_t ticks = READ_ONCE(c->sched.ticks), w = READ_ONCE(c->interrupts) - ticks;
        if (w == v)
            break;
        v = w;
        for (uint64_t until = time_now_ns() + 1000000; time_now_ns() < until;)
            arch_cpu_relax();
    }
    return v;
}

/* A reschedule IPI sent from here, if this thread is not running on cpu itself. */
static void send_reschedule(unsigned cpu)
{
    unsigned long flags = arch_irq_save();
    if (this_cpu()->id != cpu)
        arch_send_ipi(cpu, IPI_RESCHEDULE);
    arch_irq_restore(flags);
}

/* Every other online CPU takes the IPIs sent to it (the scheduler would
 * limp on without them, one tick late). Several tries each: a first
 * reading taken mid-tick may be one too high. */
KTEST(boot, ipis_reach_every_cpu)
{
    for (unsigned cpu = 1; cpu < MAX_CPUS; cpu++) {
        if (!READ_ONCE(cpus[cpu].online))
            continue;
        uint64_t before = other_interrupts(&cpus[cpu]);
        bool seen = false;
        for (int try = 0; try < 20 && !seen; try++) {
            send_reschedule(cpu);
            uint64_t deadline = time_now_ns() + 50000000;
            while (!seen && time_now_ns() < deadline)
                seen = other_interrupts(&cpus[cpu]) > before;
        }
        if (!seen)
            ktest_fail(__FILE__, __LINE__, "cpu%u (hardware id %#llx) took none of 20 IPIs", cpu,
                       (unsigned long long)cpus[cpu].hwid);
    }
}

/* Each CPU the firmware describes has its own logical number and its own
 * hardware id (kernel/smp.c numbers them; the IPI code addresses them by id). */
KTEST(boot, cpus_numbered_once_each)
{
    struct platform_cpu ids[MAX_CPUS];
    const char *source;
    int n = platform_cpus(&boot_info, ids, MAX_CPUS, &source);
    KEXPECT_EQ((long)cpus_present, (long)(n < 1 ? 1 : MIN(n, MAX_CPUS)));
    unsigned duplicates = 0, misnumbered = 0;
    for (unsigned i = 0; i < cpus_present; i++) {
        misnumbered += cpus[i].id != i || cpus[i].self != &cpus[i];
        for (unsigned j = 0; j < i; j++)
            duplicates += cpus[i].hwid == cpus[j].hwid;
    }
    KEXPECT_EQ(duplicates, 0u);
    KEXPECT_EQ(misnumbered, 0u);
    KEXPECT_EQ(cpus[0].hwid, arch_cpu_hwid());
}

KTEST(boot, counter_advances)
{
    uint64_t hz = arch_counter_hz();
    KEXPECT(hz >= 1000000 && hz <= 10000000000ull);
    uint64_t t0 = arch_counter(), t1 = t0;
    for (int i = 0; i < 1000000 && t1 == t0; i++)
        t1 = arch_counter();
    KEXPECT(t1 > t0);
}

KTEST(boot, kernel_printf)
{
    char buf[64];
    int n = snprintf(buf, sizeof(buf), "%s %d %#x %05u %-3c|", "ok", -42, 0xbeef, 7u, 'z');
    KEXPECT(strcmp(buf, "ok -42 0xbeef 00007 z  |") == 0);
    KEXPECT_EQ(n, 24);
}

KTEST(boot, devicetree_valid_when_present)
{
    if (!boot_info.fdt_phys) {
        ktest_note("no devicetree on this boot path");
        return;
    }
    KEXPECT(boot_fdt() != NULL);
    if (boot_fdt())
        KEXPECT(fdt_path(boot_fdt(), "/cpus") >= 0);
}

KTEST(boot, faults_are_fixed_up_by_extable)
{
    uint64_t v = 0x1234;
    int err = arch_safe_read64(ARCH_UNMAPPED_TEST_ADDR, &v);
    KEXPECT_EQ(err, -EFAULT);
    uint64_t known = 0x0123456789abcdefull;
    err = arch_safe_read64((uintptr_t)&known, &v);
    KEXPECT_EQ(err, 0);
    KEXPECT_EQ(v, known);
}
