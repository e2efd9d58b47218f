/* SPDX-License-Identifier: MIT */
/*
 * arch/arm64/start.S - the first kernel instructions, from UEFI or U-Boot.
 *
 * Entry contract (boot/bootinfo.h, like the Linux arm64 boot protocol):
 *   EL2 or EL1, MMU and D-cache off, the image cleaned to the point of
 *   coherency (PoC), running at the *physical* address the loader chose
 *   (2 MiB aligned, not where the kernel is linked);
 *   our UEFI loader: x0 = struct boot_info (physical), x1 = BOOT_INFO_MAGIC;
 *   U-Boot booti:    x0 = flattened devicetree (physical), x1 = 0.
 * Exit: kmain(x0, x1 == BOOT_INFO_MAGIC ? x1 : 0, 0) at the linked address,
 *   MMU and caches on, on the boot stack, DAIF all masked.
 *
 * Step 1: mask exceptions, keep x0/x1, drop from EL2 to EL1 if needed
 *         (el2_to_el1, shared with the other CPUs' entry, secondary_entry).
 * Step 2: MMU and caches off (a known SCTLR_EL1), SP_EL1 selected.
 * Step 3: zero .bss (it holds the page tables and the boot stack).
 * Step 4: identity map (TTBR0) of low physical memory, 1 GiB blocks.
 * Step 5: kernel map (TTBR1): KERNEL_VBASE.. -> the image, 2 MiB blocks.
 * Step 6: invalidate .bss in the data caches (written with the MMU off).
 * Step 7: MAIR, TCR, TTBR0/1, TLB invalidate, then the MMU and caches on.
 * Step 8: jump to the linked (high) address, boot stack, call kmain.
 *
 * Until step 8 the code runs at whatever physical address U-Boot or the
 * loader picked, so it uses only PC-relative addressing (adr, adrp, ldr of
 * literals) and never an absolute address of itself.
 *
 * Arm ARM = Arm Architecture Reference Manual for A-profile (DDI 0487).
 * Registers are cited by name: their fields are described in the chapter
 * "AArch64 System Register Descriptions"; translation tables in "The
 * AArch64 Virtual Memory System Architecture" (VMSAv8-64). Section numbers
 * move between issues of the manual, names do not.
 */
#include <arch/impl.h>

/* adrp/add pair: the address of sym, PC-relative (works before and after the MMU is on). */
.macro adr_l reg, sym
    adrp    \reg, \sym
    add     \reg, \reg, :lo12:\sym
.endm

#define BOOT_INFO_MAGIC 0x2154464948534b53 /* boot/bootinfo.h (no "ull" in assembly) */

/* VMSAv8-64 stage 1 block/table descriptors, 4 KiB granule ("Translation table
 * descriptor formats", "Memory attribute fields in the VMSAv8-64 translation
 * table format descriptors"). */
#define PTE_BLOCK (1 << 0)         /* bits[1:0] = 0b01: block (level 1 or 2) */
#define PTE_TABLE (3 << 0)         /* bits[1:0] = 0b11: next-level table */
#define PTE_ATTR(i) ((i) << 2)     /* AttrIndx[2:0]: which MAIR_EL1 attribute */
#define PTE_SH_INNER (3 << 8)      /* SH[1:0] = 0b11: Inner Shareable */
#define PTE_AF (1 << 10)           /* access flag: set, or the first access faults */
#define PTE_PXN (1 << 53)          /* privileged execute-never */
#define PTE_UXN (1 << 54)          /* unprivileged execute-never */
/* AP[2:1] (bits 7:6) = 0b00: read/write at EL1, no access at EL0. */

/* MAIR_EL1: one byte per AttrIndx (values in <arch/impl.h>). */
#define MT_DEVICE MAIR_IDX_DEVICE_NGNRNE /* Attr0 = 0x00: Device-nGnRnE */
#define MT_NORMAL MAIR_IDX_NORMAL  /* Attr1 = 0xff: Normal, inner+outer write-back, RW-allocate */
#define MAIR_VALUE MAIR_EL1_VALUE  /* also Attr2, Device-nGnRE, for the kernel's own tables */

#define BLOCK_DEVICE (PTE_BLOCK | PTE_ATTR(MT_DEVICE) | PTE_AF | PTE_PXN | PTE_UXN)
#define BLOCK_NORMAL (PTE_BLOCK | PTE_ATTR(MT_NORMAL) | PTE_SH_INNER | PTE_AF)

/* TCR_EL1. For both halves: 48-bit VAs (TxSZ = 16), 4 KiB granule, table walks
 * Inner Shareable, inner and outer write-back read/write-allocate. IPS
 * (bits 34:32) is filled in at run time from ID_AA64MMFR0_EL1.PARange. */
#define TCR_T0SZ (16 << 0)
#define TCR_IRGN0_WBWA (1 << 8)
#define TCR_ORGN0_WBWA (1 << 10)
#define TCR_SH0_INNER (3 << 12)
#define TCR_TG0_4K (0 << 14)
#define TCR_T1SZ (16 << 16)
#define TCR_IRGN1_WBWA (1 << 24)
#define TCR_ORGN1_WBWA (1 << 26)
#define TCR_SH1_INNER (3 << 28)
#define TCR_TG1_4K (2 << 30)       /* TG1 encodes 4 KiB as 0b10 (TG0 as 0b00) */
#define TCR_VALUE (TCR_T0SZ | TCR_IRGN0_WBWA | TCR_ORGN0_WBWA | TCR_SH0_INNER | TCR_TG0_4K | \
                   TCR_T1SZ | TCR_IRGN1_WBWA | TCR_ORGN1_WBWA | TCR_SH1_INNER | TCR_TG1_4K)
#define TCR_IPS_SHIFT 32
#define PARANGE_48BIT 5            /* 52-bit OAs need TCR_EL1.DS with 4 KiB pages: stay at 48 */

/* SCTLR_EL1. Bits 29, 28, 23, 22, 20 and 11 are RES1 in Armv8.0; later
 * versions gave them names (LSMAOE, nTLSMD, SPAN, EIS, TSCXT, EOS) whose
 * value 1 keeps the Armv8.0 behaviour. Everything else 0: little endian
 * (EE, E0E), no alignment checking (A), no WXN, no pointer authentication. */
#define SCTLR_RES1 ((1 << 29) | (1 << 28) | (1 << 23) | (1 << 22) | (1 << 20) | (1 << 11))
#define SCTLR_M (1 << 0)           /* stage 1 MMU on */
#define SCTLR_C (1 << 2)           /* data accesses cacheable */
#define SCTLR_SA (1 << 3)          /* SP alignment check at EL1 */
#define SCTLR_SA0 (1 << 4)         /* SP alignment check at EL0 */
#define SCTLR_I (1 << 12)          /* instruction fetches cacheable */
#define SCTLR_DZE (1 << 14)        /* EL0 may use DC ZVA (else it traps; DCZID_EL0.DZP says so) */
#define SCTLR_UCT (1 << 15)        /* EL0 may read CTR_EL0 (cache line sizes, for user libraries) */
#define SCTLR_NTWE (1 << 18)       /* 1: WFE at EL0 is not trapped (user spin-wait loops) */
#define SCTLR_OFF (SCTLR_RES1 | SCTLR_SA | SCTLR_SA0)
#define SCTLR_ON (SCTLR_OFF | SCTLR_M | SCTLR_C | SCTLR_I | SCTLR_DZE | SCTLR_UCT | SCTLR_NTWE)

/* EL2 registers used only to leave EL2 (their register descriptions). */
#define HCR_EL2_RW (1 << 31)       /* EL1 is AArch64; all other bits 0: no traps, no stage 2 */
#define CNTHCTL_EL1PCTEN (1 << 0)  /* EL1/EL0 may read the physical counter */
#define CNTHCTL_EL1PCEN (1 << 1)   /* EL1/EL0 may use the physical timer */
#define CPTR_EL2_RES1 0x33ff       /* bits 13:12 and 9:0; TFP (bit 10) = 0: FP/SIMD not trapped */
#define SPSR_EL1H_MASKED 0x3c5     /* M[3:0] = 0b0101 (EL1 with SP_EL1), D, A, I, F set (bits 9:6) */
/* ICC_SRE_EL2 (GICv3, Arm IHI 0069): SRE (bit 0) = EL2 uses the system
 * registers, which EL1's ICC_SRE_EL1.SRE needs; Enable (bit 3) = EL1's
 * accesses to ICC_SRE_EL1 do not trap to EL2. Only if ID_AA64PFR0_EL1.GIC
 * (bits 27:24) says the CPU has them (else the register is UNDEFINED). */
#define ICC_SRE_EL2_SRE_ENABLE 0x9

#define KERNEL_MAP_2M 32           /* 64 MiB of 2 MiB blocks for the image and early allocations */

/*
 * mmu_on_boot_tables tcr: MAIR, TCR (from register \tcr), TTBR0 = the boot
 * identity map, TTBR1 = the boot kernel map, then the MMU and caches on.
 * TLBI VMALLE1 first drops any TLB entries the firmware's translation regime
 * may have left for EL1; IC IALLU after drops instructions fetched before
 * the switch. Used by the boot CPU (step 7) and by every secondary CPU.
 * Clobbers x9, so \tcr must be another register.
 */
.macro mmu_on_boot_tables tcr
    ldr     x9, =MAIR_VALUE
    msr     mair_el1, x9
    msr     tcr_el1, \tcr
    adr_l   x9, idmap_l0
    msr     ttbr0_el1, x9
    adr_l   x9, kmap_l0
    msr     ttbr1_el1, x9
    isb
    tlbi    vmalle1
    dsb     nsh
    isb
    ldr     x9, =SCTLR_ON
    msr     sctlr_el1, x9
    isb
    ic      iallu
    dsb     nsh
    isb
.endm

    .section .text.head, "ax"
    .globl _start
/*
 * The Linux arm64 Image header (64 bytes, little endian), which U-Boot's
 * booti reads at offset 0. flags = 0xa: bit 0 = 0 little endian, bits 2:1 =
 * 1 4 KiB pages, bit 3 = 1 the image may sit at any 2 MiB aligned address,
 * so booti runs it where it was loaded (boot-notes 6.1).
 */
_start:
    b       real_start              // code0
    .long   0                       // code1
    .quad   0                       // text_offset
    .quad   _kernel_end - _start    // image_size, including .bss
    .quad   0xa                     // flags
    .quad   0, 0, 0                 // res2, res3, res4
    .byte   'A', 'R', 'M', 0x64     // magic "ARM\x64" at offset 0x38
    .long   0                       // res5: no PE/COFF header

/*
 * real_start - registers: x0, x1 as in the entry contract above.
 * Kept until kmain: x19 = x0, x20 = x1, x21 = physical base of the image,
 * x22 = its physical end, x23 = usable PARange encoding (<= 48 bits),
 * x24 = the EL we were entered at.
 */
real_start:
    // Step 1: mask D, A, I, F; keep the arguments; find our EL (CurrentEL[3:2]).
    msr     daifset, #0xf
    mov     x19, x0
    mov     x20, x1
    mrs     x24, CurrentEL
    ubfx    x24, x24, #2, #2        // x24 = the EL we were entered at (kept for arm64_entry_el)
    sub     x9, x24, #1
    cmp     x9, #1
    b.hi    park                    // EL3 (or nonsense): not a supported entry
    bl      el2_to_el1

    // Step 2: MMU, caches and alignment checking off, whatever the firmware left.
    ldr     x9, =SCTLR_OFF
    msr     sctlr_el1, x9
    isb
    msr     spsel, #1               // run on SP_EL1

    adr     x21, _start             // physical base
    tst     x21, #0x1fffff
    b.ne    park                    // not 2 MiB aligned: the block mappings would be wrong
    adr_l   x22, _kernel_end        // physical end

    // Step 3: zero .bss. Aligned 16-byte stores only: with the MMU off every
    // data access is Device-nGnRnE, where unaligned accesses fault.
    adr_l   x9, __bss_start
    adr_l   x10, __bss_end
1:  cmp     x9, x10
    b.hs    2f
    stp     xzr, xzr, [x9], #16
    b       1b
2:
    // Step 4: identity map for TTBR0. L0[0] -> idmap_l1, whose entry i maps
    // physical GiB i, for as many GiB as the physical address size has (at most
    // 512). Every block is Device-nGnRnE and execute-never, so no access to it
    // is ever speculative and no instruction is fetched from it, except:
    //   - the GiB block(s) holding the kernel image: Normal memory, executable,
    //     because the instructions right after the MMU comes on are fetched
    //     from this identity address before the jump to the high one;
    //   - the GiB holding x0 (boot_info or the devicetree), if x0 != 0: Normal,
    //     so early devicetree reads are ordinary cached reads.
    // Those blocks are assumed to hold only RAM (true of QEMU virt and of the
    // usual boards); the kernel's own page tables will map RAM precisely.
    adr_l   x9, idmap_l0
    adr_l   x10, idmap_l1
    orr     x11, x10, #PTE_TABLE
    str     x11, [x9]
    mrs     x23, id_aa64mmfr0_el1
    and     x23, x23, #0xf          // PARange: 0 = 32 bits, 1 = 36, 2 = 40, 3 = 42, 4 = 44, 5 = 48
    cmp     x23, #PARANGE_48BIT
    mov     x9, #PARANGE_48BIT
    csel    x23, x23, x9, ls
    adr     x9, parange_bits
    ldrb    w9, [x9, x23]
    sub     x9, x9, #30
    mov     x12, #1
    lsl     x12, x12, x9            // x12 = GiB blocks covering the physical address space
    mov     x9, #512
    cmp     x12, x9
    csel    x12, x12, x9, ls        // ... at most one full level 1 table
    lsr     x13, x21, #30           // x13 = first GiB of the kernel
    sub     x14, x22, #1
    lsr     x14, x14, #30           // x14 = last GiB of the kernel
    lsr     x15, x19, #30           // x15 = GiB of x0 (0 means none: see below)
    cbnz    x19, 3f
    mov     x15, #-1
3:  ldr     x16, =BLOCK_DEVICE
    ldr     x17, =BLOCK_NORMAL
    mov     x11, #0                 // x11 = i
4:  mov     x9, x16
    cmp     x11, x13
    ccmp    x11, x14, #2, hs        // i >= first ? compare with last : force "hi" (C=1, Z=0)
    csel    x9, x17, x9, ls         // first <= i <= last: Normal
    cmp     x11, x15
    csel    x9, x17, x9, eq
    orr     x9, x9, x11, lsl #30
    str     x9, [x10, x11, lsl #3]
    add     x11, x11, #1
    cmp     x11, x12
    b.lo    4b

    // Step 5: kernel map for TTBR1. VA 0xffffffff80000000 indexes L0 entry 511
    // (VA[47:39]), L1 entry 510 (VA[38:30]) and L2 entry 0 (VA[29:21]).
    adr_l   x9, kmap_l0
    adr_l   x10, kmap_l1
    adr_l   x11, kmap_l2
    orr     x12, x10, #PTE_TABLE
    str     x12, [x9, #511 * 8]
    orr     x12, x11, #PTE_TABLE
    str     x12, [x10, #510 * 8]
    orr     x12, x21, x17           // x17 = BLOCK_NORMAL, executable (W^X comes with the real MMU code)
    mov     x13, #KERNEL_MAP_2M
5:  str     x12, [x11], #8
    add     x12, x12, #0x200000
    subs    x13, x13, #1
    b.ne    5b

    // Step 6: the tables and the zeroed .bss went straight to memory (the MMU was
    // off), but the caches may still hold older copies of those lines, e.g.
    // from the firmware's use of the memory. Once the MMU is on, the table walker
    // and the kernel read through the caches and could see those stale lines,
    // so invalidate (not clean: that could write stale data over ours) the
    // whole .bss to the PoC. DC IVAC by address (cache maintenance
    // instructions); line size from CTR_EL0.DminLine (log2 of 4-byte words).
    dsb     sy
    adr_l   x9, __bss_start
    adr_l   x10, __bss_end
    mrs     x11, ctr_el0
    ubfx    x11, x11, #16, #4
    mov     x12, #4
    lsl     x12, x12, x11           // x12 = smallest D-cache line, bytes
    sub     x13, x12, #1
    bic     x9, x9, x13
6:  dc      ivac, x9
    add     x9, x9, x12
    cmp     x9, x10
    b.lo    6b
    dsb     sy

    // Step 7: translation registers, then the MMU. TLBI VMALLE1 drops any TLB
    // entries the firmware's own translation regime may have left for EL1.
    ldr     x10, =TCR_VALUE
    bfi     x10, x23, #TCR_IPS_SHIFT, #3
    mmu_on_boot_tables x10

    // Step 8: continue at the linked address. The literal holds the link-time
    // (virtual) address of `high`; from here on adr/adrp yield high addresses.
    ldr     x9, =high
    br      x9
high:
    adr_l   x9, kernel_phys_base
    str     x21, [x9]
    adr_l   x9, arm64_entry_el
    str     x24, [x9]
    adr_l   x9, boot_stack_top
    mov     sp, x9
    mov     x29, xzr                // frame pointer 0: the end of every backtrace
    mov     x0, x19
    ldr     x9, =BOOT_INFO_MAGIC
    cmp     x20, x9
    csel    x1, x20, xzr, eq
    mov     x2, xzr
    bl      kmain                   // x30 = park, so kmain's frame record names start.S
park:
    wfe
    b       park

/*
 * el2_to_el1 - called at EL1 or EL2 with the MMU off; returns (to x30) at EL1.
 *   At EL2 (a hypervisor-capable entry: U-Boot or UEFI with virtualization
 *   on, or PSCI starting a CPU at EL2): make EL1 a plain AArch64 kernel mode
 *   and ERET into it. ERET takes PSTATE from SPSR_EL2 and the PC from
 *   ELR_EL2 (Arm ARM "Exception return", in "The AArch64 System Level
 *   Programmers' Model"). Fields: HCR_EL2.RW, CNTHCTL_EL2.EL1PCTEN/EL1PCEN,
 *   CPTR_EL2.TFP, ICC_SRE_EL2.SRE/Enable, SPSR_EL2.M/D/A/I/F. Each CPU has
 *   its own copy of these registers, so every CPU entered at EL2 runs this.
 *   Clobbers x9; no stack.
 */
el2_to_el1:
    mrs     x9, CurrentEL
    ubfx    x9, x9, #2, #2
    cmp     x9, #2
    b.eq    1f
    ret
1:  mov     x9, #HCR_EL2_RW         // also clears E2H/TGE if firmware used VHE
    msr     hcr_el2, x9
    isb
    mov     x9, #(CNTHCTL_EL1PCTEN | CNTHCTL_EL1PCEN)
    msr     cnthctl_el2, x9
    msr     cntvoff_el2, xzr        // virtual count = physical count (reset value is UNKNOWN)
    mov     x9, #CPTR_EL2_RES1
    msr     cptr_el2, x9
    msr     hstr_el2, xzr           // no traps of AArch32 system register accesses
    mrs     x9, id_aa64pfr0_el1
    ubfx    x9, x9, #24, #4         // GIC: 0 = no GICv3 system registers
    cbz     x9, 2f
    mov     x9, #ICC_SRE_EL2_SRE_ENABLE
    msr     icc_sre_el2, x9         // GICv3: EL1 may use its CPU interface (gicv3.c)
    isb
2:
    mrs     x9, midr_el1            // EL1 reads of MIDR/MPIDR return these (UNKNOWN at reset)
    msr     vpidr_el2, x9
    mrs     x9, mpidr_el1
    msr     vmpidr_el2, x9
    mov     x9, #SPSR_EL1H_MASKED
    msr     spsr_el2, x9
    msr     elr_el2, x30            // "return" to the caller, at EL1
    eret

/*
 * secondary_entry - where PSCI CPU_ON starts every other CPU (smp.c).
 *
 * Entry (PSCI, DEN0022 "CPU_ON"): at the *physical* address smp.c passed,
 *   EL2 or EL1, MMU and caches off, x0 = the context id = the physical
 *   address of this CPU's struct arm64_cpu_boot (smp.c; offsets below),
 *   which the boot CPU cleaned to the PoC before the call, so these
 *   uncached reads see it. Everything else is read through the MMU.
 * Exit: arm64_secondary_start(cpu) at the linked address, on the kernel's
 *   translation tables and the CPU's idle-thread stack, DAIF all masked.
 *
 * Like the boot CPU (steps 1, 2 and 7 above), it turns the MMU on with
 * start.S's own tables, which are still intact in .bss: TTBR0 = the
 * identity map (this code keeps running at its physical address), TTBR1 =
 * the early kernel map. That is the trampoline to the linked address;
 * there arm64_replace_ttbr1 moves TTBR1 to the kernel's real tables the way
 * arch_mmu_switch did on the boot CPU, and arm64_secondary_start (smp.c)
 * does the rest in C (TTBR0 = the empty table, PAN, per-CPU registers).
 * The boot CPU's .bss invalidation (step 6) is not repeated: the tables
 * have been read through the caches ever since, and with the MMU on every
 * access here is cacheable, Inner Shareable and so coherent.
 */
/*
 * spin_table_entry - where a spin-table CPU starts (spin_table.c): as
 * secondary_entry, but the firmware passes nothing, so the record's
 * physical address comes from arm64_spin_records[MPIDR_EL1.Aff0], which
 * the boot CPU cleaned to the PoC before it released this CPU.
 */
    .globl spin_table_entry
spin_table_entry:
    mrs     x1, mpidr_el1
    and     x1, x1, #0xff
    adr_l   x0, arm64_spin_records
    ldr     x0, [x0, x1, lsl #3]
    b       secondary_entry

#define SB_CPU 0                    /* struct arm64_cpu_boot (smp.c) */
#define SB_STACK 8
#define SB_ROOT 16
#define SB_TCR 24
#define SB_PA_MINUS_VA 32
    .globl secondary_entry
secondary_entry:
    msr     daifset, #0xf
    mov     x19, x0
    mrs     x9, CurrentEL
    ubfx    x9, x9, #2, #2
    sub     x9, x9, #1
    cmp     x9, #1
    b.hi    park                    // not EL1 or EL2: the boot CPU reports a timeout
    bl      el2_to_el1
    ldr     x9, =SCTLR_OFF
    msr     sctlr_el1, x9
    isb
    msr     spsel, #1
    // The boot record, with 8-byte-aligned loads (Device-nGnRnE while the MMU is off).
    ldr     x20, [x19, #SB_CPU]     // struct cpu * (virtual)
    ldr     x21, [x19, #SB_STACK]   // stack top (virtual)
    ldr     x22, [x19, #SB_ROOT]    // kernel root table (physical)
    ldr     x23, [x19, #SB_TCR]     // the boot CPU's TCR_EL1 (IPS included)
    ldr     x24, [x19, #SB_PA_MINUS_VA]
    mmu_on_boot_tables x23
    ldr     x9, =secondary_high
    br      x9
secondary_high:
    mov     x0, x22
    mov     x1, x24
    bl      arm64_replace_ttbr1     // TTBR1 = kernel tables; TTBR0 still the identity map
    mov     sp, x21
    mov     x29, xzr
    mov     x0, x20
    bl      arm64_secondary_start   // does not return
    b       park

parange_bits:
    .byte   32, 36, 40, 42, 44, 48
    .ltorg

    .bss
    .balign 8
    .globl kernel_phys_base, arm64_entry_el
kernel_phys_base:
    .skip 8
arm64_entry_el:
    .skip 8
    .balign 4096
idmap_l0:   .skip 4096
idmap_l1:   .skip 4096
kmap_l0:    .skip 4096
kmap_l1:    .skip 4096
kmap_l2:    .skip 4096
    .globl boot_stack_bottom, boot_stack_top
boot_stack_bottom:
    .skip 16384
boot_stack_top:
