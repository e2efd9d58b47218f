/* SPDX-License-Identifier: MIT */
/*
 * arch/riscv64/trap.c - decide what a trap means.
 * Cause codes: priv spec 4.1.8, table 4.2 ("Supervisor cause register
 * (scause) values after trap"); stval contents: priv spec 4.1.9.
 */
#include "kernel/arch_callbacks.h"
#include "kernel/errno.h"
#include "riscv.h"

/* vectors.S uses the TF_* offsets; the C layout must agree. */
_Static_assert(offsetof(struct trapframe, x[31]) == TF_X(31), "TF_X");
_Static_assert(offsetof(struct trapframe, s0) == TF_X(8), "s0 is x8");
_Static_assert(offsetof(struct trapframe, sepc) == TF_SEPC, "TF_SEPC");
_Static_assert(offsetof(struct trapframe, sstatus) == TF_SSTATUS, "TF_SSTATUS");
_Static_assert(offsetof(struct trapframe, scause) == TF_SCAUSE, "TF_SCAUSE");
_Static_assert(offsetof(struct trapframe, stval) == TF_STVAL, "TF_STVAL");
_Static_assert(sizeof(struct trapframe) <= TF_SIZE && TF_SIZE % 16 == 0, "TF_SIZE");

/* Exception codes (scause with the interrupt bit clear). */
enum {
    CAUSE_FETCH_MISALIGNED = 0,
    CAUSE_FETCH_ACCESS = 1,
    CAUSE_ILLEGAL_INSTRUCTION = 2,
    CAUSE_BREAKPOINT = 3,
    CAUSE_LOAD_MISALIGNED = 4,
    CAUSE_LOAD_ACCESS = 5,
    CAUSE_STORE_MISALIGNED = 6,
    CAUSE_STORE_ACCESS = 7,
    CAUSE_ECALL_U = 8,
    CAUSE_ECALL_S = 9,
    CAUSE_FETCH_PAGE_FAULT = 12,
    CAUSE_LOAD_PAGE_FAULT = 13,
    CAUSE_STORE_PAGE_FAULT = 15,
};
#define CAUSES(a, b, c) (1ul << CAUSE_##a | 1ul << CAUSE_##b | 1ul << CAUSE_##c)

/* Faults a probe may take on purpose and recover from through the
 * exception table: access and page faults (arch_safe_read64), illegal
 * instructions (probing an optional CSR such as Zkr's seed) and the
 * breakpoint of a semihosting call that no debugger serves (power.c). */
#define FIXABLE                                                                                    \
    (CAUSES(FETCH_ACCESS, LOAD_ACCESS, STORE_ACCESS) |                                             \
     CAUSES(FETCH_PAGE_FAULT, LOAD_PAGE_FAULT, STORE_PAGE_FAULT) |                                 \
     CAUSES(ILLEGAL_INSTRUCTION, BREAKPOINT, BREAKPOINT))
#define PAGE_FAULTS CAUSES(FETCH_PAGE_FAULT, LOAD_PAGE_FAULT, STORE_PAGE_FAULT)
/* Where stval holds the faulting address (priv spec 4.1.9). */
#define STVAL_IS_ADDRESS                                                                           \
    (CAUSES(FETCH_MISALIGNED, LOAD_MISALIGNED, STORE_MISALIGNED) |                                 \
     CAUSES(FETCH_ACCESS, LOAD_ACCESS, STORE_ACCESS) |                                             \
     CAUSES(FETCH_PAGE_FAULT, LOAD_PAGE_FAULT, STORE_PAGE_FAULT))

static const char *const exception_names[16] = {
    [CAUSE_FETCH_MISALIGNED] = "instruction address misaligned",
    [CAUSE_FETCH_ACCESS] = "instruction access fault",
    [CAUSE_ILLEGAL_INSTRUCTION] = "illegal instruction",
    [CAUSE_BREAKPOINT] = "breakpoint",
    [CAUSE_LOAD_MISALIGNED] = "load address misaligned",
    [CAUSE_LOAD_ACCESS] = "load access fault",
    [CAUSE_STORE_MISALIGNED] = "store/AMO address misaligned",
    [CAUSE_STORE_ACCESS] = "store/AMO access fault",
    [CAUSE_ECALL_U] = "environment call from U-mode",
    [CAUSE_ECALL_S] = "environment call from S-mode",
    [CAUSE_FETCH_PAGE_FAULT] = "instruction page fault",
    [CAUSE_LOAD_PAGE_FAULT] = "load page fault",
    [CAUSE_STORE_PAGE_FAULT] = "store/AMO page fault",
};

/* Supervisor interrupt codes (scause with the interrupt bit set). */
static const char *interrupt_name(unsigned long code)
{
    switch (code) {
    case 1: return "supervisor software interrupt";
    case 5: return "supervisor timer interrupt";
    case 9: return "supervisor external interrupt";
    default: return "reserved interrupt";
    }
}

static bool cause_in(unsigned long code, unsigned long set)
{
    return code < 64 && (set >> code & 1);
}

/* Misaligned accesses end a program with a SIGBUS-like status. */
#define MISALIGNED CAUSES(FETCH_MISALIGNED, LOAD_MISALIGNED, STORE_MISALIGNED)

uintptr_t riscv_trap_ra;

static const char *exception_name(unsigned long code)
{
    return code < ARRAY_SIZE(exception_names) && exception_names[code] ? exception_names[code]
                                                                       : "reserved exception";
}

static void interrupt(struct trapframe *tf, unsigned long code)
{
    interrupt_enter();
    switch (code) {
    case IRQ_S_TIMER: riscv_timer_interrupt(); break;
    case IRQ_S_SOFT: riscv_ipi_interrupt(); break;
    case IRQ_S_EXTERNAL: riscv_external_interrupt(); break;
    default:
        riscv_trap_ra = tf->ra;
        panic_trap(tf, "unexpected %s (scause %#lx)", interrupt_name(code), tf->scause);
    }
}

/*
 * A page fault on a page the program has (kernel/syscall/user_fault.c,
 * user_fault_was_stale), taken in user mode or by the kernel's user copies
 * (sstatus.SUM = 1, uaccess.S): forget the address on this hart and run
 * the instruction again. The same fault (pc and address) twice in a row on
 * this hart is not retried again: a fault that a local SFENCE.VMA does not
 * cure is a real one.
 */
static bool retry_stale_fault(struct trapframe *tf, unsigned long code)
{
    unsigned prot = code == CAUSE_STORE_PAGE_FAULT   ? VM_WRITE
                    : code == CAUSE_FETCH_PAGE_FAULT ? VM_EXEC
                                                     : VM_READ;
    struct arch_cpu *a = &this_cpu()->arch;
    bool again = a->retried_fault_pc == tf->sepc && a->retried_fault_va == tf->stval;
    a->retried_fault_pc = a->retried_fault_va = 0;
    if (!cause_in(code, PAGE_FAULTS) || again || !user_fault_was_stale(tf->stval, prot))
        return false;
    a->retried_fault_pc = tf->sepc;
    a->retried_fault_va = tf->stval;
    arch_tlb_flush_page(tf->stval);
    return true;
}

/* A fault in user mode ends the program (SIGSEGV-, SIGILL-, SIGBUS-like). */
static void user_exception(struct trapframe *tf, unsigned long code)
{
    if (retry_stale_fault(tf, code))
        return;
    if (code == CAUSE_ILLEGAL_INSTRUCTION && riscv_fpu_first_use(tf))
        return; /* FP state loaded lazily (fpu.c) */
    int status = EXIT_KILLED_SEGV;
    if (code == CAUSE_ILLEGAL_INSTRUCTION)
        status = EXIT_KILLED_ILL;
    else if (cause_in(code, MISALIGNED))
        status = EXIT_KILLED_BUS;
    uintptr_t addr = cause_in(code, STVAL_IS_ADDRESS) ? tf->stval : tf->sepc;
    user_fault(exception_name(code), addr, tf->sepc, status);
}

static __noreturn void kernel_exception(struct trapframe *tf, unsigned long code)
{
    riscv_trap_ra = tf->ra; /* the return address if a leaf function trapped (regs.c) */
    /* A stack overflow that vectors.S did not see: an access far below sp. */
    if (cause_in(code, STVAL_IS_ADDRESS) && kstack_is_guard(tf->stval))
        panic_stack_overflow(tf, tf->stval);
    if (cause_in(code, STVAL_IS_ADDRESS))
        panic_trap(tf, "%s at address %#lx (kernel mode)", exception_name(code), tf->stval);
    panic_trap(tf, "%s (scause %#lx, stval %#lx, kernel mode)", exception_name(code), tf->scause,
               tf->stval);
}

void riscv_stack_overflow(struct trapframe *tf)
{
    riscv_trap_ra = tf->ra;
    panic_stack_overflow(tf, tf->sp);
}

/* A trap taken in S mode returns with its frame's sstatus (vectors.S),
 * whose FS is what the hart had when the trap came. If the thread was
 * switched out and back meanwhile, the switch saved its FP registers and
 * left FS = Off (fpu.c), and the hart's registers may now be another
 * thread's: bringing back a stale Dirty would make the next switch save
 * them as this thread's. So the live FS goes back, not the frame's. */
static void keep_live_fs(struct trapframe *tf)
{
    tf->sstatus = (tf->sstatus & ~SSTATUS_FS) | (csr_read(sstatus) & SSTATUS_FS);
}

/* Called from vectors.S with interrupts off; returns with them off. */
void riscv_trap(struct trapframe *tf)
{
    bool is_interrupt = tf->scause & SCAUSE_INTERRUPT;
    unsigned long code = tf->scause & ~SCAUSE_INTERRUPT;
    bool from_user = !(tf->sstatus & SSTATUS_SPP);
    if (is_interrupt) {
        interrupt(tf, code);
    } else if (from_user) { /* an ecall from U never comes here: vectors.S .Lsyscall */
        user_exception(tf, code);
    } else if ((tf->sstatus & SSTATUS_SUM) && retry_stale_fault(tf, code)) {
        /* a user copy's access, run again */
    } else if (!(cause_in(code, FIXABLE) && extable_fixup(tf))) {
        kernel_exception(tf, code);
    }
    if (from_user) {
        user_return();
        return;
    }
    if (is_interrupt)
        interrupt_exit();
    keep_live_fs(tf);
}

int arch_safe_read64(uintptr_t addr, uint64_t *val)
{
    int err = 0;
    uint64_t v = 0;
    __asm__ volatile("1: ld %1, 0(%2)\n"
                     "2:\n"
                     ".pushsection .text.fixup, \"ax\"\n"
                     "3: li %0, %3\n"
                     "   j 2b\n"
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
    __asm__ volatile("1: sd %2, 0(%1)\n"
                     "2:\n"
                     ".pushsection .text.fixup, \"ax\"\n"
                     "3: li %0, %3\n"
                     "   j 2b\n"
                     ".popsection\n" EXTABLE_ENTRY(1b, 3b)
                     : "+r"(err)
                     : "r"(addr), "r"(val), "i"(-EFAULT)
                     : "memory");
    return err;
}
