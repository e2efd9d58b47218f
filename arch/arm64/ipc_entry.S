/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/ipc_entry.S - the system call table's entries for ipc_call and
 * ipc_reply_recv: the user's callee-saved registers into the trapframe, so
 * that the IPC fastpath may resume this thread straight from it
 * (arch_switch_to_user, vectors.S) instead of unwinding its C frames.
 *
 * el0_svc (vectors.S) saves x0-x19 and x30 and leaves the rest of the frame
 * unwritten: x20-x28 and x29 are callee-saved in the AAPCS64 ("Procedure Call
 * Standard for the Arm 64-bit Architecture", "General-purpose Registers"),
 * so every C function gives them back, and the kernel never writes SP_EL0 or
 * TPIDR_EL0 (a thread switch saves them, switch.S). A thread resumed from
 * its trapframe skips those C frames, so here, on the two calls that may
 * sleep in the fastpath, they are stored first:
 *   x20-x28   as they are here: the dispatch copy in force saved and changed
 *             none of them (scripts/check_dispatch.py checks that, on the
 *             disassembly, for every copy the kernel lets resume directly);
 *   x29       the user's, from the dispatch copy's frame record: its prologue
 *             (stp x29, x30, [sp, #-N]!; mov x29, sp) left x29 pointing at
 *             the saved one;
 *   SP_EL0, TPIDR_EL0   into TF_SP and TF_TPIDR (one pair), which
 *             arm64_return_to_user loads.
 * Then a tail jump to the C handler with x0 (args) unchanged: the handler
 * returns to the dispatch copy as if called from there.
 *
 * long arch_ipc_call_entry(const struct sysargs *args);
 * long arch_ipc_reply_recv_entry(const struct sysargs *args);
 *   x0: args == arch_sc_args(tf) == tf->x, so x0 is the trapframe itself.
 *   x9-x11 clobbered (caller-saved; the handler may clobber them anyway).
 */
#include <arch/impl.h>

.macro IPC_ENTRY name, handler
    .globl  \name
\name:
    stp     x20, x21, [x0, #TF_X(20)]
    stp     x22, x23, [x0, #TF_X(22)]
    stp     x24, x25, [x0, #TF_X(24)]
    stp     x26, x27, [x0, #TF_X(26)]
    ldr     x9, [x29]                   // the user's x29: the dispatch copy's frame record
    stp     x28, x9, [x0, #TF_X(28)]
    mrs     x10, sp_el0
    mrs     x11, tpidr_el0
    stp     x10, x11, [x0, #TF_SP]      // TF_TPIDR is the next slot
    b       \handler
.endm

    .text
IPC_ENTRY arch_ipc_call_entry, ipc_fast_call
IPC_ENTRY arch_ipc_reply_recv_entry, ipc_fast_reply_recv
