/* SPDX-License-Identifier: MIT */
/* kernel/types.h - basic types and helper macros used everywhere in the kernel. */
#ifndef KERNEL_TYPES_H
#define KERNEL_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define INT_MAX          __INT_MAX__ /* <limits.h> needs the host's headers */
#define ARRAY_SIZE(a)    (sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a)   (((x) + ((a)-1)) & ~((__typeof__(x))(a)-1))
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a)-1))
#define MIN(a, b)        ((a) < (b) ? (a) : (b))
#define MAX(a, b)        ((a) > (b) ? (a) : (b))
#define KiB(x)           ((uint64_t)(x) << 10)
#define MiB(x)           ((uint64_t)(x) << 20)
#define GiB(x)           ((uint64_t)(x) << 30)

#define __noreturn     __attribute__((noreturn))
#define __unused       __attribute__((unused))
#define __aligned(n)   __attribute__((aligned(n)))
#define __section(s)   __attribute__((section(s)))
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define likely(x)      __builtin_expect(!!(x), 1)
#define unlikely(x)    __builtin_expect(!!(x), 0)

/* Reads/writes the compiler may not split, merge or move. */
#define READ_ONCE(x)     (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

#endif
