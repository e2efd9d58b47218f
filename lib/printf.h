/* SPDX-License-Identifier: MIT */
/*
 * lib/printf.h - freestanding formatted output.
 *
 * C99 semantics for the subset the kernel uses: flags "-+ #0", width and
 * precision (numbers or '*'), lengths hh h l ll z t j, conversions
 * d i u o x X c s p %. The return value is the length the full output would
 * have had (so truncation can be detected), and the buffer is always
 * NUL-terminated when size > 0. No floating point: kernels have no FPU state.
 */
#ifndef LIB_PRINTF_H
#define LIB_PRINTF_H

#include <stdarg.h>
#include <stddef.h>

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
