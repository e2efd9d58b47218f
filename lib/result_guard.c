/* SPDX-License-Identifier: MIT */
/*
 * lib/result_guard.c - see result_guard.h. The start of each line is kept
 * until it either becomes one of the result starts (then, for a writer not
 * vouched for, the marker goes before its last byte) or can no longer
 * become one.
 */
#include "lib/result_guard.h"

static const char *const result_starts[] = {"ok ", "not ok ", "###"};
#define N_STARTS (sizeof(result_starts) / sizeof(result_starts[0]))

/*
 * Where a reader might see a new line start: the guard must judge the line
 * at least wherever any reader does. Python's str.splitlines() also breaks
 * at \v, \f, \x1c-\x1e, U+0085, U+2028 and U+2029, a terminal at \r, and
 * str.strip() also drops \x1f and Unicode spaces such as NBSP. So every
 * control byte and every byte outside ASCII (which covers those characters
 * in UTF-8 and in Latin-1) starts the line anew here; a result line can
 * then start only with printable ASCII, after spaces.
 */
static bool starts_line(char c)
{
    unsigned char u = (unsigned char)c;
    return u < 0x20 || u >= 0x7f;
}

/* How the line's start head[0..len) compares with the result starts. */
enum head_match { HEAD_NONE, HEAD_PREFIX, HEAD_COMPLETE };

static enum head_match match(const char *head, unsigned len)
{
    enum head_match best = HEAD_NONE;
    for (unsigned i = 0; i < N_STARTS; i++) {
        const char *s = result_starts[i];
        unsigned k = 0;
        while (k < len && s[k] == head[k])
            k++;
        if (k == len && s[len] == '\0')
            return HEAD_COMPLETE;
        if (k == len)
            best = HEAD_PREFIX;
    }
    return best;
}

/* One byte of output: whether the marker must go before it. */
static bool needs_marker(struct result_guard *g, char c)
{
    if (starts_line(c)) {
        g->in_body = false;
        g->len = 0;
        return false;
    }
    if (g->in_body || (g->len == 0 && c == ' '))
        return false;
    g->head[g->len++] = c;
    enum head_match m = match(g->head, g->len);
    if (m != HEAD_PREFIX || g->len == RESULT_GUARD_HEAD)
        g->in_body = true;
    return m == HEAD_COMPLETE;
}

void result_guard_follow(struct result_guard *g, const char *in, size_t n)
{
    for (size_t i = 0; i < n; i++)
        needs_marker(g, in[i]);
}

size_t result_guard(struct result_guard *g, const char *in, size_t n, char *out, bool vouched)
{
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        if (needs_marker(g, in[i]) && !vouched)
            out[len++] = '~';
        out[len++] = in[i];
    }
    return len;
}
