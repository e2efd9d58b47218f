/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/start.S - the first kernel instructions, from the UEFI loader.
 *
 * On entry (boot/bootinfo.h): 64-bit mode, the firmware's identity paging,
 * IRQs masked, running at the *physical* address the loader picked (2 MiB
 * aligned), %rdi = physical address of struct boot_info.
 *
 * Step 1: zero .bss (it holds the page tables and the boot stack).
 * Step 2: build boot page tables with 2 MiB pages (SDM vol. 3A 4.5):
 *           0 .. 4 GiB     -> identity (firmware tables, boot_info, devices)
 *           KERNEL_VBASE.. -> the image's physical base, 64 MiB
 * Step 3: load CR3 and jump to the high (linked) address.
 * Step 4: switch to the boot stack and call kmain(boot_info, magic, 0).
 * Everything before step 3 uses RIP-relative addressing only, so it runs
 * wherever the image was loaded.
 */
#include <arch/impl.h>

#define PTE_P 0x1   /* present */
#define PTE_W 0x2   /* writable */
#define PTE_PS 0x80 /* 2 MiB page in a page-directory entry */
#define KERNEL_MAP_2M 32 /* 64 MiB mapped for the kernel image and early allocations */

    .section .text.head, "ax"
    .code64
    .globl _start
_start:
    cli
    cld
    mov     %rdi, %r12                  /* r12 = boot_info (physical) */
    lea     _start(%rip), %rbx          /* rbx = physical load address */
    mov     %rbx, kernel_phys_base(%rip)

    /* Step 1: zero .bss (physical addresses: we still run identity mapped). */
    lea     __bss_start(%rip), %rdi
    lea     __bss_end(%rip), %rcx
    sub     %rdi, %rcx
    xor     %eax, %eax
    rep stosb

    /* Step 2a: identity map 0-4 GiB: pml4[0] -> pdpt_low -> 4 page directories. */
    lea     boot_pdpt_low(%rip), %rax
    or      $(PTE_P | PTE_W), %rax
    mov     %rax, boot_pml4(%rip)
    lea     boot_pd_low(%rip), %rdi     /* 4 consecutive pages, 2048 entries */
    lea     boot_pdpt_low(%rip), %rsi
    mov     %rdi, %rax
    or      $(PTE_P | PTE_W), %rax
    mov     $4, %ecx
1:  mov     %rax, (%rsi)
    add     $8, %rsi
    add     $4096, %rax
    loop    1b
    xor     %eax, %eax
    mov     $2048, %ecx
2:  mov     %rax, %rdx
    or      $(PTE_P | PTE_W | PTE_PS), %rdx
    mov     %rdx, (%rdi)
    add     $8, %rdi
    add     $0x200000, %rax
    loop    2b

    /* Step 2b: KERNEL_VBASE = pml4[511], pdpt[510], pd[0..] -> rbx + i * 2 MiB. */
    lea     boot_pdpt_high(%rip), %rax
    or      $(PTE_P | PTE_W), %rax
    mov     %rax, boot_pml4 + 511 * 8(%rip)
    lea     boot_pd_high(%rip), %rax
    or      $(PTE_P | PTE_W), %rax
    mov     %rax, boot_pdpt_high + 510 * 8(%rip)
    lea     boot_pd_high(%rip), %rdi
    mov     %rbx, %rax
    or      $(PTE_P | PTE_W | PTE_PS), %rax
    mov     $KERNEL_MAP_2M, %ecx
3:  mov     %rax, (%rdi)
    add     $8, %rdi
    add     $0x200000, %rax
    loop    3b

    /* Step 3: switch page tables, then continue at the linked address. */
    lea     boot_pml4(%rip), %rax
    mov     %rax, %cr3
    movabs  $high, %rax
    jmp     *%rax

high:
    /* Step 4: boot stack (RIP-relative is now a high address), call kmain. */
    lea     boot_stack_top(%rip), %rsp
    xor     %ebp, %ebp                  /* terminates backtraces */
    mov     %r12, %rdi
    movabs  $0x2154464948534b53, %rsi   /* BOOT_INFO_MAGIC: this path always has one */
    xor     %edx, %edx
    call    kmain
4:  hlt
    jmp     4b

/*
 * x86_ap_entry - the trampoline's step 4, for every other CPU: still on the
 * boot page tables, IRQs off, no stack. Load the kernel's page tables (NXE
 * is already on), take the stack and struct cpu the boot CPU left in
 * x86_ap_boot, and call x86_secondary_entry(cpu).
 */
    .text
    .globl x86_ap_entry
x86_ap_entry:
    mov     x86_ap_boot + 0(%rip), %rax     /* kernel page tables */
    mov     %rax, %cr3
    mov     x86_ap_boot + 8(%rip), %rsp     /* the CPU's idle-thread stack */
    mov     x86_ap_boot + 16(%rip), %rdi    /* its struct cpu */
    xor     %ebp, %ebp
    call    x86_secondary_entry
5:  hlt
    jmp     5b

    .data
    .balign 8
    .globl x86_ap_boot
x86_ap_boot:                                /* struct x86_ap_boot in x86_smp.c */
    .quad 0, 0, 0
    .globl kernel_phys_base
kernel_phys_base:
    .quad 0

    .bss
    .balign 4096
    .globl boot_pml4
boot_pml4:      .skip 4096
boot_pdpt_low:  .skip 4096
boot_pd_low:    .skip 4 * 4096
boot_pdpt_high: .skip 4096
boot_pd_high:   .skip 4096
    .globl boot_stack_bottom, boot_stack_top
boot_stack_bottom:
    .skip 16384
boot_stack_top:
