/* SPDX-License-Identifier: MIT */
/*
 * kernel/uapi/syscall.h - the system call ABI, shared by the kernel and
 * user programs.
 *
 * The number goes in rax / x8 / a7, arguments in rdi rsi rdx r10 r8 r9 /
 * x0-x5 / a0-a5, the result comes back in rax / x0 / a0; a negative result
 * is -errno. Every other register is preserved, except rcx and r11 on
 * x86_64, which the SYSCALL instruction itself overwrites.
 */
#ifndef KERNEL_UAPI_SYSCALL_H
#define KERNEL_UAPI_SYSCALL_H

#define SYS_exit              1  /* (int status) -> does not return */
#define SYS_write             2  /* (int fd, const void *buf, size_t len) -> bytes */
#define SYS_read              3  /* (int fd, void *buf, size_t len) -> bytes, 0 if none */
#define SYS_getpid            4  /* () -> pid */
#define SYS_getppid           5  /* () -> parent pid, 0 if none */
#define SYS_yield             6  /* () -> 0 */
#define SYS_nanosleep         7  /* (const struct timespec *req, struct timespec *rem) -> 0 */
#define SYS_clock_gettime     8  /* (int clock, struct timespec *tp) -> 0 */
#define SYS_brk               9  /* (void *addr) -> new break, or the old one on failure */
#define SYS_spawn             10 /* (const char *name, const char *const argv[]) -> pid */
#define SYS_wait              11 /* (int pid or -1, int *status) -> pid */
#define SYS_getcpu            12 /* () -> CPU number */
#define SYS_thread_create     13 /* (void (*fn)(void *), void *arg, void *stack_top) -> tid */
#define SYS_thread_exit       14 /* () -> does not return */
#define SYS_gettid            15 /* () -> thread id */
#define SYS_sched_setaffinity 16 /* (int tid or 0, unsigned long mask) -> 0 */
#define SYS_sched_getaffinity 17 /* (int tid or 0) -> mask */
#define SYS_debug_sleep       18 /* (unsigned long ns) -> 0: sleeps inside the kernel */
#define SYS_debug_free_pages  19 /* () -> free pages, freed kernel stacks included (leak checks) */
#define SYS_debug_spin        20 /* (unsigned long ns) -> 0: busy inside the kernel, preemptible */
#define SYS_debug_stats       21 /* (struct debug_stats *) -> 0 */
#define SYS_debug_leak_lock   22 /* () -> returns holding a lock: only with crash=lock-to-user */
#define SYS_kstack_set        23 /* (unsigned strategy) -> 0, -EINVAL unknown, -ENODEV unavailable */
#define SYS_kstack_get        24 /* () -> the strategy in force (kernel/uapi/kstack.h) */
#define SYS_kstack_probe                                                                           \
    25                         /* (unsigned flags, unsigned cpu, struct kstack_probe *) -> 0       \
                                * (KSTACK_PROBE_DEPTH: -> the depth, nothing written) */
#define SYS_kstack_stats    26 /* (long cpu or -1 for all, struct kstack_stats *) -> 0 */
#define SYS_kstack_debug    27 /* (unsigned op, unsigned long arg) -> depends on op */
#define SYS_latency_ctl     28 /* (unsigned op, void *arg) -> 0 (kernel/uapi/latency.h) */
#define SYS_latency_read    29 /* (cpu or -1, strategy, slot, struct hist *, int reset) -> 0 */
#define SYS_debug_kaddr     30 /* (int kind, int op) -> a writable kernel address, or a check */
/* IPC (kernel/uapi/ipc.h). h = a handle, an index in the task's table.
 * Receiving calls return the badge (>= 0) or -errno, and put the message's
 * tag and w0..w3 in argument registers 1-5 (rsi rdx r10 r8 r9 / x1-x5 / a1-a5). */
#define SYS_endpoint_create 31 /* () -> h with SEND|RECV|MINT */
#define SYS_notify_create   32 /* () -> h with SIGNAL|WAIT|MINT */
#define SYS_handle_mint     33 /* (h, rights, badge) -> new h: rights a subset, badge if h has none */
#define SYS_handle_close    34 /* (h) -> 0 */
#define SYS_ipc_call        35 /* (h, tag, w0, w1, w2, w3) -> 0 and the reply in 1-5 */
#define SYS_ipc_send        36 /* (h, tag, w0, w1, w2, w3) -> 0, -EAGAIN if no receiver waits */
#define SYS_ipc_recv        37 /* (h) -> badge, the message in 1-5 */
#define SYS_ipc_reply_recv                                                                         \
    38 /* (h, tag, w0, w1, w2, w3) -> reply to the last caller, then as recv */
#define SYS_ipc_set_buffer                                                                         \
    39 /* (uintptr_t *buf or NULL) -> 0: IPC_BUF_WORDS words for long messages */
#define SYS_notify_signal 40 /* (h, bits) -> 0: OR bits (0..62) into the word */
#define SYS_notify_wait   41 /* (h) -> the bits, cleared; blocks while they are 0 */
#define SYS_notify_poll   42 /* (h) -> the bits, cleared; 0 if none (never blocks) */
#define SYS_spawn_with                                                                             \
    43 /* (name, argv, const int *handles, int n) -> pid: the child gets them as 0..n-1 */
/* Devices and their interrupts (kernel/uapi/ipc.h). */
#define SYS_device_info 44 /* (dev_h) -> DEVICE_INFO_* */
#define SYS_device_io   45 /* (dev_h, offset, value, write) -> value read, or 0 */
#define SYS_irq_bind    46 /* (dev_h, notify_h, bits) -> 0 */
#define SYS_irq_ack     47 /* (dev_h) -> 0 */
#define SYS_device_map  48 /* (dev_h, void *va) -> 0: the register page at va */
/* Deliberately vulnerable calls (kernel/syscall/sys_vuln.c, kernel/uapi/vuln.h): only
 * in a kernel built with make VULN=1; any other kernel answers -ENOSYS. */
#define SYS_vuln_fill   49 /* (const struct vuln_request *) -> 0: copied into a stack frame */
#define SYS_vuln_use    50 /* (unsigned long token) -> 1 if an uninitialised local equals it */
#define SYS_vuln_leak   51 /* () -> the kernel stack address of a local */
#define SYS_vuln_write  52 /* (addr, value) -> 1 if addr is this call's local (written), else 0 */
#define SYS_debug_ipc_fastpath                                                                     \
    53 /* (IPC_FASTPATH_OFF, _ON or _QUERY) -> 0 or 1, the state before (kernel/uapi/ipc.h) */
#define NR_SYSCALLS 54

/* User space is [0, USER_TOP) on every arch (the Sv39 lower half, so that
 * one layout fits all three); the kernel lives at the top of the address space. */
#define USER_TOP 0x0000004000000000ul

#define CLOCK_MONOTONIC 1

#ifndef __ASSEMBLER__
struct timespec {
    long tv_sec;
    long tv_nsec;
};

/* What SYS_debug_stats reports (scheduler counters since boot). */
struct debug_stats {
    unsigned long cpus_online;
    unsigned long migrations;           /* a thread ran on another CPU than before */
    unsigned long preempted_in_syscall; /* a thread lost its CPU inside a syscall */
    unsigned long ticks[64];            /* timer interrupts per CPU (MAX_CPUS) */
    unsigned long ipc_objects;          /* endpoints and notifications alive (leak checks) */
    unsigned long ipc_handoffs;         /* IPC switched straight to a waiting thread */
    unsigned long vuln_granted;         /* SYS_vuln_use calls that returned 1 (make VULN=1) */
    unsigned long user_access_ticks;    /* timer ticks handled with user pages reachable
                                         * (x86 RFLAGS.AC, arm64 PSTATE.PAN clear, riscv
                                         * sstatus.SUM): must stay 0 */
    unsigned long ipc_fastpath;       /* 1: the IPC fastpath is on (ipc.fastpath=1, the default) */
    unsigned long ipc_fast_hits;      /* ipc_call and ipc_reply_recv that took it, all CPUs */
    unsigned long ipc_fast_misses[8]; /* those that did not, by guard (uapi/ipc.h IPC_FAST_*) */
    unsigned long ipc_words_copied;   /* extra message words copied by the kernel, all CPUs */
    unsigned long ipc_direct_built;   /* 1: the fastpath can resume a partner straight to user */
    unsigned long ipc_direct_resumes; /* partners the fastpath resumed so, all CPUs */
    unsigned long ipc_direct_not[4]; /* those it woke otherwise, by why (uapi/ipc.h IPC_DIRECT_*) */
};
#endif

/*
 * SYS_debug_kaddr: writable kernel memory for the bad-pointer tests, which a
 * user program cannot otherwise name. kind is DEBUG_KADDR_STACK (a canary at
 * the bottom of the caller's own kernel stack) or DEBUG_KADDR_DIRECT_MAP (a
 * kernel-owned canary page, through the direct map). op DEBUG_KADDR_ARM
 * (re)writes the canary and returns its address: a kernel address, so
 * negative as a long, but never in [-4095, -1]. op DEBUG_KADDR_CHECK returns
 * how many of its DEBUG_KADDR_BYTES bytes differ from DEBUG_KADDR_FILL
 * (0: untouched). -EINVAL for anything else.
 */
#define DEBUG_KADDR_STACK      0
#define DEBUG_KADDR_DIRECT_MAP 1
#define DEBUG_KADDR_ARM        0
#define DEBUG_KADDR_CHECK      1
#define DEBUG_KADDR_BYTES      256
/* 0xa5 bytes: as a timespec, tv_sec < 0; as a pointer, not a user address;
 * as a string, no NUL: whatever a call reads from it is rejected too. */
#define DEBUG_KADDR_FILL       0xa5

/* Exit status of a program the kernel killed: 128 + the POSIX signal number. */
#define EXIT_KILLED_SEGV (128 + 11) /* bad memory access */
#define EXIT_KILLED_ILL  (128 + 4)  /* illegal instruction */
#define EXIT_KILLED_BUS  (128 + 7)  /* misaligned access */
#define EXIT_KILLED_FPE  (128 + 8)  /* FP exception the program unmasked */

#endif
