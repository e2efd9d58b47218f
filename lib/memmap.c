/* SPDX-License-Identifier: MIT */
/*
 * lib/memmap.c - sorted, non-overlapping memory map editing (see memmap.h).
 * Ranges are half open, [base, end). Every edit is: cut the new range out of
 * the existing regions (at most one region is split in two), insert it, then
 * merge neighbours of equal type (and attributes).
 */
#include "lib/memmap.h"

#include "lib/string.h"

static uint64_t region_end(const struct boot_mem_region *r)
{
    return r->base + r->size;
}

static void insert_at(struct boot_mem_region *map, uint32_t *count, uint32_t i,
                      struct boot_mem_region r)
{
    memmove(&map[i + 1], &map[i], (*count - i) * sizeof(map[0]));
    map[i] = r;
    (*count)++;
}

static void remove_at(struct boot_mem_region *map, uint32_t *count, uint32_t i)
{
    memmove(&map[i], &map[i + 1], (*count - i - 1) * sizeof(map[0]));
    (*count)--;
}

/* Remove [base, end) from every region, splitting one if it surrounds the range. */
static void cut_range(struct boot_mem_region *map, uint32_t *count, uint64_t base, uint64_t end)
{
    for (uint32_t i = 0; i < *count; i++) {
        struct boot_mem_region *r = &map[i];
        uint64_t rend = region_end(r);
        if (rend <= base || r->base >= end)
            continue;
        if (r->base < base && rend > end) { /* split: left part stays, right part new */
            struct boot_mem_region right = {end, rend - end, r->type, r->attr};
            r->size = base - r->base;
            insert_at(map, count, i + 1, right);
            return;
        }
        if (r->base < base) { /* overlap on the right side of r */
            r->size = base - r->base;
        } else if (rend > end) { /* overlap on the left side of r */
            r->size = rend - end;
            r->base = end;
        } else { /* r lies inside the range */
            remove_at(map, count, i);
            i--;
        }
    }
}

static void merge_neighbours(struct boot_mem_region *map, uint32_t *count)
{
    for (uint32_t i = 0; i + 1 < *count;) {
        if (region_end(&map[i]) == map[i + 1].base && map[i].type == map[i + 1].type &&
            map[i].attr == map[i + 1].attr) {
            map[i].size += map[i + 1].size;
            remove_at(map, count, i + 1);
        } else {
            i++;
        }
    }
}

int memmap_set(struct boot_mem_region *map, uint32_t *count, uint32_t max, uint64_t base,
               uint64_t size, uint32_t type)
{
    if (size > UINT64_MAX - base)
        size = UINT64_MAX - base;
    if (size == 0)
        return 0;
    if (*count + 2 > max) /* a split plus the insert need two more at most */
        return -1;
    uint64_t end = base + size;
    cut_range(map, count, base, end);
    uint32_t i = 0;
    while (i < *count && map[i].base < base)
        i++;
    insert_at(map, count, i, (struct boot_mem_region){base, size, type, 0});
    merge_neighbours(map, count);
    return 0;
}

uint64_t memmap_total(const struct boot_mem_region *map, uint32_t count, uint32_t type)
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (map[i].type == type)
            total += map[i].size;
    }
    return total;
}

const char *memmap_type_name(uint32_t type)
{
    static const char *const names[] = {
        [BOOT_MEM_USABLE] = "usable",     [BOOT_MEM_RESERVED] = "reserved",
        [BOOT_MEM_ACPI_RECLAIM] = "acpi", [BOOT_MEM_ACPI_NVS] = "acpi-nvs",
        [BOOT_MEM_MMIO] = "mmio",         [BOOT_MEM_LOADER] = "loader",
        [BOOT_MEM_FIRMWARE] = "firmware", [BOOT_MEM_BAD] = "bad",
        [BOOT_MEM_KERNEL] = "kernel",
    };
    if (type < sizeof(names) / sizeof(names[0]) && names[type])
        return names[type];
    return "unknown";
}
