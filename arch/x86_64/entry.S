/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/entry.S - the SYSCALL entry point (MSR_LSTAR). No policy:
 * save, call syscall_dispatch_<s>(tf), restore.
 *
 * On entry (SDM vol. 2B "SYSCALL"): %rcx = user RIP, %r11 = user RFLAGS,
 * RFLAGS masked by MSR_FMASK (IF, TF, DF, AC clear), CS/SS = kernel, but
 * %rsp and GS base are still the user's. Arguments: %rax = number,
 * %rdi %rsi %rdx %r10 %r8 %r9. Every register but %rax (the result), %rcx
 * and %r11 (which SYSCALL itself overwrites) comes back unchanged.
 *
 * Only what the C code may clobber is saved, in struct trapframe's slots:
 * the caller-saved registers of the SysV ABI (rax, the six arguments) and
 * the user's rip, rflags and rsp. The callee-saved ones (rbx rbp r12-r15)
 * are preserved by every C function, so they still hold the user's values
 * when syscall_dispatch returns, even after the thread slept or moved to
 * another CPU (arch_context_switch saves them on the kernel stack). Their
 * slots in the frame, and r11/rcx/vector/error, stay unwritten: nothing
 * reads a SYSCALL frame but this file, syscall_dispatch (rax, the
 * arguments) and the slow return below, which fills them in first.
 *
 * Step 1: swapgs, so %gs: is this CPU's struct cpu; park the user %rsp in
 *         it and switch to the thread's kernel stack (cpu->arch.kstack_top).
 * Step 2: push ss rsp rflags cs rip, skip error/vector, push rax and the
 *         arguments, skip the rest: %rsp is then a struct trapframe.
 * Step 3: the copy of syscall_dispatch_<s>(tf) in force (one per stack offset
 *         strategy, timed or not: the kernel rewrites this call's target)
 *         returns the result, with IRQs off.
 * Step 4: back to user with SYSRET, unless the saved RIP is not a user
 *         address: SYSRET with a non-canonical RCX faults in kernel mode
 *         on the user stack (SDM vol. 2B "SYSRET", Operation), so such
 *         returns take the IRET path, which faults in user mode instead.
 * %rbp is left as the user had it: kernel backtraces stop at the first
 * frame pointer that is not a kernel address (kernel/panic.c).
 */
#include <arch/impl.h>
#include "frame.h"
#include "kernel/uapi/syscall.h" /* USER_TOP */

    .text
    .globl x86_syscall_entry
x86_syscall_entry:
    swapgs                              /* step 1 */
    mov     %rsp, %gs:CPU_USER_RSP
    mov     %gs:CPU_KSTACK_TOP, %rsp
    pushq   $GDT_USER_DS                /* step 2: ss */
    pushq   %gs:CPU_USER_RSP            /* rsp */
    pushq   %r11                        /* rflags */
    pushq   $GDT_USER_CS                /* cs */
    pushq   %rcx                        /* rip */
    sub     $(TF_RIP - TF_RAX - 8), %rsp /* error, vector */
    PUSH_RAX_AND_ARGS
    sub     $TF_RDI, %rsp               /* rcx r11 rbx rbp r12-r15 */
    mov     %rsp, %rdi
    .globl  arch_syscall_call_site      /* step 3: %rax = the result */
arch_syscall_call_site:
    call    syscall_dispatch_off        /* rewritten: kernel/syscall/path.c */
    .globl  x86_syscall_exit            /* %rsp = trapframe, %rax = result (switch.S too) */
x86_syscall_exit:
    mov     TF_RIP(%rsp), %rcx          /* step 4 */
    movabs  $USER_TOP, %r11
    cmp     %r11, %rcx
    jae     slow_return
    SYSRET_FROM_FRAME                   /* frame.h; switch.S's direct exit too */

/* The IRET path needs a whole frame: the registers C preserved, and the
 * rcx/r11 that SYSCALL clobbered (as SYSRET would leave them). */
slow_return:
    mov     %rax, TF_RAX(%rsp)
    mov     %rbx, TF_RBX(%rsp)
    mov     %rbp, TF_RBP(%rsp)
    mov     %r12, TF_R12(%rsp)
    mov     %r13, TF_R13(%rsp)
    mov     %r14, TF_R14(%rsp)
    mov     %r15, TF_R15(%rsp)
    mov     %rcx, TF_RCX(%rsp)
    mov     TF_RFLAGS(%rsp), %r11
    mov     %r11, TF_R11(%rsp)
    jmp     x86_iret_to_user
