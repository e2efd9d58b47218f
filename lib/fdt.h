/* SPDX-License-Identifier: MIT */
/*
 * lib/fdt.h - a small, defensive reader for flattened devicetrees (DTB).
 *
 * Format: Devicetree Specification v0.4, chapter 5 ("Flattened Devicetree
 * (DTB) Format"). fdt_init() validates the whole blob once (header, block
 * layout, every token, every string); after it succeeds the accessors below
 * can walk the tree without further checks failing in surprising ways, and
 * a malformed blob is rejected with an error code, never a crash.
 *
 * Nodes and properties are named by the byte offset of their token inside
 * the structure block. Negative return values are enum fdt_error codes.
 * Freestanding: used by the kernel and by the host unit tests.
 */
#ifndef LIB_FDT_H
#define LIB_FDT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FDT_MAGIC 0xd00dfeedu

enum fdt_error {
    FDT_OK = 0,
    FDT_ERR_TRUNCATED = -1,  /* blob shorter than its header says */
    FDT_ERR_BADMAGIC = -2,   /* not a devicetree */
    FDT_ERR_BADVERSION = -3, /* not compatible with version 16/17 */
    FDT_ERR_BADLAYOUT = -4,  /* blocks out of range, misaligned or overlapping */
    FDT_ERR_BADSTRUCT = -5,  /* bad token, nesting or length in the structure block */
    FDT_ERR_BADSTRING = -6,  /* unterminated name or string, bad name offset */
    FDT_ERR_NOTFOUND = -7,   /* no such node or property */
    FDT_ERR_NORANGES = -8,   /* a bus between the node and the root has no "ranges" */
    FDT_ERR_UNMAPPED = -9,   /* an address lies outside every entry of a bus's "ranges" */
    FDT_ERR_NORELEASE = -10  /* a spin-table CPU without a usable cpu-release-addr */
};

struct fdt {
    const uint8_t *blob;
    uint32_t size;       /* totalsize from the header */
    uint32_t struct_off; /* structure block */
    uint32_t struct_size;
    uint32_t strings_off; /* strings block */
    uint32_t strings_size;
    uint32_t rsvmap_off; /* memory reservation block */
};

/* Validate `blob` (at most max_size bytes readable) and fill *f. */
int fdt_init(struct fdt *f, const void *blob, size_t max_size);
/* Human-readable name of an enum fdt_error. */
const char *fdt_strerror(int err);
/* Total size claimed by a blob's header, or 0 if the magic is wrong. */
uint32_t fdt_header_size(const void *blob);

/* Big-endian loads that work at any alignment. */
uint32_t fdt_be32(const void *p);
uint64_t fdt_be64(const void *p);
/* Read a 1- or 2-cell number (as used in reg, ranges). */
uint64_t fdt_read_cells(const void *p, int cells);

/* Tree navigation: node offsets, or FDT_ERR_NOTFOUND. */
int fdt_root(const struct fdt *f);
int fdt_first_child(const struct fdt *f, int node);
int fdt_next_sibling(const struct fdt *f, int node);
int fdt_parent(const struct fdt *f, int node);
/* Next node after `node` in document order (depth first); -1 starts at the root. */
int fdt_next_node(const struct fdt *f, int node);
const char *fdt_node_name(const struct fdt *f, int node); /* "memory@40000000", "" for root */

/*
 * Look up a node by absolute path ("/cpus/cpu@0"). A path component
 * without '@' also matches a node whose name is that component plus a unit
 * address ("/memory" matches "memory@40000000"). A path that does not start
 * with '/' is an alias from /aliases. Anything after ':' is ignored (as in
 * stdout-path = "serial0:115200n8").
 */
int fdt_path(const struct fdt *f, const char *path);
int fdt_node_by_phandle(const struct fdt *f, uint32_t phandle);

/* Property value by name, with its length; NULL if absent. */
const void *fdt_prop(const struct fdt *f, int node, const char *name, uint32_t *len);
bool fdt_prop_u32(const struct fdt *f, int node, const char *name, uint32_t *out);
/* Property iteration: offsets of FDT_PROP tokens. */
int fdt_first_prop(const struct fdt *f, int node);
int fdt_next_prop(const struct fdt *f, int prop);
const void *fdt_prop_at(const struct fdt *f, int prop, const char **name, uint32_t *len);

/* True if the node's "compatible" string list contains `compat`. */
bool fdt_is_compatible(const struct fdt *f, int node, const char *compat);
/* First node after `after` (-1: from the start) that is compatible and not disabled. */
int fdt_find_compatible(const struct fdt *f, int after, const char *compat);
/* status absent, "okay" or "ok". */
bool fdt_node_enabled(const struct fdt *f, int node);
/* True if a string-list property contains `s`. */
bool fdt_stringlist_contains(const void *prop, uint32_t len, const char *s);

/* The index-th (address, size) pair of "reg", using the parent's cell counts. */
int fdt_reg(const struct fdt *f, int node, int index, uint64_t *addr, uint64_t *size);
/*
 * The index-th "reg" pair translated to a CPU physical address: through the
 * "ranges" of every ancestor bus up to the root (Devicetree Specification
 * v0.4, 2.3.8). Use it for device registers; fdt_reg() gives the raw value
 * (CPU ids under /cpus, which is not a bus). On failure *where (if not
 * NULL) is the node whose reg or ranges could not be used: FDT_ERR_NORANGES
 * (no ranges on that bus), FDT_ERR_UNMAPPED (no entry covers the region),
 * FDT_ERR_BADSTRUCT (cell counts it cannot read) or FDT_ERR_NOTFOUND.
 */
int fdt_reg_cpu(const struct fdt *f, int node, int index, uint64_t *addr, uint64_t *size,
                int *where);
/* #address-cells / #size-cells that apply to children of `node` (defaults 2 and 1). */
int fdt_address_cells(const struct fdt *f, int node);
int fdt_size_cells(const struct fdt *f, int node);

/*
 * The node /chosen's stdout-path names (3.6), through /aliases. Errors:
 * FDT_ERR_NOTFOUND with *where = the root (no /chosen) or /chosen (no
 * stdout-path, or it names no node).
 */
int fdt_stdout_node(const struct fdt *f, int *where);
/* The interrupt parent of `node` (2.4.1): its own or the nearest ancestor's
 * interrupt-parent phandle, resolved; FDT_ERR_NOTFOUND if none resolves. */
int fdt_interrupt_parent(const struct fdt *f, int node);

/* How a CPU node says it is started (Devicetree Specification v0.4, 3.8.1). */
enum fdt_enable_method { FDT_CPU_PSCI = 1, FDT_CPU_SPIN_TABLE = 2, FDT_CPU_OTHER = 3 };
/*
 * The enable-method of /cpus/cpu@N (its own, else /cpus's); for spin-table
 * also its cpu-release-addr in *release_addr. A spin-table CPU without a
 * readable cpu-release-addr (1 or 2 cells) is FDT_ERR_NORELEASE; a CPU
 * without any enable-method is FDT_ERR_NOTFOUND.
 */
int fdt_cpu_enable_method(const struct fdt *f, int cpu, uint64_t *release_addr);

/* The index-th /memreserve/ entry. */
int fdt_memreserve(const struct fdt *f, int index, uint64_t *addr, uint64_t *size);

#endif
