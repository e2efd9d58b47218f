/* SPDX-License-Identifier: MIT */
/*
 * arch/arch.h - the architecture contract.
 *
 * Every hook an architecture must provide is listed here, once, with its
 * calling context. kernel/ includes this header and no other arch header.
 * Hooks marked (inline) are static inline functions in the arch's
 * arch/<arch>/include/arch/impl.h (included at the end, so a missing body is
 * a compile error); the rest are ordinary functions in the arch's .c and .S files
 * (a missing one is a link error). Arch code in turn may call only the
 * kernel functions declared in kernel/arch_callbacks.h.
 *
 * Per-arch constants impl.h must define:
 *   ARCH_NAME            "x86_64", "arm64", "riscv64"
 *   ARCH_HAS_PIO         1 if the CPU has a separate I/O port space (x86)
 *   ARCH_KERNEL_VBASE    virtual address the kernel image is linked at
 *   ARCH_STACK_ALIGN     stack alignment the ABI requires at calls (16)
 * and the register layout `struct trapframe` (what entry code saves).
 */
#ifndef ARCH_ARCH_H
#define ARCH_ARCH_H

#include "boot/bootinfo.h"
#include "kernel/types.h"

struct trapframe;
struct cpu;

/* ---- Boot ------------------------------------------------------------ */

/* Boot CPU, IRQs off, the first thing kmain does: install trap vectors and
 * this CPU's per-CPU pointer, so that faults from here on are reported. */
void arch_early_init(struct cpu *boot_cpu);

/* Boot CPU, IRQs off, once the boot info and the console are set up: find
 * the platform's devices that the arch owns (counter frequency, power-off
 * method, CPU features). May print. */
void arch_init(const struct boot_info *bi);

/* Boot CPU, after arch_early_init: one line naming the firmware interfaces
 * found (e.g. "PSCI 1.1 via hvc", "OpenSBI 1.1, SBI 1.0"); "" if none. */
void arch_describe_firmware(char *buf, size_t size);

/* Physical base of the kernel image (where the loader put it). Any context. */
uint64_t arch_kernel_phys_base(void);

/* Read 8 bytes at addr, surviving a fault: 0 on success, -EFAULT if the
 * access faulted (the trap handler resumes through the exception table).
 * Any context; used by tests and probes. */
int arch_safe_read64(uintptr_t addr, uint64_t *val);

/* ---- Per-CPU --------------------------------------------------------- */

/* (inline) This CPU's struct cpu, in one instruction (GS base, TPIDR_EL1, tp).
 * Valid only while this thread cannot migrate (IRQs or preemption off). */
static inline struct cpu *arch_this_cpu(void);

/* ---- Interrupt mask -------------------------------------------------- */

/* (inline) Mask IRQs on this CPU and return the previous state. Any context. */
static inline unsigned long arch_irq_save(void);
/* (inline) Restore the state returned by arch_irq_save. */
static inline void arch_irq_restore(unsigned long flags);

/* ---- Time ------------------------------------------------------------ */

/* (inline) A free-running per-CPU counter (TSC, CNTVCT_EL0, time CSR). Any context. */
static inline uint64_t arch_counter(void);
/* Ticks per second of arch_counter(); valid after arch_init. */
uint64_t arch_counter_hz(void);

/* ---- CPU control ----------------------------------------------------- */

/* (inline) Hint inside spin loops (pause, yield). Any context. */
static inline void arch_cpu_relax(void);
/* Stop this CPU for good, IRQs off. Any context. */
__noreturn void arch_halt(void);
/* Power the machine off; under QEMU `status` becomes the exit status
 * (isa-debug-exit, semihosting, sifive_test) where the machine allows it.
 * Any context, IRQs off. Falls back to halting if nothing works. */
__noreturn void arch_poweroff(int status);

/* ---- Device access --------------------------------------------------- */

/* (inline) Memory-mapped register access with the ordering devices need. */
static inline uint8_t arch_mmio_read8(uintptr_t addr);
static inline void arch_mmio_write8(uintptr_t addr, uint8_t v);
static inline uint32_t arch_mmio_read32(uintptr_t addr);
static inline void arch_mmio_write32(uintptr_t addr, uint32_t v);
#if 0 /* only where ARCH_HAS_PIO */
static inline uint8_t arch_pio_read8(uint16_t port);
static inline void arch_pio_write8(uint16_t port, uint8_t v);
#endif

/* ---- Traps and diagnostics ------------------------------------------- */

/* (inline) Program counter and stack/frame pointers saved in a trapframe. */
static inline uintptr_t arch_tf_pc(const struct trapframe *tf);
static inline void arch_tf_set_pc(struct trapframe *tf, uintptr_t pc);
static inline uintptr_t arch_tf_fp(const struct trapframe *tf);
/* Fill *tf with this CPU's current registers (for panic reports). */
void arch_capture_regs(struct trapframe *tf);
/* Print every register in *tf, several per line, via kprintf. */
void arch_print_regs(const struct trapframe *tf);
/* Follow one frame record: from frame pointer fp, the caller's frame
 * pointer and return address. The caller checks fp lies on a kernel stack. */
void arch_frame_next(uintptr_t fp, uintptr_t *caller_fp, uintptr_t *ret_pc);

#include <arch/impl.h>

#endif
