/* SPDX-License-Identifier: MIT */
/*
 * kernel/mm/asid.c - handing out address-space identifiers (ASIDs).
 *
 * With ASIDs the TLB tags each user translation with the ASID it was made
 * under (x86_64 PCID, arm64 TTBR0_EL1.ASID, riscv64 satp.ASID), so
 * translations of several address spaces live side by side and a switch
 * needs no flush. The hardware has few of them (256 to 65536) and the
 * kernel may make more address spaces than that over its life, so ASIDs
 * are handed out in generations:
 *
 *   - Every struct aspace remembers the ASID it was given, tagged with the
 *     generation it was given in (aspace.asid = generation << 16 | value).
 *   - Activating an address space whose tag is of the current generation
 *     loads its ASID as it is: no flush.
 *   - Otherwise it gets the next unused value of the current generation.
 *     Values are handed out in order, 1, 2, 3, ...; ASID 0 stays the
 *     kernel's (no user address space, or a kernel thread).
 *   - When the values run out, a new generation starts: every value is
 *     free again, every CPU is marked to flush its whole TLB (every
 *     non-global translation of every ASID) before it next activates a
 *     user address space, and the activation that ran out takes value 1.
 *
 * Why nothing else is needed:
 *
 *   Reuse. A value is only ever handed out again in a later generation,
 *   and a CPU loads a value of a new generation only after its flush. So no
 *   CPU can find a translation of the value's previous owner, whether that
 *   owner still lives or was freed (aspace_destroy gives nothing back: its
 *   value waits for the next generation, and every TLB has been flushed of
 *   it by the time anyone else loads it).
 *
 *   CPUs that keep running across a new generation. Such a CPU goes on
 *   with the old value of its address space X until its next switch, while
 *   X, activated on another CPU, may get a new value, and X's old value may
 *   go to another address space Y. Two CPUs using one value for X and Y is
 *   harmless: TLBs are per CPU, and this CPU flushes before it loads
 *   anything of the new generation. X living under two values at once
 *   matters only for TLB shootdowns: they must reach X's translations
 *   under any value. arm64 (TLBI VAAE1IS) and riscv64 (SFENCE.VMA by
 *   address, rs2 = x0, on every hart) invalidate by address for every ASID
 *   anyway; x86_64's shootdown interrupt flushes whatever PCID the CPU has
 *   loaded, and marks the value given for the others (arch/x86_64/mmu.c).
 *   So there is no need to keep the running CPUs' values reserved across a
 *   generation, which is what makes this allocator a counter and a lock.
 *
 * The price of not recycling freed values: a generation ends after
 * (count - 1) activations of fresh address spaces, however few are alive;
 * with 4095 or 65535 values that is rare, and a generation costs each CPU
 * one full flush.
 *
 * mm.asid_limit=N on the command line narrows the count to N (ASID 0
 * included), never widens it: mm.asid_limit=2 leaves one value, so every
 * switch between two user address spaces starts a generation (the tests'
 * way to exercise it); N <= 1 turns ASIDs off.
 */
#include "kernel/mm/asid.h"

#include "kernel/mm/vm.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "lib/cmdline.h"

#define VALUE_BITS ASID_VALUE_BITS
#define VALUE_MASK ASID_VALUE_MASK

static struct spinlock asid_lock = SPINLOCK_INIT;
static unsigned hw_bits;           /* what the boot CPU's MMU has */
static unsigned count;             /* ASIDs in use, 0 included; 0: none (every switch flushes) */
uint64_t asid_generation = 1;      /* starts at 1: a tag of 0 means "never given one" (asid.h) */
static unsigned next_value = 1;    /* the next value to hand out in this generation */
static uint64_t generations_run;   /* how many times the values ran out */
bool asid_flush_pending[MAX_CPUS]; /* asid.h */
bool asids_in_use;                 /* asid.h: count != 0 */

static uint64_t generation_of(uint64_t tag)
{
    return tag >> VALUE_BITS;
}

static unsigned value_of(uint64_t tag)
{
    return (unsigned)(tag & VALUE_MASK);
}

/* Every value free again; every CPU flushes before its next user switch.
 * The flags are set before the generation changes (release): a CPU that
 * sees the new generation, or a tag of it, sees its flag set too. */
static void new_generation_locked(void)
{
    for (unsigned i = 0; i < MAX_CPUS; i++)
        __atomic_store_n(&asid_flush_pending[i], true, __ATOMIC_RELAXED);
    __atomic_store_n(&asid_generation, asid_generation + 1, __ATOMIC_RELEASE);
    generations_run++;
    next_value = 1;
}

static uint64_t fresh_tag_locked(void)
{
    if (next_value >= count)
        new_generation_locked();
    return asid_generation << VALUE_BITS | next_value++;
}

/* A value of this generation if `as` has none, and this CPU's flush if it
 * owes one. */
static __attribute__((noinline)) unsigned switch_locked(struct aspace *as, unsigned cpu)
{
    unsigned long flags = spin_lock_irqsave(&asid_lock);
    if (generation_of(as->asid) != asid_generation)
        __atomic_store_n(&as->asid, fresh_tag_locked(), __ATOMIC_RELEASE);
    unsigned answer = value_of(as->asid) | (asid_flush_pending[cpu] ? ASID_NEED_FLUSH : 0);
    __atomic_store_n(&asid_flush_pending[cpu], false, __ATOMIC_RELAXED);
    spin_unlock_irqrestore(&asid_lock, flags);
    return answer;
}

unsigned asid_for_switch(struct aspace *as)
{
    if (!count)
        return ASID_NEED_FLUSH; /* as without ASIDs: ASID 0, flushed at every switch */
    if (!as)
        return 0;
    unsigned cpu = arch_this_cpu()->id; /* IRQs are off (aspace_activate) */
    uint64_t tag = asid_tag_without_lock(&as->asid, cpu);
    return tag ? value_of(tag) : switch_locked(as, cpu);
}

/*
 * The caller (vm_unmap) has just cleared page-table entries and is about to
 * shoot down their translations. The fence orders those stores before this
 * load: a CPU that gives `as` a new value after the load walks the tables
 * after that, so it cannot cache what was cleared; translations under the
 * value read are shot down, and under older values they are covered as the
 * comment at the top says.
 */
unsigned asid_of(const struct aspace *as)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return value_of(__atomic_load_n(&as->asid, __ATOMIC_RELAXED));
}

unsigned asid_count(void)
{
    return count;
}

unsigned asid_hw_bits(void)
{
    return hw_bits;
}

uint64_t asid_rollovers(void)
{
    unsigned long flags = spin_lock_irqsave(&asid_lock);
    uint64_t n = generations_run;
    spin_unlock_irqrestore(&asid_lock, flags);
    return n;
}

void asid_init(const char *cmdline)
{
    hw_bits = arch_asid_bits();
    if (hw_bits > VALUE_BITS)
        hw_bits = VALUE_BITS;
    unsigned long n = hw_bits ? 1ul << hw_bits : 0;
    unsigned long limit = cmdline_ulong(cmdline, "mm.asid_limit", 0);
    if (limit && limit < n)
        n = limit;
    count = n >= 2 ? (unsigned)n : 0; /* ASID 0 alone leaves none for user spaces */
    asids_in_use = count != 0;
    if (count) {
        arch_asid_enable();
        kprintf("mm: ASIDs: %u bits in hardware; %u in use%s\n", hw_bits, count,
                limit ? " (mm.asid_limit)" : "");
    } else {
        kprintf("mm: ASIDs: %u bits in hardware; none used (every switch flushes the TLB)%s\n",
                hw_bits, limit ? " (mm.asid_limit)" : "");
    }
}

void asid_cpu_init(void)
{
    if (!count)
        return;
    unsigned bits = arch_asid_bits();
    if (bits < VALUE_BITS && (1ul << bits) < count)
        panic("asid: cpu%u tags with %u ASID bits, the boot CPU with %u", this_cpu()->id, bits,
              hw_bits);
    arch_asid_enable();
}
