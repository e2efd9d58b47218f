/* SPDX-License-Identifier: MIT */
/*
 * lib/string.c - freestanding memory and string functions (see lib/string.h).
 * Plain byte loops: short, obviously correct, and free of unaligned wide
 * loads (the kernel may run them over Device memory early on arm64, where
 * an unaligned access faults). memcpy moves whole words when both
 * pointers are word-aligned, which is fine on any memory type: the IPC
 * path copies 64-word messages with it; memset stores whole words when
 * the destination is word-aligned: zeroing a page or a thread, often with
 * IRQs masked, then takes an eighth of the stores.
 */
#include "lib/string.h"

#include <stdint.h>

typedef uint64_t __attribute__((may_alias)) alias_word;

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if ((((uintptr_t)d | (uintptr_t)s) & (sizeof(alias_word) - 1)) == 0) {
        for (; n >= sizeof(alias_word); n -= sizeof(alias_word)) {
            *(alias_word *)(void *)d = *(const alias_word *)(const void *)s;
            d += sizeof(alias_word);
            s += sizeof(alias_word);
        }
    }
    while (n--)
        *d++ = *s++;
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (d < s) {
        while (n--)
            *d++ = *s++;
    } else {
        while (n--)
            d[n] = s[n];
    }
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    if (((uintptr_t)d & (sizeof(alias_word) - 1)) == 0) {
        alias_word word = 0x0101010101010101ull * (unsigned char)c;
        for (; n >= sizeof(alias_word); n -= sizeof(alias_word)) {
            *(alias_word *)(void *)d = word;
            d += sizeof(alias_word);
        }
    }
    while (n--)
        *d++ = (unsigned char)c;
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    for (; n; n--, x++, y++) {
        if (*x != *y)
            return *x - *y;
    }
    return 0;
}

void *memchr(const void *s, int c, size_t n)
{
    const unsigned char *p = s;
    for (; n; n--, p++) {
        if (*p == (unsigned char)c)
            return (void *)p;
    }
    return NULL;
}

size_t strlen(const char *s)
{
    const char *p = s;
    while (*p)
        p++;
    return (size_t)(p - s);
}

size_t strnlen(const char *s, size_t max)
{
    size_t n = 0;
    while (n < max && s[n])
        n++;
    return n;
}

int strcmp(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
    for (; n; n--, a++, b++) {
        if (*a != *b || !*a)
            return (unsigned char)*a - (unsigned char)*b;
    }
    return 0;
}

char *strchr(const char *s, int c)
{
    for (;; s++) {
        if (*s == (char)c)
            return (char *)s;
        if (!*s)
            return NULL;
    }
}

size_t strlcpy(char *restrict dst, const char *restrict src, size_t size)
{
    size_t len = strlen(src);
    if (size) {
        size_t n = len < size - 1 ? len : size - 1;
        memcpy(dst, src, n);
        dst[n] = '\0';
    }
    return len;
}

void memzero_explicit(void *p, size_t n)
{
    memset(p, 0, n);
    /* The empty asm "uses" the memory, so the stores cannot be elided. */
    __asm__ volatile("" : : "r"(p) : "memory");
}
