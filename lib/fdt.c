/* SPDX-License-Identifier: MIT */
/*
 * lib/fdt.c - a small, defensive reader for flattened devicetrees (DTB).
 *
 * Written from the Devicetree Specification v0.4, chapter 5. A blob is a header (5.2), a
 * memory reservation block (5.3), a structure block of big-endian tokens (5.4) and a strings
 * block of property names (5.5). fdt_init() checks the header and the block layout, then walks
 * every token once, so the tree is known to be well formed. The accessors still decode every
 * token through token_at(), which bounds-checks all it touches: a bad offset from a caller
 * gives an error, never a read outside the blocks. Multi-byte values are read a byte at a time
 * (the blob may be unaligned, or mapped as arm64 Device memory), and nothing recurses.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/fdt.h"
#include "lib/string.h"

/* Structure block tokens (5.4.1). */
#define FDT_BEGIN_NODE 1
#define FDT_END_NODE   2
#define FDT_PROP       3
#define FDT_NOP        4
#define FDT_END        9

#define HEADER_SIZE    40u /* struct fdt_header (5.2) */
#define RSV_ENTRY_SIZE 16u /* struct fdt_reserve_entry (5.3.2) */
#define MAX_DEPTH      64  /* deepest nesting accepted; the root is depth 1 */
#define MAX_CELLS      4   /* larger #address-cells / #size-cells are treated as bogus */

/* Byte offsets of the header fields (5.2). */
enum {
    HDR_MAGIC = 0,
    HDR_TOTALSIZE = 4,
    HDR_OFF_STRUCT = 8,
    HDR_OFF_STRINGS = 12,
    HDR_OFF_RSVMAP = 16,
    HDR_VERSION = 20,
    HDR_LAST_COMP = 24,
    HDR_SIZE_STRINGS = 32,
    HDR_SIZE_STRUCT = 36
};

/* ---- Byte order: header, reservation map and tokens are all big-endian (5.2-5.4) ---- */

/* volatile keeps the compiler from merging the byte loads into one (unaligned) wide load. */
static uint32_t byte_at(const void *p, size_t i)
{
    return ((const volatile uint8_t *)p)[i];
}

uint32_t fdt_be32(const void *p)
{
    return byte_at(p, 0) << 24 | byte_at(p, 1) << 16 | byte_at(p, 2) << 8 | byte_at(p, 3);
}

uint64_t fdt_be64(const void *p)
{
    return (uint64_t)fdt_be32(p) << 32 | fdt_be32((const uint8_t *)p + 4);
}

/* Cells are big-endian <u32>s, two of them a <u64> (2.2.4); other counts read as 0. */
uint64_t fdt_read_cells(const void *p, int cells)
{
    return cells == 1 ? fdt_be32(p) : cells == 2 ? fdt_be64(p) : 0;
}

uint32_t fdt_header_size(const void *blob)
{
    const uint8_t *b = blob;
    return fdt_be32(b + HDR_MAGIC) == FDT_MAGIC ? fdt_be32(b + HDR_TOTALSIZE) : 0;
}

const char *fdt_strerror(int err)
{
    static const char *const names[] = {"ok",
                                        "truncated blob",
                                        "bad magic",
                                        "unsupported version",
                                        "bad block layout",
                                        "bad structure block",
                                        "bad string",
                                        "not found",
                                        "no ranges on a bus",
                                        "address outside the bus ranges",
                                        "spin-table CPU without cpu-release-addr"};
    return err <= 0 && err >= FDT_ERR_NORELEASE ? names[-err] : "unknown error";
}

/* ---- Decoding one token ---- */

/* [off, off + size) lies inside [0, total), computed without overflow. */
static bool inside(uint32_t off, uint32_t size, uint32_t total)
{
    return off <= total && size <= total - off;
}

/* A property name (5.5): starts inside the strings block and ends with a NUL there. */
static bool string_ok(const struct fdt *f, uint32_t off)
{
    const char *s = (const char *)f->blob + f->strings_off;
    return off < f->strings_size && strnlen(s + off, f->strings_size - off) < f->strings_size - off;
}

/*
 * Decode the token at structure-block offset `off` (5.4.1), checking that the token, a node's
 * name and a property's header and value lie in the structure block and the property's name in
 * the strings block. Returns the token or a negative error; *next is the next token's offset.
 */
static int token_at(const struct fdt *f, int off, uint32_t *next)
{
    uint32_t pos = (uint32_t)off, room, len, tok;
    const uint8_t *s;

    if (off < 0 || (pos & 3) || !inside(pos, 4, f->struct_size))
        return FDT_ERR_BADSTRUCT;
    s = f->blob + f->struct_off + pos;
    room = f->struct_size - pos - 4; /* bytes after the token word */
    tok = fdt_be32(s);
    switch (tok) {
    case FDT_BEGIN_NODE: /* NUL-terminated name, zero-padded to 4 bytes */
        len = (uint32_t)strnlen((const char *)s + 4, room);
        if (len == room)
            return FDT_ERR_BADSTRING;
        *next = (pos + 4 + len + 1 + 3) & ~3u;
        return FDT_BEGIN_NODE;
    case FDT_PROP: /* u32 len, u32 nameoff, then the value, zero-padded */
        if (room < 8 || (len = fdt_be32(s + 4)) > room - 8)
            return FDT_ERR_BADSTRUCT;
        if (!string_ok(f, fdt_be32(s + 8)))
            return FDT_ERR_BADSTRING;
        *next = (pos + 12 + len + 3) & ~3u;
        return FDT_PROP;
    case FDT_END_NODE:
    case FDT_NOP:
    case FDT_END: *next = pos + 4; return (int)tok;
    default: return FDT_ERR_BADSTRUCT;
    }
}

/* From `pos`, skip FDT_NOPs (and FDT_PROPs if `props`); the offset reached if `want` is there. */
static int find_token(const struct fdt *f, uint32_t pos, bool props, int want)
{
    uint32_t next;
    int tok;

    while ((tok = token_at(f, (int)pos, &next)) == FDT_NOP || (props && tok == FDT_PROP))
        pos = next;
    return tok == want ? (int)pos : FDT_ERR_NOTFOUND;
}

static bool is_node(const struct fdt *f, int node)
{
    uint32_t next;
    return token_at(f, node, &next) == FDT_BEGIN_NODE;
}

/* *end = offset just after the FDT_END_NODE that closes `node` (an FDT_BEGIN_NODE). */
static int node_end(const struct fdt *f, int node, uint32_t *end)
{
    uint32_t pos = (uint32_t)node, next;
    int depth = 0, tok;

    do {
        tok = token_at(f, (int)pos, &next);
        if (tok == FDT_BEGIN_NODE || tok == FDT_END_NODE)
            depth += tok == FDT_BEGIN_NODE ? 1 : -1;
        else if (tok != FDT_PROP && tok != FDT_NOP)
            return FDT_ERR_BADSTRUCT; /* FDT_END or an error inside the node */
        pos = next;
    } while (depth > 0);
    *end = pos;
    return FDT_OK;
}

/* ---- Validation ---- */

/* The reservation map (5.3): 16-byte entries up to and including a (0, 0) one. */
static int rsvmap_size(const uint8_t *blob, uint32_t off, uint32_t total, uint32_t *size)
{
    for (uint32_t pos = off;; pos += RSV_ENTRY_SIZE) {
        if (!inside(pos, RSV_ENTRY_SIZE, total))
            return FDT_ERR_BADLAYOUT;
        if (fdt_be64(blob + pos) == 0 && fdt_be64(blob + pos + 8) == 0) {
            *size = pos + RSV_ENTRY_SIZE - off;
            return FDT_OK;
        }
    }
}

/*
 * Header, reservation map, structure and strings blocks: inside totalsize (5.2), aligned (5.6)
 * and pairwise disjoint. Any order is accepted; empty blocks overlap nothing.
 */
static int check_layout(const struct fdt *f)
{
    uint32_t off[4] = {0, f->rsvmap_off, f->struct_off, f->strings_off};
    uint32_t len[4] = {HEADER_SIZE, 0, f->struct_size, f->strings_size};

    if (f->size < HEADER_SIZE || f->size > INT32_MAX || !inside(off[2], len[2], f->size) ||
        !inside(off[3], len[3], f->size) || (off[2] & 3) || (off[1] & 7) ||
        rsvmap_size(f->blob, off[1], f->size, &len[1]) != FDT_OK)
        return FDT_ERR_BADLAYOUT;
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++)
            if (len[i] && len[j] && off[i] < off[j] + len[j] && off[j] < off[i] + len[i])
                return FDT_ERR_BADLAYOUT;
    return FDT_OK;
}

/*
 * Walk the whole structure block (5.4.2): exactly one root node, balanced, at most MAX_DEPTH
 * deep; properties only inside a node and before its first subnode (a property after a subnode
 * is rejected, as 5.4.2 requires that order); FDT_NOP anywhere; FDT_END once, as the last token,
 * ending exactly at size_dt_struct (5.4.1).
 */
static int check_structure(const struct fdt *f)
{
    uint32_t pos = 0, next;
    int depth = 0, roots = 0, tok;
    bool after_child = false; /* the current node already had a subnode */

    for (;; pos = next) {
        tok = token_at(f, (int)pos, &next);
        if (tok < 0)
            return tok; /* this includes running off the end without FDT_END */
        if (tok == FDT_BEGIN_NODE) {
            if ((depth == 0 && roots++ > 0) || ++depth > MAX_DEPTH)
                return FDT_ERR_BADSTRUCT;
            after_child = false;
        } else if (tok == FDT_END_NODE) {
            if (depth-- == 0)
                return FDT_ERR_BADSTRUCT;
            after_child = true;
        } else if (tok == FDT_PROP && (depth == 0 || after_child)) {
            return FDT_ERR_BADSTRUCT;
        } else if (tok == FDT_END) {
            bool ok = depth == 0 && roots == 1 && next == f->struct_size;
            return ok ? FDT_OK : FDT_ERR_BADSTRUCT;
        }
    }
}

int fdt_init(struct fdt *f, const void *blob, size_t max_size)
{
    const uint8_t *b = blob;
    struct fdt t;
    int err;

    memset(f, 0, sizeof(*f));
    if (b == NULL || max_size < HEADER_SIZE)
        return FDT_ERR_TRUNCATED;
    if (fdt_be32(b + HDR_MAGIC) != FDT_MAGIC)
        return FDT_ERR_BADMAGIC;
    if (fdt_be32(b + HDR_TOTALSIZE) > max_size)
        return FDT_ERR_TRUNCATED;
    /* Version 16 or later, readable by a version 17 reader (5.1, 5.2). */
    if (fdt_be32(b + HDR_VERSION) < 16 || fdt_be32(b + HDR_LAST_COMP) > 17)
        return FDT_ERR_BADVERSION;
    t.blob = b;
    t.size = fdt_be32(b + HDR_TOTALSIZE);
    t.struct_off = fdt_be32(b + HDR_OFF_STRUCT);
    t.struct_size = fdt_be32(b + HDR_SIZE_STRUCT);
    t.strings_off = fdt_be32(b + HDR_OFF_STRINGS);
    t.strings_size = fdt_be32(b + HDR_SIZE_STRINGS);
    t.rsvmap_off = fdt_be32(b + HDR_OFF_RSVMAP);
    /* Version 16 headers lack size_dt_struct: the strings block (or the end) bounds it. */
    if (fdt_be32(b + HDR_VERSION) < 17)
        t.struct_size = (t.strings_off > t.struct_off ? t.strings_off : t.size) - t.struct_off;
    err = check_layout(&t);
    if (err == FDT_OK)
        err = check_structure(&t);
    if (err == FDT_OK)
        *f = t;
    return err;
}

/* ---- Tree navigation ---- */

int fdt_root(const struct fdt *f)
{
    return find_token(f, 0, false, FDT_BEGIN_NODE);
}

/* A node's properties come first, then its subnodes (5.4.2). */
int fdt_first_child(const struct fdt *f, int node)
{
    uint32_t body;
    if (token_at(f, node, &body) != FDT_BEGIN_NODE)
        return FDT_ERR_NOTFOUND;
    return find_token(f, body, true, FDT_BEGIN_NODE);
}

int fdt_next_sibling(const struct fdt *f, int node)
{
    uint32_t end;
    if (!is_node(f, node) || node_end(f, node, &end) != FDT_OK)
        return FDT_ERR_NOTFOUND;
    return find_token(f, end, true, FDT_BEGIN_NODE);
}

/* A DTB has no parent links: descend from the root into the child whose span holds `node`. */
int fdt_parent(const struct fdt *f, int node)
{
    int cur = fdt_root(f), child;
    uint32_t end;

    if (!is_node(f, node))
        return FDT_ERR_NOTFOUND;
    while (cur >= 0) {
        for (child = fdt_first_child(f, cur); child >= 0; child = fdt_next_sibling(f, child)) {
            if (child == node)
                return cur;
            if (child < node && node_end(f, child, &end) == FDT_OK && (uint32_t)node < end)
                break; /* `node` is below this child */
        }
        cur = child;
    }
    return FDT_ERR_NOTFOUND;
}

/* Document order is token order: the next FDT_BEGIN_NODE, past any FDT_END_NODEs. */
int fdt_next_node(const struct fdt *f, int node)
{
    uint32_t pos, next;
    int tok;

    if (node == -1)
        return fdt_root(f);
    if (token_at(f, node, &pos) != FDT_BEGIN_NODE)
        return FDT_ERR_NOTFOUND;
    for (;; pos = next) {
        tok = token_at(f, (int)pos, &next);
        if (tok == FDT_BEGIN_NODE)
            return (int)pos;
        if (tok != FDT_PROP && tok != FDT_NOP && tok != FDT_END_NODE)
            return FDT_ERR_NOTFOUND; /* FDT_END */
    }
}

const char *fdt_node_name(const struct fdt *f, int node)
{
    return is_node(f, node) ? (const char *)f->blob + f->struct_off + node + 4 : NULL;
}

/* ---- Properties (FDT_PROP, 5.4.1) ---- */

int fdt_first_prop(const struct fdt *f, int node)
{
    uint32_t body;
    if (token_at(f, node, &body) != FDT_BEGIN_NODE)
        return FDT_ERR_NOTFOUND;
    return find_token(f, body, false, FDT_PROP);
}

int fdt_next_prop(const struct fdt *f, int prop)
{
    uint32_t next;
    if (token_at(f, prop, &next) != FDT_PROP)
        return FDT_ERR_NOTFOUND;
    return find_token(f, next, false, FDT_PROP);
}

const void *fdt_prop_at(const struct fdt *f, int prop, const char **name, uint32_t *len)
{
    const uint8_t *p;
    uint32_t next;

    if (token_at(f, prop, &next) != FDT_PROP)
        return NULL;
    p = f->blob + f->struct_off + prop;
    if (name)
        *name = (const char *)f->blob + f->strings_off + fdt_be32(p + 8);
    if (len)
        *len = fdt_be32(p + 4);
    return p + 12;
}

/* The property named by the n bytes at `name` (which need not end with a NUL). */
static const void *find_prop(const struct fdt *f, int node, const char *name, size_t n,
                             uint32_t *len)
{
    for (int p = fdt_first_prop(f, node); p >= 0; p = fdt_next_prop(f, p)) {
        const char *pname;
        const void *val = fdt_prop_at(f, p, &pname, len);
        if (strncmp(pname, name, n) == 0 && pname[n] == '\0')
            return val;
    }
    return NULL;
}

const void *fdt_prop(const struct fdt *f, int node, const char *name, uint32_t *len)
{
    return find_prop(f, node, name, strlen(name), len);
}

bool fdt_prop_u32(const struct fdt *f, int node, const char *name, uint32_t *out)
{
    uint32_t len;
    const void *v = fdt_prop(f, node, name, &len);

    if (v == NULL || len != 4)
        return false;
    *out = fdt_be32(v);
    return true;
}

/* ---- Paths (2.2.3), aliases (3.3) and stdout-path options (3.6) ---- */

/* Node name vs. path component [comp, comp + n): 2 exact, 1 equal but for "@unit-address". */
static int name_match(const char *name, const char *comp, size_t n)
{
    if (strncmp(name, comp, n) != 0)
        return 0;
    if (name[n] == '\0')
        return 2;
    return name[n] == '@' && memchr(comp, '@', n) == NULL;
}

/* An exact match wins over an earlier one without the unit address. */
static int find_child(const struct fdt *f, int node, const char *comp, size_t n)
{
    int fallback = FDT_ERR_NOTFOUND;

    for (int c = fdt_first_child(f, node); c >= 0; c = fdt_next_sibling(f, c)) {
        int m = name_match(fdt_node_name(f, c), comp, n);
        if (m == 2)
            return c;
        if (m == 1 && fallback < 0)
            fallback = c;
    }
    return fallback;
}

/* Follow the '/'-separated components in [p, end) down from `node`. */
static int walk_path(const struct fdt *f, int node, const char *p, const char *end)
{
    while (node >= 0 && p < end) {
        const char *q = p;
        if (*p == '/') {
            p++;
            continue;
        }
        while (q < end && *q != '/')
            q++;
        node = find_child(f, node, p, (size_t)(q - p));
        p = q;
    }
    return node;
}

/* End of the path proper: the first ':' (options, as in stdout-path) or the NUL. */
static const char *path_end(const char *p)
{
    const char *colon = strchr(p, ':');
    return colon ? colon : p + strlen(p);
}

int fdt_path(const struct fdt *f, const char *path)
{
    const char *end = path_end(path), *alias_end = path, *target;
    int root = fdt_root(f);
    uint32_t len;

    if (path[0] == '/')
        return walk_path(f, root, path, end);
    /* An alias: its value must be an absolute path (aliases of aliases are not followed). */
    while (alias_end < end && *alias_end != '/')
        alias_end++;
    if (alias_end == path)
        return FDT_ERR_NOTFOUND;
    target =
        find_prop(f, find_child(f, root, "aliases", 7), path, (size_t)(alias_end - path), &len);
    if (target == NULL || len == 0 || target[0] != '/' || memchr(target, '\0', len) == NULL)
        return FDT_ERR_NOTFOUND;
    return walk_path(f, walk_path(f, root, target, path_end(target)), alias_end, end);
}

/* "phandle", or the deprecated "linux,phandle" where it is absent (2.3.3). */
int fdt_node_by_phandle(const struct fdt *f, uint32_t phandle)
{
    uint32_t v;

    if (phandle == 0 || phandle == 0xffffffffu) /* by convention never a node's phandle */
        return FDT_ERR_NOTFOUND;
    for (int n = fdt_next_node(f, -1); n >= 0; n = fdt_next_node(f, n))
        if ((fdt_prop_u32(f, n, "phandle", &v) || fdt_prop_u32(f, n, "linux,phandle", &v)) &&
            v == phandle)
            return n;
    return FDT_ERR_NOTFOUND;
}

/* ---- compatible (2.3.1) and status (2.3.4) ---- */

bool fdt_stringlist_contains(const void *prop, uint32_t len, const char *s)
{
    const char *p = prop;
    size_t want = strlen(s);

    while (len > 0) {
        size_t n = strnlen(p, len);
        if (n == want && memcmp(p, s, n) == 0)
            return true;
        if (n == len)
            break; /* an unterminated last string: compared as far as it goes */
        p += n + 1;
        len -= (uint32_t)n + 1;
    }
    return false;
}

bool fdt_is_compatible(const struct fdt *f, int node, const char *compat)
{
    uint32_t len;
    const void *v = fdt_prop(f, node, "compatible", &len);
    return v != NULL && fdt_stringlist_contains(v, len, compat);
}

bool fdt_node_enabled(const struct fdt *f, int node)
{
    uint32_t len;
    const char *s = fdt_prop(f, node, "status", &len);
    size_t n;

    if (s == NULL)
        return is_node(f, node);
    n = strnlen(s, len);
    return (n == 4 && memcmp(s, "okay", 4) == 0) || (n == 2 && memcmp(s, "ok", 2) == 0);
}

int fdt_find_compatible(const struct fdt *f, int after, const char *compat)
{
    for (int n = fdt_next_node(f, after); n >= 0; n = fdt_next_node(f, n))
        if (fdt_is_compatible(f, n, compat) && fdt_node_enabled(f, n))
            return n;
    return FDT_ERR_NOTFOUND;
}

/* ---- Addresses (2.3.5, 2.3.6) ---- */

/* A cell-count property of `node`, else `def`; values above MAX_CELLS give BADSTRUCT. */
static int cell_count(const struct fdt *f, int node, const char *name, int def)
{
    uint32_t v;

    if (!is_node(f, node))
        return FDT_ERR_NOTFOUND;
    if (!fdt_prop_u32(f, node, name, &v))
        return def;
    return v <= MAX_CELLS ? (int)v : FDT_ERR_BADSTRUCT;
}

int fdt_address_cells(const struct fdt *f, int node)
{
    return cell_count(f, node, "#address-cells", 2);
}

int fdt_size_cells(const struct fdt *f, int node)
{
    return cell_count(f, node, "#size-cells", 1);
}

/* Address cells 1 or 2, size cells 0 (as under /cpus: the size reads 0), 1 or 2. */
int fdt_reg(const struct fdt *f, int node, int index, uint64_t *addr, uint64_t *size)
{
    int parent = fdt_parent(f, node), ac, sc;
    const uint8_t *reg;
    uint32_t len, entry;

    if (parent < 0)
        return FDT_ERR_NOTFOUND;
    ac = fdt_address_cells(f, parent);
    sc = fdt_size_cells(f, parent);
    if (ac < 1 || ac > 2 || sc < 0 || sc > 2)
        return FDT_ERR_BADSTRUCT;
    reg = fdt_prop(f, node, "reg", &len);
    entry = 4u * (uint32_t)(ac + sc);
    if (reg == NULL || index < 0 || (uint32_t)index >= len / entry)
        return FDT_ERR_NOTFOUND;
    reg += (uint32_t)index * entry;
    if (addr)
        *addr = fdt_read_cells(reg, ac);
    if (size)
        *size = fdt_read_cells(reg + 4 * ac, sc);
    return FDT_OK;
}

/* ---- Memory reservation block (5.3) ---- */

int fdt_memreserve(const struct fdt *f, int index, uint64_t *addr, uint64_t *size)
{
    uint32_t off = f->rsvmap_off;

    if (f->blob == NULL || index < 0)
        return FDT_ERR_NOTFOUND;
    for (int i = 0; inside(off, RSV_ENTRY_SIZE, f->size); i++, off += RSV_ENTRY_SIZE) {
        uint64_t a = fdt_be64(f->blob + off), s = fdt_be64(f->blob + off + 8);
        if (a == 0 && s == 0)
            break; /* the terminating entry */
        if (i == index) {
            if (addr)
                *addr = a;
            if (size)
                *size = s;
            return FDT_OK;
        }
    }
    return FDT_ERR_NOTFOUND;
}
