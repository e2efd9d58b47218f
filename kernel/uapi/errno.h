/* SPDX-License-Identifier: MIT */
/* kernel/uapi/errno.h - error numbers, shared with user programs (the Linux/POSIX values, so tools
 * feel familiar). */
#ifndef KERNEL_UAPI_ERRNO_H
#define KERNEL_UAPI_ERRNO_H

#define EPERM    1
#define ENOENT   2
#define ESRCH    3
#define EINTR    4
#define EIO      5
#define E2BIG    7
#define ENOEXEC  8
#define EBADF    9
#define ECHILD   10
#define EAGAIN   11
#define ENOMEM   12
#define EFAULT   14
#define EBUSY    16
#define ENODEV   19
#define EEXIST   17
#define EINVAL   22
#define EMFILE   24
#define ENOSPC   28
#define EPIPE    32
#define ERANGE   34
#define ENOSYS   38
#define EMSGSIZE 90

#endif
