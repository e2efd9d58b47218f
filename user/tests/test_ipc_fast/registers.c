/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_ipc_fast/registers.c - FP/SIMD and callee-saved registers across fastpath
 * switches (the program: test_ipc_fast.c).
 */
#include "user/tests/test_ipc_fast/ipc_fast.h"

/* ---- FP state across IPC ---------------------------------------------------------------- */

/* The client keeps a double in its registers across 200 calls, alternating
 * between a server that does FP (L_FP) and one that does none (L_ECHO), all
 * on CPU 0: every switch between them is a fastpath hand-off, and each
 * side's FP registers must come back as it left them (arm64 and riscv64
 * load them only at a thread's first FP instruction after a switch). */
void test_fp_chain(void)
{
    int fp_e = endpoint_create(), int_e = endpoint_create();
    int fp_pid = spawn_server(fp_e, 0), int_pid = spawn_server(int_e, 0);
    double acc = 1.0;
    bool ok = fp_pid > 0 && int_pid > 0;
    for (unsigned long i = 0; ok && i < 200; i++) {
        acc = acc * 1.001 + (double)i;
        struct ipc_msg m = msg(i % 2 ? L_FP : L_ECHO, 0, i, 0, 0, 0);
        long r = ipc_call(i % 2 ? fp_e : int_e, &m);
        ok = r == 0 && m.w[0] == (i % 2 ? (unsigned long)(((double)i * 3.25 + 0.5) * 4.0) : ~i);
    }
    volatile double want = 1.0;
    for (unsigned long i = 0; i < 200; i++)
        want = want * 1.001 + (double)i;
    ktap_check(ok && acc == want, "ipc.fastpath_fp_state_kept_across_ipc");
    stop_server(fp_e, fp_pid);
    stop_server(int_e, int_pid);
    handle_close(fp_e);
    handle_close(int_e);
}

/* ---- callee-saved registers across IPC ------------------------------------------------ */

/*
 * regs_syscall(nr, h, m, seed, got): system call nr on handle h with
 * message m (which the answer replaces), every callee-saved register of
 * the ABI, the frame pointer included, set to seed + 1, seed + 2, ... just
 * before the system call instruction and written to got[] just after it.
 * A thread the kernel resumes straight from its trapframe gets these back
 * only if its IPC entry stored them there (arch/<arch>/ipc_entry.S).
 * x86_64: rbx rbp r12-r15; arm64: x19-x29 and TPIDR_EL0; riscv64: s0-s11, gp and tp.
 */
long regs_syscall(long nr, long h, struct ipc_msg *m, unsigned long seed, unsigned long *got);
#if defined(__x86_64__)
#define CALLEE_SAVED 6
__asm__(".text\n.globl regs_syscall\nregs_syscall:\n"
        "push %rbx\npush %rbp\npush %r12\npush %r13\npush %r14\npush %r15\n"
        "push %r8\npush %rdx\n" /* got, m */
        "mov %rdi, %rax\nmov %rsi, %rdi\nmov %rdx, %r11\n"
        "lea 1(%rcx), %rbx\nlea 2(%rcx), %rbp\nlea 3(%rcx), %r12\n"
        "lea 4(%rcx), %r13\nlea 5(%rcx), %r14\nlea 6(%rcx), %r15\n"
        "mov 0(%r11), %rsi\nmov 8(%r11), %rdx\nmov 16(%r11), %r10\n"
        "mov 24(%r11), %r8\nmov 32(%r11), %r9\n"
        "syscall\n"
        "pop %r11\n" /* m */
        "mov %rsi, 0(%r11)\nmov %rdx, 8(%r11)\nmov %r10, 16(%r11)\n"
        "mov %r8, 24(%r11)\nmov %r9, 32(%r11)\n"
        "pop %r11\n" /* got */
        "mov %rbx, 0(%r11)\nmov %rbp, 8(%r11)\nmov %r12, 16(%r11)\n"
        "mov %r13, 24(%r11)\nmov %r14, 32(%r11)\nmov %r15, 40(%r11)\n"
        "pop %r15\npop %r14\npop %r13\npop %r12\npop %rbp\npop %rbx\nret\n");
#elif defined(__aarch64__)
/* x19-x29, then TPIDR_EL0: not a register of the procedure call standard,
 * but the thread's own (EL0 writes it), which the kernel keeps across a
 * system call and the direct return loads from the trapframe. */
#define CALLEE_SAVED 12
__asm__(".text\n.globl regs_syscall\nregs_syscall:\n"
        "stp x19, x20, [sp, #-128]!\nstp x21, x22, [sp, #16]\nstp x23, x24, [sp, #32]\n"
        "stp x25, x26, [sp, #48]\nstp x27, x28, [sp, #64]\nstp x29, x30, [sp, #80]\n"
        "stp x2, x4, [sp, #96]\n" /* m, got */
        "mrs x9, tpidr_el0\nstr x9, [sp, #112]\nadd x9, x3, #12\nmsr tpidr_el0, x9\n"
        "mov x8, x0\nmov x0, x1\nmov x9, x2\n"
        "add x19, x3, #1\nadd x20, x3, #2\nadd x21, x3, #3\nadd x22, x3, #4\n"
        "add x23, x3, #5\nadd x24, x3, #6\nadd x25, x3, #7\nadd x26, x3, #8\n"
        "add x27, x3, #9\nadd x28, x3, #10\nadd x29, x3, #11\n"
        "ldp x1, x2, [x9]\nldp x3, x4, [x9, #16]\nldr x5, [x9, #32]\n"
        "svc #0\n"
        "ldp x9, x10, [sp, #96]\n"
        "stp x1, x2, [x9]\nstp x3, x4, [x9, #16]\nstr x5, [x9, #32]\n"
        "stp x19, x20, [x10]\nstp x21, x22, [x10, #16]\nstp x23, x24, [x10, #32]\n"
        "stp x25, x26, [x10, #48]\nstp x27, x28, [x10, #64]\nmrs x9, tpidr_el0\n"
        "stp x29, x9, [x10, #80]\nldr x9, [sp, #112]\nmsr tpidr_el0, x9\n"
        "ldp x29, x30, [sp, #80]\nldp x27, x28, [sp, #64]\nldp x25, x26, [sp, #48]\n"
        "ldp x23, x24, [sp, #32]\nldp x21, x22, [sp, #16]\nldp x19, x20, [sp], #128\nret\n");
#elif defined(__riscv)
/* s0-s11, then gp and tp: the kernel never uses gp, and tp is this CPU's
 * inside it, so neither is saved by the ecall path's C frames: the IPC
 * entry (gp) and the trap entry (tp) store the user's in the trapframe. */
#define CALLEE_SAVED 14
__asm__(".text\n.globl regs_syscall\nregs_syscall:\n"
        "addi sp, sp, -128\n"
        "sd s0, 0(sp)\nsd s1, 8(sp)\nsd s2, 16(sp)\nsd s3, 24(sp)\nsd s4, 32(sp)\n"
        "sd s5, 40(sp)\nsd s6, 48(sp)\nsd s7, 56(sp)\nsd s8, 64(sp)\nsd s9, 72(sp)\n"
        "sd s10, 80(sp)\nsd s11, 88(sp)\nsd a2, 96(sp)\nsd a4, 104(sp)\n" /* m, got */
        "sd gp, 112(sp)\nsd tp, 120(sp)\n"
        "mv a7, a0\nmv a0, a1\nmv t0, a2\n"
        "addi s0, a3, 1\naddi s1, a3, 2\naddi s2, a3, 3\naddi s3, a3, 4\n"
        "addi s4, a3, 5\naddi s5, a3, 6\naddi s6, a3, 7\naddi s7, a3, 8\n"
        "addi s8, a3, 9\naddi s9, a3, 10\naddi s10, a3, 11\naddi s11, a3, 12\n"
        "addi gp, a3, 13\naddi tp, a3, 14\n"
        "ld a1, 0(t0)\nld a2, 8(t0)\nld a3, 16(t0)\nld a4, 24(t0)\nld a5, 32(t0)\n"
        "ecall\n"
        "ld t0, 96(sp)\nld t1, 104(sp)\n"
        "sd a1, 0(t0)\nsd a2, 8(t0)\nsd a3, 16(t0)\nsd a4, 24(t0)\nsd a5, 32(t0)\n"
        "sd s0, 0(t1)\nsd s1, 8(t1)\nsd s2, 16(t1)\nsd s3, 24(t1)\nsd s4, 32(t1)\n"
        "sd s5, 40(t1)\nsd s6, 48(t1)\nsd s7, 56(t1)\nsd s8, 64(t1)\nsd s9, 72(t1)\n"
        "sd s10, 80(t1)\nsd s11, 88(t1)\nsd gp, 96(t1)\nsd tp, 104(t1)\n"
        "ld s0, 0(sp)\nld s1, 8(sp)\nld s2, 16(sp)\nld s3, 24(sp)\nld s4, 32(sp)\n"
        "ld s5, 40(sp)\nld s6, 48(sp)\nld s7, 56(sp)\nld s8, 64(sp)\nld s9, 72(sp)\n"
        "ld s10, 80(sp)\nld s11, 88(sp)\nld gp, 112(sp)\nld tp, 120(sp)\n"
        "addi sp, sp, 128\nret\n");
#endif

/* The registers regs_syscall saw come back: how many are not the pattern. */
static int regs_wrong(unsigned long seed, const unsigned long *got)
{
    int wrong = 0;
    for (int i = 0; i < CALLEE_SAVED; i++)
        wrong += got[i] != seed + 1 + (unsigned long)i;
    return wrong;
}

/* A distinct pattern per call and side: a register left as an earlier
 * call had it (in a trapframe slot never written) does not match. */
static unsigned long regs_seed(unsigned long i, unsigned long side)
{
    return 0x5eed000000000000ul | i << 12 | side << 8;
}

/* The server of ipc.fastpath_callee_saved: each reply_recv with the
 * pattern, and in the reply's w0 how many registers came back wrong so far
 * (w1: the request's w0 + 1). */
int regs_server_role(void)
{
    sys_sched_setaffinity(0, 1);
    struct ipc_msg m;
    unsigned long got[CALLEE_SAVED], wrong = 0;
    long r = ipc_recv(0, &m);
    for (unsigned long i = 0; r >= 0 && IPC_TAG_LABEL(m.tag) == L_ECHO; i++) {
        m = msg(L_ECHO, 0, wrong, m.w[0] + 1, 0, 0);
        r = regs_syscall(SYS_ipc_reply_recv, 0, &m, regs_seed(i, 1), got);
        wrong += (unsigned long)regs_wrong(regs_seed(i, 1), got);
    }
    return r >= 0 && IPC_TAG_LABEL(m.tag) == L_DIE ? 5 : 6;
}

/* 100 calls with the pattern set on both sides; the registers each side
 * had wrong (the server's as it counted them by the last reply). */
static long regs_round_trips(int h, bool *words)
{
    unsigned long got[CALLEE_SAVED];
    long wrong = 0;
    struct ipc_msg m;
    for (unsigned long i = 0; i < 101; i++) {
        m = msg(L_ECHO, 0, i, 0, 0, 0);
        long r = regs_syscall(SYS_ipc_call, h, &m, regs_seed(i, 2), got);
        wrong += regs_wrong(regs_seed(i, 2), got);
        *words = *words && r == 0 && m.w[1] == i + 1;
    }
    return wrong + (long)m.w[0];
}

/* 101 calls with the fastpath on under strategy s (if it may run here),
 * into *wrong and *direct; false if s could not be chosen. */
static bool regs_under(int h, long s, bool *words, long *wrong, long *direct)
{
    if (syscall1(SYS_kstack_set, s) != 0)
        return false;
    struct fast before = fast_now();
    *wrong += regs_round_trips(h, words);
    struct fast on = fast_since(before);
    *direct += on.direct;
    if (*wrong)
        note_direct("registers wrong", on);
    return true;
}

/* Both sides' callee-saved registers and frame pointer survive ipc_call and
 * ipc_reply_recv, with the fastpath on (resumed straight from the
 * trapframe, where the arch has it and the path allows it) under every
 * strategy, and with it off (through their C frames). */
void test_callee_saved(void)
{
    int e = endpoint_create();
    const char *argv[] = {"test_ipc_fast", "regs-server", NULL};
    int pid = spawn_with("test_ipc_fast", argv, &e, 1);
    long was = fastpath_switch(IPC_FASTPATH_ON), strategy = syscall0(SYS_kstack_get);
    bool words = pid > 0;
    long wrong_on = 0, wrong_off = 0, direct = 0;
    int strategies = 0;
    for (long s = 0; s < KSTACK_NR; s++)
        strategies += regs_under(e, s, &words, &wrong_on, &direct);
    syscall1(SYS_kstack_set, strategy);
    fastpath_switch(IPC_FASTPATH_OFF);
    wrong_off = regs_round_trips(e, &words);
    fastpath_switch(was);
    stop_server(e, pid);
    handle_close(e);
    bool directed = !direct_built || direct > 0; /* under off at least */
    if (!words || wrong_on || wrong_off || !directed || strategies == 0)
        ktap_note("registers wrong: %ld with the fastpath on (%d strategies, %ld resumed "
                  "directly), %ld off; words %s",
                  wrong_on, strategies, direct, wrong_off, words ? "ok" : "wrong");
    ktap_check(words && wrong_on == 0 && wrong_off == 0 && directed && strategies > 0,
               "ipc.fastpath_callee_saved");
}
