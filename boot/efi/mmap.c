/* SPDX-License-Identifier: MIT */
/*
 * boot/efi/mmap.c - leave boot services and hand the kernel a memory map (UEFI loader).
 *
 * ExitBootServices needs the key of the *current* memory map, and anything that allocates
 * (including Print) changes the map. So: size the map, allocate a buffer with slack plus the
 * scratch array for the conversion, then loop GetMemoryMap -> ExitBootServices. If the firmware
 * says the key is stale (EFI_INVALID_PARAMETER: an event callback allocated), fetch the map again
 * into the same buffer and retry; after the first ExitBootServices attempt the UEFI spec allows
 * only memory-map calls, so nothing else happens in the loop (UEFI 2.10 section 7.4,
 * EFI_BOOT_SERVICES.ExitBootServices()).
 *
 * The conversion to struct boot_mem_region runs with boot services gone: plain loops only.
 */
#include "loader.h"

/* Descriptors of slack for allocations made after the size query (ours and event callbacks). */
#define MAP_SLACK_DESCS 32
#define EBS_TRIES       4

/*
 * EFI memory type -> what the kernel may do with it (UEFI 2.10 section 7.2, table "Memory Type
 * Usage after ExitBootServices()"). Boot-services memory is free once we have left; the kernel
 * must only move off the firmware stack (boot-services data) before reusing it. Types this
 * gnu-efi does not name (EfiPersistentMemory 14, EfiUnacceptedMemoryType 15, OEM/OS ranges) are
 * kept away from the kernel as reserved.
 */
static UINT32 boot_type(UINT32 efi_type)
{
    switch (efi_type) {
    case EfiConventionalMemory:
    case EfiBootServicesCode:
    case EfiBootServicesData: return BOOT_MEM_USABLE;
    case EfiLoaderCode:
    case EfiLoaderData: return BOOT_MEM_LOADER;
    case EfiACPIReclaimMemory: return BOOT_MEM_ACPI_RECLAIM;
    case EfiACPIMemoryNVS: return BOOT_MEM_ACPI_NVS;
    case EfiRuntimeServicesCode:
    case EfiRuntimeServicesData:
    case EfiPalCode: return BOOT_MEM_FIRMWARE;
    case EfiMemoryMappedIO:
    case EfiMemoryMappedIOPortSpace: return BOOT_MEM_MMIO;
    case EfiUnusableMemory: return BOOT_MEM_BAD;
    default: return BOOT_MEM_RESERVED;
    }
}

/* The memory attributes table (UEFI 2.10 section 4.6.4): a header, then
 * NumberOfEntries EFI_MEMORY_DESCRIPTORs of DescriptorSize bytes each, one
 * per runtime region (a runtime image split into its code and data parts),
 * whose Attribute says how to map it: EFI_MEMORY_RO, EFI_MEMORY_XP. */
static EFI_GUID mat_guid = {
    0xdcfa911d, 0x26eb, 0x469f, {0xa2, 0x20, 0x38, 0xb7, 0xdc, 0x46, 0x12, 0x20}};
#define MAT_ATTR_RO 0x20000ull /* EFI_MEMORY_RO (gnu-efi names only XP) */
#define MAT_ATTR_XP 0x4000ull  /* EFI_MEMORY_XP */

struct mat_header {
    UINT32 version, count, desc_size, flags;
};

/* The firmware's memory attributes table, or NULL (read before
 * ExitBootServices: the configuration table is the system table's). */
static const struct mat_header *find_mat(void)
{
    for (UINTN i = 0; i < ST->NumberOfTableEntries; i++) {
        const struct mat_header *mat = ST->ConfigurationTable[i].VendorTable;
        if (CompareGuid(&ST->ConfigurationTable[i].VendorGuid, &mat_guid) == 0 &&
            mat->version >= 1 && mat->desc_size >= sizeof(EFI_MEMORY_DESCRIPTOR))
            return mat;
    }
    return NULL;
}

static BOOLEAN is_runtime(UINT32 efi_type)
{
    return efi_type == EfiRuntimeServicesCode || efi_type == EfiRuntimeServicesData ||
           efi_type == EfiPalCode;
}

/* BOOT_MEM_ATTR_* of a runtime descriptor; 0 for any other. Only the
 * attributes table's RO and XP say how to map a region: the memory map's
 * Attribute is what the region could be set to, "not necessarily the
 * current settings" (UEFI 2.10 section 7.2, EFI_MEMORY_DESCRIPTOR). */
static UINT32 runtime_attr(const EFI_MEMORY_DESCRIPTOR *d, BOOLEAN from_mat)
{
    if (!is_runtime(d->Type))
        return 0;
    if (!from_mat)
        return d->Type != EfiRuntimeServicesData ? BOOT_MEM_ATTR_CODE : 0;
    return (d->Type != EfiRuntimeServicesData ? BOOT_MEM_ATTR_CODE : 0) |
           (d->Attribute & MAT_ATTR_RO ? BOOT_MEM_ATTR_RO : 0) |
           (d->Attribute & MAT_ATTR_XP ? BOOT_MEM_ATTR_XP : 0) | BOOT_MEM_ATTR_MAT;
}

/* Descriptor -> region; false for an empty one. */
static BOOLEAN to_region(const EFI_MEMORY_DESCRIPTOR *d, BOOLEAN from_mat,
                         struct boot_mem_region *r)
{
    if (d->NumberOfPages == 0)
        return FALSE;
    r->base = d->PhysicalStart;
    r->size = d->NumberOfPages * EFI_PAGE_SIZE;
    r->type = boot_type(d->Type);
    r->attr = runtime_attr(d, from_mat);
    return TRUE;
}

/* Insertion sort by base: a few hundred entries, no allocation, stable. */
static void sort_regions(struct boot_mem_region *r, UINTN n)
{
    for (UINTN i = 1; i < n; i++) {
        struct boot_mem_region key = r[i];
        UINTN j = i;

        for (; j > 0 && r[j - 1].base > key.base; j--)
            r[j] = r[j - 1];
        r[j] = key;
    }
}

/*
 * Merge touching regions of the same type, in place; returns the new count. UEFI maps do not
 * overlap, but if one ever did, usable memory must not win: the overlap goes to the non-usable
 * side (the usable region is cut short, losing at most the overlap and what follows it).
 */
static UINTN merge_regions(struct boot_mem_region *r, UINTN n)
{
    UINTN out = 0;

    for (UINTN i = 0; i < n; i++) {
        struct boot_mem_region cur = r[i];
        struct boot_mem_region *prev = out ? &r[out - 1] : NULL;

        if (prev && cur.base < prev->base + prev->size) {
            UINT64 prev_end = prev->base + prev->size, cur_end = cur.base + cur.size;

            if (prev->type == BOOT_MEM_USABLE && cur.type != BOOT_MEM_USABLE) {
                prev->size = cur.base - prev->base;
                if (prev->size == 0)
                    out--; /* replaced by cur below */
            } else if (cur_end <= prev_end) {
                continue; /* swallowed by prev */
            } else {
                cur.base = prev_end;
                cur.size = cur_end - prev_end;
            }
            prev = out ? &r[out - 1] : NULL;
        }
        if (prev && prev->type == cur.type && prev->attr == cur.attr &&
            prev->base + prev->size == cur.base)
            prev->size += cur.size;
        else
            r[out++] = cur;
    }
    return out;
}

/*
 * Which region to give up first when there are more than BOOT_MMAP_MAX: holes are never used by
 * the kernel, so dropping a reserved/MMIO/bad range loses nothing (rank 0); dropping usable or
 * loader memory only wastes RAM (rank 1); ACPI tables and runtime-services memory are kept to
 * the last (rank 2) because the kernel may need to map them.
 */
static UINTN drop_rank(UINT32 type)
{
    switch (type) {
    case BOOT_MEM_RESERVED:
    case BOOT_MEM_MMIO:
    case BOOT_MEM_BAD: return 0;
    case BOOT_MEM_USABLE:
    case BOOT_MEM_LOADER: return 1;
    default: return 2;
    }
}

/* Drop the smallest region of the lowest rank until n <= max; returns the new count. */
static UINTN cap_regions(struct boot_mem_region *r, UINTN n, UINTN max)
{
    while (n > max) {
        UINTN victim = 0;

        for (UINTN i = 1; i < n; i++) {
            UINTN ri = drop_rank(r[i].type), rv = drop_rank(r[victim].type);

            if (ri < rv || (ri == rv && r[i].size < r[victim].size))
                victim = i;
        }
        for (UINTN i = victim; i + 1 < n; i++)
            r[i] = r[i + 1];
        n--;
    }
    return n;
}

/* EFI descriptors (stride desc_size, which may exceed sizeof) -> sorted, merged bi->mmap; with a
 * memory attributes table, its entries stand for the map's runtime regions. */
static void convert_map(const UINT8 *map, UINTN map_size, UINTN desc_size,
                        const struct mat_header *mat, struct boot_mem_region *tmp,
                        struct boot_info *bi)
{
    UINTN n = 0;

    for (UINTN off = 0; off + desc_size <= map_size; off += desc_size) {
        const EFI_MEMORY_DESCRIPTOR *d = (const EFI_MEMORY_DESCRIPTOR *)(map + off);

        if (!(mat && is_runtime(d->Type)))
            n += to_region(d, FALSE, &tmp[n]);
    }
    for (UINT32 i = 0; mat && i < mat->count; i++) {
        const UINT8 *entries = (const UINT8 *)(mat + 1);

        n +=
            to_region((const EFI_MEMORY_DESCRIPTOR *)(entries + i * mat->desc_size), TRUE, &tmp[n]);
    }
    sort_regions(tmp, n);
    n = merge_regions(tmp, n);
    n = cap_regions(tmp, n, BOOT_MMAP_MAX);
    for (UINTN i = 0; i < n; i++)
        bi->mmap[i] = tmp[i];
    bi->mmap_count = (UINT32)n;
}

EFI_STATUS exit_boot_services(EFI_HANDLE image, struct boot_info *bi)
{
    UINTN size = 0, key, desc_size, buf_size;
    UINT32 desc_version;
    UINT8 *map;
    struct boot_mem_region *tmp;
    const struct mat_header *mat = find_mat();
    EFI_STATUS st;

    st = BS->GetMemoryMap(&size, NULL, &key, &desc_size, &desc_version);
    if (st != EFI_BUFFER_TOO_SMALL || desc_size < sizeof(EFI_MEMORY_DESCRIPTOR))
        return EFI_ERROR(st) ? st : EFI_LOAD_ERROR;
    buf_size = size + MAP_SLACK_DESCS * desc_size;
    map = AllocatePool(buf_size);
    tmp = AllocatePool((buf_size / desc_size + (mat ? mat->count : 0)) * sizeof(*tmp));
    if (!map || !tmp)
        return EFI_OUT_OF_RESOURCES;

    /* From here until success: only GetMemoryMap and ExitBootServices. */
    for (UINTN tries = 0;; tries++) {
        size = buf_size;
        st = BS->GetMemoryMap(&size, (EFI_MEMORY_DESCRIPTOR *)map, &key, &desc_size, &desc_version);
        if (EFI_ERROR(st))
            return st;
        st = BS->ExitBootServices(image, key);
        if (st == EFI_SUCCESS)
            break;
        if (st != EFI_INVALID_PARAMETER || tries + 1 == EBS_TRIES)
            return st;
    }
    convert_map(map, size, desc_size, mat, tmp, bi);
    return EFI_SUCCESS;
}
