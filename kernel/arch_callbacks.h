/* SPDX-License-Identifier: MIT */
/*
 * kernel/arch_callbacks.h - the kernel functions architecture code may call.
 * This is the other half of the arch contract (arch/arch.h): arch code
 * calls these and nothing else in kernel/. Each says who calls it and how.
 */
#ifndef KERNEL_ARCH_CALLBACKS_H
#define KERNEL_ARCH_CALLBACKS_H

#include "arch/arch.h"
#include "kernel/cpu.h"             /* struct cpu: the kernel's half, arch_cpu is the arch's */
#include "kernel/mm.h"              /* phys_to_virt, kernel image bounds */
#include "kernel/mm/kernel_stack.h" /* kstack_is_guard, for fault reports */
#include "kernel/mm/vm.h"           /* kernel_aspace, ioremap, USER_TOP, VM_* */
#include "kernel/printk.h"          /* kprintf, for arch_print_regs and boot messages */
#include "kernel/uapi/syscall.h"    /* EXIT_KILLED_* */
#include "lib/printf.h"             /* snprintf */

/* start.S on the boot CPU, MMU on, running at the kernel's virtual address,
 * on the boot stack, IRQs off. See kernel/bootinfo.h for the arguments. */
__noreturn void kmain(uint64_t boot_arg, uint64_t boot_magic, uint64_t hartid);

/* Trap handlers, IRQs off: if the faulting PC has an exception-table entry,
 * move the PC to its fix-up code and return true (the trap then returns). */
bool extable_fixup(struct trapframe *tf);

/* Trap handlers, for a fault nothing can handle: print the CPU, what
 * happened, the registers and a backtrace, then power off with failure. */
__noreturn void panic_trap(const struct trapframe *tf, const char *fmt, ...) __printf(2, 3);

/* Trap handlers, IRQs off, when a kernel stack has run into its guard page
 * (addr: the stack pointer or the faulting access there): "kernel stack
 * overflow" with the thread, the registers and a backtrace, then power off
 * with failure. Called on this CPU's emergency stack where the arch can. */
__noreturn void panic_stack_overflow(const struct trapframe *tf, uintptr_t addr);

/* The timer interrupt's handler, first, IRQs off: how long ago the timer
 * raised it, the timer's counter now less the compare value the tick was
 * programmed with, in ticks of arch_timer_hz() (TIMER_LATE_UNKNOWN if the
 * arch cannot tell). Recorded by kernel/latency/timer_lag.c. */
#define TIMER_LATE_UNKNOWN (~0ull)
void timer_fired(uint64_t late);

/* The boot devicetree, validated (NULL if none): for arch_init and probes. */
const struct fdt *boot_fdt(void);

/* Syscall entry code, IRQs off, with the user's registers saved in *tf at
 * the top of the kernel stack (at least those C may clobber, and the
 * number and arguments). Returns the result, with IRQs off and
 * user_return() done: the entry code puts it in the user's result register.
 * The entry code's call (at arch_syscall_call_site) names this copy, the
 * one without a stack offset; the kernel rewrites it to the copy in force
 * (kernel/syscall/path.c), all of which take and return the same. */
long syscall_dispatch_off(struct trapframe *tf);

/* arch_ipc_call_entry and arch_ipc_reply_recv_entry (arch/arch.h), by a
 * tail jump once the user's callee-saved registers are in the trapframe:
 * the IPC system calls themselves (kernel/ipc/sys_ipc.c). */
long sys_ipc_call(const struct sysargs *args);
long sys_ipc_reply_recv(const struct sysargs *args);

/* The kernel code at `text` (and the rest of its page and the next)
 * through a writable mapping made for the patch, at an address no other
 * mapping has (every other mapping of kernel code is read-only, the direct
 * map's included); it goes when the patch is done (text_patch_unalias).
 * For arch_text_patch_call, inside text_patch_run. */
void *text_patch_alias(const void *text);
/* Boot CPU, before any other starts: in every instruction listed in the
 * .timestamp_reads section (the latency counter reads an arch's impl.h
 * writes for one counter), change the bits `field` from `from` to `to`,
 * so that they read another counter; panics at a listed instruction that
 * does not hold `from`. */
void text_patch_timestamp_reads(uint32_t field, uint32_t from, uint32_t to);

/* Trap handlers, last thing before returning to user mode, IRQs off. */
void user_return(void);

/* The running thread's saved FP/SIMD registers, NULL for a kernel thread
 * (kernel/sched/sched.c): for an arch that loads them at first use. IRQs off. */
struct arch_fpu *current_user_fpu(void);

/* Trap handlers, for a fault in user mode: report it in one line and end
 * the task with `status` (EXIT_KILLED_* in kernel/uapi/syscall.h). */
__noreturn void user_fault(const char *why, uintptr_t addr, uintptr_t pc, int status);

/* Trap handlers, for a page fault in user mode at addr by an access that
 * needs prot (VM_READ, VM_WRITE or VM_EXEC): true if the current task's
 * page tables allow it after all, so that the fault came from a stale
 * "not mapped" this CPU cached (riscv64: kernel/syscall/user_fault.c says when). The
 * arch then forgets addr on this CPU and lets the program retry. */
bool user_fault_was_stale(uintptr_t addr, unsigned prot);

/* A CPU started by arch_cpu_start, on its own stack, with the kernel's page
 * tables, its trap vectors and per-CPU pointer set up, IRQs off. */
__noreturn void secondary_main(struct cpu *c);

/* Every interrupt, IRQs off, before it is handled: counts it (the latency
 * timers mark samples during which one was taken), and stops there while
 * another CPU rewrites kernel code (kernel/text_patch.h). */
void interrupt_enter(void);
/* The end of an interrupt taken in kernel mode, IRQs off, just before the
 * return to the code it interrupted: a preemption point
 * (sched_preempt_point), and the IRQs-off tracker's window closes. */
void interrupt_exit(void);

/* Timer interrupt, every CPU, IRQs off, after timer_fired: the periodic
 * work of the scheduler and the stack offset strategies
 * (kernel/syscall/interrupt.c). */
void tick(void);

/* End of an interrupt taken in kernel mode, IRQs off: maybe switch threads. */
void sched_preempt_point(void);

#endif
