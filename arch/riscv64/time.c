/* SPDX-License-Identifier: MIT */
/*
 * arch/riscv64/time.c - the frequency of the time CSR.
 *
 * RISC-V defines no way to ask the hart; the devicetree's /cpus node (or
 * each cpu node) carries "timebase-frequency" (Devicetree Specification
 * v0.4, 3.7 and 3.8; the RISC-V cpu binding puts it in /cpus). QEMU virt
 * says 10 MHz.
 */
#include "kernel/arch_callbacks.h"
#include "lib/string.h"
#include "riscv.h"

static uint64_t timebase_hz;

uint64_t arch_counter_hz(void)
{
    return timebase_hz;
}

/* The property is one or two cells (u32 or u64) wide. */
static uint64_t timebase_of(const struct fdt *f, int node)
{
    uint32_t len;
    const void *p = node >= 0 ? fdt_prop(f, node, "timebase-frequency", &len) : NULL;
    if (p && (len == 4 || len == 8))
        return fdt_read_cells(p, (int)(len / 4));
    return 0;
}

int riscv_cpu_node(const struct fdt *f, uint32_t hart)
{
    int parent = fdt_path(f, "/cpus");
    for (int n = parent >= 0 ? fdt_first_child(f, parent) : -1; n >= 0;
         n = fdt_next_sibling(f, n)) {
        uint64_t id, size;
        if (fdt_reg(f, n, 0, &id, &size) == 0 && id == hart)
            return n;
    }
    return -1;
}

/* /cpus first, then the boot hart's own cpu node. */
static uint64_t timebase_from_fdt(const struct fdt *f, uint32_t boot_hart)
{
    uint64_t hz = timebase_of(f, fdt_path(f, "/cpus"));
    return hz ? hz : timebase_of(f, riscv_cpu_node(f, boot_hart));
}

void riscv_time_init(const struct fdt *f, uint32_t boot_hart)
{
    const char *source = "devicetree";
    timebase_hz = f ? timebase_from_fdt(f, boot_hart) : 0;
    if (!timebase_hz) {
        timebase_hz = 10000000; /* QEMU virt's value */
        source = "a guess: no timebase-frequency in the devicetree";
    }
    kprintf("timebase: %llu Hz (%s)\n", (unsigned long long)timebase_hz, source);
}

/* Does a riscv,isa string such as "rv64imafdch_zicsr_sstc" name `ext`? The
 * multi-letter extensions follow the base and single letters, each after
 * an underscore (ISA spec, "ISA Extension Naming Conventions"). */
static bool isa_has(const char *isa, uint32_t len, const char *ext)
{
    size_t n = strlen(ext);
    for (uint32_t i = 0; i + n <= len; i++) {
        if (isa[i] == '_' && strncmp(&isa[i + 1], ext, n) == 0 &&
            (i + 1 + n == len || isa[i + 1 + n] == '_' || isa[i + 1 + n] == '\0'))
            return true;
    }
    return false;
}

/* A single-letter extension is among the letters after "rv64" and before
 * the first '_' ("rv64imafdc_zicsr..."); G stands for IMAFD (ISA spec,
 * "ISA Extension Naming Conventions"). */
static bool isa_has_letter(const char *isa, uint32_t len, char c)
{
    for (uint32_t i = 4; i < len && isa[i] && isa[i] != '_'; i++) {
        if (isa[i] == c || (isa[i] == 'g' && strchr("imafd", c)))
            return true;
    }
    return false;
}

bool riscv_hart_has_ext(const struct fdt *f, uint32_t hart, const char *ext)
{
    uint32_t len;
    int node = riscv_cpu_node(f, hart);
    if (node < 0)
        return false;
    const char *list = fdt_prop(f, node, "riscv,isa-extensions", &len);
    if (list && fdt_stringlist_contains(list, len, ext))
        return true;
    const char *isa = fdt_prop(f, node, "riscv,isa", &len);
    if (!isa)
        return false;
    return ext[0] && !ext[1] ? isa_has_letter(isa, len, ext[0]) : isa_has(isa, len, ext);
}

/*
 * Latency timestamps: the cycle CSR if S mode may read it, which M-mode
 * firmware decides with mcounteren.CY; a read it forbids is an illegal
 * instruction, caught here through the exception table (probe once, on the
 * boot hart; every hart gets the same firmware). U mode reads the same
 * counters through scounteren (cpu.c, riscv_counters_init).
 */
bool riscv_use_cycle;

static bool cycle_readable(void)
{
    long ok = 1;
    uint64_t v;
    __asm__ volatile("1: rdcycle %1\n"
                     "2:\n"
                     ".pushsection .text.fixup, \"ax\"\n"
                     "3: li %0, 0\n"
                     "   j 2b\n"
                     ".popsection\n" EXTABLE_ENTRY(1b, 3b)
                     : "+r"(ok), "=r"(v)
                     :
                     : "memory");
    return ok;
}

/* RDTIME and RDCYCLE are CSRRS rd, csr, x0 with the CSR number in bits
 * [31:20]: time is 0xC01, cycle 0xC00 (priv spec, "Counters"). */
#define CSR_FIELD 0xfff00000u
#define CSR_TIME  (0xc01u << 20)
#define CSR_CYCLE (0xc00u << 20)

void arch_timestamp_init(void)
{
    static bool probed;
    if (!probed) {
        probed = true;
        riscv_use_cycle = cycle_readable();
        if (riscv_use_cycle) /* every read to RDCYCLE, before other harts start */
            text_patch_timestamp_reads(CSR_FIELD, CSR_TIME, CSR_CYCLE);
    }
}

const char *arch_timestamp_name(void)
{
    return riscv_use_cycle ? "cycle" : "time";
}

uint64_t arch_timestamp_hz(void)
{
    return riscv_use_cycle ? 0 : timebase_hz;
}
