/* SPDX-License-Identifier: MIT */
/*
 * kernel/panic.c - the last words of a kernel that cannot carry on.
 *
 * Prints "KERNEL PANIC on CPU n: <why>", every register, and a backtrace
 * made by following frame pointers (the kernel is built with
 * -fno-omit-frame-pointer), then powers off with EXIT_PANIC. The addresses
 * are symbolised by tests/run.py (or by hand: addr2line -f -e kernel.elf).
 * A panic while panicking only halts, so a broken printer cannot loop;
 * on the CPU that panicked first it powers off at once, as nobody else
 * will. The report reads this CPU's struct unchecked (arch_this_cpu): IRQs
 * are masked, and a broken this_cpu() check must not silence the report.
 */
#include "kernel/panic.h"

#include <stdarg.h>

#include "kernel/arch_callbacks.h"
#include "kernel/cpu.h"
#include "kernel/mm.h"
#include "kernel/printk.h"

#define BACKTRACE_MAX 32

static int panicking;
static struct cpu *first_panic_cpu;

static void backtrace(uintptr_t pc, uintptr_t fp)
{
    kprintf("Backtrace:\n  #0  %#lx\n", (unsigned long)pc);
    for (int depth = 1; depth < BACKTRACE_MAX; depth++) {
        /* Frames must be aligned, in the kernel half, and move up the stack. */
        if ((intptr_t)fp >= 0 || fp % sizeof(uintptr_t))
            break;
        uintptr_t caller_fp, ret;
        arch_frame_next(fp, &caller_fp, &ret);
        if (!ret)
            break;
        kprintf("  #%-2d %#lx\n", depth, (unsigned long)ret);
        if (caller_fp <= fp)
            break;
        fp = caller_fp;
    }
}

static __noreturn void panic_with(const struct trapframe *tf, const char *fmt, va_list ap)
{
    arch_irq_save();
    struct cpu *self = arch_this_cpu();
    if (__atomic_fetch_add(&panicking, 1, __ATOMIC_SEQ_CST)) {
        /* A second panic: on another CPU the first one reports; on the
         * same CPU the report itself failed, so say so and stop. */
        if (READ_ONCE(first_panic_cpu) == self) {
            kprintf("\nKERNEL PANIC while panicking on CPU %u: ", self->id);
            kvprintf(fmt, ap);
            kprintf("\n");
            arch_poweroff(EXIT_PANIC);
        }
        arch_halt();
    }
    WRITE_ONCE(first_panic_cpu, self);
    printk_emergency();
    for (unsigned i = 0; i < MAX_CPUS; i++) { /* the other CPUs stop where they are */
        if (&cpus[i] != self && READ_ONCE(cpus[i].online))
            arch_send_ipi(i, IPI_STOP);
    }
    kprintf("\nKERNEL PANIC on CPU %u: ", self->id);
    kvprintf(fmt, ap);
    kprintf("\n");
    arch_print_regs(tf);
    backtrace(arch_tf_pc(tf), arch_tf_fp(tf));
    kprintf("System halted.\n");
    arch_poweroff(EXIT_PANIC);
}

void panic(const char *fmt, ...)
{
    struct trapframe tf;
    arch_capture_regs(&tf);
    va_list ap;
    va_start(ap, fmt);
    panic_with(&tf, fmt, ap);
}

void this_cpu_misuse(void *where)
{
    arch_irq_save();
    panic("this_cpu() with preemption enabled, called from %p: the thread may have moved "
          "to another CPU (disable preemption or IRQs around per-CPU data)",
          where);
}

void panic_trap(const struct trapframe *tf, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    panic_with(tf, fmt, ap);
}
