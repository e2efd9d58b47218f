/* SPDX-License-Identifier: MIT */
/*
 * kernel/syscall/erase.c - kstack.erase: a system call clears the kernel
 * stack it used on its way out, so that nothing it left there (a request
 * it copied in, a planted token, a key) outlives it for the next call to
 * find. The random offset makes one planted word land at one of 64 depths;
 * a plant at every depth (a wide spray) beats it at any strategy, and only
 * erasing stops that (docs/attacks.md, "The exploit progression"). Linux
 * calls it KSTACK_ERASE (formerly STACKLEAK).
 *
 * Off by default, and then it costs nothing: the entry code calls the
 * strategy's copy of the path directly (path.c). On (the kstack.erase boot
 * flag, or KSTACK_DEBUG_ERASE), the entry code calls the wrapper below
 * instead, which calls that copy and then clears, with IRQs still off,
 * every word below its own frame down to where the stack was already
 * clean: ERASE_CLEAN_RUN zero words in a row. The run is longer than the
 * widest gap the offset's bump leaves unwritten (KSTACK_OFFSET_MAX), so a
 * bump between the wrapper and the handler's frames does not stop it.
 * Linux tracks the lowest stack pointer with compiler instrumentation
 * instead; without it, a call whose frames held that many zero words in a
 * row above data it left deeper would keep that data. Only system calls
 * erase: an interrupt taken from user mode leaves its frames until the
 * next call's erase. The cost is the clean run's reads and writes on every
 * call, 1,400 to 2,400 instructions (docs/attacks.md has the figures).
 */
#include "kernel/arch_callbacks.h"
#include "kernel/cpu.h"
#include "kernel/mm/kernel_stack.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/path.h"
#include "lib/kstack/kstack.h"

#define ERASE_CLEAN_RUN ((KSTACK_OFFSET_MAX + 1) / 8 + 64) /* zero words: clean from here down */

long syscall_erasing_wrapper(struct trapframe *tf);

/* Zero the words below this function's own frame (a leaf: below its local
 * `mark` nothing is in use; the kernel has no red zone), down to `floor`
 * or the first clean run. */
static __attribute__((noinline)) void erase_below_here(uintptr_t floor)
{
    volatile char mark = 0;
    unsigned clean = 0;
    uintptr_t from = ALIGN_DOWN((uintptr_t)&mark, sizeof(uint64_t));
    for (volatile uint64_t *p = (uint64_t *)from;
         (uintptr_t)p > floor && clean < ERASE_CLEAN_RUN;) {
        --p;
        clean = *p ? 0 : clean + 1;
        *p = 0;
    }
    (void)mark;
}

long syscall_erasing_wrapper(struct trapframe *tf)
{
    long ret = syscall_path_in_force()(tf); /* returns with IRQs off */
    erase_below_here(arch_this_cpu()->sched.current->kstack_top - KSTACK_SIZE);
    return ret;
}
