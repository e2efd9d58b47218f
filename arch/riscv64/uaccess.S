/* SPDX-License-Identifier: MIT */
/*
 * arch/riscv64/uaccess.S - copying to and from user memory.
 *
 * S mode can reach U pages (PTE.U = 1) only while sstatus.SUM = 1 (priv
 * spec 4.1.1.2); the kernel keeps SUM = 0 everywhere else, so a stray
 * kernel access to user memory faults. (It can never execute U pages,
 * whatever SUM says.) Every user access below is in the exception table
 * (kernel/extable.h): a page or access fault on it resumes at
 * user_copy_fault instead of panicking. The trap returns with the frame's
 * sstatus, which still has SUM = 1, so the fix-up clears it again.
 */
#define EFAULT 14
#define SSTATUS_SUM (1 << 18)

/*
 * int arch_copy_from_user(void *dst, uintptr_t user_src, size_t n)
 * int arch_copy_to_user(uintptr_t user_dst, const void *src, size_t n)
 * Entry: a0 = dst, a1 = src, a2 = n; one of dst/src is a user address the
 *   caller range-checked (kernel/uaccess.c). Both hooks take (dst, src, n),
 *   so they are one routine. Any IRQ state.
 * Exit: a0 = 0, or -EFAULT if an access faulted (a prefix may be copied);
 *   SUM = 0 either way. Clobbers t0-t2, a1-a3. Leaf: no stack used.
 * While both pointers are 8-byte aligned: 64 bytes a turn (8 loads, 8
 * stores, 3 for the loop, which runs to the turns' end in the source: a
 * word a turn took 7 instructions), then 8 bytes a turn, then bytes. A
 * 64-word IPC message is 8 turns.
 */
    .text
    .globl arch_copy_from_user, arch_copy_to_user
arch_copy_from_user:
arch_copy_to_user:
    li      t1, SSTATUS_SUM
    csrs    sstatus, t1
    or      t0, a0, a1
    andi    t0, t0, 7
    bnez    t0, 5f
    andi    a3, a2, -64         /* the bytes the 64-byte turns take */
    beqz    a3, 8f
    add     a3, a3, a1          /* where they end in the source */
    andi    a2, a2, 63          /* what is left after them */
9:  ld      t0, 0(a1)           /* 64 bytes a turn: 2.375 instructions a word */
10: ld      t2, 8(a1)
11: sd      t0, 0(a0)
12: sd      t2, 8(a0)
13: ld      t0, 16(a1)
14: ld      t2, 24(a1)
15: sd      t0, 16(a0)
16: sd      t2, 24(a0)
17: ld      t0, 32(a1)
18: ld      t2, 40(a1)
19: sd      t0, 32(a0)
20: sd      t2, 40(a0)
21: ld      t0, 48(a1)
22: ld      t2, 56(a1)
23: sd      t0, 48(a0)
24: sd      t2, 56(a0)
    addi    a0, a0, 64
    addi    a1, a1, 64
    bne     a1, a3, 9b
8:  li      t2, 8
4:  bltu    a2, t2, 5f
6:  ld      t0, 0(a1)
7:  sd      t0, 0(a0)
    addi    a0, a0, 8
    addi    a1, a1, 8
    addi    a2, a2, -8
    j       4b
5:  beqz    a2, 3f
1:  lbu     t0, 0(a1)
2:  sb      t0, 0(a0)
    addi    a0, a0, 1
    addi    a1, a1, 1
    addi    a2, a2, -1
    bnez    a2, 1b
3:  csrc    sstatus, t1
    li      a0, 0
    ret

user_copy_fault:
    li      t1, SSTATUS_SUM
    csrc    sstatus, t1
    li      a0, -EFAULT
    ret

    .pushsection __ex_table, "a"
    .balign 8
    .quad   1b, user_copy_fault
    .quad   2b, user_copy_fault
    .quad   6b, user_copy_fault
    .quad   7b, user_copy_fault
    .irp n, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24
    .quad   \n\()b, user_copy_fault
    .endr
    .popsection
