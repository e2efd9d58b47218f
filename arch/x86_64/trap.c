/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/trap.c - decide what an exception or interrupt means.
 * Exception names and error codes: SDM vol. 3A 6.3.1 (table 6-1), 6.15.
 */
#include "kernel/arch_callbacks.h"
#include "kernel/errno.h"
#include "x86.h"

static const char *const exception_names[VECTOR_FIRST_INTERRUPT] = {
    "divide error (#DE)",
    "debug (#DB)",
    "NMI",
    "breakpoint (#BP)",
    "overflow (#OF)",
    "bound range (#BR)",
    "invalid opcode (#UD)",
    "device not available (#NM)",
    "double fault (#DF)",
    "coprocessor segment overrun",
    "invalid TSS (#TS)",
    "segment not present (#NP)",
    "stack fault (#SS)",
    "general protection (#GP)",
    "page fault (#PF)",
    "reserved 15",
    "x87 FP error (#MF)",
    "alignment check (#AC)",
    "machine check (#MC)",
    "SIMD FP error (#XM)",
    "virtualization (#VE)",
    "control protection (#CP)",
    "reserved 22",
    "reserved 23",
    "reserved 24",
    "reserved 25",
    "reserved 26",
    "reserved 27",
    "hypervisor injection (#HV)",
    "VMM communication (#VC)",
    "security (#SX)",
    "reserved 31",
};

static bool from_user(const struct trapframe *tf)
{
    return (tf->cs & 3) == 3;
}

static void interrupt(struct trapframe *tf)
{
    interrupt_enter();
    switch (tf->vector) {
    case VECTOR_TIMER:
        x86_timer_rearm();
        x86_lapic_eoi();
        sched_tick();
        break;
    case VECTOR_IPI_RESCHEDULE: /* the sender set need_resched; just look at it */
        x86_lapic_eoi();
        break;
    case VECTOR_CONSOLE:
        x86_console_interrupt();
        x86_lapic_eoi();
        break;
    case VECTOR_TLB_SHOOTDOWN:
        x86_lapic_eoi();
        x86_tlb_serve_request();
        break;
    case VECTOR_IPI_STOP: x86_lapic_eoi(); arch_halt();
    case VECTOR_SPURIOUS: /* no EOI for spurious interrupts (SDM 11.9) */ break;
    default: panic_trap(tf, "unexpected interrupt, vector %lu", (unsigned long)tf->vector);
    }
}

/* A fault in user mode ends the program (SIGSEGV-, SIGILL-like statuses). */
static __noreturn void user_exception(struct trapframe *tf)
{
    char why[96];
    int status = EXIT_KILLED_SEGV;
    uintptr_t addr = tf->rip;
    switch (tf->vector) {
    case VECTOR_PF:
        addr = x86_read_cr2();
        snprintf(why, sizeof(why), "page fault (%s, %s)",
                 (tf->error & 1) ? "protection violation" : "page not present",
                 (tf->error & 16)  ? "instruction fetch"
                 : (tf->error & 2) ? "write"
                                   : "read");
        break;
    case VECTOR_UD:
        status = EXIT_KILLED_ILL;
        snprintf(why, sizeof(why), "illegal instruction");
        break;
    case VECTOR_MF: /* x87 (#MF) and SIMD (#XM): an exception the program unmasked */
    case VECTOR_XM:
        status = EXIT_KILLED_FPE;
        snprintf(why, sizeof(why), "%s, %s %#x", exception_names[tf->vector],
                 tf->vector == VECTOR_XM ? "MXCSR" : "x87 status word",
                 (unsigned)x86_fpu_status(tf->vector == VECTOR_XM));
        break;
    case VECTOR_AC:
        status = EXIT_KILLED_BUS;
        /* fall through */
    default:
        snprintf(why, sizeof(why), "%s, error code %#lx", exception_names[tf->vector],
                 (unsigned long)tf->error);
    }
    user_fault(why, addr, tf->rip, status);
}

/*
 * A kernel stack ran into its guard page. Usually the #PF could not push
 * its frame there, which made it a #DF (SDM vol. 3A 6.15, "Interrupt 8",
 * table 6-5) taken on the #DF IST stack: CR2 is still the guard address,
 * and the frame's RSP the overflowed one (its RIP is architecturally
 * undefined for #DF, in practice the faulting instruction). A #PF whose
 * frame still fitted (an access far below RSP) lands here as well.
 */
static bool stack_overflowed(const struct trapframe *tf, uintptr_t cr2)
{
    if (tf->vector == VECTOR_PF)
        return kstack_is_guard(cr2);
    return tf->vector == VECTOR_DF && (kstack_is_guard(cr2) || kstack_is_guard(tf->rsp - 8));
}

static __noreturn void kernel_exception(struct trapframe *tf)
{
    uintptr_t cr2 = x86_read_cr2();
    if (stack_overflowed(tf, cr2))
        panic_stack_overflow(tf, cr2);
    if (tf->vector == VECTOR_PF) {
        /* Error code bits: P (protection, else not present), W, U, I (fetch). */
        panic_trap(tf, "page fault at address %#lx (%s, %s, kernel mode%s)", (unsigned long)cr2,
                   (tf->error & 1) ? "protection violation" : "page not present",
                   (tf->error & 2) ? "write" : "read",
                   (tf->error & 16) ? ", instruction fetch" : "");
    }
    panic_trap(tf, "%s, error code %#lx", exception_names[tf->vector], (unsigned long)tf->error);
}

void x86_trap(struct trapframe *tf)
{
    if (tf->vector >= VECTOR_FIRST_INTERRUPT)
        interrupt(tf);
    else if (from_user(tf))
        user_exception(tf);
    else if (!((tf->vector == VECTOR_PF || tf->vector == VECTOR_GP) && extable_fixup(tf)))
        kernel_exception(tf);
    if (from_user(tf))
        user_return();
    else if (tf->vector >= VECTOR_FIRST_INTERRUPT)
        interrupt_exit();
}

int arch_safe_read64(uintptr_t addr, uint64_t *val)
{
    int err = 0;
    uint64_t v = 0;
    __asm__ volatile("1: movq (%2), %1\n"
                     "2:\n"
                     ".pushsection .text.fixup, \"ax\"\n"
                     "3: movl %3, %0\n"
                     "   jmp 2b\n"
                     ".popsection\n" EXTABLE_ENTRY(1b, 3b)
                     : "+r"(err), "+r"(v)
                     : "r"(addr), "i"(-EFAULT)
                     : "memory");
    *val = v;
    return err;
}

int arch_safe_write64(uintptr_t addr, uint64_t val)
{
    int err = 0;
    __asm__ volatile("1: movq %2, (%1)\n"
                     "2:\n"
                     ".pushsection .text.fixup, \"ax\"\n"
                     "3: movl %3, %0\n"
                     "   jmp 2b\n"
                     ".popsection\n" EXTABLE_ENTRY(1b, 3b)
                     : "+r"(err)
                     : "r"(addr), "r"(val), "i"(-EFAULT)
                     : "memory");
    return err;
}
