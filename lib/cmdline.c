/* SPDX-License-Identifier: MIT */
/* lib/cmdline.c - kernel command line parsing (see cmdline.h). */
#include "lib/cmdline.h"

#include "lib/string.h"

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool cmdline_find(const char *cmdline, const char *key, const char **value, size_t *len)
{
    size_t klen = strlen(key);
    bool found = false;
    const char *p = cmdline;
    while (p && *p) {
        while (is_space(*p))
            p++;
        const char *word = p;
        while (*p && !is_space(*p))
            p++;
        size_t wlen = (size_t)(p - word);
        if (wlen >= klen && strncmp(word, key, klen) == 0 && (wlen == klen || word[klen] == '=')) {
            found = true;
            *value = wlen == klen ? word + klen : word + klen + 1;
            *len = wlen == klen ? 0 : wlen - klen - 1;
        }
    }
    return found;
}

bool cmdline_get(const char *cmdline, const char *key, char *buf, size_t size)
{
    const char *v;
    size_t n;
    if (!cmdline_find(cmdline, key, &v, &n))
        return false;
    if (size) {
        if (n >= size)
            n = size - 1;
        memcpy(buf, v, n);
        buf[n] = '\0';
    }
    return true;
}

static bool value_is(const char *v, size_t n, const char *s)
{
    return strlen(s) == n && strncmp(v, s, n) == 0;
}

bool cmdline_flag(const char *cmdline, const char *key)
{
    const char *v;
    size_t n;
    if (!cmdline_find(cmdline, key, &v, &n))
        return false;
    return n == 0 || value_is(v, n, "1") || value_is(v, n, "on") || value_is(v, n, "yes") ||
           value_is(v, n, "true");
}

unsigned long cmdline_ulong(const char *cmdline, const char *key, unsigned long fallback)
{
    const char *v;
    size_t n;
    if (!cmdline_find(cmdline, key, &v, &n) || n == 0)
        return fallback;
    unsigned base = 10;
    if (n > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
        base = 16;
        v += 2;
        n -= 2;
    }
    unsigned long result = 0;
    for (size_t i = 0; i < n; i++) {
        char c = v[i];
        unsigned d;
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (base == 16 && c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (base == 16 && c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else
            return fallback; /* not a number: ignore rather than guess */
        if (result > (~0ul - d) / base)
            return fallback; /* overflow */
        result = result * base + d;
    }
    return result;
}

bool cmdline_list_has(const char *list, size_t len, const char *item)
{
    size_t ilen = strlen(item);
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || list[i] == ',') {
            if (i - start == ilen && strncmp(list + start, item, ilen) == 0)
                return true;
            start = i + 1;
        }
    }
    return false;
}
