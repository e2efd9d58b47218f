/* SPDX-License-Identifier: MIT */
/*
 * tests/host/test_fdt_ranges.c - host unit tests for fdt_reg_cpu(): "reg"
 * translated through the "ranges" of every bus between a node and the root
 * (Devicetree Specification v0.4, 2.3.8).
 *
 * Each tree is built by hand with fdt_writer.h, shaped like the boards the
 * kernel meets: buses mapped 1:1 ("ranges;", QEMU virt), a bus whose
 * addresses are offset (the Raspberry Pis' /soc, 0x7e000000 seen by the CPU
 * at 0x3f000000 or 0xfe000000), two buses deep, 2-cell bus addresses, and
 * the two errors: a bus with no "ranges" and an address no entry covers.
 */
#include "tests/host/fdt_writer.h"

struct tree {
    struct blob b;
    struct fdt f;
};

static struct tree open_tree(struct writer *w)
{
    struct tree t;
    t.b = finish(w);
    free(w);
    if (fdt_init(&t.f, t.b.p, t.b.len) != FDT_OK) {
        printf("    # test tree rejected by fdt_init\n");
        exit(1);
    }
    return t;
}

/* A root with the given cell counts, left open for the test's nodes. */
static struct writer *root_with(uint32_t address_cells, uint32_t size_cells)
{
    struct writer *w = malloc(sizeof(*w));
    w_init(w);
    begin_node(w, "");
    prop_cells(w, "#address-cells", 1, address_cells);
    prop_cells(w, "#size-cells", 1, size_cells);
    return w;
}

static void bus_cells(struct writer *w, uint32_t address_cells, uint32_t size_cells)
{
    prop_cells(w, "#address-cells", 1, address_cells);
    prop_cells(w, "#size-cells", 1, size_cells);
}

/* A node with only a reg of n cells. */
#define leaf(w, name, n, ...)                                                                      \
    do {                                                                                           \
        begin_node(w, name);                                                                       \
        prop_cells(w, "reg", n, __VA_ARGS__);                                                      \
        end_node(w);                                                                               \
    } while (0)

static uint64_t cpu_addr(const struct tree *t, const char *path, int index, int *err)
{
    uint64_t a = ~0ull, s = ~0ull;
    *err = fdt_reg_cpu(&t->f, fdt_path(&t->f, path), index, &a, &s, NULL);
    return a;
}

/* Returns the name of the node fdt_reg_cpu blamed. */
static const char *failing_node(const struct tree *t, const char *path, int *err)
{
    int where = -1;
    *err = fdt_reg_cpu(&t->f, fdt_path(&t->f, path), 0, NULL, NULL, &where);
    return where >= 0 ? fdt_node_name(&t->f, where) : "(none)";
}

/* ---- Tests ---- */

TEST(root_children_are_not_translated)
{
    struct writer *w = root_with(2, 2);
    int err;
    leaf(w, "pl011@9000000", 4, 0, 0x9000000, 0, 0x1000);
    end_node(w);
    struct tree t = open_tree(w);
    CHECK(cpu_addr(&t, "/pl011@9000000", 0, &err) == 0x9000000);
    CHECK_EQ_INT(err, FDT_OK);
    free(t.b.p);
}

TEST(empty_ranges_is_identity)
{
    struct writer *w = root_with(2, 2);
    begin_node(w, "soc");
    bus_cells(w, 1, 1);
    prop(w, "ranges", "", 0);
    leaf(w, "uart@10000000", 2, 0x10000000, 0x100);
    end_node(w);
    end_node(w);
    struct tree t = open_tree(w);
    uint64_t a = 0, s = 0;
    CHECK_EQ_INT(fdt_reg_cpu(&t.f, fdt_path(&t.f, "/soc/uart"), 0, &a, &s, NULL), FDT_OK);
    CHECK(a == 0x10000000 && s == 0x100);
    free(t.b.p);
}

/* The Raspberry Pi 3's /soc: ranges = <0x7e000000 0x3f000000 0x1000000>, and
 * its local peripherals' <0x40000000 0x40000000 0x1000>. */
TEST(one_level_offset)
{
    struct writer *w = root_with(1, 1);
    int err;
    begin_node(w, "soc");
    bus_cells(w, 1, 1);
    prop_cells(w, "ranges", 6, 0x7e000000, 0x3f000000, 0x1000000, 0x40000000, 0x40000000, 0x1000);
    leaf(w, "serial@7e201000", 2, 0x7e201000, 0x200);
    leaf(w, "local_intc@40000000", 2, 0x40000000, 0x100);
    leaf(w, "last@7efff000", 2, 0x7efff000, 0x1000);
    end_node(w);
    end_node(w);
    struct tree t = open_tree(w);
    CHECK(cpu_addr(&t, "/soc/serial", 0, &err) == 0x3f201000);
    CHECK_EQ_INT(err, FDT_OK);
    CHECK(cpu_addr(&t, "/soc/local_intc", 0, &err) == 0x40000000);
    CHECK_EQ_INT(err, FDT_OK);
    CHECK(cpu_addr(&t, "/soc/last", 0, &err) == 0x3ffff000); /* ends exactly at the window's end */
    CHECK_EQ_INT(err, FDT_OK);
    free(t.b.p);
}

/* The Raspberry Pi 4's shape: 2-cell root, /soc with three windows (the
 * GIC-400 sits in the third), one of its children a bus of its own. */
TEST(two_levels_and_several_windows)
{
    struct writer *w = root_with(2, 1);
    int err;
    begin_node(w, "soc");
    bus_cells(w, 1, 1);
    prop_cells(w, "ranges", 12, 0x7e000000, 0, 0xfe000000, 0x1800000, 0x7c000000, 0, 0xfc000000,
               0x2000000, 0x40000000, 0, 0xff800000, 0x800000);
    leaf(w, "interrupt-controller@40041000", 8, 0x40041000, 0x1000, 0x40042000, 0x2000, 0x40044000,
         0x2000, 0x40046000, 0x2000);
    begin_node(w, "bus@7e100000");
    bus_cells(w, 1, 1);
    prop_cells(w, "ranges", 3, 0, 0x7e100000, 0x10000);
    leaf(w, "dev@104", 2, 0x104, 0x10);
    end_node(w);
    end_node(w);
    end_node(w);
    struct tree t = open_tree(w);
    CHECK(cpu_addr(&t, "/soc/interrupt-controller", 0, &err) == 0xff841000);
    CHECK_EQ_INT(err, FDT_OK);
    CHECK(cpu_addr(&t, "/soc/interrupt-controller", 1, &err) == 0xff842000);
    CHECK_EQ_INT(err, FDT_OK);
    CHECK(cpu_addr(&t, "/soc/bus/dev", 0, &err) == 0xfe100104);
    CHECK_EQ_INT(err, FDT_OK);
    free(t.b.p);
}

/* 2-cell child addresses and sizes, and a 1-cell bus mapped above 4 GiB. */
TEST(two_cell_bus_addresses)
{
    struct writer *w = root_with(2, 2);
    int err;
    begin_node(w, "wide");
    bus_cells(w, 2, 2);
    prop_cells(w, "ranges", 6, 0x1, 0x0, 0x0, 0x80000000, 0x0, 0x10000000);
    leaf(w, "dev@100001000", 4, 0x1, 0x1000, 0x0, 0x1000);
    leaf(w, "low@1000", 4, 0x0, 0x1000, 0x0, 0x1000);
    end_node(w);
    begin_node(w, "high");
    bus_cells(w, 1, 1);
    prop_cells(w, "ranges", 4, 0x0, 0x6, 0x0, 0x40000000);
    leaf(w, "dev@2000", 2, 0x2000, 0x100);
    end_node(w);
    end_node(w);
    struct tree t = open_tree(w);
    CHECK(cpu_addr(&t, "/wide/dev", 0, &err) == 0x80001000);
    CHECK_EQ_INT(err, FDT_OK);
    cpu_addr(&t, "/wide/low", 0, &err); /* 0x0_00001000: the upper cell must count */
    CHECK_EQ_INT(err, FDT_ERR_UNMAPPED);
    CHECK(cpu_addr(&t, "/high/dev", 0, &err) == 0x600002000ull);
    CHECK_EQ_INT(err, FDT_OK);
    free(t.b.p);
}

TEST(bus_without_ranges_is_an_error)
{
    struct writer *w = root_with(2, 2);
    int err;
    begin_node(w, "i2c@1000");
    bus_cells(w, 1, 0);
    leaf(w, "rtc@68", 1, 0x68);
    end_node(w);
    begin_node(w, "soc");
    bus_cells(w, 1, 1);
    prop(w, "ranges", "", 0);
    begin_node(w, "isolated");
    bus_cells(w, 1, 1);
    leaf(w, "dev@0", 2, 0, 0x10);
    end_node(w);
    end_node(w);
    end_node(w);
    struct tree t = open_tree(w);
    CHECK_EQ_STR(failing_node(&t, "/i2c@1000/rtc", &err), "i2c@1000");
    CHECK_EQ_INT(err, FDT_ERR_NORANGES);
    CHECK_EQ_STR(failing_node(&t, "/soc/isolated/dev", &err), "isolated");
    CHECK_EQ_INT(err, FDT_ERR_NORANGES);
    CHECK_EQ_STR(fdt_strerror(FDT_ERR_NORANGES), "no ranges on a bus");
    free(t.b.p);
}

TEST(address_outside_every_range_is_an_error)
{
    struct writer *w = root_with(1, 1);
    int err;
    begin_node(w, "soc");
    bus_cells(w, 1, 1);
    prop_cells(w, "ranges", 3, 0x7e000000, 0x3f000000, 0x1000000);
    leaf(w, "below@7d000000", 2, 0x7d000000, 0x100);
    leaf(w, "above@7f000000", 2, 0x7f000000, 0x100);
    leaf(w, "straddles@7efff000", 2, 0x7efff000, 0x2000);
    leaf(w, "inside@7e000000", 2, 0x7e000000, 0x100);
    end_node(w);
    end_node(w);
    struct tree t = open_tree(w);
    CHECK_EQ_STR(failing_node(&t, "/soc/below", &err), "soc");
    CHECK_EQ_INT(err, FDT_ERR_UNMAPPED);
    failing_node(&t, "/soc/above", &err);
    CHECK_EQ_INT(err, FDT_ERR_UNMAPPED);
    failing_node(&t, "/soc/straddles", &err);
    CHECK_EQ_INT(err, FDT_ERR_UNMAPPED);
    CHECK(cpu_addr(&t, "/soc/inside", 0, &err) == 0x3f000000);
    CHECK_EQ_INT(err, FDT_OK);
    CHECK_EQ_STR(fdt_strerror(FDT_ERR_UNMAPPED), "address outside the bus ranges");
    free(t.b.p);
}

/* Missing reg, an index past the end, and CPU ids (/cpus is no bus): errors naming the node. */
TEST(reg_errors_name_the_node)
{
    struct writer *w = root_with(1, 1);
    int err;
    begin_node(w, "cpus");
    bus_cells(w, 1, 0);
    leaf(w, "cpu@0", 1, 0);
    end_node(w);
    begin_node(w, "noreg");
    end_node(w);
    end_node(w);
    struct tree t = open_tree(w);
    CHECK_EQ_STR(failing_node(&t, "/noreg", &err), "noreg");
    CHECK_EQ_INT(err, FDT_ERR_NOTFOUND);
    cpu_addr(&t, "/noreg", 1, &err);
    CHECK_EQ_INT(err, FDT_ERR_NOTFOUND);
    CHECK_EQ_STR(failing_node(&t, "/cpus/cpu@0", &err), "cpus");
    CHECK_EQ_INT(err, FDT_ERR_NORANGES);
    free(t.b.p);
}

RUN_TESTS("fdt_ranges", CASE(root_children_are_not_translated), CASE(empty_ranges_is_identity),
          CASE(one_level_offset), CASE(two_levels_and_several_windows),
          CASE(two_cell_bus_addresses), CASE(bus_without_ranges_is_an_error),
          CASE(address_outside_every_range_is_an_error), CASE(reg_errors_name_the_node))
