/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_ipc_fast_arm64.S -
 * unsigned long ipc_keeps_callee_saved(long nr, long h, struct ipc_msg *m,
 *                                      unsigned long seed, long *result)
 * One IPC system call nr (SYS_ipc_call or SYS_ipc_reply_recv) on handle h
 * with the message m (tag in x1, words in x2-x5), made with every register
 * the AAPCS64 says a callee keeps (x19-x28, x29 the frame pointer) and the
 * thread pointer TPIDR_EL0 set to patterns of seed: xn = seed ^ n * 0x0101..01,
 * TPIDR_EL0 = seed ^ 0x3030..30. Writes the reply back to m and the raw
 * result (x0, the kernel's numbering) to *result, puts TPIDR_EL0 back, and
 * returns a mask with bit n set if xn came back changed (bit 30: TPIDR_EL0).
 * A thread resumed straight from its trapframe (the IPC fastpath) gets
 * these only if the kernel's entry stored them there; SP_EL0 is checked by
 * the return itself.
 */
    .text
    .globl ipc_keeps_callee_saved
ipc_keeps_callee_saved:
    stp     x29, x30, [sp, #-128]!
    stp     x19, x20, [sp, #16]
    stp     x21, x22, [sp, #32]
    stp     x23, x24, [sp, #48]
    stp     x25, x26, [sp, #64]
    stp     x27, x28, [sp, #80]
    mrs     x9, tpidr_el0
    stp     x2, x4, [sp, #96]           // m, result
    stp     x3, x9, [sp, #112]          // seed, the thread pointer to put back
    mov     x8, x0
    mov     x0, x1
    mov     x9, x2
    mov     x10, x3
    ldp     x1, x2, [x9]                // tag, w[0]
    ldp     x3, x4, [x9, #16]           // w[1], w[2]
    ldr     x5, [x9, #32]               // w[3]
.irp n, 19,20,21,22,23,24,25,26,27,28,29
    ldr     x9, =(0x0101010101010101 * \n)
    eor     x\n, x10, x9
.endr
    ldr     x9, =0x3030303030303030
    eor     x9, x10, x9
    msr     tpidr_el0, x9
    svc     #0
    ldr     x10, [sp, #112]             // seed (sp is SP_EL0: the kernel kept it, or this faults)
    mov     x6, #0
.irp n, 19,20,21,22,23,24,25,26,27,28,29
    ldr     x9, =(0x0101010101010101 * \n)
    eor     x9, x10, x9
    cmp     x\n, x9
    cset    x7, ne
    orr     x6, x6, x7, lsl #\n
.endr
    mrs     x7, tpidr_el0
    ldr     x9, =0x3030303030303030
    eor     x9, x10, x9
    cmp     x7, x9
    cset    x7, ne
    orr     x6, x6, x7, lsl #30
    ldr     x9, [sp, #120]
    msr     tpidr_el0, x9
    ldp     x9, x10, [sp, #96]
    stp     x1, x2, [x9]
    stp     x3, x4, [x9, #16]
    str     x5, [x9, #32]
    str     x0, [x10]
    mov     x0, x6
    ldp     x19, x20, [sp, #16]
    ldp     x21, x22, [sp, #32]
    ldp     x23, x24, [sp, #48]
    ldp     x25, x26, [sp, #64]
    ldp     x27, x28, [sp, #80]
    ldp     x29, x30, [sp], #128
    ret
    .ltorg
    .section .note.GNU-stack, "", %progbits
