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
 *   ARCH_ELF_MACHINE     e_machine of user programs
 *   ARCH_STACK_ALIGN     stack alignment the ABI requires at calls (16)
 *   ARCH_PT_LEVELS       page-table levels (4, or 3 for Sv39)
 *   ARCH_KERNEL_VBASE    virtual address the kernel image is linked at
 *   ARCH_KSTACK_BASE     start of the kernel-stack area
 *   ARCH_DIRECT_MAP_BASE virtual address of physical address 0
 *   ARCH_DIRECT_MAP_SIZE how much physical memory the direct map reaches
 *   ARCH_EARLY_MAP_SIZE  bytes start.S maps from the image's physical base
 *   ARCH_UNMAPPED_TEST_ADDR  an address never mapped (tests fault on it)
 * the register layout `struct trapframe` (what entry code saves) and the
 * per-CPU `struct arch_cpu`.
 */
#ifndef ARCH_ARCH_H
#define ARCH_ARCH_H

#include "boot/bootinfo.h"
#include "kernel/types.h"

struct trapframe;
struct cpu;
struct fdt;
struct arch_fpu; /* impl.h: a user thread's saved FP/SIMD registers */
struct sysargs;  /* kernel/syscall/syscall.h: a system call's arguments */

/* Page protections for arch_pte_leaf (kernel/mm/vm.h uses them). */
#define VM_READ   0x01
#define VM_WRITE  0x02
#define VM_EXEC   0x04
#define VM_USER   0x08 /* reachable from user mode */
#define VM_DEVICE 0x10 /* device registers: uncached, strongly ordered */

/*
 * An exception-table entry (kernel/extable.h) for inline assembly: if the
 * instruction at label `insn` faults, the trap handler resumes at `fixup`.
 * The same GNU assembler text works on all three arches.
 */
#define EXTABLE_ENTRY(insn, fixup)                                                                 \
    ".pushsection __ex_table, \"a\"\n"                                                             \
    ".balign 8\n"                                                                                  \
    ".quad " #insn ", " #fixup "\n"                                                                \
    ".popsection\n"

/* A page-table entry: 64 bits on all three arches. */
typedef uint64_t pte_t;

/* Inter-processor interrupts. */
enum ipi_kind { IPI_RESCHEDULE, IPI_STOP };

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

/* Boot CPU, before mm_init: take out of the memory map anything the arch
 * needs to keep for itself (the x86 AP start-up trampoline below 1 MiB). */
void arch_memory_reserve(struct boot_info *bi);

/* Physical base of the kernel image (where the loader put it). Any context. */
uint64_t arch_kernel_phys_base(void);

/* Read 8 bytes at addr, surviving a fault: 0 on success, -EFAULT if the
 * access faulted (the trap handler resumes through the exception table).
 * Any context; used by tests and probes. */
int arch_safe_read64(uintptr_t addr, uint64_t *val);
/* Write 8 bytes at addr the same way: 0, or -EFAULT if the store faulted
 * (nothing written). Any context; the tests use it to check that what
 * must be read-only is. */
int arch_safe_write64(uintptr_t addr, uint64_t val);

/* ---- Per-CPU --------------------------------------------------------- */

/* (inline) This CPU's struct cpu, in one instruction (GS base, TPIDR_EL1, tp).
 * Valid only while this thread cannot migrate (IRQs or preemption off). */
static inline struct cpu *arch_this_cpu(void);
/* (inline) The word at byte `off` of the struct cpu of the CPU this thread
 * runs on, with IRQs and preemption on or off: the CPU and the load cannot
 * come apart, so a thread that migrates reads the CPU it reads it on, never
 * the one it has left. x86_64 and riscv64 do it in one instruction (a load
 * relative to GS base or tp); arm64 cannot load relative to TPIDR_EL1, so
 * it masks IRQs around the MRS and the load. current_thread() is this. */
static inline uintptr_t arch_this_cpu_word(size_t off);

/* ---- Emergency stacks ------------------------------------------------ */

/* impl.h defines ARCH_EMERGENCY_STACKS, how many stacks each CPU keeps for
 * traps that must not run on the stack they interrupted (x86_64: the IST
 * stacks of NMI, #DF and #MC; arm64 and riscv64: one, which the kernel-mode
 * trap entry switches to when the kernel stack has overflowed), and
 * ARCH_EMERGENCY_STACK_SIZE, the bytes in each. */
/* Boot CPU, after mm_init, before any other CPU starts, for every CPU found
 * (CPU 0 first): stack i (< ARCH_EMERGENCY_STACKS) of CPU c has its top at
 * `top`, permanent memory above an unmapped guard page. Until CPU 0's are
 * set, those traps run on the stack they interrupted. */
void arch_set_emergency_stack(struct cpu *c, unsigned i, uintptr_t top);

/* ---- Interrupt mask -------------------------------------------------- */

/* (inline) Mask IRQs on this CPU and return the previous state. Any context. */
static inline unsigned long arch_irq_save(void);
/* (inline) Restore the state returned by arch_irq_save. */
static inline void arch_irq_restore(unsigned long flags);
/* (inline) True if IRQs are masked on this CPU. */
static inline bool arch_irqs_disabled(void);
/* (inline) True if `flags` (from arch_irq_save) say IRQs were masked. */
static inline bool arch_irq_flags_masked(unsigned long flags);
/* (inline) Unmask / mask IRQs on this CPU. */
static inline void arch_irq_enable(void);
static inline void arch_irq_disable(void);
/* True if the kernel could touch user pages right now: x86_64 RFLAGS.AC
 * with SMAP on, arm64 PSTATE.PAN clear with PAN, riscv64 sstatus.SUM. Only
 * the copy routines open it; every interrupt and exception entry closes it
 * (the tick counts any that does not: struct debug_stats). */
bool arch_user_access_open(void);
/* Idle wait: called with IRQs off; enables them and sleeps until an
 * interrupt has been taken; returns with IRQs on. */
void arch_idle(void);

/* ---- Other CPUs ------------------------------------------------------ */

/* Boot CPU: the firmware's id of the CPU running this (APIC id, MPIDR
 * affinity bits, hart id), to match it against the firmware's CPU list. */
uint64_t arch_cpu_hwid(void);
/* Any CPU, boot time: can this kernel run on the CPU that devicetree /cpus
 * node `node` describes? (riscv64: only harts with a paging MMU; a
 * monitor core such as a SiFive S7 has none.) true where nothing rules it out. */
bool arch_fdt_cpu_usable(const struct fdt *f, int node);
/* Boot CPU, IRQs on: start CPU c (c->hwid, c->id set) so that it switches to
 * the kernel's page tables, sets up its own per-CPU state (trap vectors,
 * per-CPU pointer) on the stack ending at stack_top, and calls
 * secondary_main(c). Returns 0 if the request was made (the kernel then
 * waits, bounded, for c->online), negative if the firmware refused. */
int arch_cpu_start(struct cpu *c, uintptr_t stack_top);
/* How arch_cpu_start starts a CPU, for the boot log ("PSCI CPU_ON via smc"). */
const char *arch_smp_method(void);

/* ---- Device interrupts ------------------------------------------------- */

/* Boot CPU, IRQs on, once: route the boot console UART's interrupt (x86:
 * COM1 = ISA IRQ 4 through the I/O APIC; arm64: the devicetree's GIC SPI;
 * riscv64: the devicetree's PLIC or APLIC source) to the boot CPU, calling handler()
 * in interrupt context (IRQs off); the arch acknowledges the interrupt
 * controller after it returns. false if the platform does not say how. */
bool arch_console_irq(void (*handler)(void));
/* Any CPU, any IRQ state, callers serialised (sched_lock): mask (true) or
 * unmask the console UART's line at the interrupt controller, so that it
 * stays pending there but is not delivered (x86: the I/O APIC redirection
 * entry's mask bit; arm64: GICD_ICENABLER / GICD_ISENABLER; riscv64: the
 * PLIC context's enable bit, or the APLIC's clrienum / setienum). false if
 * it cannot (not routed, or a line only its own CPU can mask). The kernel
 * masks it while a user-space driver (kernel/ipc/device.c) has not yet
 * served an interrupt it was told of. */
bool arch_console_irq_mask(bool masked);
/* Whether arch_console_irq_mask can (it changes nothing). */
bool arch_console_irq_maskable(void);

/* ---- Timer and inter-processor interrupts ---------------------------- */

/* This CPU, IRQs off: interrupt hz times a second, calling tick(). */
void arch_timer_start(unsigned hz);
/* Any context: interrupt CPU `cpu` (its trap handler then looks at its
 * need_resched, or stops for IPI_STOP). */
void arch_send_ipi(unsigned cpu, int kind);
/* Ticks per second of the counter the timer's lateness is given in
 * (timer_fired, kernel/arch_callbacks.h); valid after arch_timer_start. */
uint64_t arch_timer_hz(void);

/* ---- Time ------------------------------------------------------------ */

/* (inline) A free-running per-CPU counter (TSC, CNTVCT_EL0, time CSR). Any context. */
static inline uint64_t arch_counter(void);
/* Ticks per second of arch_counter(); valid after arch_init. */
uint64_t arch_counter_hz(void);

/* ---- Latency timestamps --------------------------------------------- */

/* (inline) The best counter the platform has for timing short paths, read
 * at the start and at the end of a timed region with the ordering the
 * architecture asks for, so the region's instructions cannot move outside
 * the two reads: begin keeps what follows from starting before it, end
 * waits for what came before. x86_64 TSC (RDTSC; LFENCE ... LFENCE;
 * RDTSC), arm64 the PMU cycle counter PMCCNTR_EL0 where there is a PMU,
 * else CNTVCT_EL0 (MRS; ISB ... ISB; MRS), riscv64 the cycle CSR where the
 * firmware lets S mode read it, else time (with a FENCE on the inner
 * side). Any context, after arch_timestamp_init on this CPU. */
static inline uint64_t arch_timestamp_begin(void);
static inline uint64_t arch_timestamp_end(void);
/* Every CPU, IRQs off, as it starts (the boot CPU in arch_init): make that
 * counter run and readable from user mode too, so programs can time calls. */
void arch_timestamp_init(void);
/* Its name ("tsc", "pmccntr", "cntvct", "cycle", "time") and frequency in
 * Hz (0 when it counts CPU cycles at a rate nothing reports). */
const char *arch_timestamp_name(void);
uint64_t arch_timestamp_hz(void);

/* ---- CPU control ----------------------------------------------------- */

/* (inline) Hint inside spin loops (pause, yield). Any context. */
static inline void arch_cpu_relax(void);
/* Stop this CPU for good, IRQs off. Any context. */
__noreturn void arch_halt(void);
/* Power the machine off; under QEMU `status` becomes the exit status
 * (isa-debug-exit, semihosting, sifive_test) where the machine allows it.
 * Any context, IRQs off. Falls back to halting if nothing works. */
__noreturn void arch_poweroff(int status);

/* ---- Page tables (kernel/mm/vm.c does the walking) ------------------- */

/* (inline) An entry pointing at a next-level table; `user` for user-half tables. */
static inline pte_t arch_pte_table(uint64_t pa, bool user);
/* (inline) A leaf mapping pa with VM_* prot; level 0 = 4 KiB, 1 = 2 MiB, 2 = 1 GiB. */
static inline pte_t arch_pte_leaf(uint64_t pa, unsigned prot, int level);
/* (inline) Decoding entries. */
static inline bool arch_pte_valid(pte_t e);
static inline bool arch_pte_is_leaf(pte_t e, int level);
static inline uint64_t arch_pte_addr(pte_t e);
static inline unsigned arch_pte_prot(pte_t e);
/* (inline) Forget this CPU's translation of va. */
static inline void arch_tlb_flush_page(uintptr_t va);
/* Make every CPU forget its translations of user addresses in [va, va+len)
 * before returning (page tables already changed), under whatever ASID they
 * were made: `asid` is the value the address space has now (0: none), but
 * a CPU may still run it under an older one (kernel/mm/asid.c). Any context,
 * even IRQs off: x86_64 sends IPIs and serves other CPUs' requests while it
 * waits, arm64 broadcasts TLBI, riscv64 asks the SBI for a remote sfence.vma. */
void arch_tlb_shootdown(unsigned asid, uintptr_t va, size_t len);
/* Can a leaf (block) sit at this level (1 = 2 MiB, 2 = 1 GiB)? */
bool arch_pt_block_ok(int level);
/* Boot CPU, IRQs off: switch from the boot tables to the kernel's (kernel
 * root table at physical `root`), enabling the protections the arch has
 * (NX/XN, SMEP/SMAP, PAN). Also called by every other CPU as it starts. */
void arch_mmu_switch(uint64_t root);
/* What this CPU can do to keep the kernel out of user pages, read from its
 * ID registers, not from what the kernel switched on (the tests compare the
 * two): ARCH_GUARD_NO_ACCESS if the kernel's ordinary loads and stores to
 * user pages can be made to fault (x86 SMAP, arm64 PAN; riscv64 always,
 * while sstatus.SUM = 0), ARCH_GUARD_NO_EXEC if its instruction fetches
 * from them can (x86 SMEP; arm64 PXN and riscv64 always). Any context. */
#define ARCH_GUARD_NO_ACCESS 1
#define ARCH_GUARD_NO_EXEC   2
unsigned arch_user_guards(void);
/* A new user root table: copy whatever kernel entries every root needs. */
void arch_aspace_init(pte_t *user_root, const pte_t *kernel_root);
/* Address-space identifiers (kernel/mm/asid.c): how many ASID bits this
 * CPU's MMU tags translations with, read from the hardware (x86_64 12 with
 * PCID, arm64 8 or 16 from ID_AA64MMFR0_EL1.ASIDBits, riscv64 the bits of
 * satp.ASID that keep a one written there); 0 if it has none. Any CPU,
 * IRQs off, no user address space loaded. */
unsigned arch_asid_bits(void);
/* Every CPU as it starts (the boot CPU first), IRQs off, before it loads a
 * user address space, only if the kernel uses ASIDs: switch the tagging on
 * (x86_64 CR4.PCIDE, arm64 TCR_EL1.AS for 16 bits, nothing on riscv64). */
void arch_asid_enable(void);
/* Make user_root (0: none) this CPU's user address space, its translations
 * tagged with asid (0 for none, and always 0 if the kernel uses no ASIDs).
 * need_flush: first forget every non-global translation of every ASID (the
 * kernel asks for it at every switch if it uses no ASIDs: today's
 * flush-per-switch behaviour). IRQs off. An arch may define it inline in
 * impl.h (and ARCH_HAS_INLINE_ASPACE_ACTIVATE 1 there): every IPC hand-off
 * between two programs runs it. The prototype, otherwise, is declared
 * after impl.h (below). */

/* ---- Threads and user mode --------------------------------------------- */

/* Prepare a new thread's kernel stack so that the first arch_context_switch
 * to it runs start(); returns the stack pointer to switch to. The top
 * sizeof(struct trapframe) bytes stay free for its user registers. */
uintptr_t arch_thread_init(uintptr_t kstack_top, void (*start)(void));
/* Save the callee-saved registers and stack pointer into *save_sp, load the
 * ones saved at load_sp. IRQs off, sched_lock held. */
void arch_context_switch(uintptr_t *save_sp, uintptr_t load_sp);
/* The thread about to run on this CPU has its kernel stack top here (user
 * traps and system calls arrive on it). IRQs off. An arch may define it
 * inline in impl.h (and ARCH_HAS_INLINE_SET_KERNEL_STACK 1 there): every
 * IPC hand-off runs it. The prototype, otherwise, is declared after impl.h
 * (below). */
/* Leave the kernel for good: user mode at pc with stack sp, first two
 * argument registers arg0 and arg1, IRQs on. Current thread's stack. */
__noreturn void arch_enter_user(uintptr_t pc, uintptr_t sp, uintptr_t arg0, uintptr_t arg1);

/*
 * The IPC fastpath's return straight to user mode (docs/ipc.md, "Straight
 * back to user mode"), where impl.h defines ARCH_HAS_SWITCH_TO_USER 1; the
 * kernel uses none of the four below otherwise.
 *
 * arch_ipc_call_entry and arch_ipc_reply_recv_entry (arch/<arch>/ipc_entry.S)
 * are SYS_ipc_call's and SYS_ipc_reply_recv's slots of the system call
 * table. args points into the trapframe (arch_sc_args(tf)). Each stores the
 * user's callee-saved registers into their slots of that trapframe (the
 * system call entries leave them in the registers), the frame pointer from
 * the record the dispatch copy's prologue made (the copies that may resume
 * directly save no other callee-saved register: scripts/check_dispatch.py),
 * and tail-jumps to sys_ipc_call or sys_ipc_reply_recv with args unchanged.
 */
long arch_ipc_call_entry(const struct sysargs *args);
long arch_ipc_reply_recv_entry(const struct sysargs *args);
/*
 * Save this thread's context into *save_sp as arch_context_switch does (a
 * later arch_context_switch to it returns from this call), store 0 to *lock
 * with release order (sched_lock's word: the caller let go of its preempt
 * count), and leave to user mode from tf exactly as the system call exit
 * does, every register (result and callee-saved ones included) loaded from
 * tf. IRQs off, sched_lock held; they stay off until the return to user.
 */
void arch_switch_to_user(uintptr_t *save_sp, struct trapframe *tf, uint32_t *lock);

/* ---- FP/SIMD state of user threads ------------------------------------ */

/*
 * The kernel itself never touches FP/SIMD registers (it is built integer
 * only); user threads own them. impl.h defines struct arch_fpu, the saved
 * copy of one thread's registers (x86_64 the FXSAVE image, arm64 V0-V31
 * with FPCR and FPSR, riscv64 f0-f31 with fcsr), which the kernel keeps in
 * every struct thread. Each arch turns user access on for every CPU as it
 * starts (CR0/CR4, CPACR_EL1.FPEN, sstatus.FS). Switching is eager: see
 * arch_fpu_switch.
 */
/* A new user thread's saved state: the defined starting values (x86_64
 * FCW 0x37f, MXCSR 0x1f80; elsewhere every register and control 0). Any
 * context; the thread is not running yet. */
void arch_fpu_init(struct arch_fpu *f);
/* Just before arch_context_switch and after arch_set_kernel_stack(next's
 * stack: riscv64 finds next's user trapframe there), sched_lock held, IRQs
 * off: save the registers into prev (where the arch can tell they changed
 * since they were loaded) and load next's. NULL for a kernel thread: its
 * registers are not saved or loaded (kernel threads never use them). An
 * arch may define it inline in impl.h (and ARCH_HAS_INLINE_FPU_SWITCH 1
 * there); the prototype, otherwise, is declared after impl.h (below). */

/* (inline) System call ABI: the number and the six arguments, contiguous in
 * the trapframe in ABI order so that handlers read them in place. (The
 * result is syscall_dispatch_<s>()'s return value: the entry code returns it.) */
static inline unsigned long arch_sc_nr(const struct trapframe *tf);
static inline const uintptr_t *arch_sc_args(const struct trapframe *tf);
/* (inline) The user trapframe of the thread whose kernel stack top is
 * kstack_top: where every entry from user mode saves the user's registers
 * (the top of the stack), for a system call that returns more than its
 * result. Only meaningful for the calling thread, inside a system call. */
static inline struct trapframe *arch_user_frame(uintptr_t kstack_top);
/* (inline) Make the system call return w[0..4] in argument registers 1-5
 * (rsi rdx r10 r8 r9 / x1-x5 / a1-a5) beside its result: every way back to
 * user mode reloads them from the frame. Used by IPC (kernel/uapi/ipc.h). */
static inline void arch_sc_set_words(struct trapframe *tf, const uintptr_t w[5]);
/* (inline, only where impl.h defines ARCH_HAS_SWITCH_TO_USER 1)
 *   static inline void arch_sc_set_result(struct trapframe *tf, long r);
 * Make the system call whose user registers tf holds return r: for a
 * thread resumed by arch_switch_to_user. */

/* The kernel wrote instructions at kva (a user program's code, through the
 * direct map): make instruction fetches see them (arm64 cache maintenance
 * by VA, broadcast to every CPU; riscv64 this hart's fence.i; nothing on
 * x86_64). After the last of a batch, arch_sync_icache_done() makes every
 * other CPU's fetches see them too (riscv64: one SBI remote FENCE.I for all
 * harts, not one per page: an exec of a newlib program writes ~20 pages). */
void arch_sync_icache(const void *kva, size_t len);
void arch_sync_icache_done(void);

/* ---- Rewriting kernel code (kernel/text_patch.h) --------------------- */

/* The call instruction in the system call entry code (a label there) whose
 * target kernel/syscall/path.c rewrites to the copy of the path in force. */
extern char arch_syscall_call_site[];
/* Every other CPU stopped, IRQs off: make the call instruction at `site`
 * call `target`, writing through text_patch_alias() (a mapping made for the
 * patch: every other mapping of kernel code, the direct map's included, is
 * read-only), and on arm64 cleaning and invalidating the caches through it
 * before the patch ends and it goes, so that this CPU fetches the new one
 * from here on.
 * false, changing nothing, if site holds no call the arch writes there or
 * target is out of its reach. */
bool arch_text_patch_call(void *site, const void *target);
/* A CPU stopped while another rewrote code, before it runs on, IRQs off:
 * drop instructions fetched before (x86_64 a serializing CPUID, arm64 ISB,
 * riscv64 FENCE.I). */
void arch_text_sync(void);
/* Spinning with IRQs off until other CPUs do something: answer what they
 * may themselves be waiting for from this CPU with their IRQs off (x86_64:
 * its TLB shootdown request; nothing on arm64 and riscv64, whose
 * shootdowns need no interrupt). */
void arch_serve_ipis(void);

/* Copy n bytes to/from user memory whose range the caller has checked
 * lies in user space: 0, or -EFAULT if a page is missing or protected.
 * Any thread context, IRQs on or off. */
int arch_copy_from_user(void *dst, uintptr_t user_src, size_t n);
int arch_copy_to_user(uintptr_t user_dst, const void *src, size_t n);

/* ---- Hardware random numbers ------------------------------------------- */

enum arch_rng_state {
    ARCH_RNG_ABSENT,   /* the CPU does not have it */
    ARCH_RNG_DISABLED, /* present, but unusable (why says: e.g. not enabled by firmware) */
    ARCH_RNG_OK        /* present and answering */
};

struct arch_rng_info {
    const char *name;     /* "RDSEED", "RDRAND", "RNDRRS", "RNDR", "Zkr" */
    bool seed_class;      /* a conditioned entropy source (RDSEED, RNDRRS, Zkr), not a DRBG */
    unsigned sample_bits; /* bits per successful read: 64, or 16 for Zkr */
    unsigned h_x8;        /* min-entropy claimed per sample, in eighths of a bit */
    enum arch_rng_state state;
    const char *why; /* for ABSENT/DISABLED: the reason, in a few words */
};

/* Boot CPU, after arch_init: describe the CPU's random number instructions,
 * present or not (up to max). Returns how many entries were filled. */
int arch_rng_probe(const struct boot_info *bi, struct arch_rng_info *out, int max);
/* One sample from source i (as numbered by arch_rng_probe): the number of
 * good bits in *out, 0 if the source failed (after a bounded number of
 * retries). Any context. */
unsigned arch_rng_read(int i, uint64_t *out);

/* ---- Device access --------------------------------------------------- */

/* (inline) Memory-mapped register access with the ordering devices need. */
static inline uint8_t arch_mmio_read8(uintptr_t addr);
static inline void arch_mmio_write8(uintptr_t addr, uint8_t v);
static inline uint32_t arch_mmio_read32(uintptr_t addr);
static inline void arch_mmio_write32(uintptr_t addr, uint32_t v);
/* (inline, only where ARCH_HAS_PIO) I/O port access:
 *   uint8_t arch_pio_read8(uint16_t port);
 *   void arch_pio_write8(uint16_t port, uint8_t v); */

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
 * pointer and return address (both 0 if the record cannot be read: reads
 * go through arch_safe_read64, so a corrupt chain cannot fault). */
void arch_frame_next(uintptr_t fp, uintptr_t *caller_fp, uintptr_t *ret_pc);

#include <arch/impl.h>

#ifndef ARCH_HAS_SWITCH_TO_USER
#define ARCH_HAS_SWITCH_TO_USER 0 /* not yet: the IPC partners return through their frames */
#endif

#ifndef ARCH_HAS_INLINE_ASPACE_ACTIVATE /* an out-of-line arch_aspace_activate (above) */
void arch_aspace_activate(uint64_t user_root, unsigned asid, bool need_flush);
#endif
#ifndef ARCH_HAS_INLINE_FPU_SWITCH /* an out-of-line arch_fpu_switch (above) */
void arch_fpu_switch(struct arch_fpu *prev, struct arch_fpu *next);
#endif
#ifndef ARCH_HAS_INLINE_SET_KERNEL_STACK /* an out-of-line arch_set_kernel_stack (above) */
void arch_set_kernel_stack(uintptr_t top);
#endif

/*
 * The IRQs-off tracker (make IRQSOFF=1, kernel/latency/irqsoff.c). Every
 * mask and unmask of the kernel, arch code's included, then goes through
 * the wrappers below, which tell the tracker when a masked window opens
 * (IRQs were on) and when it closes (they are about to be on again). A
 * function-like macro is not expanded when its name is not followed by
 * "(", so `(arch_irq_save)()` below still calls impl.h's own. The default
 * kernel has none of this: its masks and unmasks are impl.h's alone.
 */
#if CONFIG_IRQSOFF
/* kernel/latency/irqsoff.c: IRQs are masked, and were on until now / IRQs
 * are masked and about to be unmasked. The caller's return address is the site. */
void irqsoff_opened(void);
void irqsoff_closing(void);

static inline unsigned long irqsoff_irq_save(void)
{
    unsigned long flags = (arch_irq_save)();
    if (!(arch_irq_flags_masked)(flags))
        irqsoff_opened();
    return flags;
}

static inline void irqsoff_irq_restore(unsigned long flags)
{
    if (!(arch_irq_flags_masked)(flags) && (arch_irqs_disabled)())
        irqsoff_closing();
    (arch_irq_restore)(flags);
}

static inline void irqsoff_irq_enable(void)
{
    if ((arch_irqs_disabled)())
        irqsoff_closing();
    (arch_irq_enable)();
}

static inline void irqsoff_irq_disable(void)
{
    (void)irqsoff_irq_save();
}

#define arch_irq_save()         irqsoff_irq_save()
#define arch_irq_restore(flags) irqsoff_irq_restore(flags)
#define arch_irq_enable()       irqsoff_irq_enable()
#define arch_irq_disable()      irqsoff_irq_disable()
#endif

#endif
