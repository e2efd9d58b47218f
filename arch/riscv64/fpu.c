/* SPDX-License-Identifier: MIT */
/*
 * arch/riscv64/fpu.c - F/D state for user programs.
 *
 * User programs are built rv64gc / lp64d; the kernel soft-float (rv64imac,
 * lp64), so f0-f31 and fcsr belong to user threads. sstatus.FS (priv spec
 * 4.1.1.6 / 3.1.6.6, "Extension Context Status in mstatus Register") says
 * what the live registers hold: Off (FP instructions are illegal), Initial
 * (the initial values), Clean (what was last saved or loaded), Dirty
 * (changed since). The hart sets Dirty itself on any write to an FP
 * register or fcsr, so the save can be skipped unless FS is Dirty.
 *
 * Lazy loading, eager saving. A switch saves the outgoing user thread's
 * registers if they are Dirty, and loads nothing: the incoming thread goes
 * back to U mode with FS = Off, so its first FP instruction traps
 * (illegal instruction) and riscv_fpu_first_use loads its registers, sets
 * FS = Clean and runs the instruction again. A thread that does no FP
 * between two switches pays neither the load nor the save. The registers
 * left in the hart after a switch belong to the thread switched out, but
 * they are also in its struct arch_fpu (saved if Dirty, else unchanged
 * since they were loaded from there), so no hart ever holds the only copy
 * of another thread's registers and a thread may migrate freely; and with
 * FS = Off the thread switched in cannot read them. The value that
 * matters on the way back to U mode is the sstatus saved in the user
 * trapframe (vectors.S restores it): the live FS inside the kernel only
 * records whether the current user thread's registers changed since they
 * were loaded, and is Off again after every switch.
 */
#include "kernel/arch_callbacks.h"
#include "lib/fdt.h"
#include "lib/string.h"
#include "riscv.h"

/* sstatus.FS and its values are in impl.h, with arch_fpu_switch. */

/* fs is a constant at every call: Off needs only the clear. */
static inline void fs_set(unsigned long fs)
{
    csr_clear(sstatus, SSTATUS_FS & ~fs);
    if (fs != FS_OFF)
        csr_set(sstatus, fs);
}

/* The assembler is told about the D extension only here: nothing else in
 * the kernel may contain FP instructions. Saving is out of line, called by
 * the switch (impl.h) only when sstatus.SD was set, after it has turned FS
 * Off: `was` is sstatus before that. The registers are still the thread's
 * (FS Off leaves them alone, priv spec 3.1.6.6); reading them needs FS on
 * again for the moment. Leaves FS = Off, as the switch does. */
void riscv_fpu_save_dirty(struct arch_fpu *f, unsigned long was)
{
    if ((was & SSTATUS_FS) != FS_DIRTY) /* SD for another reason: nothing changed */
        return;
    fs_set(FS_CLEAN);
    __asm__ volatile(".option push\n\t.option arch, +d\n\t"
                     ".irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,"
                     "24,25,26,27,28,29,30,31\n\t"
                     "fsd f\\n, 8 * \\n(%1)\n\t"
                     ".endr\n\t"
                     "frcsr %0\n\t"
                     ".option pop"
                     : "=r"(f->fcsr)
                     : "r"(f->f)
                     : "memory");
    fs_set(FS_OFF);
}

static void fpu_load(const struct arch_fpu *f)
{
    __asm__ volatile(".option push\n\t.option arch, +d\n\t"
                     ".irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,"
                     "24,25,26,27,28,29,30,31\n\t"
                     "fld f\\n, 8 * \\n(%1)\n\t"
                     ".endr\n\t"
                     "fscsr %0\n\t"
                     ".option pop"
                     :
                     : "r"(f->fcsr), "r"(f->f)
                     : "memory");
}

/* Every register +0.0 and fcsr 0 (round to nearest, no flags): the
 * Initial state arch_enter_user announces in the user's sstatus.FS. */
void arch_fpu_init(struct arch_fpu *f)
{
    memset(f, 0, sizeof(*f));
}

/* A user thread's illegal instruction with FS = Off (trap.c): its first FP
 * instruction since it was switched in. Load its registers and run the
 * instruction again with FS = Clean; any other illegal instruction traps
 * again, then with FS = Clean, and kills the program. IRQs off. */
bool riscv_fpu_first_use(struct trapframe *tf)
{
    struct arch_fpu *f = current_user_fpu();
    if ((tf->sstatus & SSTATUS_FS) != FS_OFF || !f)
        return false;
    fs_set(FS_CLEAN); /* loads need FS != Off; they make it Dirty */
    fpu_load(f);
    fs_set(FS_CLEAN); /* the registers are exactly the saved ones */
    tf->sstatus = (tf->sstatus & ~SSTATUS_FS) | FS_CLEAN;
    return true;
}

/* Boot hart, from arch_init: user programs need F and D (rv64gc, lp64d).
 * FS is WARL and reads 0 on a hart without F (priv spec, same section),
 * which confirms what the devicetree says. Stops the boot if either is
 * missing: no user program could run. */
void riscv_fpu_check(const struct fdt *f, uint32_t hart)
{
    bool listed = f && riscv_hart_has_ext(f, hart, "f") && riscv_hart_has_ext(f, hart, "d");
    fs_set(FS_INITIAL);
    bool writable = (csr_read(sstatus) & SSTATUS_FS) != FS_OFF;
    fs_set(FS_OFF);
    if (listed && writable) {
        kprintf("fpu: F and D present, user FP state loaded at first use (saved only if Dirty)\n");
        return;
    }
    struct trapframe tf;
    arch_capture_regs(&tf);
    panic_trap(&tf,
               "fpu: hart %u lacks the F/D extensions user programs are built for "
               "(rv64gc, lp64d): devicetree %s, sstatus.FS %s",
               hart, listed ? "lists F and D" : "does not list F and D",
               writable ? "writable" : "stays Off");
}
