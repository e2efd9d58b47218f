/* SPDX-License-Identifier: MIT */
/*
 * user/tests/crash_lock.c - asks the kernel (booted with crash=lock-to-user) to
 * return from a system call still holding a spinlock. The kernel must catch
 * that on the way back to user space and panic, naming where the lock was
 * taken; this program must never get control back.
 */
#include "lib/user/ulib.h"

int main(void)
{
    long r = syscall0(SYS_debug_leak_lock);
    printf("crash_lock: the kernel returned %ld and did not catch the held lock\n", r);
    return 1;
}
