/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/ipc_entry.S - SYS_ipc_call's and SYS_ipc_reply_recv's slots
 * of the system call table (arch/arch.h): the user's callee-saved
 * registers into the trapframe, then the system call itself.
 *
 * The SYSCALL entry (entry.S) leaves rbx rbp r12-r15 in the registers:
 * every C function preserves them, so they come back when the call
 * returns through its frames. A thread the IPC fastpath resumes straight
 * from its trapframe (arch_switch_to_user, switch.S) skips those frames,
 * so its trapframe must hold them; these two calls are the only ones
 * that can end that way, so only they pay the six stores.
 *
 * %rdi = args, which is &tf->rdi (arch_sc_args): the slots are below it.
 * rbx and r12-r15 still hold the user's values here, since the dispatch
 * copy that called us saves no callee-saved register but the frame
 * pointer (scripts/check_dispatch.py checks it on the disassembly, for
 * every copy the kernel may resume directly). That copy's prologue pushed
 * the user's rbp at [rbp] (push %rbp; mov %rsp, %rbp). Under kstack.erase
 * the copy is called by a wrapper, and [rbp] is the wrapper's frame: that
 * path is never resumed directly (kernel/syscall/path.h).
 */
#include <arch/impl.h>

#define SLOT(reg) (TF_##reg - TF_RDI)(%rdi)

.macro IPC_ENTRY name, handler
    .globl  \name
\name:
    mov     %rbx, SLOT(RBX)
    mov     %r12, SLOT(R12)
    mov     %r13, SLOT(R13)
    mov     %r14, SLOT(R14)
    mov     %r15, SLOT(R15)
    mov     (%rbp), %rax        /* the user's rbp, in the dispatch copy's frame record */
    mov     %rax, SLOT(RBP)
    jmp     \handler            /* args unchanged */
.endm

    .text
IPC_ENTRY arch_ipc_call_entry, ipc_fast_call
IPC_ENTRY arch_ipc_reply_recv_entry, ipc_fast_reply_recv
