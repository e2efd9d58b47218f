/* SPDX-License-Identifier: MIT */
/*
 * linux/client/lx_io.h - what the client programs need of a C library:
 * buffered output to the console, numbers, the environment (Linux hands
 * init the kernel command line's unknown `name=value` words as its
 * environment), and the power switch.
 */
#ifndef LX_IO_H
#define LX_IO_H

#include <stdint.h>

void out_str(const char *s);
void out_u64(uint64_t v);
void out_flush(void);
/* The value of `name=` in the environment, or NULL. */
const char *env_get(const char *name);
/* The index-th comma-separated number of s (fallback if absent). */
long arg_number(const char *s, int index, long fallback);
/* Flush, then power the machine off (init must never return). */
_Noreturn void power_off(void);
int lx_main(void);

#endif
