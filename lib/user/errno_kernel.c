/* SPDX-License-Identifier: MIT */
/* lib/user/errno_kernel.c - the kernel's errno numbers, in ERRNO_LIST order.
 * Only this file sees kernel/uapi/errno.h: its ENOSYS is not newlib's. */
#include "kernel/uapi/errno.h"
#include "lib/user/errno_list.h"

#define X(e) e,
extern const unsigned char errno_kernel_values[];
const unsigned char errno_kernel_values[] = {ERRNO_LIST};
