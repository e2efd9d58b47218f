/* SPDX-License-Identifier: MIT */
/*
 * tests/host/fdt_writer.h - a tiny devicetree blob writer for the lib/fdt.c
 * host tests, shared by test_fdt.c and test_fdt_malformed.c.
 *
 * Blobs are built by begin_node/prop/end_node/finish (big-endian, layout as
 * in Devicetree Specification v0.4 chapter 5); set_hdr/hdr patch and read
 * header fields, and init_copy/init_blob hand a blob to fdt_init() in a heap
 * buffer of exactly max_size bytes, so AddressSanitizer catches any read past
 * the end. Also shared: board_blob(), the realistic tree the programs start
 * from, and walk_everything(), which touches everything the accessors hand
 * out. Static inline functions in a header: each test program is one
 * translation unit and need not use all of them.
 */
#ifndef TESTS_HOST_FDT_WRITER_H
#define TESTS_HOST_FDT_WRITER_H

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/fdt.h"
#include "tests/host/check.h"

/* ---- A tiny DTB writer ---- */

enum { TOK_BEGIN = 1, TOK_END_NODE = 2, TOK_PROP = 3, TOK_NOP = 4, TOK_END = 9 };
enum {
    H_MAGIC = 0,
    H_TOTAL = 4,
    H_OFF_STRUCT = 8,
    H_OFF_STRINGS = 12,
    H_OFF_RSV = 16,
    H_VERSION = 20,
    H_LAST_COMP = 24,
    H_CPUID = 28,
    H_SIZE_STRINGS = 32,
    H_SIZE_STRUCT = 36
};

struct writer {
    uint8_t st[8192]; /* structure block */
    uint32_t st_len;
    char str[2048]; /* strings block */
    uint32_t str_len;
    uint64_t rsv[8][2]; /* /memreserve/ entries */
    int nrsv;
};

struct blob {
    uint8_t *p;
    uint32_t len;
};

static inline void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

static inline void put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)(v >> 32));
    put32(p + 4, (uint32_t)v);
}

static inline uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void w_init(struct writer *w)
{
    memset(w, 0, sizeof(*w));
}

static inline void w_u32(struct writer *w, uint32_t v)
{
    put32(w->st + w->st_len, v);
    w->st_len += 4;
}

/* Raw bytes, then zero padding to a 4-byte boundary. */
static inline void w_bytes(struct writer *w, const void *p, uint32_t n)
{
    memcpy(w->st + w->st_len, p, n);
    w->st_len += n;
    while (w->st_len % 4)
        w->st[w->st_len++] = 0;
}

static inline uint32_t w_string(struct writer *w, const char *s)
{
    for (uint32_t off = 0; off < w->str_len; off += (uint32_t)strlen(w->str + off) + 1)
        if (strcmp(w->str + off, s) == 0)
            return off;
    uint32_t off = w->str_len;
    memcpy(w->str + off, s, strlen(s) + 1);
    w->str_len += (uint32_t)strlen(s) + 1;
    return off;
}

static inline void begin_node(struct writer *w, const char *name)
{
    w_u32(w, TOK_BEGIN);
    w_bytes(w, name, (uint32_t)strlen(name) + 1);
}

static inline void end_node(struct writer *w)
{
    w_u32(w, TOK_END_NODE);
}

static inline void prop(struct writer *w, const char *name, const void *val, uint32_t len)
{
    w_u32(w, TOK_PROP);
    w_u32(w, len);
    w_u32(w, w_string(w, name));
    w_bytes(w, val, len);
}

static inline void prop_str(struct writer *w, const char *name, const char *s)
{
    prop(w, name, s, (uint32_t)strlen(s) + 1);
}

/* A property of n 32-bit cells given as varargs. */
static inline void prop_cells(struct writer *w, const char *name, int n, ...)
{
    uint8_t buf[64];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        put32(buf + 4 * i, va_arg(ap, uint32_t));
    va_end(ap);
    prop(w, name, buf, 4u * (uint32_t)n);
}

static inline void memreserve(struct writer *w, uint64_t addr, uint64_t size)
{
    w->rsv[w->nrsv][0] = addr;
    w->rsv[w->nrsv][1] = size;
    w->nrsv++;
}

/* Lay out header, reservation map, structure and strings blocks (no FDT_END added). */
static inline struct blob build(const struct writer *w)
{
    uint32_t rsv = 40, st = rsv + 16u * (uint32_t)(w->nrsv + 1), strs = st + w->st_len;
    struct blob b = {calloc(1, strs + w->str_len), strs + w->str_len};

    put32(b.p + H_MAGIC, FDT_MAGIC);
    put32(b.p + H_TOTAL, b.len);
    put32(b.p + H_OFF_STRUCT, st);
    put32(b.p + H_OFF_STRINGS, strs);
    put32(b.p + H_OFF_RSV, rsv);
    put32(b.p + H_VERSION, 17);
    put32(b.p + H_LAST_COMP, 16);
    put32(b.p + H_SIZE_STRINGS, w->str_len);
    put32(b.p + H_SIZE_STRUCT, w->st_len);
    for (int i = 0; i < w->nrsv; i++) {
        put64(b.p + rsv + 16 * i, w->rsv[i][0]);
        put64(b.p + rsv + 16 * i + 8, w->rsv[i][1]);
    }
    memcpy(b.p + st, w->st, w->st_len);
    memcpy(b.p + strs, w->str, w->str_len);
    return b;
}

static inline struct blob finish(struct writer *w)
{
    w_u32(w, TOK_END);
    return build(w);
}

static inline void set_hdr(struct blob *b, int field, uint32_t v)
{
    put32(b->p + field, v);
}

static inline uint32_t hdr(const struct blob *b, int field)
{
    return get32(b->p + field);
}

/* fdt_init on a heap copy of exactly max_size bytes (shorter: a truncated copy). */
static inline int init_copy(const struct blob *b, size_t max_size)
{
    uint8_t *copy = malloc(max_size ? max_size : 1);
    struct fdt f;
    int err;

    memcpy(copy, b->p, max_size < b->len ? max_size : b->len);
    err = fdt_init(&f, copy, max_size);
    free(copy);
    return err;
}

static inline int init_blob(const struct blob *b)
{
    return init_copy(b, b->len);
}

/* ---- The realistic tree ---- */

static inline struct blob board_blob(void)
{
    struct writer *w = malloc(sizeof(*w));
    static const char compat[] = "arm,pl011\0arm,primecell";
    struct blob b;

    w_init(w);
    memreserve(w, 0x48000000, 0x100000);
    begin_node(w, "");
    prop_cells(w, "#address-cells", 1, 2);
    prop_cells(w, "#size-cells", 1, 2);
    prop_str(w, "model", "stackshift test board");
    prop_str(w, "compatible", "stackshift,virt");
    begin_node(w, "chosen");
    prop_str(w, "bootargs", "console=ttyAMA0 loglevel=8");
    prop_str(w, "stdout-path", "serial0:115200n8");
    end_node(w);
    begin_node(w, "aliases");
    prop_str(w, "serial0", "/pl011@9000000");
    prop_str(w, "secmon", "/reserved-memory/secmon@4e000000");
    prop_str(w, "bad", "chosen");
    end_node(w);
    begin_node(w, "memory@40000000");
    prop_str(w, "device_type", "memory");
    prop_cells(w, "reg", 8, 0, 0x40000000, 0, 0x08000000, 1, 0, 0, 0x40000000);
    end_node(w);
    begin_node(w, "cpus");
    prop_cells(w, "#address-cells", 1, 1);
    prop_cells(w, "#size-cells", 1, 0);
    for (int i = 0; i < 4; i++) {
        char name[16];
        snprintf(name, sizeof(name), "cpu@%d", i);
        begin_node(w, name);
        prop_str(w, "device_type", "cpu");
        prop_str(w, "compatible", "arm,cortex-a53");
        prop_cells(w, "reg", 1, i);
        if (i == 2)
            prop_str(w, "status", "disabled");
        if (i == 3)
            prop_str(w, "status", "okay");
        end_node(w);
    }
    end_node(w);
    begin_node(w, "reserved-memory");
    prop_cells(w, "#address-cells", 1, 2);
    prop_cells(w, "#size-cells", 1, 2);
    prop(w, "ranges", "", 0);
    begin_node(w, "secmon@4e000000");
    prop_cells(w, "reg", 4, 0, 0x4e000000, 0, 0x200000);
    prop(w, "no-map", "", 0);
    prop_cells(w, "phandle", 1, 5);
    end_node(w);
    end_node(w);
    begin_node(w, "pl011@9000000");
    prop(w, "compatible", compat, sizeof(compat));
    prop_cells(w, "reg", 4, 0, 0x9000000, 0, 0x1000);
    prop_str(w, "status", "ok");
    prop_cells(w, "phandle", 1, 1);
    end_node(w);
    begin_node(w, "pl011@9040000");
    prop(w, "compatible", compat, sizeof(compat));
    prop_cells(w, "reg", 4, 0, 0x9040000, 0, 0x1000);
    prop_str(w, "status", "disabled");
    prop_cells(w, "linux,phandle", 1, 7); /* the deprecated spelling */
    end_node(w);
    end_node(w);
    b = finish(w);
    free(w);
    return b;
}

/* ---- Walking an accepted tree ---- */

/* Touch everything the accessors hand out, checking invariants of a valid tree. */
static inline void walk_everything(const struct fdt *f)
{
    static const char *const paths[] = {"/",
                                        "/chosen",
                                        "/memory",
                                        "/cpus/cpu@2",
                                        "/cpus/cpu",
                                        "serial0",
                                        "serial0:115200n8",
                                        "secmon",
                                        "bad",
                                        "/reserved-memory/secmon",
                                        "/a/b/c",
                                        "nope",
                                        ""};
    int prev = -1, count = 0;
    volatile unsigned sum = 0;
    uint64_t a, s;
    uint32_t len, u;

    for (int n = fdt_next_node(f, -1); n >= 0 && count < 5000; n = fdt_next_node(f, n), count++) {
        const char *name = fdt_node_name(f, n);
        CHECK(n > prev);
        prev = n;
        CHECK(name != NULL);
        if (name)
            sum += (unsigned)strlen(name);
        for (int c = fdt_first_child(f, n); c >= 0; c = fdt_next_sibling(f, c))
            if (fdt_parent(f, c) != n)
                CHECK(fdt_parent(f, c) == n);
        for (int p = fdt_first_prop(f, n); p >= 0; p = fdt_next_prop(f, p)) {
            const char *pname = NULL;
            const uint8_t *v = fdt_prop_at(f, p, &pname, &len);
            CHECK(v != NULL && pname != NULL);
            if (v && pname) {
                sum += (unsigned)strlen(pname);
                for (uint32_t i = 0; i < len; i++)
                    sum += v[i];
            }
        }
        for (int i = 0; i < 3; i++) {
            int where = -1;
            if (fdt_reg(f, n, i, &a, &s) == FDT_OK)
                sum += (unsigned)(a + s);
            if (fdt_reg_cpu(f, n, i, &a, &s, &where) == FDT_OK)
                sum += (unsigned)(a + s);
            else
                sum += (unsigned)where;
        }
        sum += (unsigned)fdt_interrupt_parent(f, n) + (unsigned)fdt_cpu_enable_method(f, n, &a);
        sum += (unsigned)fdt_address_cells(f, n) + (unsigned)fdt_size_cells(f, n);
        sum += fdt_is_compatible(f, n, "arm,pl011") + fdt_node_enabled(f, n);
        sum += fdt_prop_u32(f, n, "phandle", &u);
        const char *sp = fdt_prop(f, n, "stdout-path", &len);
        if (sp && memchr(sp, 0, len))
            sum += (unsigned)fdt_path(f, sp);
    }
    CHECK(count < 5000);
    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
        sum += (unsigned)fdt_path(f, paths[i]);
    for (int n = fdt_find_compatible(f, -1, "arm,cortex-a53"); n >= 0;
         n = fdt_find_compatible(f, n, "arm,cortex-a53"))
        sum++;
    sum += (unsigned)fdt_node_by_phandle(f, 1) + (unsigned)fdt_node_by_phandle(f, 5);
    sum += (unsigned)fdt_stdout_node(f, NULL);
    for (int i = 0; fdt_memreserve(f, i, &a, &s) == FDT_OK && i < 10000; i++)
        sum += (unsigned)a;
}

#endif
