/* SPDX-License-Identifier: MIT */
/*
 * kernel/sys_debug.c - system calls that exist for the tests: sleeping
 * inside the kernel (so a test can move a thread to another CPU while it is
 * in the middle of a system call) and the free page count (leak checks).
 */
#include "kernel/mm/page_alloc.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall.h"

long sys_debug_sleep(const struct sysargs *args)
{
    sched_sleep_ns(args->a[0]);
    return 0;
}

long sys_debug_free_pages(const struct sysargs *args)
{
    return (long)page_free_count();
}
