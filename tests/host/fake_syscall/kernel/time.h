/* SPDX-License-Identifier: MIT */
/* tests/host/fake_syscall/kernel/time.h - the clock a host test sets. */
#ifndef FAKE_TIME_H
#define FAKE_TIME_H

#include "kernel/types.h"

extern uint64_t fake_now_ns;

static inline uint64_t time_now_ns(void)
{
    return fake_now_ns;
}

#endif
