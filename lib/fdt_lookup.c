/* SPDX-License-Identifier: MIT */
/*
 * lib/fdt_lookup.c - what a kernel asks of a devicetree beyond reading it
 * (lib/fdt.c): a node's registers as CPU physical addresses, translated
 * through every bus's "ranges" (Devicetree Specification v0.4, 2.3.8), and
 * the first lookups of a boot: the console (/chosen/stdout-path), a node's
 * interrupt parent and how a CPU is started. Built only on lib/fdt.h's
 * accessors, so every read stays bounds-checked.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/fdt.h"

/* ---- Address translation through "ranges" (2.3.8) ---- */

/* Cell counts that fit a 64-bit number: addresses 1 or 2 cells, sizes 0 to 2. */
static bool cells_readable(int ac, int sc)
{
    return ac >= 1 && ac <= 2 && sc >= 0 && sc <= 2;
}

/* [addr, addr + size) inside [base, base + len), computed without overflow. */
static bool window_holds(uint64_t base, uint64_t len, uint64_t addr, uint64_t size)
{
    uint64_t off = addr - base;
    return addr >= base && off < len && size <= len - off;
}

/*
 * One step up (2.3.8): `bus` has the address in its children's address
 * space; rewrite it into the space of bus's parent. Each "ranges" entry is
 * (child-bus-address: bus's #address-cells, parent-bus-address: the
 * parent's #address-cells, length: bus's #size-cells). An empty "ranges"
 * maps 1:1; no "ranges" at all means the children are not memory mapped.
 */
static int translate_one(const struct fdt *f, int bus, uint64_t *addr, uint64_t size)
{
    int parent = fdt_parent(f, bus);
    int cac = fdt_address_cells(f, bus), csc = fdt_size_cells(f, bus);
    int pac = fdt_address_cells(f, parent);
    uint32_t len, entry;
    const uint8_t *r = fdt_prop(f, bus, "ranges", &len);

    if (r == NULL)
        return FDT_ERR_NORANGES;
    if (len == 0)
        return FDT_OK;
    if (!cells_readable(cac, csc) || !cells_readable(pac, 0) || csc == 0)
        return FDT_ERR_BADSTRUCT;
    entry = 4u * (uint32_t)(cac + pac + csc);
    for (; len >= entry; len -= entry, r += entry) {
        uint64_t child = fdt_read_cells(r, cac), par = fdt_read_cells(r + 4 * cac, pac);
        if (window_holds(child, fdt_read_cells(r + 4 * (cac + pac), csc), *addr, size)) {
            *addr = par + (*addr - child);
            return FDT_OK;
        }
    }
    return FDT_ERR_UNMAPPED;
}

static int failed_at(int *where, int node, int err)
{
    if (where)
        *where = node;
    return err;
}

int fdt_reg_cpu(const struct fdt *f, int node, int index, uint64_t *addr, uint64_t *size,
                int *where)
{
    uint64_t a, s;
    int err = fdt_reg(f, node, index, &a, &s), root = fdt_root(f);

    if (err != FDT_OK)
        return failed_at(where, node, err);
    for (int bus = fdt_parent(f, node); bus != root; bus = fdt_parent(f, bus)) {
        err = bus < 0 ? FDT_ERR_NOTFOUND : translate_one(f, bus, &a, s);
        if (err != FDT_OK)
            return failed_at(where, bus, err);
    }
    if (addr)
        *addr = a;
    if (size)
        *size = s;
    return FDT_OK;
}

/* ---- What a kernel looks up first: console, interrupt parent, CPU start ---- */

int fdt_stdout_node(const struct fdt *f, int *where)
{
    uint32_t len;
    int chosen = fdt_path(f, "/chosen"), node;
    const char *path = chosen >= 0 ? fdt_prop(f, chosen, "stdout-path", &len) : NULL;

    /* The property must be a terminated string for fdt_path() to read it. */
    if (path == NULL || len == 0 || path[len - 1] != '\0')
        return failed_at(where, chosen >= 0 ? chosen : fdt_root(f), FDT_ERR_NOTFOUND);
    node = fdt_path(f, path);
    return node >= 0 ? node : failed_at(where, chosen, FDT_ERR_NOTFOUND);
}

int fdt_interrupt_parent(const struct fdt *f, int node)
{
    uint32_t phandle;

    for (; node >= 0; node = fdt_parent(f, node))
        if (fdt_prop_u32(f, node, "interrupt-parent", &phandle))
            return fdt_node_by_phandle(f, phandle);
    return FDT_ERR_NOTFOUND;
}

/* "cpu-release-addr" is 64 bits, written as two cells (3.8.1); one is accepted. */
static int release_addr(const struct fdt *f, int cpu, uint64_t *out)
{
    uint32_t len;
    const void *v = fdt_prop(f, cpu, "cpu-release-addr", &len);

    if (v == NULL || (len != 4 && len != 8))
        return FDT_ERR_NORELEASE;
    if (out)
        *out = fdt_read_cells(v, (int)(len / 4));
    return FDT_CPU_SPIN_TABLE;
}

int fdt_cpu_enable_method(const struct fdt *f, int cpu, uint64_t *release)
{
    uint32_t len;
    const char *m = fdt_prop(f, cpu, "enable-method", &len);

    if (m == NULL)
        m = fdt_prop(f, fdt_parent(f, cpu), "enable-method", &len);
    if (m == NULL || len == 0)
        return FDT_ERR_NOTFOUND;
    if (fdt_stringlist_contains(m, len, "psci"))
        return FDT_CPU_PSCI;
    if (fdt_stringlist_contains(m, len, "spin-table"))
        return release_addr(f, cpu, release);
    return FDT_CPU_OTHER;
}
