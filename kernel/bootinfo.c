/* SPDX-License-Identifier: MIT */
/*
 * kernel/bootinfo.c - turn the boot hand-off into one struct boot_info.
 *
 * UEFI path: the loader's structure is validated and copied (so the loader's
 * memory can be reused later). Devicetree path (U-Boot booti, QEMU -kernel):
 * the structure is built here from the devicetree: RAM from the /memory
 * nodes, then the reservations carved out of it (/memreserve/ entries,
 * /reserved-memory children, the devicetree itself), the command line from
 * /chosen/bootargs. In both cases the kernel image is marked as "kernel".
 */
#include "kernel/bootinfo.h"

#include "arch/arch.h"
#include "kernel/mm.h"
#include "lib/memmap.h"
#include "lib/string.h"

#define FDT_MAX_SIZE (4u << 20) /* refuse to trust a header claiming more */

struct boot_info boot_info;
static struct fdt fdt;
static bool have_fdt;
static int fdt_error;

static void mark(uint64_t base, uint64_t size, uint32_t type)
{
    memmap_set(boot_info.mmap, &boot_info.mmap_count, BOOT_MMAP_MAX, base, size, type);
}

static bool open_fdt(uint64_t phys)
{
    if (!phys)
        return false;
    const void *blob = phys_to_virt(phys);
    uint32_t size = fdt_header_size(blob);
    fdt_error = fdt_init(&fdt, blob, size && size <= FDT_MAX_SIZE ? size : 0);
    have_fdt = fdt_error == FDT_OK;
    return have_fdt;
}

static void memory_from_fdt(void)
{
    for (int node = fdt_next_node(&fdt, -1); node >= 0; node = fdt_next_node(&fdt, node)) {
        uint32_t len;
        const char *type = fdt_prop(&fdt, node, "device_type", &len);
        if (!type || strcmp(type, "memory") != 0 || !fdt_node_enabled(&fdt, node))
            continue;
        uint64_t base, size;
        for (int i = 0; fdt_reg(&fdt, node, i, &base, &size) == 0; i++)
            mark(base, size, BOOT_MEM_USABLE);
    }
}

static void reservations_from_fdt(void)
{
    uint64_t base, size;
    for (int i = 0; fdt_memreserve(&fdt, i, &base, &size) == 0; i++)
        mark(base, size, BOOT_MEM_RESERVED);
    int parent = fdt_path(&fdt, "/reserved-memory");
    for (int node = parent >= 0 ? fdt_first_child(&fdt, parent) : -1; node >= 0;
         node = fdt_next_sibling(&fdt, node)) {
        uint32_t len;
        /* "no-map": not even the kernel's own mappings may cover it (firmware). */
        uint32_t type =
            fdt_prop(&fdt, node, "no-map", &len) ? BOOT_MEM_FIRMWARE : BOOT_MEM_RESERVED;
        for (int i = 0; fdt_reg_cpu(&fdt, node, i, &base, &size, NULL) == 0; i++)
            mark(base, size, type);
    }
}

static void setup_from_fdt(uint64_t fdt_phys, uint64_t hartid)
{
    boot_info.magic = BOOT_INFO_MAGIC;
    boot_info.version = BOOT_INFO_VERSION;
    boot_info.size = sizeof(boot_info);
    boot_info.fdt_phys = fdt_phys;
    boot_info.boot_hartid = (uint32_t)hartid;
    boot_info.path = BOOT_PATH_DIRECT;
    if (!open_fdt(fdt_phys))
        return;
    uint32_t len;
    int chosen = fdt_path(&fdt, "/chosen");
    const char *args = fdt_prop(&fdt, chosen, "bootargs", &len);
    if (args && len)
        strlcpy(boot_info.cmdline, args, MIN(len, sizeof(boot_info.cmdline)));
    /* U-Boot records itself in /chosen; its absence means a direct boot. */
    const char *uboot = fdt_prop(&fdt, chosen, "u-boot,version", &len);
    if (uboot && len) {
        boot_info.path = BOOT_PATH_BOOTI;
        strlcpy(boot_info.firmware, uboot, MIN(len, sizeof(boot_info.firmware)));
    }
    memory_from_fdt();
    reservations_from_fdt();
}

static bool setup_from_loader(uint64_t phys)
{
    const struct boot_info *bi = phys_to_virt(phys);
    if (bi->magic != BOOT_INFO_MAGIC || bi->version != BOOT_INFO_VERSION ||
        bi->size != sizeof(boot_info))
        return false;
    memcpy(&boot_info, bi, sizeof(boot_info));
    boot_info.cmdline[BOOT_CMDLINE_MAX - 1] = '\0';
    boot_info.firmware[BOOT_FIRMWARE_MAX - 1] = '\0';
    if (boot_info.mmap_count > BOOT_MMAP_MAX)
        boot_info.mmap_count = BOOT_MMAP_MAX;
    if (boot_info.seed_len > BOOT_SEED_MAX)
        boot_info.seed_len = BOOT_SEED_MAX;
    open_fdt(boot_info.fdt_phys);
    return true;
}

struct boot_info *bootinfo_setup(uint64_t boot_arg, uint64_t boot_magic, uint64_t hartid)
{
    if (boot_magic != BOOT_INFO_MAGIC || !setup_from_loader(boot_arg))
        setup_from_fdt(boot_arg, hartid);
    boot_info.kernel_phys = arch_kernel_phys_base();
    boot_info.kernel_size = (uint64_t)(_kernel_end - _kernel_start);
    mark(boot_info.kernel_phys, boot_info.kernel_size, BOOT_MEM_KERNEL);
    if (have_fdt) /* the kernel keeps reading it: never hand its pages out */
        mark(boot_info.fdt_phys, fdt.size, BOOT_MEM_LOADER);
    return &boot_info;
}

void bootinfo_relocate(void)
{
    if (have_fdt)
        open_fdt(boot_info.fdt_phys);
}

const struct fdt *boot_fdt(void)
{
    return have_fdt ? &fdt : NULL;
}

const char *boot_path_name(uint32_t path)
{
    switch (path) {
    case BOOT_PATH_UEFI: return "uefi";
    case BOOT_PATH_BOOTI: return "booti";
    case BOOT_PATH_DIRECT: return "direct";
    default: return "unknown";
    }
}
