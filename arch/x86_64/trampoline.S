/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/trampoline.S - where an application processor starts.
 *
 * A CPU woken by INIT-SIPI-SIPI starts in 16-bit real mode at CS:IP =
 * (vector << 8):0 (SDM vol. 3A 8.4.4.1, 9.1.4), i.e. at physical page
 * X86_TRAMPOLINE_BASE, below 1 MiB. x86_smp.c copies the bytes between
 * x86_trampoline_start and x86_trampoline_end there. They walk the CPU
 * up the same way the SDM describes in 9.9 (switching to protected mode)
 * and 9.8.5 (initializing IA-32e mode):
 *
 * Step 1 (16-bit): load a small GDT, set CR0.PE, far-jump to 32-bit code.
 * Step 2 (32-bit): CR4.PAE, CR3 = the kernel's boot page tables (they map
 *         this page 1:1 and the kernel image at its high address), EFER.LME
 *         and NXE, CR0.PG and WP: long mode; far-jump to 64-bit code.
 * Step 3 (64-bit): jump to x86_ap_entry (start.S), in the kernel image.
 *
 * Everything here is addressed as TRAMP(x): the label's offset in the
 * trampoline plus the fixed physical base, since the code runs there and
 * not where it was linked.
 */
#include <arch/impl.h>

#define TRAMP(x) ((x) - x86_trampoline_start + X86_TRAMPOLINE_BASE)

    .section .rodata
    .globl x86_trampoline_start, x86_trampoline_end, x86_trampoline_cr3
    .code16
x86_trampoline_start:
    cli                                 /* step 1 */
    cld
    xor     %ax, %ax
    mov     %ax, %ds
    lgdtl   TRAMP(tramp_gdt_ptr)
    mov     %cr0, %eax
    or      $1, %eax                    /* CR0.PE */
    mov     %eax, %cr0
    ljmpl   $0x08, $TRAMP(tramp_32)

    .code32
tramp_32:
    mov     $0x10, %ax                  /* step 2 */
    mov     %ax, %ds
    mov     %ax, %es
    mov     %ax, %ss
    mov     %cr4, %eax
    or      $(1 << 5), %eax             /* CR4.PAE */
    mov     %eax, %cr4
    mov     TRAMP(x86_trampoline_cr3), %eax
    mov     %eax, %cr3
    mov     $0xc0000080, %ecx           /* IA32_EFER */
    rdmsr
    or      $((1 << 8) | (1 << 11)), %eax /* LME, NXE */
    wrmsr
    mov     %cr0, %eax
    or      $((1 << 31) | (1 << 16)), %eax /* PG, WP */
    mov     %eax, %cr0
    ljmpl   $0x18, $TRAMP(tramp_64)

    .code64
tramp_64:
    movabs  $x86_ap_entry, %rax         /* step 3 */
    jmp     *%rax

    .balign 8
tramp_gdt:
    .quad   0
    .quad   0x00cf9a000000ffff          /* 0x08: 32-bit code */
    .quad   0x00cf92000000ffff          /* 0x10: data */
    .quad   0x00af9a000000ffff          /* 0x18: 64-bit code */
tramp_gdt_ptr:
    .word   4 * 8 - 1
    .long   TRAMP(tramp_gdt)
    .balign 4
x86_trampoline_cr3:                     /* filled in by x86_smp.c */
    .long   0
x86_trampoline_end:
