/* SPDX-License-Identifier: MIT */
/*
 * tests/host/test_fdt.c - host unit tests for lib/fdt.c: valid trees.
 *
 * Blobs are built by the writer in fdt_writer.h, then checked through every
 * accessor: a realistic board tree (also unaligned, as version 16, with its
 * blocks in another order), #address-cells/#size-cells and reg, the
 * memory reservation map, NOP tokens, and offsets the accessors must refuse.
 * Blobs fdt_init() must reject are in test_fdt_malformed.c.
 */
#include "tests/host/fdt_writer.h"

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

/* Every node of the board's tree in document order, the root first. */
static void check_document_order(const struct fdt *f)
{
    static const char *const order[] = {"",
                                        "chosen",
                                        "aliases",
                                        "memory@40000000",
                                        "cpus",
                                        "cpu@0",
                                        "cpu@1",
                                        "cpu@2",
                                        "cpu@3",
                                        "reserved-memory",
                                        "secmon@4e000000",
                                        "pl011@9000000",
                                        "pl011@9040000"};
    int n, i;
    for (i = 0, n = fdt_next_node(f, -1); n >= 0 && i < 20; n = fdt_next_node(f, n), i++)
        if (i < 13)
            CHECK_EQ_STR(name_of(f, n), order[i]);
    CHECK_EQ_INT(i, 13);
    CHECK_EQ_INT(n, FDT_ERR_NOTFOUND);
}

TEST(navigation)
{
    struct board bd = board_open();
    const struct fdt *f = &bd.f;
    int root = fdt_root(f), n, i, cpus, c;

    CHECK_EQ_INT(root, 0);
    CHECK_EQ_STR(name_of(f, root), "");
    CHECK_EQ_INT(fdt_parent(f, root), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_next_sibling(f, root), FDT_ERR_NOTFOUND);
    check_document_order(f);

    /* children of the root, in order */
    static const char *const top[] = {"chosen",          "aliases",       "memory@40000000", "cpus",
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
    CHECK_EQ_INT(fdt_path(f, "serial"), FDT_ERR_NOTFOUND); /* no prefix match */
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

    CHECK(fdt_node_enabled(f, uart));                       /* "ok" */
    CHECK(!fdt_node_enabled(f, uart2));                     /* "disabled" */
    CHECK(fdt_node_enabled(f, fdt_path(f, "/cpus/cpu@0"))); /* absent */
    CHECK(fdt_node_enabled(f, fdt_path(f, "/cpus/cpu@3"))); /* "okay" */
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

RUN_TESTS("fdt", CASE(byte_order_helpers), CASE(init_valid_board), CASE(init_unaligned_blob),
          CASE(strerror_names), CASE(navigation), CASE(paths_and_aliases), CASE(properties),
          CASE(compatible_and_status), CASE(reg_and_cells), CASE(reg_default_and_unsupported_cells),
          CASE(memreserve_entries), CASE(nop_tokens_are_skipped), CASE(bad_offsets_are_refused),
          CASE(blocks_in_another_order))
