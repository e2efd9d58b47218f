/* SPDX-License-Identifier: MIT */
/*
 * tests/kernel/test_fpu.c - FP/SIMD state per thread (issue 10, item 1):
 * run the parts of user/tests/test_fpu.c, which print their own fpu.* KTAP
 * subtests, and check how each ended; after the ones the kernel kills, that
 * it still runs programs and that the next one starts with clean registers.
 */
#include "kernel/ktest.h"
#include "kernel/task.h"

/* Start test_fpu <part> and wait for it: its exit status or -errno. */
static int run_fpu(const char *part)
{
    const char *argv[] = {"test_fpu", part};
    int status = -1;
    int pid = task_spawn_kernel("test_fpu", 2, argv, TASK_GIFT_CONTROL);
    if (pid < 0)
        return pid;
    int got = task_wait(NULL, pid, &status);
    return got == pid ? status : got;
}

KTEST(fpu, threads_keep_their_registers)
{
    KEXPECT_EQ(run_fpu("threads"), 0);
}

KTEST(fpu, new_threads_start_clean)
{
    KEXPECT_EQ(run_fpu("clean"), 0);
}

/* The program dies with its registers full of a pattern; the next program
 * must start clean all the same. */
KTEST(fpu, fault_in_fp_code_kills_only_the_program)
{
    KEXPECT_EQ(run_fpu("dirty-fault"), EXIT_KILLED_SEGV);
    KEXPECT_EQ(run_fpu("clean"), 0);
}

/*
 * An FP exception the program unmasked ends it with EXIT_KILLED_FPE: x86_64
 * #MF (x87) always. The SIMD one, #XM, and arm64's trapped FP exceptions
 * are only raised where the CPU implements them (QEMU's TCG raises
 * neither: the program sees the flag set, or FPCR's trap enables reading
 * as zero, says so and exits 0); riscv64 has no FP traps at all.
 */
KTEST(fpu, fp_exception_kills_only_the_program)
{
    int status = run_fpu("trap");
    KEXPECT(status == 0 || status == EXIT_KILLED_FPE);
#ifdef __x86_64__
    KEXPECT_EQ(run_fpu("trap-x87"), EXIT_KILLED_FPE);
#endif
    KEXPECT_EQ(run_fpu("clean"), 0);
}
