/* SPDX-License-Identifier: MIT */
/* kernel/errno.h - error numbers; the values are part of the user ABI. */
#ifndef KERNEL_ERRNO_H
#define KERNEL_ERRNO_H

#include "kernel/uapi/errno.h"

#endif
