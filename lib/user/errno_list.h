/* SPDX-License-Identifier: MIT */
/*
 * lib/user/errno_list.h - every errno the kernel returns (kernel/uapi/errno.h),
 * as an X-macro list. lib/user/errno_kernel.c expands it with the kernel's
 * numbers, lib/user/errno.c with newlib's, so errno_from_kernel() maps one
 * onto the other: they agree except ENOSYS (kernel 38, newlib 88).
 */
/* clang-format off */
#define ERRNO_LIST                                                                     \
    X(EPERM) X(ENOENT) X(ESRCH) X(EINTR) X(EIO) X(E2BIG) X(ENOEXEC) X(EBADF) X(ECHILD) \
    X(EAGAIN) X(ENOMEM) X(EFAULT) X(EBUSY) X(ENODEV) X(EEXIST) X(EINVAL) X(ENOSPC)     \
    X(ERANGE) X(ENOSYS) X(EMFILE) X(EPIPE) X(EMSGSIZE)
/* clang-format on */
