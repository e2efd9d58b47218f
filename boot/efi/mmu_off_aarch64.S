/* SPDX-License-Identifier: MIT */
/*
 * boot/efi/mmu_off_aarch64.S - cache maintenance and MMU-off entry for the arm64 UEFI loader.
 *
 * UEFI runs us at EL2 or EL1 with the MMU and caches on and an identity map (UEFI 2.10 section
 * 2.3.6 "AArch64 Platforms"). The kernel contract (boot/bootinfo.h) wants the MMU and D-cache
 * off, so everything the kernel will read must first be written back to the Point of Coherency:
 * with the D-cache off, its loads go straight to memory and would miss dirty lines.
 *
 * References, Arm Architecture Reference Manual for A-profile (ARM DDI 0487); section titles are
 * given because the numbering moves between issues:
 *   - "Data cache maintenance instructions" / DC CIVAC ("Data or unified Cache line Clean and
 *     Invalidate by VA to PoC") in the chapter on caches in the AArch64 memory model;
 *   - CTR_EL0 ("Cache Type Register"): DminLine, bits [19:16], log2 of the smallest data cache
 *     line in 4-byte words;
 *   - CurrentEL: EL in bits [3:2];
 *   - SCTLR_EL1 / SCTLR_EL2 ("System Control Register"): M bit 0 (stage 1 MMU), C bit 2 (data
 *     cacheability), I bit 12 (instruction cacheability);
 *   - IC IALLU ("Instruction Cache Invalidate All to PoU") and the DSB/ISB rules in "Ordering and
 *     completion of cache maintenance instructions" and "Synchronization requirements for
 *     AArch64 System registers".
 */
    .text

/*
 * void aa64_dcache_clean_poc(UINT64 start, UINT64 size)
 *   x0 = start (any alignment), x1 = size in bytes (0 does nothing)
 *   Clobbers x0-x3 and the flags; no stack; returns with DSB SY complete.
 */
    .global aa64_dcache_clean_poc
    .type aa64_dcache_clean_poc, %function
aa64_dcache_clean_poc:
    cbz     x1, 2f
    mrs     x3, ctr_el0
    ubfx    x3, x3, #16, #4         // DminLine = log2(words per line)
    mov     x2, #4
    lsl     x2, x2, x3              // x2 = line size in bytes
    add     x1, x0, x1              // x1 = end (exclusive)
    sub     x3, x2, #1
    bic     x0, x0, x3              // round start down to a line
1:  dc      civac, x0
    add     x0, x0, x2
    cmp     x0, x1
    b.lo    1b
    dsb     sy                      // maintenance complete before anything that follows
2:  ret
    .size aa64_dcache_clean_poc, . - aa64_dcache_clean_poc

/*
 * void aa64_mmu_off_enter(UINT64 entry, UINT64 boot_info, UINT64 magic)  -- does not return
 *   x0 = kernel entry (physical), x1 = boot_info (physical), x2 = BOOT_INFO_MAGIC
 *   Exit to the kernel: x0 = boot_info, x1 = magic, x2 = x3 = 0, DAIF masked, MMU/D/I off.
 *   The caller has already cleaned the kernel, boot_info, FDT and this routine to PoC.
 *   This code runs identity mapped, so the instruction after the SCTLR write is fetched from the
 *   same (now physical) address. No stack or memory access after step 2.
 */
    .global aa64_handoff_start
    .global aa64_handoff_end
    .global aa64_mmu_off_enter
    .type aa64_mmu_off_enter, %function
    .balign 64
aa64_handoff_start:
aa64_mmu_off_enter:
    // Step 1: mask debug, SError, IRQ and FIQ; keep the arguments in scratch registers.
    msr     daifset, #0xf
    mov     x9, x0
    mov     x10, x1
    mov     x11, x2
    mov     x12, #0x1005            // SCTLR: I (bit 12) | C (bit 2) | M (bit 0)

    // Step 2: clear M, C and I in the SCTLR of the EL we run at (EL2 or EL1).
    mrs     x3, CurrentEL
    ubfx    x3, x3, #2, #2
    cmp     x3, #2
    b.eq    3f
    mrs     x4, sctlr_el1
    bic     x4, x4, x12
    msr     sctlr_el1, x4
    b       4f
3:  mrs     x4, sctlr_el2
    bic     x4, x4, x12
    msr     sctlr_el2, x4
4:  isb                             // the MMU/cache change takes effect for what follows

    // Step 3: drop stale instructions; the kernel's code was written through the D-side.
    ic      iallu
    dsb     sy
    isb

    // Step 4: enter the kernel.
    mov     x0, x10
    mov     x1, x11
    mov     x2, xzr
    mov     x3, xzr
    br      x9
aa64_handoff_end:
    .size aa64_mmu_off_enter, . - aa64_mmu_off_enter

    .section .note.GNU-stack, "", %progbits
