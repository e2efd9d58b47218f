/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The stackshift authors */
/*
 * lib/kstack/test/vectors.h - reading the files of tests/vectors/ (format:
 * tests/vectors/README.md): one record a line, whitespace-separated fields,
 * the first naming the record; '#' lines and blank lines are skipped.
 */
#ifndef KSTACK_TEST_VECTORS_H
#define KSTACK_TEST_VECTORS_H

#include <stddef.h>
#include <stdint.h>

#define VEC_MAX_FIELDS 1100

struct vec_record {
    int nfields;
    char *field[VEC_MAX_FIELDS]; /* field[0] is the record's kind */
};

/* Call fn for every record of <vectors dir>/name; the number of records,
 * or -1 (and a failed CHECK) if the file cannot be read. */
int vec_each(const char *name, void (*fn)(const struct vec_record *r, void *ctx), void *ctx);

/* Hex digits to bytes: the byte count, or -1 if not hex or longer than max.
 * "-" is the empty string. */
int vec_hex(const char *hex, uint8_t *out, size_t max);

/* A number in C notation (0x... or decimal). */
unsigned long long vec_num(const char *s);

#endif
