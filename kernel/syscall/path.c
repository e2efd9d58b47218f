/* SPDX-License-Identifier: MIT */
/*
 * kernel/syscall/path.c - the entry code's call to the copy of the system
 * call path in force, rewritten when the strategy or the timers change.
 *
 * A direct call costs the same as the call to a single syscall_dispatch
 * would: choosing a strategy or switching the timers adds nothing to a
 * system call. The price is paid at the switch instead: every other CPU is
 * stopped while one instruction is rewritten (kernel/text_patch.c; make
 * bench prints how long that takes). Until syscall_path_init, the entry
 * code calls the `off` copy, as the assembler wrote it. This is the only
 * place that rewrites it: the strategies (kernel/kstack_offset/) and the
 * timers (kernel/latency/) are asked first, by the system calls that
 * switch (sys_kstack.c, sys_latency.c), and know nothing of it.
 */
#include "kernel/syscall/path.h"
#include "kernel/arch_callbacks.h"
#include "kernel/panic.h"
#include "kernel/text_patch.h"

static unsigned strategy = KSTACK_OFF; /* what the call site calls: */
static bool timed;                     /* syscall_paths[strategy][timed], */
static bool erase;                     /* or syscall_erasing_wrapper (erase.c), which calls that */
unsigned syscall_path_state;           /* epoch << 1 | owes exit work (path.h) */

long syscall_erasing_wrapper(struct trapframe *tf);

struct change {
    int strategy; /* KSTACK_*, or -1: as it is */
    int timed;    /* 0 or 1, or -1: as it is */
    int erase;    /* 0 or 1, or -1: as it is */
};

/* Whether a thread that entered through the copy in force may not be
 * resumed straight to user mode (path.h): the copy does work after the
 * handler that would be skipped, or (hw, siphash) its draw calls out of
 * line with values kept in callee-saved registers, so the user's are no
 * longer in them when the IPC entries store them (scripts/check_dispatch.py
 * checks the other copies save none, and lists these two alike). */
static bool owes_exit_work(void)
{
#ifndef KSTACK_OFFSET_AT_EXIT_NONE
    return true; /* a lab's KSTACK_OFFSET_AT_EXIT (kstack_offset.h) */
#endif
    bool exit_update = strategy == KSTACK_COUNTER || strategy == KSTACK_CRNG16 ||
                       strategy == KSTACK_TASK; /* draw.h: kstack_exit */
    bool keeps_registers = strategy == KSTACK_HW || strategy == KSTACK_SIPHASH;
    return timed || erase || exit_update || keeps_registers || CONFIG_IRQSOFF;
}

/* Every other CPU stopped: the choice and the call site change together. */
static void rewrite(void *arg)
{
    const struct change *c = arg;
    if (c->strategy >= 0)
        WRITE_ONCE(strategy, (unsigned)c->strategy);
    if (c->timed >= 0)
        WRITE_ONCE(timed, c->timed != 0);
    if (c->erase >= 0)
        WRITE_ONCE(erase, c->erase != 0);
    syscall_path_fn target = erase ? syscall_erasing_wrapper : syscall_paths[strategy][timed];
    if (!arch_text_patch_call(arch_syscall_call_site, target))
        panic("syscall: cannot rewrite the entry code's call at %p",
              (void *)arch_syscall_call_site);
    unsigned epoch = (syscall_path_state >> 1) + 1;
    WRITE_ONCE(syscall_path_state, epoch << 1 | owes_exit_work());
}

void syscall_path_init(struct kstack_boot boot)
{
    syscall_path_select(boot.strategy);
    if (boot.erase)
        syscall_path_erase(true);
}

void syscall_path_select(unsigned id)
{
    struct change c = {(int)id, -1, -1};
    text_patch_run(rewrite, &c);
}

void syscall_path_time(bool on)
{
    struct change c = {-1, on, -1};
    text_patch_run(rewrite, &c);
}

void syscall_path_erase(bool on)
{
    struct change c = {-1, -1, on};
    text_patch_run(rewrite, &c);
}

syscall_path_fn syscall_path_in_force(void)
{
    return syscall_paths[READ_ONCE(strategy)][READ_ONCE(timed)];
}

unsigned syscall_path_strategy(void)
{
    return READ_ONCE(strategy);
}

bool syscall_path_timed(void)
{
    return READ_ONCE(timed);
}
