/* SPDX-License-Identifier: MIT */
/*
 * arch/riscv64/start.S - the Image header and the first kernel instructions.
 *
 * _start: entered from U-Boot `booti` (or any SBI-era loader) on one hart.
 *   a0 = this hart's id, a1 = physical address of the flattened devicetree.
 *   S mode, MMU off (satp = 0), running at the physical address the image
 *   was copied to: RAM base + text_offset on QEMU virt (0x80200000), but
 *   anywhere 2 MiB aligned in general (boards have RAM at 0x40000000).
 *   The other harts are parked in the SBI firmware (HSM "stopped").
 *   Until arch_early_init sets stvec, a trap goes to the firmware's handler
 *   (U-Boot prints "Unhandled exception" with the registers).
 * Exit: kmain(fdt, 0, hartid) at the linked address, MMU on, interrupts
 *   off, sp = boot stack, s0 = 0, tp = &cpus[0]. Never returns.
 *
 * Step 0: only the first hart to arrive boots (see .Lnot_first for others).
 * Step 1: interrupts off, FP/vector state off, keep a0/a1.
 * Step 2: note the physical base (must be 2 MiB aligned).
 * Step 3: zero .bss (it holds the page tables and the boot stack).
 * Step 4: build Sv39 boot page tables (priv spec 4.4):
 *           0 .. 256 GiB   -> identity, 1 GiB gigapages (firmware, FDT,
 *                             devices, RAM: the whole lower half of Sv39)
 *           KERNEL_VBASE.. -> the image's physical base, 64 MiB in 2 MiB
 *                             megapages through one level-1 table
 * Step 5: turn on translation (satp) and jump to the linked address.
 * Step 6: boot stack, frame pointer, tp; call kmain.
 * Everything before step 5's jump uses PC-relative addressing only (`lla`
 * is auipc + addi), so it runs wherever the image was loaded.
 */
#include <arch/impl.h>

/* Sv39 PTE bits (priv spec 4.3.1 for the flags, 4.4.1 for the Sv39 layout). */
#define PTE_V (1 << 0) /* valid */
#define PTE_R (1 << 1) /* readable: R, W or X set makes the PTE a leaf */
#define PTE_W (1 << 2)
#define PTE_X (1 << 3)
#define PTE_G (1 << 5) /* global: in every address space */
#define PTE_A (1 << 6) /* accessed and dirty: set up front, because hardware */
#define PTE_D (1 << 7) /* may trap instead of updating them (priv spec 4.3.1) */
#define PTE_LEAF_RWX (PTE_V | PTE_R | PTE_W | PTE_X | PTE_G | PTE_A | PTE_D)
/* A pointer to the next level: V only; A, D, U must be 0 in non-leaf PTEs. */
#define PTE_TABLE PTE_V
/* A PTE holds PPN = PA >> 12 at bit 10, so for a page-aligned PA the PTE is
 * simply PA >> 2 plus the flags. RISC-V PTEs have no memory types: the
 * physical memory attributes (PMAs, priv spec 3.6) of each address decide
 * cacheability and ordering, so RAM and MMIO share one RWX mapping. Mapping
 * devices, holes and the firmware's memory is harmless: harts do not access
 * non-idempotent I/O regions speculatively (priv spec 3.6, "Idempotency
 * PMAs"), and OpenSBI's memory is PMP-protected (priv spec 3.7): touching it
 * faults, mapping it does not. */
#define PTE_PA_SHIFT 2

/* satp.MODE = 8 (priv spec 4.1.11). A hart with Sv48 or Sv57 (QEMU's DT says
 * riscv,sv48) must support Sv39 too (priv spec 4.5, 4.6). */
#define SATP_MODE_SV39 (8 << 60)
#define GIGAPAGE (1 << 30)
#define MEGAPAGE (1 << 21)
#define IDENTITY_GIGAPAGES 256 /* root entries 0-255: VA 0 .. 256 GiB */
#define KERNEL_MEGAPAGES (ARCH_EARLY_MAP_SIZE / MEGAPAGE) /* 64 MiB: image + boot window */
#define KERNEL_ROOT_INDEX ((ARCH_KERNEL_VBASE >> 30) & 0x1ff) /* VPN[2] = 510 */
/* VPN[1] of KERNEL_VBASE is 0, so the level-1 table is filled from entry 0. */

#define SSTATUS_SIE_BIT (1 << 1)
#define SSTATUS_FS_VS ((3 << 13) | (3 << 9)) /* FP and vector state: Off */

/*
 * The RISC-V Linux Image header, 64 bytes at offset 0 (boot-notes 6.1).
 * U-Boot's booti checks magic2 and copies image_size bytes to RAM base +
 * text_offset, then jumps to offset 0 with a0 = hart id, a1 = FDT.
 */
    .section .text.head, "ax"
    .globl _start
_start:
    .option push
    .option norvc                   /* code0 must be one 4-byte instruction */
    j       real_start              /* 0x00 code0 */
    .option pop
    .word   0                       /* 0x04 code1 */
    .quad   0x200000                /* 0x08 text_offset: load 2 MiB into RAM */
    .quad   _kernel_end - _start    /* 0x10 image_size, including .bss */
    .quad   0                       /* 0x18 flags: bit 0 = 0, little endian */
    .word   2                       /* 0x20 version 0.2 (major << 16 | minor) */
    .word   0                       /* 0x24 res1 */
    .quad   0                       /* 0x28 res2 */
    .ascii  "RISCV\0\0\0"           /* 0x30 magic (deprecated) */
    .org    0x38                    /* (.org fails if we are already past it) */
    .ascii  "RSC\x05"               /* 0x38 magic2: what loaders check */
    .word   0                       /* 0x3c res3: no PE/COFF header */
    .org    0x40                    /* the header is exactly 64 bytes */

real_start:
    /* Step 0: the first hart here boots; any later one is a started hart
     * the firmware sent here instead of to riscv_secondary_entry. */
    lla     t0, boot_claimed
    li      t1, 1
    amoswap.w.aqrl t1, t1, (t0)
    bnez    t1, .Lnot_first

    /* Step 1: nothing may interrupt us (sie: priv spec 4.1.3; sstatus 4.1.1).
     * The kernel has no FP code; FS = Off makes any FP instruction trap. */
    csrw    sie, zero
    csrci   sstatus, SSTATUS_SIE_BIT
    li      t0, SSTATUS_FS_VS
    csrc    sstatus, t0
    mv      s1, a0                  /* s1 = hart id */
    mv      s2, a1                  /* s2 = devicetree (physical) */

    /* Step 2: s3 = physical base, recorded for arch_kernel_phys_base(). */
    lla     s3, _start
    li      t0, MEGAPAGE - 1
    and     t0, s3, t0
    bnez    t0, .Lstuck             /* megapages need a 2 MiB aligned base */
    sd      s3, kernel_phys_base, t0

    /* Step 3: zero .bss (16-byte aligned at both ends by the linker script). */
    lla     t0, __bss_start
    lla     t1, __bss_end
1:  bgeu    t0, t1, 2f
    sd      zero, 0(t0)
    addi    t0, t0, 8
    j       1b
2:

    /* Step 4a: identity map, root[i] = gigapage at i GiB, i = 0 .. 255. */
    lla     t0, boot_pt_root
    li      t1, PTE_LEAF_RWX        /* PTE of physical address 0 */
    li      t2, GIGAPAGE >> PTE_PA_SHIFT
    li      t3, IDENTITY_GIGAPAGES
3:  sd      t1, 0(t0)
    add     t1, t1, t2
    addi    t0, t0, 8
    addi    t3, t3, -1
    bnez    t3, 3b

    /* Step 4b: root[510] points to the level-1 table for KERNEL_VBASE. */
    lla     t0, boot_pt_root
    li      t1, KERNEL_ROOT_INDEX * 8
    add     t0, t0, t1
    lla     t1, boot_pt_kernel
    srli    t1, t1, PTE_PA_SHIFT
    ori     t1, t1, PTE_TABLE
    sd      t1, 0(t0)

    /* Step 4c: boot_pt_kernel[i] = megapage at s3 + i * 2 MiB. */
    lla     t0, boot_pt_kernel
    srli    t1, s3, PTE_PA_SHIFT
    ori     t1, t1, PTE_LEAF_RWX
    li      t2, MEGAPAGE >> PTE_PA_SHIFT
    li      t3, KERNEL_MEGAPAGES
4:  sd      t1, 0(t0)
    add     t1, t1, t2
    addi    t0, t0, 8
    addi    t3, t3, -1
    bnez    t3, 4b

    /* Step 5: satp = Sv39 | root PPN (ASID 0). The SFENCE.VMA after the
     * write orders the page-table stores above before the translations that
     * follow (priv spec 4.2.1). The next fetch is still at a physical
     * address, which the identity map covers. Then load the linked (high)
     * address of `high` from a literal and jump: `la`/`lla` would give the
     * PC-relative, i.e. physical, address. */
    lla     t0, boot_pt_root
    srli    t0, t0, 12
    li      t1, SATP_MODE_SV39
    or      t0, t0, t1
    csrw    satp, t0
    sfence.vma
    lla     t0, high_addr
    ld      t0, 0(t0)
    jr      t0

high:
    /* Step 6: from here PC-relative addresses are virtual (high). */
    lla     sp, boot_stack_top
    li      s0, 0                   /* fp = 0 ends backtraces; `call` sets ra */
    li      gp, 0                   /* no gp-relative data (-mno-relax) */
    lla     tp, cpus                /* this_cpu() = &cpus[0] from the start */
    mv      a0, s2                  /* boot_arg = devicetree */
    li      a1, 0                   /* boot_magic: none, this is booti */
    mv      a2, s1                  /* hart id */
    call    kmain
.Lstuck:                            /* after kmain (never), step 2, .Lnot_first */
    wfi
    j       .Lstuck

/*
 * .Lnot_first - a hart that comes to _start after the boot hart.
 * HSM hart_start names riscv_secondary_entry, but the SBI firmware now and
 * then sends the hart to its default next-stage address and argument
 * instead, which are this image's entry and the firmware's devicetree
 * (seen with OpenSBI 1.1 under QEMU, booted through U-Boot: one or two
 * boots in a hundred). Such a hart has a0 = its hart id but not our opaque
 * word in a1. Running _start again would zero .bss under the running
 * kernel, so instead it looks for the boot record smp.c filled in for its
 * hart id (riscv_hart_boot[], cpu != 0) and carries on as
 * riscv_secondary_entry with a1 = that record (the firmware's a1 is noted
 * in it, and riscv_secondary_main reports the detour). Without a record
 * (nobody asked for this hart) it parks for good. MMU off: PC-relative
 * only, as above.
 */
.Lnot_first:
    csrw    sie, zero
    csrci   sstatus, SSTATUS_SIE_BIT
    lla     t0, riscv_hart_boot     /* smp.c */
    lla     t1, riscv_hart_boot_size
    ld      t1, 0(t1)
    add     t1, t0, t1              /* end of the records */
5:  bgeu    t0, t1, .Lstuck
    ld      t2, HART_BOOT_CPU(t0)
    beqz    t2, 6f
    ld      t2, HART_BOOT_HWID(t0)
    bne     t2, a0, 6f
    sd      a1, HART_BOOT_STRAY(t0) /* found: noted for riscv_secondary_main */
    mv      a1, t0                  /* as if hart_start had sent it */
    j       riscv_secondary_entry
6:  addi    t0, t0, HART_BOOT_SIZE
    j       5b

/*
 * riscv_secondary_entry - where every other hart starts (smp.c asks the SBI
 *   firmware's HSM hart_start to send it here, at this label's physical
 *   address).
 * Entry (SBI spec 9.1): S mode, MMU off (satp = 0), sstatus.SIE = 0,
 *   a0 = hart id, a1 = opaque = physical address of this hart's struct
 *   riscv_hart_boot (smp.c: the kernel's satp, its stack top, its struct
 *   cpu), already filled in; every other register undefined.
 * Exit: riscv_secondary_main(cpu) at the linked address, on the kernel's
 *   page tables and the given stack, interrupts off (sie = 0), FS/VS Off,
 *   tp = cpu, sscratch = 0, stvec = riscv_trap_entry, s0 = 0. Never returns.
 *
 * Step 1: as _start's step 1; stvec = a parking loop, so that a fault before
 *         the real vector is installed stops this hart instead of jumping
 *         to whatever stvec held (the boot hart then reports a timeout).
 * Step 2: FENCE.I: this hart may fetch the kernel text from now on.
 * Step 3: satp = the boot page tables, which the boot hart built in _start
 *         and nothing has changed since: they map this code both where it
 *         runs (the identity gigapages) and where it is linked (the kernel
 *         megapages), exactly what the boot hart needed at its step 5. Jump
 *         to the linked address.
 * Step 4: read the boot record through the identity map, then satp = the
 *         kernel's own tables (no identity map: the record's physical
 *         address is not reachable after this), SFENCE.VMA, stack, tp,
 *         sscratch, the trap vector; call riscv_secondary_main.
 * As in _start, everything before step 3's jump is PC-relative.
 */
    .text
    .balign 4
    .globl riscv_secondary_entry
riscv_secondary_entry:
    csrw    sie, zero               /* step 1 */
    csrci   sstatus, SSTATUS_SIE_BIT
    li      t0, SSTATUS_FS_VS
    csrc    sstatus, t0
    lla     t0, .Lsecondary_stuck
    csrw    stvec, t0
    fence.i                         /* step 2 */

    lla     t0, boot_pt_root        /* step 3 */
    srli    t0, t0, 12
    li      t1, SATP_MODE_SV39
    or      t0, t0, t1
    csrw    satp, t0
    sfence.vma
    lla     t0, secondary_high_addr
    ld      t0, 0(t0)
    jr      t0

secondary_high:
    lla     t0, .Lsecondary_stuck   /* step 4: the parking loop, now high */
    csrw    stvec, t0
    ld      t0, HART_BOOT_SATP(a1)
    ld      sp, HART_BOOT_STACK(a1)
    ld      tp, HART_BOOT_CPU(a1)
    csrw    satp, t0
    sfence.vma                      /* everything: the boot tables were global */
    csrw    sscratch, zero          /* "in the kernel" (vectors.S) */
    lla     t0, riscv_trap_entry
    csrw    stvec, t0
    li      s0, 0
    li      gp, 0
    mv      a0, tp
    call    riscv_secondary_main
    .balign 4                       /* stvec needs 4-byte alignment */
.Lsecondary_stuck:
    wfi
    j       .Lsecondary_stuck

    .section .rodata
    .balign 8
high_addr:
    .quad   high                    /* absolute: resolved at link time */
secondary_high_addr:
    .quad   secondary_high

    .data
    .balign 8
boot_claimed:                       /* step 0: set by the first hart in _start */
    .word   0
    .balign 8
    .globl kernel_phys_base
kernel_phys_base:
    .quad   0

    .bss
    .balign 4096
boot_pt_root:   .skip 4096          /* level 2: 512 entries of 1 GiB */
boot_pt_kernel: .skip 4096          /* level 1: 512 entries of 2 MiB */
    .balign 16
    .globl boot_stack_bottom, boot_stack_top
boot_stack_bottom:
    .skip 16384
boot_stack_top:
