/* SPDX-License-Identifier: MIT */
/*
 * user/tests/fault.c - does one forbidden thing, named by argv[1], so the kernel
 * test user.faults can check that only this program dies, with the right
 * status, and the kernel carries on:
 *   null        read address 0                      -> EXIT_KILLED_SEGV
 *   kernel      read a kernel address               -> EXIT_KILLED_SEGV
 *   write-text  write to its own code               -> EXIT_KILLED_SEGV
 *   exec-data   jump into its (non-executable) data -> EXIT_KILLED_SEGV
 *   stack       recurse into the stack guard page   -> EXIT_KILLED_SEGV
 *   illegal     execute an illegal instruction      -> EXIT_KILLED_ILL
 */
#include "lib/user/ulib.h"

static volatile uint32_t data_word = 0;
static volatile int recursion_limit = 1 << 30; /* never reached: the guard page is */

static int recurse(int depth)
{
    volatile char frame[1024];
    frame[0] = (char)depth;
    if (depth > recursion_limit)
        return 0;
    return recurse(depth + 1) + frame[0];
}

static void illegal(void)
{
#if defined(__x86_64__)
    __asm__ volatile("ud2");
#elif defined(__aarch64__)
    __asm__ volatile(".inst 0x00000000"); /* permanently undefined (UDF #0) */
#elif defined(__riscv)
    __asm__ volatile(".word 0x00000000"); /* all zeros is defined illegal */
#endif
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    if (strcmp(what, "null") == 0)
        return *(volatile int *)0;
    if (strcmp(what, "kernel") == 0)
        return *(volatile int *)0xffffffff80000000ul;
    if (strcmp(what, "write-text") == 0)
        *(volatile uint32_t *)(uintptr_t)main = 0;
    if (strcmp(what, "exec-data") == 0)
        ((void (*)(void))(uintptr_t)&data_word)();
    if (strcmp(what, "stack") == 0)
        return recurse(0);
    if (strcmp(what, "illegal") == 0)
        illegal();
    printf("fault: unknown or survived \"%s\"\n", what);
    return 1;
}
