/* SPDX-License-Identifier: MIT */
/*
 * kernel/kstack_offset/kstack_offset.h - per-syscall kernel stack offset
 * randomisation: the mechanism and the strategies behind it.
 *
 * What it does. On every system call, after the entry code has saved the
 * user's registers and before the handler runs, syscall_dispatch_<s>() moves its
 * own stack pointer down by a random multiple of 16 bytes (an alloca), so
 * every frame the handler and its callees build sits at a depth that changes
 * from one call to the next. Interrupts and faults get no offset: the attacks
 * this answers are driven through system calls.
 *
 * Why 6 bits in 16-byte steps. The offset is rnd & 0x3F0: 64 values, 0 to
 * 1008 bytes. The bottom 4 bits would be thrown away anyway, because every
 * ABI the project runs (SysV x86-64, AAPCS64, RISC-V psABI) keeps the stack
 * 16-byte aligned at calls, and alloca rounds to that; masking them off
 * ourselves means no rounding happens, so no carry can turn 64 values into
 * 65 (the bug Linux's mask change fixed). A wider mask would cost stack:
 * 1 KiB of the 16 KiB kernel stack is reserved for it already.
 *
 * Why at entry. The strategies that draw the offset at the start of the call
 * use it at once, on the CPU and thread that drew it, with IRQs still
 * masked from the entry: nothing can move the thread in between. The legacy
 * designs chose the next offset at exit and stored it per CPU; a thread moved
 * to another CPU in the middle of a call then updates the wrong CPU, leaving
 * the old CPU's next offset known to it (Bug 1, docs/kstack.md).
 *
 * What it buys, and what not. A stack object's address can no longer be
 * learned once and reused: an attacker that needs it (an uninitialised-stack
 * spray, a leak of a stack pointer, a pivot) must guess again on every call.
 * But there are only 64 guesses: an attacker that can simply retry wins 1
 * time in 64, half the time within 45 tries. The mechanism raises cost; it
 * does not make an attack impossible, which is why speed matters more than
 * strength beyond "unpredictable on each call".
 *
 * The strategies (names fixed: kstack=<name>, the benchmark, the tests) each
 * provide a draw at entry and optionally an update at exit, both inline in
 * draw.h, so that each strategy's copy of the system call path holds its
 * own draw and nothing of the others':
 *   draw        syscall entry, IRQs off, on this CPU and the current thread:
 *               the raw offset (the mechanism masks it).
 *   exit        after the handler, IRQs and preemption ON (the legacy
 *               designs ran there too; see each one's comment).
 * A strategy that cannot run here (hw without a CPU instruction) says so
 * through available().
 */
#ifndef KERNEL_KSTACK_OFFSET_KSTACK_OFFSET_H
#define KERNEL_KSTACK_OFFSET_KSTACK_OFFSET_H

#include "boot/bootinfo.h"
#include "kernel/cpu.h"
#include "kernel/uapi/kstack.h"

struct thread;

struct kstack_strategy {
    unsigned id; /* KSTACK_* (kernel/uapi/kstack.h) */
    const char *name;
    bool (*available)(void); /* NULL: always */
};

/*
 * Move the stack pointer down by (off & KSTACK_OFFSET_MASK) bytes for the
 * rest of the calling function, i.e. for everything it calls. It must be a
 * macro expanded in syscall_dispatch_<s>() itself: an alloca in a helper would be
 * freed when the helper returns. The alignment asked for is 8 bytes (64
 * bits), not alloca's default 16: the size is already a multiple of 16, so
 * the stack stays aligned, and gcc then emits one AND and one subtraction
 * (plain alloca's rounding cost four more instructions on x86_64). The empty
 * asm takes the block as a memory input and clobbers memory, so the compiler
 * cannot prove the allocation unused and drop it (checked in the generated
 * code: docs/kstack.md); as memory, not as a pointer in a register, so that
 * arm64 needs no copy of sp to hand it over. One statement, not a do-while block: gcc documents
 * that an alloca_with_align block lives only to the end of the block it is
 * made in, so it must be made in syscall_dispatch_<s>()'s own body.
 */
/* LAB 4 BEGIN: the stack bump: move the stack pointer down by the offset's masked bits */
#define KSTACK_OFFSET_APPLY(off)                                                                   \
    __asm__ volatile(""                                                                            \
                     :                                                                             \
                     : "m"(*(char *)__builtin_alloca_with_align(KSTACK_OFFSET_MASK & (off), 64))   \
                     : "memory")
/* LAB 4 STUB
#define KSTACK_OFFSET_APPLY(off) ((void)(off))
LAB 4 END */

/*
 * What the mechanism does when a call ends: nothing. syscall_dispatch_<s>()
 * expands this after the handler, with IRQs and preemption on, on whatever
 * CPU the call ends on (where the legacy strategies' exit() runs). The
 * offset is drawn at entry and used at once; an offset chosen here for the
 * next call and stored per CPU is what Bug 1 predicts (above, "Why at
 * entry"), which kstack.migration_attack catches. A definition before this
 * one (in the lab's region above) takes its place.
 */
#ifndef KSTACK_OFFSET_AT_EXIT
#define KSTACK_OFFSET_AT_EXIT(id, self) ((void)(id), (void)(self))
#define KSTACK_OFFSET_AT_EXIT_NONE      1 /* kernel/syscall/path.c: nothing owed at exit */
#endif

/* What the command line chose: the strategy (kstack=<name>, if it is
 * available here) and whether each call's used stack is erased
 * (kstack.erase). The system call layer switches to them. */
struct kstack_boot {
    unsigned strategy;
    bool erase;
};
/* Boot CPU, after random_init and before other CPUs start: seed every CPU's
 * state, fill the pools, read kstack=<name>, kstack.erase, kstack.lock and
 * kstack.debug from the command line, and say so. */
struct kstack_boot kstack_offset_init(const struct boot_info *bi);
/* A new user thread (its own generator and offset), from the task layer
 * that makes it (kernel/task.c): kernel threads make no system calls. */
void kstack_offset_thread_init(struct thread *t);
/* Timer tick, IRQs off: if this CPU's pool is low, ask the next return to
 * user mode to top it up (kstack_offset_user_return), so that no refill
 * lands inside a system call. The idle loop refills a little at a time
 * (returns true while more is wanted), so an interrupt never waits long. */
void kstack_offset_tick(struct cpu *c);
bool kstack_offset_idle(struct cpu *c);
/* On the way back to user mode, IRQs off, when the tick asked (c->pool_low). */
void kstack_offset_user_return(struct cpu *c);

/* Whether strategy id may be switched to: 0, -EINVAL (no such strategy) or
 * -ENODEV (not available here). The switch itself is the system call
 * layer's (kernel/syscall/path.c: syscall_path_select). */
int kstack_offset_available(unsigned id);
/* Tests (KSTACK_DEBUG_FIXED): every CPU's offset for strategy KSTACK_FIXED. */
void kstack_offset_set_fixed(uint32_t offset);
/* The debug system calls are allowed: the kernel was built with them
 * (DEBUG_CALLS=1) and booted with kstack.debug. They leak offsets, pin them,
 * read kernel addresses and cost other programs time, so every other boot
 * refuses them with -EPERM (docs/security.md). */
bool kstack_offset_debug_allowed(void);
/* kstack.lock was on the command line: the strategy can no longer change. */
bool kstack_offset_locked(void);

/* Per-strategy implementation details the system calls need. */
/* KSTACK_DEBUG_VERIFY on this CPU (IRQs off): a KSTACK_VERIFY_* bit for
 * each strategy whose state is not its seed advanced by the draws counted. */
unsigned kstack_offset_verify_this_cpu(struct cpu *c);
/* KSTACK_DEBUG_DRAIN: empty this CPU's pool (IRQs off). */
void kstack_pool_drain(struct cpu *c);
/* Each strategy file's own set-up and integrity check (select.c calls them). */
void kstack_siphash_key_init(void);
void kstack_siphash_cpu_init(struct cpu *c);
void kstack_siphash_cpu_reseed(struct cpu *c);
/* Tests: does this CPU's siphash still hold the key drawn at boot? */
bool kstack_siphash_cpu_has_boot_key(const struct cpu *c);
/* The offset generators were seeded before the CRNG was (docs/porting.md,
 * MUST 6): each CPU's tick reseeds its prng and siphash once it is, and
 * counts it in c->kstack.reseeds. */
extern bool kstack_seeded_before_crng;
void kstack_pool_cpu_init(struct cpu *c);
void kstack_pool_cpu_refill(struct cpu *c, unsigned max_bytes, bool until_work);
/* KSTACK_DEBUG_POOL_TICK: do the tick and the idle loop refill pools? */
bool kstack_pool_background_refills(void);
void kstack_pool_set_background_refills(bool on);
unsigned kstack_pool_cpu_level(const struct cpu *c);
unsigned long kstack_pool_draws(const struct cpu *c);
unsigned kstack_pool_verify(struct cpu *c);
unsigned kstack_siphash_verify(struct cpu *c);
unsigned kstack_prng_verify(struct cpu *c);

/* The strategies, kstack_<name> (KSTACK_STRATEGIES, kernel/uapi/kstack.h),
 * each defined in its own file here, and the tests' kstack_fixed (select.c). */
#define KSTACK_EXTERN(NAME, name, str) extern const struct kstack_strategy kstack_##name;
KSTACK_STRATEGIES(KSTACK_EXTERN)
extern const struct kstack_strategy kstack_fixed;

/* Count one event of strategy s on CPU c (IRQs off, or c is a raw pointer). */
#define KSTACK_COUNT(c, s, what) ((c)->kstack.count[(s)][(what)]++)

#endif
