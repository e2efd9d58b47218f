/* SPDX-License-Identifier: MIT */
/*
 * tests/host/test_tlb_model.c - the ASID allocator (kernel/mm/asid.c), the
 * thread switch's loads (kernel/mm/aspace_switch.h) and the x86_64 PCID
 * bookkeeping (arch/x86_64/pcid.c, pcid_load.h), compiled as they are,
 * against a model of tagged TLBs, through random sequences of switches,
 * page accesses, unmaps with their shootdowns, new address spaces and so
 * generation rollovers. QEMU 7.2's TCG has no PCID, so on x86_64 this is
 * the only test that runs that code.
 *
 * The model TLB (per CPU, entries keyed by PCID/ASID and page) keeps every
 * translation it was given until an instruction removes it, which is the
 * most a real TLB may do (SDM vol. 3A 4.10.4; Arm ARM D8.13; RISC-V priv.
 * 10.2.1): any access that hits an entry whose frame is not what the
 * loaded address space maps there now is a stale translation used, and
 * fails the case.
 *
 * x86 (SDM vol. 3A 4.10.4.1, vol. 2A INVLPG, INVPCID): without CR4.PCIDE a
 * MOV to CR3 drops every entry; with it, the entries of the PCID in
 * CR3[11:0] unless bit 63 is set. INVLPG drops a page of the current
 * PCID, INVPCID type 0 a page of any PCID, type 3 every PCID's. The
 * shootdown IPI is delivered at once: the target CPU runs
 * x86_tlb_serve_request.
 *
 * arm64/riscv64 (the "broadcast" configurations): the arch code is the
 * model's, as those arches are simple: a load flushes only when asid.c
 * (or kernel/mm/aspace_switch.h without ASIDs) asks for it, and a
 * shootdown drops the page under every ASID on every CPU (TLBI VAAE1IS,
 * SFENCE.VMA rs2=x0). Those arches' own code is tested on QEMU, which has
 * ASIDs there (the mm.asid_* tests).
 *
 * Loads go the thread switch's way (kernel/mm/aspace_switch.h, with
 * x86_64's inline loads of arch/x86_64/pcid_load.h) or aspace_activate's
 * (kernel/mm/vm.c, out of line), chosen at random.
 *
 * Each configuration runs in a child process: asid.c and pcid.c keep their
 * state in statics, set up once as at boot.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arch/x86_64/pcid.h"
#include "arch/x86_64/pcid_load.h"
#include "kernel/mm/asid.h"
#include "tests/host/check.h"
#include "tlb_model.h"

/* kernel/mm/aspace_switch.h with x86_64's hooks, as its impl.h has them
 * (this CPU's stale marks are cpus[model_cpu]'s here). */
#define ARCH_HAS_ASPACE_ACTIVATE_TAGGED 1
static inline void arch_aspace_activate_tagged(uint64_t user_root, unsigned asid)
{
    x86_load_tagged(cpus[model_cpu].arch.stale_pcids, user_root, asid);
}
#define ARCH_HAS_ASPACE_ACTIVATE_UNTAGGED 1
static inline void arch_aspace_activate_untagged(uint64_t user_root)
{
    x86_load_untagged(user_root);
}
#include "kernel/mm/aspace_switch.h"

#define NCPUS       3
#define NSLOTS      5     /* address spaces alive at once */
#define NPAGES      4     /* user pages per address space */
#define NTAGS       65536 /* the widest ASID: 16 bits */
#define CR3_NOFLUSH (1ull << 63)
#define KERNEL_ROOT 0x1000ull

struct cpu cpus[MAX_CPUS];
unsigned model_cpu;

/* One configuration of the hardware and the command line. */
struct config {
    const char *name;
    bool x86;          /* arch/x86_64/pcid.c; else the broadcast model */
    unsigned hw_bits;  /* 12: PCID; 0: none */
    bool invpcid;      /* x86: the CPU has INVPCID */
    const char *limit; /* the kernel command line */
};

static const struct config *cfg;

/* The model. */
static struct {
    /* An entry: frame + 1 (0: none), valid while its epoch is its CPU's. */
    struct entry {
        uint32_t frame, epoch, page_epoch;
    } tlb[NCPUS][NTAGS][NPAGES];
    uint32_t epoch[NCPUS];              /* bumped: every entry of the CPU gone */
    uint32_t page_epoch[NCPUS][NPAGES]; /* bumped: the page gone under every tag */
    uint64_t cr3[NCPUS];                /* x86: CR3; else the root */
    unsigned tag[NCPUS];                /* the broadcast model's loaded ASID */
    bool pcide[NCPUS];
    uint32_t map[NSLOTS][NPAGES]; /* frame + 1 */
    struct aspace as[NSLOTS];
    uint32_t next_frame;
    uint64_t next_root;
    uint64_t stale_uses, hits, accesses;
    uint64_t tagged_loads, untagged_loads; /* aspace_switch.h's inline ones */
} m;

void model_lock(struct spinlock *l)
{
    if (l->taken) {
        printf("    # spinlock taken twice\n");
        exit(3);
    }
    l->taken = true;
}

void model_unlock(struct spinlock *l)
{
    l->taken = false;
}

void panic(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("    # panic: ");
    vprintf(fmt, ap);
    va_end(ap);
    exit(4);
}

void kprintf(const char *fmt, ...)
{
    (void)fmt; /* the boot line asid_init prints */
}

unsigned arch_asid_bits(void)
{
    return cfg->hw_bits;
}

void arch_asid_enable(void)
{
    m.pcide[model_cpu] = true; /* as arch/x86_64/mmu.c's CR4.PCIDE */
    if (cfg->x86)
        x86_pcid_enable(cfg->invpcid);
}

uint64_t x86_kernel_root(void)
{
    return KERNEL_ROOT;
}

static void drop(unsigned cpu, unsigned tag, int page)
{
    for (int p = 0; p < NPAGES; p++)
        if (page < 0 || p == page)
            m.tlb[cpu][tag][p].frame = 0;
}

static void drop_every_tag(unsigned cpu)
{
    m.epoch[cpu]++;
}

static uint32_t cached_frame(unsigned cpu, unsigned tag, int page)
{
    const struct entry *e = &m.tlb[cpu][tag][page];
    bool valid = e->epoch == m.epoch[cpu] && e->page_epoch == m.page_epoch[cpu][page];
    return valid ? e->frame : 0;
}

void x86_write_cr3(uint64_t v)
{
    unsigned cpu = model_cpu;
    if (!m.pcide[cpu]) {
        CHECK((v & (CR3_NOFLUSH | 0xfff)) == 0); /* bit 63 with PCIDE clear: #GP */
        drop_every_tag(cpu);
    } else if (!(v & CR3_NOFLUSH)) {
        drop(cpu, v & 0xfff, -1);
    }
    m.cr3[cpu] = v & ~CR3_NOFLUSH;
}

uint64_t x86_read_cr3(void)
{
    return m.cr3[model_cpu];
}

static unsigned loaded_tag(unsigned cpu)
{
    if (!cfg->x86)
        return m.tag[cpu];
    return m.pcide[cpu] ? m.cr3[cpu] & 0xfff : 0;
}

static int page_of(uintptr_t va)
{
    CHECK(va % PAGE_SIZE == 0 && va / PAGE_SIZE < NPAGES);
    return (int)(va / PAGE_SIZE);
}

void arch_tlb_flush_page(uintptr_t va)
{
    drop(model_cpu, loaded_tag(model_cpu), page_of(va));
}

void x86_invpcid(uint64_t type, uint64_t pcid, uintptr_t va)
{
    CHECK(cfg->invpcid && m.pcide[model_cpu]); /* else #UD or #GP */
    if (type == 0)
        drop(model_cpu, (unsigned)pcid, page_of(va));
    else if (type == 1)
        drop(model_cpu, (unsigned)pcid, -1);
    else
        drop_every_tag(model_cpu);
}

void x86_send_shootdown(const struct cpu *c)
{
    unsigned from = model_cpu;
    model_cpu = c->id;
    x86_tlb_serve_request();
    model_cpu = from;
}

/* The broadcast model's arch code (arm64, riscv64). */
static void broadcast_activate(uint64_t root, unsigned asid, bool need_flush)
{
    if (need_flush)
        drop_every_tag(model_cpu);
    m.cr3[model_cpu] = root;
    m.tag[model_cpu] = asid;
}

static void broadcast_shootdown(uintptr_t va)
{
    for (unsigned c = 0; c < NCPUS; c++)
        m.page_epoch[c][page_of(va)]++;
}

/* kernel/mm/vm.c:aspace_activate_irqs_off, as it is. */
void aspace_activate_irqs_off(struct cpu *c, struct aspace *as)
{
    CHECK(c == &cpus[model_cpu]);
    c->sched.user_as = as;
    unsigned asid = asid_for_switch(as);
    uint64_t root = as ? as->root : 0;
    if (cfg->x86)
        arch_aspace_activate(root, asid & ASID_VALUE_MASK, asid & ASID_NEED_FLUSH);
    else
        broadcast_activate(root ? root : KERNEL_ROOT, asid & ASID_VALUE_MASK,
                           asid & ASID_NEED_FLUSH);
}

/* The broadcast model's arch_aspace_activate, for tlb_model_broadcast.c. */
void broadcast_aspace_activate(uint64_t user_root, unsigned asid, bool need_flush)
{
    broadcast_activate(user_root ? user_root : KERNEL_ROOT, asid, need_flush);
}

/* Which of aspace_switch.h's inline loads the switch to `as` takes. */
static void count_inline_load(const struct cpu *c, const struct aspace *as)
{
    if (as && asid_tag_without_lock(&as->asid, c->id))
        m.tagged_loads++;
    else if (!asids_in_use)
        m.untagged_loads++;
}

/* On CPU `cpu`: the thread switch's way (kernel/sched/sched.c, nothing
 * when `as` is already loaded, else aspace_switch.h's inline), or
 * aspace_activate's (vm.c: every time, out of line), half the time each. */
static void activate(unsigned cpu, struct aspace *as)
{
    model_cpu = cpu;
    struct cpu *c = &cpus[cpu];
    if (rand() % 2) {
        if (as == c->sched.user_as)
            return;
        count_inline_load(c, as);
        if (cfg->x86)
            aspace_switch_irqs_off(c, as);
        else
            broadcast_switch(c, as);
    } else {
        aspace_activate_irqs_off(c, as);
    }
}

/* kernel/mm/vm.c:vm_unmap of one page, on CPU `cpu`. */
static void unmap(unsigned cpu, unsigned slot, int page)
{
    m.map[slot][page] = 0;
    model_cpu = cpu;
    uintptr_t va = (uintptr_t)page * PAGE_SIZE;
    if (cfg->x86)
        arch_tlb_shootdown(asid_of(&m.as[slot]), va, PAGE_SIZE);
    else
        broadcast_shootdown(va);
}

static int slot_of_root(uint64_t root)
{
    for (int s = 0; s < NSLOTS; s++)
        if (m.as[s].root == root)
            return s;
    return -1; /* the kernel's root: no user pages */
}

/* A user access on `cpu`: through the TLB, else a walk that fills it. */
static void user_access(unsigned cpu, int page)
{
    unsigned tag = loaded_tag(cpu);
    int slot = slot_of_root(cfg->x86 ? m.cr3[cpu] & ~0xfffull : m.cr3[cpu]);
    uint32_t now = slot < 0 ? 0 : m.map[slot][page];
    uint32_t cached = cached_frame(cpu, tag, page);
    m.accesses++;
    if (cached) {
        m.hits++;
        if (cached != now) {
            if (!m.stale_uses)
                printf("    # cpu%u tag %u page %d: frame %u from the TLB, %u mapped\n", cpu, tag,
                       page, cached - 1, now ? now - 1 : 0);
            m.stale_uses++;
        }
    } else if (now) {
        m.tlb[cpu][tag][page] = (struct entry){now, m.epoch[cpu], m.page_epoch[cpu][page]};
    }
}

static bool loaded_anywhere(unsigned slot)
{
    for (unsigned c = 0; c < NCPUS; c++)
        if ((cfg->x86 ? m.cr3[c] & ~0xfffull : m.cr3[c]) == m.as[slot].root)
            return true;
    return false;
}

/* A new address space in `slot` (the old one's exit: it runs nowhere). */
static void respawn(unsigned slot)
{
    m.as[slot] = (struct aspace){.root = m.next_root += 0x1000, .asid = 0};
    for (int p = 0; p < NPAGES; p++)
        m.map[slot][p] = rand() % 2 ? ++m.next_frame : 0;
}

static void step(void)
{
    unsigned cpu = (unsigned)rand() % NCPUS, slot = (unsigned)rand() % NSLOTS;
    int page = rand() % NPAGES, r = rand() % 100;
    if (r < 35)
        user_access(cpu, page);
    else if (r < 60)
        activate(cpu, rand() % 10 ? &m.as[slot] : NULL);
    else if (r < 75 && m.map[slot][page])
        unmap(cpu, slot, page);
    else if (r < 90 && !m.map[slot][page])
        m.map[slot][page] = ++m.next_frame; /* not present is never cached */
    else if (r >= 95 && !loaded_anywhere(slot))
        respawn(slot);
}

/* The child: boot, then 40 sequences of 5,000 steps. Exit status: 0 when
 * no stale translation was used, the TLB was hit, (with few ASIDs) the
 * generations rolled over, and the switch's inline load of the case
 * (tagged with ASIDs, untagged without) ran. */
static int run_config(void)
{
    for (unsigned c = 0; c < NCPUS; c++)
        cpus[c] = (struct cpu){.id = c, .hwid = c, .online = true};
    m.next_root = KERNEL_ROOT;
    model_cpu = 0;
    asid_init(cfg->limit);
    for (model_cpu = 1; model_cpu < NCPUS; model_cpu++)
        asid_cpu_init();
    for (model_cpu = 0; model_cpu < NCPUS; model_cpu++) /* the boot's kernel tables */
        aspace_activate_irqs_off(&cpus[model_cpu], NULL);
    for (unsigned seed = 1; seed <= 40; seed++) {
        srand(seed);
        for (unsigned s = 0; s < NSLOTS; s++)
            if (!loaded_anywhere(s))
                respawn(s);
        for (int i = 0; i < 5000; i++)
            step();
    }
    printf("    # %s: %llu accesses, %llu TLB hits, %llu stale, %llu rollovers, %u ASIDs, "
           "%llu tagged and %llu untagged inline loads\n",
           cfg->name, (unsigned long long)m.accesses, (unsigned long long)m.hits,
           (unsigned long long)m.stale_uses, (unsigned long long)asid_rollovers(), asid_count(),
           (unsigned long long)m.tagged_loads, (unsigned long long)m.untagged_loads);
    bool few = asid_count() > 0 && asid_count() <= 8;
    uint64_t inline_loads = asid_count() ? m.tagged_loads : m.untagged_loads;
    return m.stale_uses == 0 && m.hits > 1000 && (!few || asid_rollovers() > 100) &&
                   inline_loads > 10
               ? 0
               : 1;
}

static void run(const struct config *c)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        cfg = c;
        int rc = run_config();
        fflush(stdout);
        _exit(rc);
    }
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(x86_pcid_invpcid)
{
    run(&(struct config){"x86 PCID, INVPCID", true, 12, true, ""});
}
TEST(x86_pcid_invpcid_two_asids)
{
    run(&(struct config){"x86 PCID, INVPCID, 2 ASIDs", true, 12, true, "mm.asid_limit=2"});
}
TEST(x86_pcid_no_invpcid)
{
    run(&(struct config){"x86 PCID, no INVPCID", true, 12, false, ""});
}
TEST(x86_pcid_no_invpcid_few_asids)
{
    run(&(struct config){"x86 PCID, no INVPCID, 3 ASIDs", true, 12, false, "mm.asid_limit=3"});
}
TEST(x86_pcid_five_asids)
{
    run(&(struct config){"x86 PCID, INVPCID, 5 ASIDs", true, 12, true, "mm.asid_limit=5"});
}
TEST(x86_no_pcid)
{
    run(&(struct config){"x86 without PCID", true, 0, false, ""});
}
TEST(x86_pcid_asids_off)
{
    run(&(struct config){"x86 PCID, ASIDs off", true, 12, true, "mm.asid_limit=1"});
}
TEST(broadcast_asids)
{
    run(&(struct config){"arm64/riscv64, 16 bits", false, 16, false, ""});
}
TEST(broadcast_two_asids)
{
    run(&(struct config){"arm64/riscv64, 2 ASIDs", false, 16, false, "mm.asid_limit=2"});
}
TEST(broadcast_four_asids)
{
    run(&(struct config){"arm64/riscv64, 4 ASIDs", false, 16, false, "mm.asid_limit=4"});
}
/* Loading a root does not flush there (TTBR0_EL1, satp): without ASIDs,
 * the kernel's flush at every switch is all that keeps the TLB right. */
TEST(broadcast_asids_off)
{
    run(&(struct config){"arm64/riscv64, ASIDs off", false, 16, false, "mm.asid_limit=1"});
}

RUN_TESTS("tlb_model", CASE(x86_pcid_invpcid), CASE(x86_pcid_invpcid_two_asids),
          CASE(x86_pcid_no_invpcid), CASE(x86_pcid_no_invpcid_few_asids), CASE(x86_pcid_five_asids),
          CASE(x86_no_pcid), CASE(x86_pcid_asids_off), CASE(broadcast_asids),
          CASE(broadcast_two_asids), CASE(broadcast_four_asids), CASE(broadcast_asids_off))
