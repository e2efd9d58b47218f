/* SPDX-License-Identifier: MIT */
/*
 * lib/result_guard.h - keeps a program's output from passing for a test
 * result on the console.
 *
 * The test harness (and anyone reading the console) takes a line as a KTAP
 * result when, after leading spaces, it starts with "ok " or "not ok ", and
 * "###" starts the lines that open and close a block of results. The guard
 * judges more lines than that: a line starts after any control byte or
 * byte outside ASCII, not only after '\n' (result_guard.c says why). Only the
 * kernel and the programs it vouches for may write such lines; for every
 * other writer the guard puts a '~' before the byte that would complete one
 * of those starts ("ok~ 1 - x"), so the line still reads, but as text.
 *
 * The guard follows one output stream (a UART): every byte written to it
 * goes through result_guard(), vouched for or not, so that a line begun by
 * one writer and finished by another is judged as a whole.
 */
#ifndef LIB_RESULT_GUARD_H
#define LIB_RESULT_GUARD_H

#include <stdbool.h>
#include <stddef.h>

#define RESULT_GUARD_HEAD 8 /* longer than the longest start, "not ok " */

struct result_guard {
    bool in_body;      /* past the start of the line: nothing more to judge */
    unsigned char len; /* bytes of the line's start so far (spaces skipped) */
    char head[RESULT_GUARD_HEAD];
};

/* Copy n bytes from `in` to `out` (room for 2 * n bytes), marking the
 * starts of result lines unless `vouched`; the bytes in `out`. */
size_t result_guard(struct result_guard *g, const char *in, size_t n, char *out, bool vouched);

/* Follow n bytes the console shows that need no guard (the kernel's own). */
void result_guard_follow(struct result_guard *g, const char *in, size_t n);

#endif
