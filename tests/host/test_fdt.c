/* SPDX-License-Identifier: MIT */
/*
 * tests/host/test_fdt.c - host unit tests for lib/fdt.c.
 *
 * Blobs are built here by a small writer (begin_node/prop/end_node/finish,
 * big-endian, layout as in Devicetree Specification v0.4 chapter 5), then
 * checked through every accessor. Malformed blobs are made by patching a
 * valid one or by writing raw tokens. Every blob handed to fdt_init() sits
 * in a heap buffer of exactly max_size bytes, so AddressSanitizer catches
 * any read past the end. A mutation test feeds thousands of corrupted and
 * truncated blobs through fdt_init() and, when accepted, the accessors.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/fdt.h"
#include "tests/host/check.h"

/* ---- A tiny DTB writer ---- */

enum { TOK_BEGIN = 1, TOK_END_NODE = 2, TOK_PROP = 3, TOK_NOP = 4, TOK_END = 9 };
enum { H_MAGIC = 0, H_TOTAL = 4, H_OFF_STRUCT = 8, H_OFF_STRINGS = 12, H_OFF_RSV = 16,
       H_VERSION = 20, H_LAST_COMP = 24, H_CPUID = 28, H_SIZE_STRINGS = 32, H_SIZE_STRUCT = 36 };

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

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

static void put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)(v >> 32));
    put32(p + 4, (uint32_t)v);
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void w_init(struct writer *w)
{
    memset(w, 0, sizeof(*w));
}

static void w_u32(struct writer *w, uint32_t v)
{
    put32(w->st + w->st_len, v);
    w->st_len += 4;
}

/* Raw bytes, then zero padding to a 4-byte boundary. */
static void w_bytes(struct writer *w, const void *p, uint32_t n)
{
    memcpy(w->st + w->st_len, p, n);
    w->st_len += n;
    while (w->st_len % 4)
        w->st[w->st_len++] = 0;
}

static uint32_t w_string(struct writer *w, const char *s)
{
    for (uint32_t off = 0; off < w->str_len; off += (uint32_t)strlen(w->str + off) + 1)
        if (strcmp(w->str + off, s) == 0)
            return off;
    uint32_t off = w->str_len;
    memcpy(w->str + off, s, strlen(s) + 1);
    w->str_len += (uint32_t)strlen(s) + 1;
    return off;
}

static void begin_node(struct writer *w, const char *name)
{
    w_u32(w, TOK_BEGIN);
    w_bytes(w, name, (uint32_t)strlen(name) + 1);
}

static void end_node(struct writer *w)
{
    w_u32(w, TOK_END_NODE);
}

static void prop(struct writer *w, const char *name, const void *val, uint32_t len)
{
    w_u32(w, TOK_PROP);
    w_u32(w, len);
    w_u32(w, w_string(w, name));
    w_bytes(w, val, len);
}

static void prop_str(struct writer *w, const char *name, const char *s)
{
    prop(w, name, s, (uint32_t)strlen(s) + 1);
}

/* A property of n 32-bit cells given as varargs. */
static void prop_cells(struct writer *w, const char *name, int n, ...)
{
    uint8_t buf[64];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        put32(buf + 4 * i, va_arg(ap, uint32_t));
    va_end(ap);
    prop(w, name, buf, 4u * (uint32_t)n);
}

static void memreserve(struct writer *w, uint64_t addr, uint64_t size)
{
    w->rsv[w->nrsv][0] = addr;
    w->rsv[w->nrsv][1] = size;
    w->nrsv++;
}

/* Lay out header, reservation map, structure and strings blocks (no FDT_END added). */
static struct blob build(const struct writer *w)
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

static struct blob finish(struct writer *w)
{
    w_u32(w, TOK_END);
    return build(w);
}

static void set_hdr(struct blob *b, int field, uint32_t v)
{
    put32(b->p + field, v);
}

static uint32_t hdr(const struct blob *b, int field)
{
    return get32(b->p + field);
}

/* fdt_init on a heap copy of exactly max_size bytes (shorter: a truncated copy). */
static int init_copy(const struct blob *b, size_t max_size)
{
    uint8_t *copy = malloc(max_size ? max_size : 1);
    struct fdt f;
    int err;

    memcpy(copy, b->p, max_size < b->len ? max_size : b->len);
    err = fdt_init(&f, copy, max_size);
    free(copy);
    return err;
}

static int init_blob(const struct blob *b)
{
    return init_copy(b, b->len);
}

/* ---- The realistic tree ---- */

static struct blob board_blob(void)
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

/* Board blob loaded into a heap buffer of exactly its size. */
struct board {
    struct blob b;
    struct fdt f;
    int err;
};

static struct board board_open(void)
{
    struct board bd;
    bd.b = board_blob();
    bd.err = fdt_init(&bd.f, bd.b.p, bd.b.len);
    return bd;
}

static const char *name_of(const struct fdt *f, int node)
{
    const char *n = fdt_node_name(f, node);
    return n ? n : "(null)";
}

static void walk_everything(const struct fdt *f);

/* ---- Tests on the valid tree ---- */

TEST(byte_order_helpers)
{
    static const uint8_t buf[] = {0xaa, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x11};

    CHECK_EQ_INT(fdt_be32(buf + 1), 0x12345678);
    CHECK(fdt_be64(buf + 1) == 0x123456789abcdef0ull);
    CHECK_EQ_INT(fdt_read_cells(buf + 1, 1), 0x12345678);
    CHECK(fdt_read_cells(buf + 1, 2) == 0x123456789abcdef0ull);
    CHECK_EQ_INT(fdt_read_cells(buf + 1, 0), 0);
    CHECK_EQ_INT(fdt_read_cells(buf + 1, 3), 0);
}

TEST(init_valid_board)
{
    struct board bd = board_open();

    CHECK_EQ_INT(bd.err, FDT_OK);
    CHECK_EQ_INT(fdt_header_size(bd.b.p), bd.b.len);
    CHECK_EQ_INT(bd.f.size, bd.b.len);
    CHECK_EQ_INT(bd.f.struct_off, hdr(&bd.b, H_OFF_STRUCT));
    CHECK_EQ_INT(bd.f.struct_size, hdr(&bd.b, H_SIZE_STRUCT));
    CHECK_EQ_INT(bd.f.strings_off, hdr(&bd.b, H_OFF_STRINGS));
    CHECK_EQ_INT(bd.f.strings_size, hdr(&bd.b, H_SIZE_STRINGS));
    CHECK_EQ_INT(bd.f.rsvmap_off, 40);
    CHECK(bd.f.blob == bd.b.p);
    /* max_size larger than totalsize is fine */
    CHECK_EQ_INT(init_copy(&bd.b, bd.b.len + 100), FDT_OK);
    /* version 16 has no size_dt_struct: the strings block bounds the structure block */
    set_hdr(&bd.b, H_VERSION, 16);
    set_hdr(&bd.b, H_SIZE_STRUCT, 0);
    CHECK_EQ_INT(init_blob(&bd.b), FDT_OK);
    CHECK_EQ_INT(fdt_init(&bd.f, bd.b.p, bd.b.len), FDT_OK);
    CHECK_EQ_INT(bd.f.struct_size, hdr(&bd.b, H_OFF_STRINGS) - hdr(&bd.b, H_OFF_STRUCT));
    CHECK_EQ_STR(fdt_node_name(&bd.f, fdt_path(&bd.f, "serial0")), "pl011@9000000");
    free(bd.b.p);
}

TEST(init_unaligned_blob)
{
    struct blob b = board_blob();
    uint8_t *odd = malloc(b.len + 1);
    struct fdt f;
    uint64_t a, s;

    memcpy(odd + 1, b.p, b.len);
    CHECK_EQ_INT(fdt_init(&f, odd + 1, b.len), FDT_OK);
    CHECK_EQ_INT(fdt_reg(&f, fdt_path(&f, "/memory"), 0, &a, &s), FDT_OK);
    CHECK(a == 0x40000000 && s == 0x08000000);
    CHECK_EQ_INT(fdt_memreserve(&f, 0, &a, &s), FDT_OK);
    CHECK(a == 0x48000000 && s == 0x100000);
    free(odd);
    free(b.p);
}

TEST(strerror_names)
{
    CHECK_EQ_STR(fdt_strerror(FDT_OK), "ok");
    CHECK_EQ_STR(fdt_strerror(FDT_ERR_TRUNCATED), "truncated blob");
    CHECK_EQ_STR(fdt_strerror(FDT_ERR_BADMAGIC), "bad magic");
    CHECK_EQ_STR(fdt_strerror(FDT_ERR_BADVERSION), "unsupported version");
    CHECK_EQ_STR(fdt_strerror(FDT_ERR_BADLAYOUT), "bad block layout");
    CHECK_EQ_STR(fdt_strerror(FDT_ERR_BADSTRUCT), "bad structure block");
    CHECK_EQ_STR(fdt_strerror(FDT_ERR_BADSTRING), "bad string");
    CHECK_EQ_STR(fdt_strerror(FDT_ERR_NOTFOUND), "not found");
    CHECK_EQ_STR(fdt_strerror(-99), "unknown error");
    CHECK_EQ_STR(fdt_strerror(5), "unknown error");
}

TEST(navigation)
{
    static const char *const order[] = {
        "", "chosen", "aliases", "memory@40000000", "cpus", "cpu@0", "cpu@1", "cpu@2",
        "cpu@3", "reserved-memory", "secmon@4e000000", "pl011@9000000", "pl011@9040000"};
    struct board bd = board_open();
    const struct fdt *f = &bd.f;
    int root = fdt_root(f), n, i, cpus, c;

    CHECK_EQ_INT(root, 0);
    CHECK_EQ_STR(name_of(f, root), "");
    CHECK_EQ_INT(fdt_parent(f, root), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_next_sibling(f, root), FDT_ERR_NOTFOUND);

    /* document order */
    for (i = 0, n = fdt_next_node(f, -1); n >= 0 && i < 20; n = fdt_next_node(f, n), i++)
        if (i < 13)
            CHECK_EQ_STR(name_of(f, n), order[i]);
    CHECK_EQ_INT(i, 13);
    CHECK_EQ_INT(n, FDT_ERR_NOTFOUND);

    /* children of the root, in order */
    static const char *const top[] = {"chosen", "aliases", "memory@40000000", "cpus",
                                      "reserved-memory", "pl011@9000000", "pl011@9040000"};
    for (i = 0, n = fdt_first_child(f, root); n >= 0 && i < 10; n = fdt_next_sibling(f, n), i++) {
        if (i < 7)
            CHECK_EQ_STR(name_of(f, n), top[i]);
        CHECK_EQ_INT(fdt_parent(f, n), root);
    }
    CHECK_EQ_INT(i, 7);

    cpus = fdt_path(f, "/cpus");
    CHECK_EQ_STR(name_of(f, cpus), "cpus");
    for (i = 0, c = fdt_first_child(f, cpus); c >= 0; c = fdt_next_sibling(f, c), i++) {
        char want[16];
        snprintf(want, sizeof(want), "cpu@%d", i);
        CHECK_EQ_STR(name_of(f, c), want);
        CHECK_EQ_INT(fdt_parent(f, c), cpus);
        CHECK_EQ_INT(fdt_first_child(f, c), FDT_ERR_NOTFOUND);
    }
    CHECK_EQ_INT(i, 4);
    n = fdt_path(f, "/reserved-memory/secmon@4e000000");
    CHECK_EQ_INT(fdt_parent(f, n), fdt_path(f, "/reserved-memory"));
    CHECK_EQ_INT(fdt_parent(f, fdt_parent(f, n)), root);
    CHECK_EQ_INT(fdt_first_child(f, fdt_path(f, "/chosen")), FDT_ERR_NOTFOUND);
    free(bd.b.p);
}

TEST(paths_and_aliases)
{
    struct board bd = board_open();
    const struct fdt *f = &bd.f;
    const char *stdout_path;
    uint32_t len;
    int uart = fdt_path(f, "/pl011@9000000");

    CHECK_EQ_INT(fdt_path(f, "/"), fdt_root(f));
    CHECK_EQ_STR(name_of(f, fdt_path(f, "/chosen")), "chosen");
    CHECK_EQ_STR(name_of(f, fdt_path(f, "/memory")), "memory@40000000");
    CHECK_EQ_STR(name_of(f, fdt_path(f, "/memory@40000000")), "memory@40000000");
    CHECK_EQ_STR(name_of(f, fdt_path(f, "/memory@40000000/")), "memory@40000000");
    CHECK_EQ_STR(name_of(f, fdt_path(f, "//cpus//cpu@2")), "cpu@2");
    CHECK_EQ_STR(name_of(f, fdt_path(f, "/cpus/cpu")), "cpu@0");
    CHECK_EQ_STR(name_of(f, fdt_path(f, "/cpus/cpu@3")), "cpu@3");
    CHECK_EQ_STR(name_of(f, fdt_path(f, "/pl011")), "pl011@9000000");
    CHECK_EQ_STR(name_of(f, fdt_path(f, "/pl011@9040000")), "pl011@9040000");
    CHECK_EQ_STR(name_of(f, fdt_path(f, "/reserved-memory/secmon")), "secmon@4e000000");
    CHECK_EQ_INT(fdt_path(f, "/memory@4"), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_path(f, "/mem"), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_path(f, "/cpus/cpu@4"), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_path(f, "/nonexistent"), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_path(f, "/chosen/x"), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_path(f, "/cpu@0"), FDT_ERR_NOTFOUND); /* not a child of / */

    /* aliases and ":options" */
    CHECK(uart >= 0);
    CHECK_EQ_INT(fdt_path(f, "serial0"), uart);
    CHECK_EQ_INT(fdt_path(f, "serial0:115200n8"), uart);
    CHECK_EQ_INT(fdt_path(f, "/pl011@9000000:115200n8"), uart);
    CHECK_EQ_STR(name_of(f, fdt_path(f, "secmon")), "secmon@4e000000");
    stdout_path = fdt_prop(f, fdt_path(f, "/chosen"), "stdout-path", &len);
    CHECK(stdout_path != NULL);
    if (stdout_path) {
        CHECK_EQ_STR(stdout_path, "serial0:115200n8");
        CHECK_EQ_INT(fdt_path(f, stdout_path), uart);
    }
    CHECK_EQ_INT(fdt_path(f, "serial"), FDT_ERR_NOTFOUND);  /* no prefix match */
    CHECK_EQ_INT(fdt_path(f, "serial01"), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_path(f, "nosuchalias"), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_path(f, "bad"), FDT_ERR_NOTFOUND); /* alias value not absolute */
    CHECK_EQ_INT(fdt_path(f, ""), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_path(f, ":x"), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_path(f, "serial0/child"), FDT_ERR_NOTFOUND);
    free(bd.b.p);
}

TEST(properties)
{
    struct board bd = board_open();
    const struct fdt *f = &bd.f;
    int root = fdt_root(f), chosen = fdt_path(f, "/chosen"), p, i;
    const char *name, *s;
    const uint8_t *v;
    uint32_t len, u;
    static const char *const root_props[] = {"#address-cells", "#size-cells", "model",
                                             "compatible"};

    s = fdt_prop(f, chosen, "bootargs", &len);
    CHECK(s != NULL);
    if (s) {
        CHECK_EQ_STR(s, "console=ttyAMA0 loglevel=8");
        CHECK_EQ_INT(len, strlen("console=ttyAMA0 loglevel=8") + 1);
    }
    CHECK(fdt_prop(f, chosen, "nope", &len) == NULL);
    CHECK(fdt_prop(f, chosen, "bootarg", &len) == NULL);
    CHECK(fdt_prop(f, chosen, "bootargsx", &len) == NULL);
    CHECK(fdt_prop(f, FDT_ERR_NOTFOUND, "bootargs", &len) == NULL);
    CHECK(fdt_prop_u32(f, root, "#size-cells", &u) && u == 2);
    CHECK(!fdt_prop_u32(f, root, "model", &u)); /* not 4 bytes */
    CHECK(!fdt_prop_u32(f, root, "nope", &u));

    /* zero-length properties are present */
    v = fdt_prop(f, fdt_path(f, "/reserved-memory"), "ranges", &len);
    CHECK(v != NULL && len == 0);

    /* iteration */
    for (i = 0, p = fdt_first_prop(f, root); p >= 0; p = fdt_next_prop(f, p), i++) {
        v = fdt_prop_at(f, p, &name, &len);
        CHECK(v != NULL);
        if (i < 4 && v)
            CHECK_EQ_STR(name, root_props[i]);
        if (i == 2 && v)
            CHECK_EQ_STR((const char *)v, "stackshift test board");
        if (i == 0 && v)
            CHECK(len == 4 && fdt_be32(v) == 2);
    }
    CHECK_EQ_INT(i, 4);
    CHECK_EQ_INT(fdt_first_prop(f, fdt_path(f, "/cpus/cpu@0")) > 0, 1);
    CHECK(fdt_prop_at(f, p, &name, &len) == NULL);
    CHECK(fdt_prop_at(f, root, &name, &len) == NULL); /* a node, not a property */
    CHECK(fdt_prop_at(f, fdt_first_prop(f, root), NULL, NULL) != NULL);
    CHECK_EQ_INT(fdt_next_prop(f, root), FDT_ERR_NOTFOUND);
    free(bd.b.p);
}

TEST(compatible_and_status)
{
    struct board bd = board_open();
    const struct fdt *f = &bd.f;
    int uart = fdt_path(f, "/pl011@9000000"), uart2 = fdt_path(f, "/pl011@9040000"), n, i;
    static const char list[] = "a\0bc\0def";
    static const char unterminated[] = {'x', 0, 'a', 'b'};

    CHECK(fdt_is_compatible(f, uart, "arm,pl011"));
    CHECK(fdt_is_compatible(f, uart, "arm,primecell"));
    CHECK(!fdt_is_compatible(f, uart, "arm,pl01"));
    CHECK(!fdt_is_compatible(f, uart, "arm,primecell2"));
    CHECK(!fdt_is_compatible(f, uart, ""));
    CHECK(!fdt_is_compatible(f, fdt_path(f, "/chosen"), "arm,pl011"));
    CHECK(fdt_is_compatible(f, fdt_root(f), "stackshift,virt"));

    CHECK(fdt_node_enabled(f, uart));    /* "ok" */
    CHECK(!fdt_node_enabled(f, uart2));  /* "disabled" */
    CHECK(fdt_node_enabled(f, fdt_path(f, "/cpus/cpu@0")));  /* absent */
    CHECK(fdt_node_enabled(f, fdt_path(f, "/cpus/cpu@3")));  /* "okay" */
    CHECK(!fdt_node_enabled(f, fdt_path(f, "/cpus/cpu@2")));
    CHECK(!fdt_node_enabled(f, FDT_ERR_NOTFOUND));

    CHECK_EQ_INT(fdt_find_compatible(f, -1, "arm,pl011"), uart);
    CHECK_EQ_INT(fdt_find_compatible(f, uart, "arm,pl011"), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_find_compatible(f, -1, "stackshift,virt"), fdt_root(f));
    CHECK_EQ_INT(fdt_find_compatible(f, -1, "nope"), FDT_ERR_NOTFOUND);
    static const char *const cpus[] = {"cpu@0", "cpu@1", "cpu@3"};
    for (i = 0, n = fdt_find_compatible(f, -1, "arm,cortex-a53"); n >= 0 && i < 10;
         n = fdt_find_compatible(f, n, "arm,cortex-a53"), i++)
        if (i < 3)
            CHECK_EQ_STR(name_of(f, n), cpus[i]);
    CHECK_EQ_INT(i, 3);

    CHECK(fdt_stringlist_contains(list, sizeof(list), "a"));
    CHECK(fdt_stringlist_contains(list, sizeof(list), "bc"));
    CHECK(fdt_stringlist_contains(list, sizeof(list), "def"));
    CHECK(!fdt_stringlist_contains(list, sizeof(list), "de"));
    CHECK(!fdt_stringlist_contains(list, sizeof(list), "b"));
    CHECK(!fdt_stringlist_contains(list, 0, "a"));
    CHECK(!fdt_stringlist_contains(NULL, 0, ""));
    CHECK(fdt_stringlist_contains(unterminated, sizeof(unterminated), "ab"));
    CHECK(!fdt_stringlist_contains(unterminated, sizeof(unterminated), "abc"));
    CHECK(fdt_stringlist_contains(list, 1, "a")); /* "a" without its NUL */
    free(bd.b.p);
}

TEST(reg_and_cells)
{
    struct board bd = board_open();
    const struct fdt *f = &bd.f;
    int mem = fdt_path(f, "/memory"), cpus = fdt_path(f, "/cpus");
    uint64_t a = 0, s = 0;

    CHECK_EQ_INT(fdt_address_cells(f, fdt_root(f)), 2);
    CHECK_EQ_INT(fdt_size_cells(f, fdt_root(f)), 2);
    CHECK_EQ_INT(fdt_address_cells(f, cpus), 1);
    CHECK_EQ_INT(fdt_size_cells(f, cpus), 0);
    CHECK_EQ_INT(fdt_address_cells(f, mem), 2); /* defaults */
    CHECK_EQ_INT(fdt_size_cells(f, mem), 1);
    CHECK_EQ_INT(fdt_address_cells(f, FDT_ERR_NOTFOUND), FDT_ERR_NOTFOUND);

    CHECK_EQ_INT(fdt_reg(f, mem, 0, &a, &s), FDT_OK);
    CHECK(a == 0x40000000 && s == 0x08000000);
    CHECK_EQ_INT(fdt_reg(f, mem, 1, &a, &s), FDT_OK);
    CHECK(a == 0x100000000ull && s == 0x40000000);
    CHECK_EQ_INT(fdt_reg(f, mem, 2, &a, &s), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_reg(f, mem, -1, &a, &s), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_reg(f, fdt_path(f, "/cpus/cpu@3"), 0, &a, &s), FDT_OK);
    CHECK(a == 3 && s == 0);
    CHECK_EQ_INT(fdt_reg(f, fdt_path(f, "/cpus/cpu@3"), 1, &a, &s), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_reg(f, fdt_path(f, "/reserved-memory/secmon"), 0, &a, &s), FDT_OK);
    CHECK(a == 0x4e000000 && s == 0x200000);
    CHECK_EQ_INT(fdt_reg(f, fdt_path(f, "serial0"), 0, &a, NULL), FDT_OK);
    CHECK(a == 0x9000000);
    CHECK_EQ_INT(fdt_reg(f, fdt_path(f, "/chosen"), 0, &a, &s), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_reg(f, fdt_root(f), 0, &a, &s), FDT_ERR_NOTFOUND);

    CHECK_EQ_INT(fdt_node_by_phandle(f, 1), fdt_path(f, "serial0"));
    CHECK_EQ_INT(fdt_node_by_phandle(f, 5), fdt_path(f, "secmon"));
    CHECK_EQ_INT(fdt_node_by_phandle(f, 7), fdt_path(f, "/pl011@9040000"));
    CHECK_EQ_INT(fdt_node_by_phandle(f, 2), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_node_by_phandle(f, 0), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_node_by_phandle(f, 0xffffffffu), FDT_ERR_NOTFOUND);
    free(bd.b.p);
}

TEST(reg_default_and_unsupported_cells)
{
    struct writer *w = malloc(sizeof(*w));
    struct blob b;
    struct fdt f;
    uint64_t a, s;

    w_init(w);
    begin_node(w, "");
    begin_node(w, "dev@10"); /* root has no #cells: 2 and 1 */
    prop_cells(w, "reg", 6, 0, 0x10, 0x20, 1, 0, 0x30);
    end_node(w);
    begin_node(w, "pci");
    prop_cells(w, "#address-cells", 1, 3);
    prop_cells(w, "#size-cells", 1, 2);
    begin_node(w, "fn@0");
    prop_cells(w, "reg", 5, 0, 0, 0, 0, 0);
    end_node(w);
    end_node(w);
    begin_node(w, "weird");
    prop_cells(w, "#address-cells", 1, 1000);
    prop_cells(w, "#size-cells", 1, 3);
    begin_node(w, "x");
    prop_cells(w, "reg", 2, 0, 0);
    end_node(w);
    end_node(w);
    end_node(w);
    b = finish(w);
    CHECK_EQ_INT(fdt_init(&f, b.p, b.len), FDT_OK);
    CHECK_EQ_INT(fdt_reg(&f, fdt_path(&f, "/dev"), 0, &a, &s), FDT_OK);
    CHECK(a == 0x10 && s == 0x20);
    CHECK_EQ_INT(fdt_reg(&f, fdt_path(&f, "/dev"), 1, &a, &s), FDT_OK);
    CHECK(a == 0x100000000ull && s == 0x30);
    CHECK_EQ_INT(fdt_reg(&f, fdt_path(&f, "/pci/fn@0"), 0, &a, &s), FDT_ERR_BADSTRUCT);
    CHECK_EQ_INT(fdt_address_cells(&f, fdt_path(&f, "/weird")), FDT_ERR_BADSTRUCT);
    CHECK_EQ_INT(fdt_size_cells(&f, fdt_path(&f, "/weird")), 3);
    CHECK_EQ_INT(fdt_reg(&f, fdt_path(&f, "/weird/x"), 0, &a, &s), FDT_ERR_BADSTRUCT);
    CHECK_EQ_INT(fdt_memreserve(&f, 0, &a, &s), FDT_ERR_NOTFOUND); /* empty map */
    free(b.p);
    free(w);
}

TEST(memreserve_entries)
{
    struct board bd = board_open();
    uint64_t a = 0, s = 0;

    CHECK_EQ_INT(fdt_memreserve(&bd.f, 0, &a, &s), FDT_OK);
    CHECK(a == 0x48000000 && s == 0x100000);
    CHECK_EQ_INT(fdt_memreserve(&bd.f, 1, &a, &s), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_memreserve(&bd.f, -1, &a, &s), FDT_ERR_NOTFOUND);
    free(bd.b.p);

    struct writer *w = malloc(sizeof(*w));
    struct blob b;
    struct fdt f;
    w_init(w);
    memreserve(w, 0x1000, 0x2000);
    memreserve(w, 0, 0x10); /* address 0 is a real entry; only (0, 0) ends the map */
    memreserve(w, 0xfffff00000000000ull, 0x1000);
    begin_node(w, "");
    end_node(w);
    b = finish(w);
    CHECK_EQ_INT(fdt_init(&f, b.p, b.len), FDT_OK);
    CHECK_EQ_INT(fdt_memreserve(&f, 1, &a, &s), FDT_OK);
    CHECK(a == 0 && s == 0x10);
    CHECK_EQ_INT(fdt_memreserve(&f, 2, &a, &s), FDT_OK);
    CHECK(a == 0xfffff00000000000ull && s == 0x1000);
    CHECK_EQ_INT(fdt_memreserve(&f, 3, &a, &s), FDT_ERR_NOTFOUND);
    free(b.p);
    free(w);
}

TEST(nop_tokens_are_skipped)
{
    struct writer *w = malloc(sizeof(*w));
    struct blob b;
    struct fdt f;
    int root, a, c, p;
    const char *name;

    w_init(w);
    w_u32(w, TOK_NOP);
    begin_node(w, "");
    w_u32(w, TOK_NOP);
    prop_str(w, "p1", "v1");
    w_u32(w, TOK_NOP);
    prop_str(w, "p2", "v2");
    w_u32(w, TOK_NOP);
    begin_node(w, "a");
    w_u32(w, TOK_NOP);
    end_node(w);
    w_u32(w, TOK_NOP);
    begin_node(w, "c@1");
    end_node(w);
    w_u32(w, TOK_NOP);
    end_node(w);
    w_u32(w, TOK_NOP);
    b = finish(w);
    CHECK_EQ_INT(fdt_init(&f, b.p, b.len), FDT_OK);
    root = fdt_root(&f);
    CHECK_EQ_INT(root, 4);
    a = fdt_first_child(&f, root);
    CHECK_EQ_STR(name_of(&f, a), "a");
    c = fdt_next_sibling(&f, a);
    CHECK_EQ_STR(name_of(&f, c), "c@1");
    CHECK_EQ_INT(fdt_next_sibling(&f, c), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_next_node(&f, root), a);
    CHECK_EQ_INT(fdt_next_node(&f, a), c);
    CHECK_EQ_INT(fdt_next_node(&f, c), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_parent(&f, c), root);
    CHECK_EQ_INT(fdt_path(&f, "/c"), c);
    p = fdt_first_prop(&f, root);
    CHECK(fdt_prop_at(&f, p, &name, NULL) != NULL);
    CHECK_EQ_STR(name, "p1");
    p = fdt_next_prop(&f, p);
    CHECK(fdt_prop_at(&f, p, &name, NULL) != NULL);
    CHECK_EQ_STR(name, "p2");
    CHECK_EQ_INT(fdt_next_prop(&f, p), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_first_prop(&f, a), FDT_ERR_NOTFOUND);
    free(b.p);
    free(w);
}

TEST(bad_offsets_are_refused)
{
    struct board bd = board_open();
    const struct fdt *f = &bd.f;
    static const int bad[] = {-1, -4, 1, 2, 3, 0x7ffffffc, 1 << 30};
    uint64_t a, s;
    uint32_t len;

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        int n = bad[i];
        CHECK(fdt_node_name(f, n) == NULL);
        CHECK_EQ_INT(fdt_first_child(f, n), FDT_ERR_NOTFOUND);
        CHECK_EQ_INT(fdt_next_sibling(f, n), FDT_ERR_NOTFOUND);
        CHECK_EQ_INT(fdt_parent(f, n), FDT_ERR_NOTFOUND);
        CHECK_EQ_INT(fdt_first_prop(f, n), FDT_ERR_NOTFOUND);
        CHECK_EQ_INT(fdt_next_prop(f, n), FDT_ERR_NOTFOUND);
        CHECK(fdt_prop_at(f, n, NULL, &len) == NULL);
        CHECK(fdt_prop(f, n, "reg", &len) == NULL);
        CHECK_EQ_INT(fdt_reg(f, n, 0, &a, &s), FDT_ERR_NOTFOUND);
        if (n != -1)
            CHECK_EQ_INT(fdt_next_node(f, n), FDT_ERR_NOTFOUND);
    }
    /* a property offset is not a node, and a node offset is not a property */
    int p = fdt_first_prop(f, fdt_root(f));
    CHECK(fdt_node_name(f, p) == NULL);
    CHECK_EQ_INT(fdt_next_node(f, p), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_next_prop(f, fdt_root(f)), FDT_ERR_NOTFOUND);
    free(bd.b.p);

    /* a failed fdt_init leaves a zeroed struct that every accessor refuses */
    struct fdt z;
    uint8_t junk[64] = {0};
    CHECK_EQ_INT(fdt_init(&z, junk, sizeof(junk)), FDT_ERR_BADMAGIC);
    CHECK(z.blob == NULL && z.size == 0);
    CHECK_EQ_INT(fdt_root(&z), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_next_node(&z, -1), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_path(&z, "/"), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_path(&z, "serial0"), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_memreserve(&z, 0, &a, &s), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_find_compatible(&z, -1, "x"), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_node_by_phandle(&z, 1), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_header_size(junk), 0);
}

TEST(blocks_in_another_order)
{
    /* header, strings block, structure block, reservation map last: any order is legal (5.1) */
    struct blob b = board_blob();
    uint32_t st = hdr(&b, H_OFF_STRUCT), st_len = hdr(&b, H_SIZE_STRUCT);
    uint32_t strs = hdr(&b, H_OFF_STRINGS), strs_len = hdr(&b, H_SIZE_STRINGS);
    uint32_t rsv_len = st - 40, new_st = (40 + strs_len + 3) & ~3u;
    uint32_t new_rsv = (new_st + st_len + 7) & ~7u;
    struct blob m = {calloc(1, new_rsv + rsv_len), new_rsv + rsv_len};
    struct fdt f;
    uint64_t a, s;

    memcpy(m.p, b.p, 40);
    memcpy(m.p + 40, b.p + strs, strs_len);
    memcpy(m.p + new_st, b.p + st, st_len);
    memcpy(m.p + new_rsv, b.p + 40, rsv_len);
    set_hdr(&m, H_TOTAL, m.len);
    set_hdr(&m, H_OFF_STRINGS, 40);
    set_hdr(&m, H_OFF_STRUCT, new_st);
    set_hdr(&m, H_OFF_RSV, new_rsv);
    CHECK_EQ_INT(fdt_init(&f, m.p, m.len), FDT_OK);
    CHECK_EQ_STR(name_of(&f, fdt_path(&f, "serial0")), "pl011@9000000");
    CHECK_EQ_INT(fdt_memreserve(&f, 0, &a, &s), FDT_OK);
    CHECK(a == 0x48000000 && s == 0x100000);
    CHECK_EQ_INT(fdt_memreserve(&f, 1, &a, &s), FDT_ERR_NOTFOUND);
    walk_everything(&f);
    free(m.p);
    free(b.p);
}

/* ---- Malformed blobs: header and layout ---- */

TEST(reject_truncated)
{
    struct blob b = board_blob();

    CHECK_EQ_INT(init_copy(&b, b.len - 1), FDT_ERR_TRUNCATED);
    CHECK_EQ_INT(init_copy(&b, b.len / 2), FDT_ERR_TRUNCATED);
    CHECK_EQ_INT(init_copy(&b, 40), FDT_ERR_TRUNCATED);
    CHECK_EQ_INT(init_copy(&b, 39), FDT_ERR_TRUNCATED);
    CHECK_EQ_INT(init_copy(&b, 4), FDT_ERR_TRUNCATED);
    CHECK_EQ_INT(init_copy(&b, 0), FDT_ERR_TRUNCATED);
    struct fdt f;
    CHECK_EQ_INT(fdt_init(&f, NULL, 100), FDT_ERR_TRUNCATED);
    set_hdr(&b, H_TOTAL, 0xffffffffu);
    CHECK_EQ_INT(init_blob(&b), FDT_ERR_TRUNCATED);
    free(b.p);
}

TEST(reject_bad_magic)
{
    struct blob b = board_blob();

    b.p[0] ^= 0x01;
    CHECK_EQ_INT(init_blob(&b), FDT_ERR_BADMAGIC);
    CHECK_EQ_INT(fdt_header_size(b.p), 0);
    set_hdr(&b, H_MAGIC, 0xedfe0dd0u); /* little-endian magic */
    CHECK_EQ_INT(init_blob(&b), FDT_ERR_BADMAGIC);
    free(b.p);
}

TEST(reject_bad_version)
{
    struct blob b = board_blob();

    set_hdr(&b, H_VERSION, 15);
    CHECK_EQ_INT(init_blob(&b), FDT_ERR_BADVERSION);
    set_hdr(&b, H_VERSION, 17);
    set_hdr(&b, H_LAST_COMP, 18);
    CHECK_EQ_INT(init_blob(&b), FDT_ERR_BADVERSION);
    set_hdr(&b, H_VERSION, 18); /* newer but backwards compatible: fine */
    set_hdr(&b, H_LAST_COMP, 16);
    CHECK_EQ_INT(init_blob(&b), FDT_OK);
    free(b.p);
}

TEST(reject_struct_overlapping_strings)
{
    struct blob b = board_blob();

    set_hdr(&b, H_OFF_STRINGS, hdr(&b, H_OFF_STRUCT) + 4);
    CHECK_EQ_INT(init_blob(&b), FDT_ERR_BADLAYOUT);
    free(b.p);
    b = board_blob(); /* struct block claims the first byte of the strings block */
    set_hdr(&b, H_SIZE_STRUCT, hdr(&b, H_SIZE_STRUCT) + 1);
    CHECK_EQ_INT(init_blob(&b), FDT_ERR_BADLAYOUT);
    free(b.p);
    b = board_blob(); /* strings block in the header */
    set_hdr(&b, H_OFF_STRINGS, 8);
    CHECK_EQ_INT(init_blob(&b), FDT_ERR_BADLAYOUT);
    free(b.p);
}

TEST(reject_rsvmap_overlapping_struct)
{
    struct blob b = board_blob();

    /* reservation map pointing at the structure block itself */
    set_hdr(&b, H_OFF_RSV, hdr(&b, H_OFF_STRUCT));
    CHECK_EQ_INT(init_blob(&b), FDT_ERR_BADLAYOUT);
    free(b.p);
    /* no terminating (0, 0) entry: the map runs into the structure block */
    b = board_blob();
    b.p[40 + 16 + 15] = 1;
    CHECK_EQ_INT(init_blob(&b), FDT_ERR_BADLAYOUT);
    free(b.p);
    /* reservation map in the header */
    b = board_blob();
    set_hdr(&b, H_OFF_RSV, 24);
    CHECK_EQ_INT(init_blob(&b), FDT_ERR_BADLAYOUT);
    free(b.p);
    /* structure block overlapping the map from below is caught too */
    b = board_blob();
    set_hdr(&b, H_OFF_STRUCT, 48);
    CHECK_EQ_INT(init_blob(&b), FDT_ERR_BADLAYOUT);
    free(b.p);
}

TEST(reject_offsets_past_end)
{
    struct blob b = board_blob();
    uint32_t total = b.len;

    set_hdr(&b, H_OFF_STRUCT, total + 8);
    CHECK_EQ_INT(init_blob(&b), FDT_ERR_BADLAYOUT);
    set_hdr(&b, H_OFF_STRUCT, 0xfffffff0u); /* off + size wraps around */
    CHECK_EQ_INT(init_blob(&b), FDT_ERR_BADLAYOUT);
    free(b.p);
    b = board_blob();
    set_hdr(&b, H_SIZE_STRINGS, hdr(&b, H_SIZE_STRINGS) + 1);
    CHECK_EQ_INT(init_blob(&b), FDT_ERR_BADLAYOUT);
    set_hdr(&b, H_SIZE_STRINGS, 0xffffffffu);
    CHECK_EQ_INT(init_blob(&b), FDT_ERR_BADLAYOUT);
    free(b.p);
    b = board_blob();
    set_hdr(&b, H_OFF_STRINGS, total + 1);
    CHECK_EQ_INT(init_blob(&b), FDT_ERR_BADLAYOUT);
    free(b.p);
    b = board_blob();
    set_hdr(&b, H_SIZE_STRUCT, 0xfffffffcu);
    CHECK_EQ_INT(init_blob(&b), FDT_ERR_BADLAYOUT);
    free(b.p);
    b = board_blob();
    set_hdr(&b, H_OFF_RSV, total);
    CHECK_EQ_INT(init_blob(&b), FDT_ERR_BADLAYOUT);
    set_hdr(&b, H_OFF_RSV, 0xfffffff8u);
    CHECK_EQ_INT(init_blob(&b), FDT_ERR_BADLAYOUT);
    free(b.p);
    b = board_blob(); /* totalsize smaller than the header */
    set_hdr(&b, H_TOTAL, 36);
    CHECK_EQ_INT(init_blob(&b), FDT_ERR_BADLAYOUT);
    free(b.p);
}

TEST(reject_misaligned_blocks)
{
    struct blob b = board_blob();
    uint32_t st = hdr(&b, H_OFF_STRUCT);

    /* shift the structure block by 1..3 bytes (and keep it otherwise intact) */
    for (uint32_t d = 1; d < 4; d++) {
        struct blob m = {calloc(1, b.len + 4), b.len + 4};
        memcpy(m.p, b.p, st);
        memcpy(m.p + st + d, b.p + st, b.len - st);
        set_hdr(&m, H_TOTAL, m.len);
        set_hdr(&m, H_OFF_STRUCT, st + d);
        set_hdr(&m, H_OFF_STRINGS, hdr(&b, H_OFF_STRINGS) + d);
        CHECK_EQ_INT(init_blob(&m), FDT_ERR_BADLAYOUT);
        free(m.p);
    }
    set_hdr(&b, H_OFF_RSV, 44); /* reservation map must be 8-byte aligned */
    CHECK_EQ_INT(init_blob(&b), FDT_ERR_BADLAYOUT);
    free(b.p);
}

/* ---- Malformed blobs: structure and strings ---- */

/* fdt_init on a blob built from a writer filled by `fill`. */
static int init_written(void (*fill)(struct writer *), bool add_end)
{
    struct writer *w = malloc(sizeof(*w));
    struct blob b;
    int err;

    w_init(w);
    fill(w);
    b = add_end ? finish(w) : build(w);
    err = init_blob(&b);
    free(b.p);
    free(w);
    return err;
}

static void fill_unterminated_name(struct writer *w)
{
    begin_node(w, "");
    prop_str(w, "model", "m");
    w_u32(w, TOK_BEGIN); /* the last bytes of the block: "abc" without a NUL */
    memcpy(w->st + w->st_len, "abc", 3);
    w->st_len += 3;
}

static void fill_unterminated_root_name(struct writer *w)
{
    w_u32(w, TOK_BEGIN);
    memcpy(w->st + w->st_len, "root", 4);
    w->st_len += 4;
}

TEST(reject_unterminated_node_name)
{
    CHECK_EQ_INT(init_written(fill_unterminated_name, false), FDT_ERR_BADSTRING);
    CHECK_EQ_INT(init_written(fill_unterminated_root_name, false), FDT_ERR_BADSTRING);
}

static void fill_unterminated_string(struct writer *w)
{
    begin_node(w, "");
    prop_str(w, "model", "x");
    prop_str(w, "compatible", "y");
    end_node(w);
    w->str_len--; /* drop the NUL of "compatible", the last string */
}

TEST(reject_unterminated_string)
{
    CHECK_EQ_INT(init_written(fill_unterminated_string, true), FDT_ERR_BADSTRING);
}

static void fill_nameoff_past_strings(struct writer *w)
{
    begin_node(w, "");
    w_u32(w, TOK_PROP);
    w_u32(w, 0);
    w_u32(w, 1000);
    end_node(w);
    w_string(w, "pad");
}

static void fill_nameoff_at_strings_end(struct writer *w)
{
    begin_node(w, "");
    w_u32(w, TOK_PROP);
    w_u32(w, 0);
    w_u32(w, 4); /* == size of the strings block "pad\0" */
    end_node(w);
    w_string(w, "pad");
}

static void fill_nameoff_huge(struct writer *w)
{
    begin_node(w, "");
    w_u32(w, TOK_PROP);
    w_u32(w, 0);
    w_u32(w, 0xfffffffcu);
    end_node(w);
}

TEST(reject_nameoff_past_strings)
{
    CHECK_EQ_INT(init_written(fill_nameoff_past_strings, true), FDT_ERR_BADSTRING);
    CHECK_EQ_INT(init_written(fill_nameoff_at_strings_end, true), FDT_ERR_BADSTRING);
    CHECK_EQ_INT(init_written(fill_nameoff_huge, true), FDT_ERR_BADSTRING);
}

static void fill_prop_len_past_struct(struct writer *w)
{
    begin_node(w, "");
    w_u32(w, TOK_PROP);
    w_u32(w, 9); /* only 8 bytes follow the property header: END_NODE, END */
    w_u32(w, w_string(w, "p"));
    end_node(w);
}

static void fill_prop_len_huge(struct writer *w)
{
    begin_node(w, "");
    w_u32(w, TOK_PROP);
    w_u32(w, 0xfffffffdu);
    w_u32(w, w_string(w, "p"));
    end_node(w);
}

static void fill_prop_header_cut(struct writer *w)
{
    begin_node(w, "");
    w_u32(w, TOK_PROP);
    w_u32(w, 0);
}

TEST(reject_prop_len_past_struct)
{
    CHECK_EQ_INT(init_written(fill_prop_len_past_struct, true), FDT_ERR_BADSTRUCT);
    CHECK_EQ_INT(init_written(fill_prop_len_huge, true), FDT_ERR_BADSTRUCT);
    CHECK_EQ_INT(init_written(fill_prop_header_cut, false), FDT_ERR_BADSTRUCT);
}

static void fill_extra_end_node(struct writer *w)
{
    begin_node(w, "");
    end_node(w);
    end_node(w);
}

static void fill_missing_end_node(struct writer *w)
{
    begin_node(w, "");
    begin_node(w, "a");
    end_node(w);
}

static void fill_end_node_first(struct writer *w)
{
    end_node(w);
    begin_node(w, "");
}

TEST(reject_unbalanced_end_node)
{
    CHECK_EQ_INT(init_written(fill_extra_end_node, true), FDT_ERR_BADSTRUCT);
    CHECK_EQ_INT(init_written(fill_missing_end_node, true), FDT_ERR_BADSTRUCT);
    CHECK_EQ_INT(init_written(fill_end_node_first, true), FDT_ERR_BADSTRUCT);
}

static void fill_complete_tree(struct writer *w)
{
    begin_node(w, "");
    prop_str(w, "model", "m");
    begin_node(w, "a");
    end_node(w);
    end_node(w);
}

static void fill_end_then_more(struct writer *w)
{
    fill_complete_tree(w);
    w_u32(w, TOK_END);
    w_u32(w, TOK_NOP);
}

static void fill_two_ends(struct writer *w)
{
    fill_complete_tree(w);
    w_u32(w, TOK_END);
}

static void fill_empty(struct writer *w)
{
    (void)w;
}

TEST(reject_missing_end)
{
    CHECK_EQ_INT(init_written(fill_complete_tree, true), FDT_OK); /* the control */
    CHECK_EQ_INT(init_written(fill_complete_tree, false), FDT_ERR_BADSTRUCT);
    CHECK_EQ_INT(init_written(fill_end_then_more, false), FDT_ERR_BADSTRUCT);
    CHECK_EQ_INT(init_written(fill_two_ends, true), FDT_ERR_BADSTRUCT);
    CHECK_EQ_INT(init_written(fill_empty, false), FDT_ERR_BADSTRUCT);
    CHECK_EQ_INT(init_written(fill_empty, true), FDT_ERR_BADSTRUCT); /* no root at all */
}

static void fill_two_roots(struct writer *w)
{
    begin_node(w, "");
    end_node(w);
    begin_node(w, "");
    end_node(w);
}

TEST(reject_two_roots)
{
    CHECK_EQ_INT(init_written(fill_two_roots, true), FDT_ERR_BADSTRUCT);
}

static int nest_levels;

static void fill_nested(struct writer *w)
{
    begin_node(w, "");
    for (int i = 1; i < nest_levels; i++)
        begin_node(w, "n");
    for (int i = 0; i < nest_levels; i++)
        end_node(w);
}

TEST(reject_excessive_depth)
{
    nest_levels = 64; /* the root plus 63 levels below it is the limit */
    CHECK_EQ_INT(init_written(fill_nested, true), FDT_OK);
    nest_levels = 65;
    CHECK_EQ_INT(init_written(fill_nested, true), FDT_ERR_BADSTRUCT);
    nest_levels = 500;
    CHECK_EQ_INT(init_written(fill_nested, true), FDT_ERR_BADSTRUCT);
}

static uint32_t unknown_token;

static void fill_unknown_token(struct writer *w)
{
    begin_node(w, "");
    w_u32(w, unknown_token);
    end_node(w);
}

TEST(reject_unknown_token)
{
    static const uint32_t toks[] = {0, 5, 6, 7, 8, 10, 0x01000000, 0xffffffffu};

    for (size_t i = 0; i < sizeof(toks) / sizeof(toks[0]); i++) {
        unknown_token = toks[i];
        CHECK_EQ_INT(init_written(fill_unknown_token, true), FDT_ERR_BADSTRUCT);
    }
    unknown_token = TOK_NOP; /* the control */
    CHECK_EQ_INT(init_written(fill_unknown_token, true), FDT_OK);
}

static void fill_prop_after_subnode(struct writer *w)
{
    begin_node(w, "");
    begin_node(w, "a");
    end_node(w);
    prop_str(w, "late", "x");
    end_node(w);
}

static void fill_prop_outside_root(struct writer *w)
{
    prop_str(w, "early", "x");
    begin_node(w, "");
    end_node(w);
}

static void fill_prop_after_root(struct writer *w)
{
    begin_node(w, "");
    end_node(w);
    prop_str(w, "late", "x");
}

TEST(reject_misplaced_properties)
{
    /* Decision: a property after a subnode (5.4.2 order) is rejected. */
    CHECK_EQ_INT(init_written(fill_prop_after_subnode, true), FDT_ERR_BADSTRUCT);
    CHECK_EQ_INT(init_written(fill_prop_outside_root, true), FDT_ERR_BADSTRUCT);
    CHECK_EQ_INT(init_written(fill_prop_after_root, true), FDT_ERR_BADSTRUCT);
}

/* ---- Mutation test ---- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

/* Touch everything the accessors hand out, checking invariants of a valid tree. */
static void walk_everything(const struct fdt *f)
{
    static const char *const paths[] = {"/", "/chosen", "/memory", "/cpus/cpu@2", "/cpus/cpu",
                                        "serial0", "serial0:115200n8", "secmon", "bad",
                                        "/reserved-memory/secmon", "/a/b/c", "nope", ""};
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
        for (int i = 0; i < 3; i++)
            if (fdt_reg(f, n, i, &a, &s) == FDT_OK)
                sum += (unsigned)(a + s);
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
    for (int i = 0; fdt_memreserve(f, i, &a, &s) == FDT_OK && i < 10000; i++)
        sum += (unsigned)a;
}

static void mutate(uint8_t *p, uint32_t len, uint32_t hot_start)
{
    static const uint32_t words[] = {0, 1, 2, 3, 4, 9, 0xffffffffu, 0x7fffffffu, 0x80000000u,
                                     0xfffffffcu, 40, 64};
    int n = 1 + (int)(rnd() % 4);

    for (int k = 0; k < n; k++) {
        /* mostly aim at the structure and strings blocks; header hits are mostly rejected */
        uint32_t off = rnd() % 4 ? hot_start + rnd() % (len - hot_start) : rnd() % len;
        switch (rnd() % 4) {
        case 0: p[off] ^= (uint8_t)(1u << (rnd() % 8)); break;
        case 1: p[off] = (uint8_t)rnd(); break;
        case 2: p[off] = 0; break;
        default:
            off &= ~3u;
            if (off + 4 <= len)
                put32(p + off, words[rnd() % (sizeof(words) / sizeof(words[0]))]);
        }
    }
}

TEST(mutation_fuzz)
{
    struct blob b = board_blob();
    uint8_t *work = malloc(b.len);
    int accepted = 0, rejected = 0;

    for (int iter = 0; iter < 20000; iter++) {
        uint32_t max = b.len;
        struct fdt f;
        uint8_t *copy;

        memcpy(work, b.p, b.len);
        if (iter % 8 != 7)
            mutate(work, b.len, 40);
        if (iter % 4 == 3) { /* truncate, sometimes also shrinking totalsize to match */
            max = rnd() % (b.len + 1);
            if (rnd() % 2 && max >= 8)
                put32(work + H_TOTAL, max);
        }
        copy = malloc(max ? max : 1);
        memcpy(copy, work, max);
        if (fdt_init(&f, copy, max) == FDT_OK) {
            accepted++;
            walk_everything(&f);
        } else {
            rejected++;
        }
        free(copy);
    }
    printf("    # mutation: %d accepted and walked, %d rejected\n", accepted, rejected);
    CHECK(accepted > 1000);
    CHECK(rejected > 1000);
    free(work);
    free(b.p);
}

RUN_TESTS("fdt",
          CASE(byte_order_helpers),
          CASE(init_valid_board),
          CASE(init_unaligned_blob),
          CASE(strerror_names),
          CASE(navigation),
          CASE(paths_and_aliases),
          CASE(properties),
          CASE(compatible_and_status),
          CASE(reg_and_cells),
          CASE(reg_default_and_unsupported_cells),
          CASE(memreserve_entries),
          CASE(nop_tokens_are_skipped),
          CASE(bad_offsets_are_refused),
          CASE(blocks_in_another_order),
          CASE(reject_truncated),
          CASE(reject_bad_magic),
          CASE(reject_bad_version),
          CASE(reject_struct_overlapping_strings),
          CASE(reject_rsvmap_overlapping_struct),
          CASE(reject_offsets_past_end),
          CASE(reject_misaligned_blocks),
          CASE(reject_unterminated_node_name),
          CASE(reject_unterminated_string),
          CASE(reject_nameoff_past_strings),
          CASE(reject_prop_len_past_struct),
          CASE(reject_unbalanced_end_node),
          CASE(reject_missing_end),
          CASE(reject_two_roots),
          CASE(reject_excessive_depth),
          CASE(reject_unknown_token),
          CASE(reject_misplaced_properties),
          CASE(mutation_fuzz))
