/* SPDX-License-Identifier: MIT */
/*
 * kernel/syscall/path.h - which copy of the system call path runs.
 *
 * kernel/syscall/syscall.c builds one copy of the path per stack offset
 * strategy, with and without the latency timers. The entry code calls one
 * of them by a direct call, which these functions rewrite (stopping the
 * other CPUs for a moment: kernel/text_patch.c). IRQs on and no lock held.
 */
#ifndef KERNEL_SYSCALL_PATH_H
#define KERNEL_SYSCALL_PATH_H

#include "kernel/kstack_offset/kstack_offset.h"
#include "kernel/types.h"
#include "kernel/uapi/kstack.h"

struct trapframe;
typedef long (*syscall_path_fn)(struct trapframe *tf);
extern const syscall_path_fn syscall_paths[KSTACK_NR + 1][2]; /* [strategy][timed] */

/* Boot CPU, once, before any other CPU starts: the copy of the strategy
 * the command line chose (kstack_offset_init), erasing if it said so. */
void syscall_path_init(struct kstack_boot boot);
/* The copy of strategy id (KSTACK_*, KSTACK_FIXED included), timers as they
 * are; the caller checked that id may run here (kstack_offset_available). */
void syscall_path_select(unsigned id);
/* The timed copies (on) or the untimed ones, strategy as it is. */
void syscall_path_time(bool on);
/* kstack.erase (erase.c): the entry code calls a wrapper that clears the
 * stack the call used on its way out (on), or the copy directly (off). */
void syscall_path_erase(bool on);
/* The copy of the path the strategy and the timers select (the wrapper's callee). */
syscall_path_fn syscall_path_in_force(void);
/* What the entry code calls now. */
unsigned syscall_path_strategy(void);
bool syscall_path_timed(void);

/*
 * The IPC fastpath's question (docs/ipc.md, "Straight back to user mode"):
 * may a thread that entered its system call at or after path epoch
 * `thread_epoch` skip the rest of its dispatch copy? One word answers it:
 * syscall_path_state is the epoch, which every rewrite bumps, shifted left
 * by one, with bit 0 set while the path in force owes work after the
 * handler (timed, erasing, a strategy that updates at exit, the IRQs-off
 * tracker, a lab's KSTACK_OFFSET_AT_EXIT) or its draw keeps registers of
 * its own across a call (hw, siphash: path.c). Equal to thread_epoch << 1: the
 * path owes nothing, and no rewrite came since the thread recorded the
 * epoch, so the copy it entered through is the one in force. IRQs off.
 */
extern unsigned syscall_path_state;
static inline bool syscall_path_direct_ok(unsigned thread_epoch)
{
    return READ_ONCE(syscall_path_state) == thread_epoch << 1;
}
/* The epoch now, for a thread to record (at its creation, and whenever it
 * returns from the fastpath the long way): a bound below the epoch of its
 * next entry. One resumed straight to user mode keeps the epoch it had,
 * which it slept under (direct_ok found them equal): still such a bound,
 * if an old one after a rewrite (its next sleep is then not direct, and it
 * records the epoch on its way back). */
static inline unsigned syscall_path_epoch(void)
{
    return READ_ONCE(syscall_path_state) >> 1;
}

#endif
