/* SPDX-License-Identifier: MIT */
/*
 * lib/string.h - the freestanding string and memory functions the kernel uses.
 * The compiler may also emit calls to memcpy/memset/memmove/memcmp on its own
 * (struct copies), so these keep their standard names and contracts.
 */
#ifndef LIB_STRING_H
#define LIB_STRING_H

#include <stddef.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
/* Copies at most size-1 bytes and always terminates; returns strlen(src). */
size_t strlcpy(char *restrict dst, const char *restrict src, size_t size);
/* Overwrite memory the compiler must not optimise away (secrets, seeds). */
void memzero_explicit(void *p, size_t n);

#endif
