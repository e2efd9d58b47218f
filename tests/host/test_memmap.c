/* SPDX-License-Identifier: MIT */
/*
 * Host tests for lib/memmap.c: hand-checked cases, then a random sequence of
 * edits compared after every step with a brute-force model (one type per
 * 4 KiB unit of a small address space).
 */
#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "lib/memmap.h"

#define MAX 64

/* The map must be sorted, non-empty regions, no overlaps, neighbours merged. */
static void check_invariants(const struct boot_mem_region *m, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        CHECK(m[i].size > 0);
        if (i + 1 < n) {
            CHECK(m[i].base + m[i].size <= m[i + 1].base);
            CHECK(!(m[i].base + m[i].size == m[i + 1].base && m[i].type == m[i + 1].type));
        }
    }
}

TEST(carve_reservations_out_of_ram)
{
    struct boot_mem_region m[MAX];
    uint32_t n = 0;
    CHECK_EQ_INT(memmap_set(m, &n, MAX, 0x40000000, 0x20000000, BOOT_MEM_USABLE), 0);
    CHECK_EQ_INT(memmap_set(m, &n, MAX, 0x40200000, 0x100000, BOOT_MEM_KERNEL), 0);
    CHECK_EQ_INT(n, 3);
    CHECK_EQ_INT(m[0].base, 0x40000000);
    CHECK_EQ_INT(m[0].size, 0x200000);
    CHECK_EQ_INT(m[1].type, BOOT_MEM_KERNEL);
    CHECK_EQ_INT(m[2].base, 0x40300000);
    CHECK_EQ_INT(m[2].size, 0x20000000 - 0x300000);
    /* a reservation covering the tail end and beyond */
    CHECK_EQ_INT(memmap_set(m, &n, MAX, 0x5ff00000, 0x200000, BOOT_MEM_RESERVED), 0);
    CHECK_EQ_INT(n, 4);
    CHECK_EQ_INT(m[3].base, 0x5ff00000);
    CHECK_EQ_INT(memmap_total(m, n, BOOT_MEM_USABLE), 0x20000000 - 0x100000 - 0x100000);
    /* giving the kernel range back merges everything usable again */
    CHECK_EQ_INT(memmap_set(m, &n, MAX, 0x40200000, 0x100000, BOOT_MEM_USABLE), 0);
    CHECK_EQ_INT(n, 2);
    check_invariants(m, n);
}

/* Firmware regions the loader marked with different attributes (how to
 * map them) stay apart, and a split keeps the attributes on both sides. */
TEST(attributes_kept)
{
    struct boot_mem_region m[MAX] = {
        {0x1000, 0x1000, BOOT_MEM_FIRMWARE, BOOT_MEM_ATTR_CODE | BOOT_MEM_ATTR_RO},
        {0x2000, 0x3000, BOOT_MEM_FIRMWARE, BOOT_MEM_ATTR_XP},
    };
    uint32_t n = 2;
    CHECK_EQ_INT(memmap_set(m, &n, MAX, 0x10000, 0x1000, BOOT_MEM_USABLE), 0);
    CHECK_EQ_INT(n, 3);
    CHECK_EQ_INT(m[0].attr, BOOT_MEM_ATTR_CODE | BOOT_MEM_ATTR_RO);
    CHECK_EQ_INT(m[1].attr, BOOT_MEM_ATTR_XP);
    CHECK_EQ_INT(memmap_set(m, &n, MAX, 0x3000, 0x1000, BOOT_MEM_RESERVED), 0);
    CHECK_EQ_INT(n, 5);
    CHECK_EQ_INT(m[3].base, 0x4000);
    CHECK_EQ_INT(m[3].attr, BOOT_MEM_ATTR_XP);
}

TEST(edge_cases)
{
    struct boot_mem_region m[4];
    uint32_t n = 0;
    CHECK_EQ_INT(memmap_set(m, &n, 4, 0x1000, 0, BOOT_MEM_USABLE), 0);
    CHECK_EQ_INT(n, 0);
    CHECK_EQ_INT(memmap_set(m, &n, 4, UINT64_MAX - 0xfff, 0x10000, BOOT_MEM_MMIO), 0);
    CHECK_EQ_INT(n, 1);
    CHECK(m[0].base + m[0].size == UINT64_MAX); /* clipped, no wrap */
    CHECK_EQ_INT(memmap_set(m, &n, 4, 0, 0x10000, BOOT_MEM_USABLE), 0);
    CHECK_EQ_INT(memmap_set(m, &n, 4, 0x20000, 0x1000, BOOT_MEM_USABLE), 0);
    CHECK_EQ_INT(n, 3);
    CHECK_EQ_INT(memmap_set(m, &n, 4, 0x2000, 0x1000, BOOT_MEM_RESERVED), -1); /* full */
    CHECK_EQ_INT(n, 3);
    CHECK_EQ_STR(memmap_type_name(BOOT_MEM_KERNEL), "kernel");
    CHECK_EQ_STR(memmap_type_name(99), "unknown");
}

TEST(random_edits_match_model)
{
    enum { UNITS = 256, UNIT = 4096 };
    uint32_t model[UNITS] = {0}; /* 0 = not in the map */
    struct boot_mem_region m[MAX];
    uint32_t n = 0;
    uint64_t s = 12345;
    for (int step = 0; step < 20000 && !check_failures; step++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t a = (uint32_t)(s >> 33) % UNITS, len = (uint32_t)(s >> 45) % 40 + 1;
        uint32_t type = (uint32_t)(s >> 20) % 4 + 1;
        if (a + len > UNITS)
            len = UNITS - a;
        uint32_t before = n;
        struct boot_mem_region saved[MAX];
        memcpy(saved, m, sizeof saved);
        if (memmap_set(m, &n, MAX, (uint64_t)a * UNIT, (uint64_t)len * UNIT, type) != 0) {
            CHECK(n == before && memcmp(saved, m, sizeof saved) == 0); /* unchanged */
            n = 0; /* start over, like a fresh boot */
            memset(model, 0, sizeof model);
            continue;
        }
        for (uint32_t u = a; u < a + len; u++)
            model[u] = type;
        check_invariants(m, n);
        uint32_t got[UNITS] = {0};
        for (uint32_t i = 0; i < n; i++)
            for (uint64_t u = m[i].base / UNIT; u < (m[i].base + m[i].size) / UNIT; u++)
                got[u] = m[i].type;
        CHECK(memcmp(got, model, sizeof got) == 0);
    }
}

RUN_TESTS("memmap", CASE(carve_reservations_out_of_ram), CASE(attributes_kept), CASE(edge_cases),
          CASE(random_edits_match_model))
