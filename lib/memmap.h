/* SPDX-License-Identifier: MIT */
/*
 * lib/memmap.h - edit a physical memory map (struct boot_mem_region arrays).
 *
 * The map is kept sorted by base, without overlaps, with touching regions of
 * the same type merged. Used by the kernel to build a map from a devicetree
 * (RAM first, then reservations carved out of it) and by the UEFI loader.
 */
#ifndef LIB_MEMMAP_H
#define LIB_MEMMAP_H

#include <stdint.h>

#include "boot/bootinfo.h"

/*
 * Give [base, base + size) the type `type`, overriding whatever the range had
 * (regions are trimmed or split around it). A range reaching past 2^64 is
 * clipped. Returns 0, or -1 if the map would need more than `max` entries
 * (the map is then unchanged).
 */
int memmap_set(struct boot_mem_region *map, uint32_t *count, uint32_t max, uint64_t base,
               uint64_t size, uint32_t type);

/* Bytes of the given type. */
uint64_t memmap_total(const struct boot_mem_region *map, uint32_t count, uint32_t type);

/* Short lower-case name of a region type ("usable", "reserved", ...). */
const char *memmap_type_name(uint32_t type);

#endif
