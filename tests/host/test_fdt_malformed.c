/* SPDX-License-Identifier: MIT */
/*
 * tests/host/test_fdt_malformed.c - host unit tests for lib/fdt.c: blobs
 * fdt_init() must reject.
 *
 * Malformed blobs are made by patching a valid one or by writing raw tokens
 * with the writer in fdt_writer.h; each is handed to fdt_init() in a heap
 * buffer of exactly max_size bytes, so AddressSanitizer catches any read past
 * the end. A mutation test feeds thousands of corrupted and truncated blobs
 * through fdt_init() and, when accepted, the accessors.
 */
#include "tests/host/fdt_writer.h"

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

static void mutate(uint8_t *p, uint32_t len, uint32_t hot_start)
{
    static const uint32_t words[] = {0,           1,           2,           3,           4,  9,
                                     0xffffffffu, 0x7fffffffu, 0x80000000u, 0xfffffffcu, 40, 64};
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

RUN_TESTS("fdt_malformed", CASE(reject_truncated), CASE(reject_bad_magic), CASE(reject_bad_version),
          CASE(reject_struct_overlapping_strings), CASE(reject_rsvmap_overlapping_struct),
          CASE(reject_offsets_past_end), CASE(reject_misaligned_blocks),
          CASE(reject_unterminated_node_name), CASE(reject_unterminated_string),
          CASE(reject_nameoff_past_strings), CASE(reject_prop_len_past_struct),
          CASE(reject_unbalanced_end_node), CASE(reject_missing_end), CASE(reject_two_roots),
          CASE(reject_excessive_depth), CASE(reject_unknown_token),
          CASE(reject_misplaced_properties), CASE(mutation_fuzz))
