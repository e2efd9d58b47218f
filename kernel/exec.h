/* SPDX-License-Identifier: MIT */
/* kernel/exec.h - put a program and its arguments into a fresh address space. */
#ifndef KERNEL_EXEC_H
#define KERNEL_EXEC_H

#include "kernel/mm/vm.h"

/* User stack: USER_STACK_SIZE bytes below USER_STACK_TOP, with an unmapped
 * guard page under it (nothing else is ever mapped there). */
#define USER_STACK_TOP   (USER_TOP - PAGE_SIZE)
#define USER_STACK_SIZE  (64 * 1024)
#define USER_STACK_GUARD (USER_STACK_TOP - USER_STACK_SIZE - PAGE_SIZE)
/* Programs are linked at and above this address (linker/user.ld). */
#define USER_IMAGE_BASE  0x400000ul

struct exec_result {
    uintptr_t entry;    /* first instruction */
    uintptr_t sp;       /* initial stack pointer (16-byte aligned) */
    uintptr_t argv;     /* user address of argv[] */
    uintptr_t brk_base; /* first page after the program: the heap starts here */
};

/* Load ELF `image` (size bytes) into `as` and build the stack with argc/argv.
 * 0 or -errno (-ENOEXEC for a bad file, -ENOMEM, -E2BIG for arguments). */
int exec_load(struct aspace *as, const void *image, size_t size, int argc, const char *const argv[],
              struct exec_result *out);

#endif
