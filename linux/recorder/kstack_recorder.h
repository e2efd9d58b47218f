/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * linux/recorder/kstack_recorder.h - the ioctls of /dev/kstack_recorder
 * (kstack_recorder.c says what each does), shared by the module and the
 * programs that use it (linux/client/). Copyright (c) 2026 The stackshift
 * authors.
 */
#ifndef KSTACK_RECORDER_H
#define KSTACK_RECORDER_H

#ifdef __KERNEL__
#include <linux/ioctl.h>
#include <linux/types.h>
#else
#include <stdint.h>
typedef uint64_t __u64;
#define _IOC(dir, type, nr, size)                                                                  \
    (((dir) << 30) | ((unsigned)(size) << 16) | ((unsigned)(type) << 8) | (nr))
#define _IO(type, nr)        _IOC(0u, (type), (nr), 0)
#define _IOR(type, nr, size) _IOC(2u, (type), (nr), sizeof(size))
#endif

struct ksr_reply {
    __u64 depth;     /* bytes from the top of the kernel stack to the handler's local */
    __u64 cpu_begin; /* the CPU when the handler began */
    __u64 cpu_end;   /* ... and when it returned */
};

#define KSR_PROBE   _IOR('k', 1, struct ksr_reply)
#define KSR_SLEEP   _IOR('k', 2, struct ksr_reply)
#define KSR_WAKE    _IO('k', 3)
#define KSR_WAITING _IO('k', 4)

#endif
