/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/entry.S - the SYSCALL entry point (MSR_LSTAR). No policy:
 * save, call syscall_dispatch(tf), restore.
 *
 * On entry (SDM vol. 2B "SYSCALL"): %rcx = user RIP, %r11 = user RFLAGS,
 * RFLAGS masked by MSR_FMASK (IF, TF, DF, AC clear), CS/SS = kernel, but
 * %rsp and GS base are still the user's. Arguments: %rax = number,
 * %rdi %rsi %rdx %r10 %r8 %r9.
 *
 * Step 1: swapgs, so %gs: is this CPU's struct cpu; park the user %rsp in
 *         it and switch to the thread's kernel stack (cpu->arch.kstack_top).
 * Step 2: push a struct trapframe shaped exactly like an interrupt's
 *         (ss rsp rflags cs rip error vector, then the general registers).
 * Step 3: syscall_dispatch(tf) - returns with IRQs off.
 * Step 4: back to user with SYSRET, unless the saved RIP is not a user
 *         address: SYSRET with a non-canonical RCX faults in kernel mode
 *         on the user stack (SDM vol. 2B "SYSRET", Operation), so such
 *         returns take the IRET path, which faults in user mode instead.
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
    pushq   $0                          /* error code */
    pushq   $VECTOR_SYSCALL             /* vector */
    PUSH_GPRS
    xor     %ebp, %ebp                  /* backtraces stop at the user boundary */
    mov     %rsp, %rdi
    call    syscall_dispatch            /* step 3 */

    movabs  $USER_TOP, %rcx             /* step 4 */
    cmp     %rcx, TF_RIP(%rsp)
    jae     x86_iret_to_user
    POP_GPRS
    mov     16(%rsp), %rcx              /* rip, for SYSRET */
    mov     32(%rsp), %r11              /* rflags, for SYSRET */
    mov     40(%rsp), %rsp              /* the user's stack */
    swapgs
    sysretq
