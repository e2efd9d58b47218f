/* SPDX-License-Identifier: MIT */
/* tests/host/fake_user/lib/user/ulib.h - the C library and the thread call a
 * user-space server uses, for a host test (see ipc.h here). */
#ifndef FAKE_USER_ULIB_H
#define FAKE_USER_ULIB_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int thread_create(void (*fn)(void *), void *arg, void *stack, unsigned long size);

#endif
