/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The stackshift authors */
/* lib/kstack/test/vectors.c - the known-answer file reader (vectors.h). */
#define _POSIX_C_SOURCE 200809L
#include "vectors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void split(char *line, struct vec_record *r)
{
    char *save = NULL;
    r->nfields = 0;
    for (char *tok = strtok_r(line, " \t\r\n", &save); tok && r->nfields < VEC_MAX_FIELDS;
         tok = strtok_r(NULL, " \t\r\n", &save))
        r->field[r->nfields++] = tok;
}

int vec_each(const char *name, void (*fn)(const struct vec_record *r, void *ctx), void *ctx)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", check_vectors_dir, name);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f) {
        printf("    # cannot read %s\n", path);
        return -1;
    }
    static struct vec_record rec; /* large: not on the stack */
    char *line = NULL;
    size_t cap = 0;
    int records = 0;
    while (getline(&line, &cap, f) > 0) {
        split(line, &rec);
        if (rec.nfields == 0 || rec.field[0][0] == '#')
            continue;
        fn(&rec, ctx);
        records++;
    }
    free(line);
    fclose(f);
    return records;
}

static int nibble(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

int vec_hex(const char *hex, uint8_t *out, size_t max)
{
    if (strcmp(hex, "-") == 0)
        return 0;
    size_t len = strlen(hex);
    if (len % 2 || len / 2 > max)
        return -1;
    for (size_t i = 0; i < len / 2; i++) {
        int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return (int)(len / 2);
}

unsigned long long vec_num(const char *s)
{
    return strtoull(s, NULL, 0);
}
