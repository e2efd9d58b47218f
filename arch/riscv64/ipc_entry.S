/* SPDX-License-Identifier: MIT */
/*
 * arch/riscv64/ipc_entry.S - the table entries of ipc_call and
 * ipc_reply_recv: the user's callee-saved registers into the trapframe.
 *
 * The fast ecall path (vectors.S, .Lsyscall) saves only the registers C
 * may clobber. The user's s0-s11 live on in registers and in the C frames'
 * spills, gp in its register (the kernel never uses it), and come back
 * only as those frames unwind. A thread asleep in the IPC fastpath may
 * instead be resumed straight from its trapframe (arch_switch_to_user,
 * switch.S), its frames abandoned: so these two calls, and only they, put
 * the user's s0-s11 and gp into their trapframe slots first, then go on to
 * the handler as if called from the table directly.
 *
 * s0 is the one register the path has changed by then: the dispatch
 * copy's prologue made it its frame pointer after saving the user's value
 * in its frame record, at -16(s0) (psABI: ra at -8, the caller's s0 at
 * -16 from the frame pointer). The other eleven still hold the user's
 * values only because the copies that may resume directly save no other
 * callee-saved register before they call the handler, which
 * scripts/check_dispatch.py checks on the disassembly of every such copy.
 */
#include <arch/impl.h>

/* args = &tf->x[10] (arch_sc_args): slot n of the frame is at
 * TF_X(n) - TF_X(10) from it. */
#define ARG_SLOT(n) (TF_X(n) - TF_X(10))

/* Entry: a0 = args (in the trapframe), s0 = the dispatch copy's frame
 * pointer, s1-s11 and gp the user's. Clobbers t0. */
.macro save_user_callee_saved
    ld      t0, -16(s0)             /* the user's s0, from the frame record */
    sd      t0, ARG_SLOT(8)(a0)
    sd      s1, ARG_SLOT(9)(a0)
    .irp n, 18,19,20,21,22,23,24,25,26,27
    sd      x\n, ARG_SLOT(\n)(a0)   /* s2-s11 */
    .endr
    sd      gp, ARG_SLOT(3)(a0)
.endm

/*
 * long arch_ipc_call_entry(const struct sysargs *args)
 * long arch_ipc_reply_recv_entry(const struct sysargs *args)
 * Entry: from a dispatch copy's handler call; a0 = args, ra = the copy.
 * Exit: jumps to ipc_fast_call / ipc_fast_reply_recv with a0 and ra
 *   unchanged, so the handler returns to the copy itself.
 */
    .text
    .globl arch_ipc_call_entry
arch_ipc_call_entry:
    save_user_callee_saved
    j       ipc_fast_call           /* .text is far below JAL's 1 MiB reach */

    .globl arch_ipc_reply_recv_entry
arch_ipc_reply_recv_entry:
    save_user_callee_saved
    j       ipc_fast_reply_recv
