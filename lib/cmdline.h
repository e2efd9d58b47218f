/* SPDX-License-Identifier: MIT */
/*
 * lib/cmdline.h - read "key=value" and "flag" words from a kernel command line.
 * Words are separated by spaces; the last occurrence of a key wins (so a
 * test can append an override); values cannot contain spaces.
 */
#ifndef LIB_CMDLINE_H
#define LIB_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

/* Finds `key`; on success *value and *len describe the text after '=' (len 0 if none). */
bool cmdline_find(const char *cmdline, const char *key, const char **value, size_t *len);
/* Copies the value of `key` into buf (NUL-terminated, truncated); false if absent. */
bool cmdline_get(const char *cmdline, const char *key, char *buf, size_t size);
/* True if `key` is present and its value is absent, "1", "on", "yes" or "true". */
bool cmdline_flag(const char *cmdline, const char *key);
/* The value of `key` as an unsigned decimal or 0x-hex number, or `fallback`. */
unsigned long cmdline_ulong(const char *cmdline, const char *key, unsigned long fallback);
/* True if the comma-separated `list` contains `item` (e.g. "ktest=boot,fdt"). */
bool cmdline_list_has(const char *list, size_t len, const char *item);

#endif
