/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/uaccess.S - copying to and from user memory.
 *
 * int x86_user_copy(void *dst, const void *src, size_t n)
 *   %rdi dst, %rsi src, %rdx n; one of the two is a user address the
 *   caller has range-checked (kernel/uaccess.c). Returns 0, or -EFAULT if
 *   the copy faulted: both `rep movs` are in the exception table, so a page
 *   fault on it resumes at the fix-up instead of panicking. With SMAP on,
 *   user pages are reachable only between stac and clac (SDM vol. 3A 4.6).
 */
#define EFAULT 14

    .text
    .globl x86_user_copy
x86_user_copy:
    cmpb    $0, x86_smap_enabled(%rip)
    je      1f
    stac
1:  mov     %rdx, %rcx
    shr     $3, %rcx
4:  rep movsq               /* the whole 8-byte words, */
    mov     %edx, %ecx
    and     $7, %ecx
5:  rep movsb               /* then the last 0-7 bytes */
    xor     %eax, %eax
2:  cmpb    $0, x86_smap_enabled(%rip)
    je      3f
    clac
3:  ret

user_copy_fault:
    mov     $-EFAULT, %eax
    jmp     2b

    .pushsection __ex_table, "a"
    .balign 8
    .quad 4b, user_copy_fault
    .quad 5b, user_copy_fault
    .popsection
