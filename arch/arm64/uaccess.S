/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/uaccess.S - copying to and from user memory.
 *
 * The user side of each copy uses the unprivileged load/store LDTRB/STTRB
 * (Arm ARM, "Load/store unprivileged"): executed at EL1, they are checked
 * against the EL0 permissions of the page. So a user pointer can only
 * reach what the program itself could (never a kernel page, even if the
 * range check in kernel/uaccess.c were wrong), and PSTATE.PAN, which makes
 * ordinary EL1 accesses to user pages fault, does not apply to them
 * (PSTATE.UAO, which would change that, is never set). Each unprivileged
 * access is in the exception table: a fault on it (unmapped, or not
 * permitted at EL0) resumes at uaccess_fault, which returns -EFAULT.
 */
#define EFAULT 14 /* kernel/uapi/errno.h */

    .text
/*
 * When both pointers are 8-byte aligned, both copies move 64 bytes a turn
 * (eight LDTR or STTR, four LDP or STP on the kernel side: about 2
 * instructions a word, where a word a turn took 7), then 8 bytes a turn,
 * then single bytes. A 64-word IPC message is 8 turns. LDTR/STTR have no
 * pair form, so each user word is one instruction, each in the exception
 * table below.
 *
 * int arch_copy_from_user(void *dst, uintptr_t user_src, size_t n)
 *   x0 = kernel destination, x1 = user source, x2 = byte count; the caller
 *   has checked [x1, x1 + x2) lies below USER_TOP. Returns w0 = 0, or
 *   -EFAULT (bytes before the fault are copied). Clobbers x1-x4.
 */
    .globl arch_copy_from_user
arch_copy_from_user:
    orr     x4, x0, x1
    tst     x4, #7
    b.ne    2f
    subs    x2, x2, #64
    b.lo    13f
12: ldtr    x3, [x1]            /* 64 bytes a turn: 2 instructions a word */
20: ldtr    x4, [x1, #8]
    stp     x3, x4, [x0], #16
21: ldtr    x3, [x1, #16]
22: ldtr    x4, [x1, #24]
    stp     x3, x4, [x0], #16
23: ldtr    x3, [x1, #32]
24: ldtr    x4, [x1, #40]
    stp     x3, x4, [x0], #16
25: ldtr    x3, [x1, #48]
26: ldtr    x4, [x1, #56]
    stp     x3, x4, [x0], #16
    add     x1, x1, #64
    subs    x2, x2, #64
    b.hs    12b
13: add     x2, x2, #64
1:  cmp     x2, #8
    b.lo    2f
6:  ldtr    x3, [x1]
    add     x1, x1, #8
    str     x3, [x0], #8
    sub     x2, x2, #8
    b       1b
2:  cbz     x2, 4f
3:  ldtrb   w3, [x1]
    add     x1, x1, #1
    strb    w3, [x0], #1
    subs    x2, x2, #1
    b.ne    3b
4:  mov     w0, #0
    ret

/*
 * int arch_copy_to_user(uintptr_t user_dst, const void *src, size_t n)
 *   x0 = user destination (range-checked by the caller), x1 = kernel
 *   source, x2 = byte count. Returns w0 = 0 or -EFAULT. Clobbers x0-x4.
 */
    .globl arch_copy_to_user
arch_copy_to_user:
    orr     x4, x0, x1
    tst     x4, #7
    b.ne    8f
    subs    x2, x2, #64
    b.lo    15f
14: ldp     x3, x4, [x1], #16   /* 64 bytes a turn: 2 instructions a word */
30: sttr    x3, [x0]
31: sttr    x4, [x0, #8]
    ldp     x3, x4, [x1], #16
32: sttr    x3, [x0, #16]
33: sttr    x4, [x0, #24]
    ldp     x3, x4, [x1], #16
34: sttr    x3, [x0, #32]
35: sttr    x4, [x0, #40]
    ldp     x3, x4, [x1], #16
36: sttr    x3, [x0, #48]
37: sttr    x4, [x0, #56]
    add     x0, x0, #64
    subs    x2, x2, #64
    b.hs    14b
15: add     x2, x2, #64
7:  cmp     x2, #8
    b.lo    8f
    ldr     x3, [x1], #8
9:  sttr    x3, [x0]
    add     x0, x0, #8
    sub     x2, x2, #8
    b       7b
8:  cbz     x2, 11f
10: ldrb    w3, [x1], #1
5:  sttrb   w3, [x0]
    add     x0, x0, #1
    subs    x2, x2, #1
    b.ne    10b
11: mov     w0, #0
    ret

uaccess_fault:
    mov     w0, #-EFAULT
    ret

    .pushsection __ex_table, "a"
    .balign 8
    .quad   3b, uaccess_fault
    .quad   5b, uaccess_fault
    .quad   6b, uaccess_fault
    .quad   9b, uaccess_fault
    .quad   12b, uaccess_fault
    .quad   20b, uaccess_fault
    .quad   21b, uaccess_fault
    .quad   22b, uaccess_fault
    .quad   23b, uaccess_fault
    .quad   24b, uaccess_fault
    .quad   25b, uaccess_fault
    .quad   26b, uaccess_fault
    .quad   30b, uaccess_fault
    .quad   31b, uaccess_fault
    .quad   32b, uaccess_fault
    .quad   33b, uaccess_fault
    .quad   34b, uaccess_fault
    .quad   35b, uaccess_fault
    .quad   36b, uaccess_fault
    .quad   37b, uaccess_fault
    .popsection
