/* SPDX-License-Identifier: MIT */
/* lib/user/errno.c - the kernel's errno numbers to the C library's. */
#include <errno.h>

#include "lib/user/errno_list.h"
#include "lib/user/syscall.h"

#define X(e) e,
extern const unsigned char errno_kernel_values[];
static const unsigned char libc_values[] = {ERRNO_LIST};

int errno_from_kernel(int kernel_errno)
{
    for (unsigned i = 0; i < sizeof(libc_values); i++)
        if (errno_kernel_values[i] == kernel_errno)
            return libc_values[i];
    return kernel_errno; /* one the list does not know: keep its number */
}
