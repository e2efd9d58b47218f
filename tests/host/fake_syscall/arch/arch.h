/* SPDX-License-Identifier: MIT */
/*
 * tests/host/fake_syscall/arch/arch.h - the arch's raw user copies for a
 * host test of a system call handler: recorded by the test
 * (tests/host/test_sys_clock.c), which checks what range they were handed.
 */
#ifndef FAKE_SYSCALL_ARCH_H
#define FAKE_SYSCALL_ARCH_H

#include "kernel/types.h"

int arch_copy_to_user(uintptr_t user_dst, const void *src, size_t n);
int arch_copy_from_user(void *dst, uintptr_t user_src, size_t n);

#endif
