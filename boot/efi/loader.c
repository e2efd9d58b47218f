/* SPDX-License-Identifier: MIT */
/*
 * boot/efi/loader.c - the stackshift UEFI loader (BOOTX64.EFI on x86_64, BOOTAA64.EFI on arm64).
 *
 * Steps, in order (everything before step 7 may print and allocate):
 *   1. read \stackshift\kernel.elf from the volume this loader was loaded from;
 *   2. place its PT_LOAD segments in one 2 MiB aligned block below 4 GiB (elf.c);
 *   3. allocate struct boot_info (boot/bootinfo.h) below 4 GiB and fill the identity fields;
 *   4. command line: printable LoadOptions text, else \stackshift\cmdline.txt, else empty;
 *   5. configuration tables (ACPI RSDP, devicetree: copied to loader data), runtime services,
 *      firmware name;
 *   6. seed bytes from EFI_RNG_PROTOCOL, when the firmware has one;
 *   7. print two progress lines, ExitBootServices, convert the memory map (mmap.c);
 *   8. enter the kernel at its physical entry point (handoff_<arch>.c).
 * Any failure before step 7 prints why and returns to the firmware, which then tries the next
 * boot option.
 *
 * References: UEFI Specification 2.10 (sections are cited where each service is used); gnu-efi
 * 3.0.15 headers and libefi (InitializeLib, Print, LibOpenRoot, LibFileInfo, *Pool, *Mem).
 */
#include "loader.h"

#define KERNEL_PATH  L"\\stackshift\\kernel.elf"
#define CMDLINE_PATH L"\\stackshift\\cmdline.txt"

/* Configuration-table GUIDs (UEFI 2.10 section 4.6) and the RNG protocol GUID. */
static EFI_GUID acpi20_guid = ACPI_20_TABLE_GUID;
static EFI_GUID acpi10_guid = ACPI_TABLE_GUID;
static EFI_GUID fdt_guid = EFI_DTB_TABLE_GUID;
static EFI_GUID rng_guid = EFI_RNG_PROTOCOL_GUID;

_Static_assert(BOOT_SEED_MAX >= 64, "seed buffer must hold the 64 bytes asked of the RNG");

static EFI_STATUS fail(const CHAR16 *what, EFI_STATUS st)
{
    Print(L"stackshift: %s: %r\n", what, st);
    BS->Stall(3 * 1000 * 1000); /* leave the message on screen before the boot menu returns */
    return st;
}

/*
 * Read a whole file from `root` into a new pool buffer with one extra NUL byte after the data
 * (so text files are strings). UEFI 2.10 section 13.5 (EFI_FILE_PROTOCOL Open/Read/GetInfo).
 */
static EFI_STATUS read_file(EFI_FILE_HANDLE root, CHAR16 *path, UINT8 **data, UINTN *size)
{
    EFI_FILE_HANDLE fh;
    EFI_FILE_INFO *info;
    EFI_STATUS st;
    UINTN done = 0;

    st = root->Open(root, &fh, path, EFI_FILE_MODE_READ, 0);
    if (EFI_ERROR(st))
        return st;
    info = LibFileInfo(fh);
    if (!info || (info->Attribute & EFI_FILE_DIRECTORY)) {
        st = info ? EFI_INVALID_PARAMETER : EFI_DEVICE_ERROR;
        goto out;
    }
    *size = info->FileSize;
    *data = AllocatePool(*size + 1);
    if (!*data) {
        st = EFI_OUT_OF_RESOURCES;
        goto out;
    }
    while (done < *size) { /* Read may return less than asked; 0 bytes means end of file */
        UINTN chunk = *size - done;

        st = fh->Read(fh, &chunk, *data + done);
        if (EFI_ERROR(st) || chunk == 0) {
            st = EFI_ERROR(st) ? st : EFI_END_OF_FILE;
            FreePool(*data);
            goto out;
        }
        done += chunk;
    }
    (*data)[*size] = 0;
    st = EFI_SUCCESS;
out:
    if (info)
        FreePool(info);
    fh->Close(fh);
    return st;
}

/* Command-line text builder: control characters fold to spaces, non-ASCII to '?'. */
struct text {
    char *buf;
    UINTN cap, len;
    BOOLEAN truncated;
};

static void text_putc(struct text *t, UINT32 c)
{
    if (c < 0x20 || c == 0x7f)
        c = ' ';
    else if (c > 0x7e)
        c = '?';
    if (c == ' ' && t->len == 0)
        return; /* no leading blanks */
    if (t->len + 1 >= t->cap) {
        t->truncated = TRUE;
        return;
    }
    t->buf[t->len++] = (char)c;
}

static void text_end(struct text *t)
{
    while (t->len && t->buf[t->len - 1] == ' ')
        t->len--;
    t->buf[t->len] = 0;
}

static BOOLEAN is_blank16(CHAR16 c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Does the word s[from, to) end in ".efi", in any case? ('.' | 0x20 is still '.') */
static BOOLEAN is_efi_name(const CHAR16 *s, UINTN from, UINTN to)
{
    static const char ext[] = ".efi";

    if (to - from < 4)
        return FALSE;
    for (UINTN k = 0; k < 4; k++)
        if ((s[to - 4 + k] | 0x20) != ext[k])
            return FALSE;
    return TRUE;
}

/*
 * LoadOptions is whatever the starter passed (UEFI 2.10 section 9.1): the UEFI Shell passes the
 * command line including the program's own path; a Boot#### option passes its OptionalData, which
 * may be a binary blob. Use it only if it is printable UCS-2 up to its NUL (or its end), and drop
 * a first word ending in ".efi" (the Shell's argv[0]). Returns TRUE if anything was kept.
 */
static BOOLEAN cmdline_from_options(const EFI_LOADED_IMAGE *li, struct text *t)
{
    const CHAR16 *s = li->LoadOptions;
    UINTN n = li->LoadOptionsSize / sizeof(CHAR16), len = 0, i = 0;

    if (!s || li->LoadOptionsSize % sizeof(CHAR16))
        return FALSE;
    while (len < n && s[len]) {
        if ((s[len] < 0x20 || s[len] > 0x7e) && !is_blank16(s[len]))
            return FALSE;
        len++;
    }
    while (i < len && is_blank16(s[i]))
        i++;
    UINTN word_end = i;
    while (word_end < len && !is_blank16(s[word_end]))
        word_end++;
    if (is_efi_name(s, i, word_end))
        i = word_end; /* the Shell's argv[0] */
    for (; i < len; i++)
        text_putc(t, s[i]);
    text_end(t);
    return t->len != 0;
}

static BOOLEAN cmdline_from_file(EFI_FILE_HANDLE root, struct text *t)
{
    UINT8 *data;
    UINTN size;

    if (EFI_ERROR(read_file(root, CMDLINE_PATH, &data, &size)))
        return FALSE;
    for (UINTN i = 0; i < size && data[i]; i++)
        text_putc(t, data[i]);
    text_end(t);
    FreePool(data);
    return t->len != 0;
}

static const CHAR16 *get_cmdline(const EFI_LOADED_IMAGE *li, EFI_FILE_HANDLE root,
                                 struct boot_info *bi)
{
    struct text t = {bi->cmdline, sizeof(bi->cmdline), 0, FALSE};
    const CHAR16 *from = L"LoadOptions";

    if (!cmdline_from_options(li, &t)) {
        t = (struct text){bi->cmdline, sizeof(bi->cmdline), 0, FALSE};
        from = cmdline_from_file(root, &t) ? L"cmdline.txt" : L"none";
    }
    if (t.truncated)
        Print(L"stackshift: warning: command line truncated to %d bytes\n", (int)t.len);
    return from;
}

/* UEFI 2.10 section 4.6: the configuration table names ACPI and the devicetree by GUID. */
static void find_tables(struct boot_info *bi)
{
    UINT64 acpi10 = 0;

    for (UINTN i = 0; i < ST->NumberOfTableEntries; i++) {
        EFI_CONFIGURATION_TABLE *ct = &ST->ConfigurationTable[i];
        UINT64 addr = (UINT64)(UINTN)ct->VendorTable;

        if (!CompareGuid(&ct->VendorGuid, &acpi20_guid))
            bi->acpi_rsdp_phys = addr;
        else if (!CompareGuid(&ct->VendorGuid, &acpi10_guid))
            acpi10 = addr;
        else if (!CompareGuid(&ct->VendorGuid, &fdt_guid))
            bi->fdt_phys = addr;
    }
    if (!bi->acpi_rsdp_phys)
        bi->acpi_rsdp_phys = acpi10;
    bi->efi_runtime_phys = (UINT64)(UINTN)ST->RuntimeServices;
}

#define FDT_MAGIC    0xd00dfeedu
#define FDT_SIZE_MAX (16u << 20) /* sanity bound on totalsize */

static UINT32 be32(const UINT8 *p)
{
    return (UINT32)p[0] << 24 | (UINT32)p[1] << 16 | (UINT32)p[2] << 8 | p[3];
}

/* Big-endian magic at offset 0, totalsize at offset 4 (Devicetree Specification v0.4, 5.2). */
UINT64 fdt_total_size(UINT64 fdt)
{
    const UINT8 *h = (const UINT8 *)(UINTN)fdt;
    UINT32 size;

    if (!fdt || be32(h) != FDT_MAGIC)
        return 0;
    size = be32(h + 4);
    return size <= FDT_SIZE_MAX ? size : 0;
}

/*
 * The firmware's devicetree sits in boot-services data (seen on QEMU's AAVMF), which the memory
 * map reports USABLE: a kernel that allocates a page before it has parsed the tree could
 * overwrite it. So pass a copy in loader data (reported LOADER: reclaimable once parsed). If the
 * copy cannot be made, the original pointer is passed as is.
 */
static void keep_fdt(struct boot_info *bi)
{
    UINT64 size = fdt_total_size(bi->fdt_phys);
    EFI_PHYSICAL_ADDRESS copy = BELOW_4G;

    if (!bi->fdt_phys)
        return;
    if (!size) {
        Print(L"stackshift: warning: devicetree at 0x%lx has a bad header\n", bi->fdt_phys);
        return;
    }
    if (EFI_ERROR(
            BS->AllocatePages(AllocateMaxAddress, EfiLoaderData, EFI_SIZE_TO_PAGES(size), &copy)))
        return;
    CopyMem((VOID *)(UINTN)copy, (VOID *)(UINTN)bi->fdt_phys, size);
    bi->fdt_phys = copy;
}

/*
 * "<FirmwareVendor> rev 0x<FirmwareRevision>, UEFI <major>.<minor>". Hdr.Revision is
 * (major << 16) | minor with minor in hundredths-style digits: 2.70 is (2 << 16) | 70
 * (UEFI 2.10 section 4.3, EFI_SYSTEM_TABLE revisions). UnicodeSPrint bounds the output.
 */
static void firmware_name(struct boot_info *bi)
{
    CHAR16 tmp[BOOT_FIRMWARE_MAX];
    struct text t = {bi->firmware, sizeof(bi->firmware), 0, FALSE};

    UnicodeSPrint(tmp, sizeof(tmp), L"%s rev 0x%x, UEFI %d.%02d",
                  ST->FirmwareVendor ? ST->FirmwareVendor : L"unknown", ST->FirmwareRevision,
                  ST->Hdr.Revision >> 16, ST->Hdr.Revision & 0xffff);
    for (UINTN i = 0; i < BOOT_FIRMWARE_MAX && tmp[i]; i++)
        text_putc(&t, tmp[i]);
    text_end(&t);
}

/*
 * EFI_RNG_PROTOCOL (UEFI 2.10, "Random Number Generator Protocol" in the Secure Technologies
 * chapter), default algorithm (NULL). Some implementations
 * cap a single request, so fall back from 64 to 32 bytes. Absent or failing: seed_len stays 0.
 */
static EFI_STATUS get_seed(struct boot_info *bi)
{
    static const UINTN sizes[] = {64, 32};
    EFI_RNG_PROTOCOL *rng;
    EFI_STATUS st;

    st = BS->LocateProtocol(&rng_guid, NULL, (VOID **)&rng);
    if (EFI_ERROR(st))
        return st;
    for (UINTN i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        st = rng->GetRNG(rng, NULL, sizes[i], bi->seed);
        if (!EFI_ERROR(st)) {
            bi->seed_len = (UINT32)sizes[i];
            return st;
        }
    }
    ZeroMem(bi->seed, sizeof(bi->seed));
    return st;
}

static void set_console(struct boot_info *bi)
{
#if defined(__x86_64__)
    bi->console = (struct boot_console){BOOT_CONSOLE_NS16550_PIO, 0, 0x3f8}; /* COM1 */
#else
    bi->console = (struct boot_console){BOOT_CONSOLE_NONE, 0, 0}; /* DT stdout-path */
#endif
}

static struct boot_info *alloc_boot_info(void)
{
    EFI_PHYSICAL_ADDRESS addr = BELOW_4G; /* like the kernel */
    struct boot_info *bi;

    if (EFI_ERROR(BS->AllocatePages(AllocateMaxAddress, EfiLoaderData,
                                    EFI_SIZE_TO_PAGES(sizeof(*bi)), &addr)))
        return NULL;
    bi = (struct boot_info *)(UINTN)addr;
    ZeroMem(bi, sizeof(*bi));
    bi->magic = BOOT_INFO_MAGIC;
    bi->version = BOOT_INFO_VERSION;
    bi->size = sizeof(*bi);
    bi->path = BOOT_PATH_UEFI;
    return bi;
}

static void print_progress(const struct kernel_image *k, UINTN file_size,
                           const struct boot_info *bi, const CHAR16 *cmd_from, EFI_STATUS rng)
{
    Print(L"stackshift: %s %ld bytes -> 0x%lx..0x%lx, entry 0x%lx; %a\n", KERNEL_PATH,
          (UINT64)file_size, k->phys, k->phys + k->size, k->entry, bi->firmware);
    Print(L"stackshift: cmdline \"%a\" (%s); rng ", bi->cmdline, cmd_from);
    if (bi->seed_len)
        Print(L"%d bytes", (int)bi->seed_len);
    else
        Print(L"none (%r)", rng);
    Print(L"; RSDP 0x%lx; FDT 0x%lx\n", bi->acpi_rsdp_phys, bi->fdt_phys);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
    EFI_LOADED_IMAGE *li;
    EFI_FILE_HANDLE root;
    struct kernel_image kernel;
    struct boot_info *bi;
    const CHAR16 *cmd_from;
    UINT8 *file;
    UINTN file_size;
    EFI_STATUS st, rng;

    InitializeLib(image, systab);

    /* 1. The volume we came from: LoadedImage.DeviceHandle (UEFI 2.10 section 9.1). */
    st = BS->HandleProtocol(image, &LoadedImageProtocol, (VOID **)&li);
    if (EFI_ERROR(st))
        return fail(L"no loaded-image protocol", st);
    root = LibOpenRoot(li->DeviceHandle);
    if (!root)
        return fail(L"cannot open the boot volume", EFI_UNSUPPORTED);
    st = read_file(root, KERNEL_PATH, &file, &file_size);
    if (EFI_ERROR(st))
        return fail(L"cannot read " KERNEL_PATH, st);

    /* 2. */
    st = elf_load(file, file_size, &kernel);
    FreePool(file);
    if (EFI_ERROR(st))
        return fail(L"cannot load " KERNEL_PATH, st);

    /* 3. */
    bi = alloc_boot_info();
    if (!bi)
        return fail(L"no memory for boot_info", EFI_OUT_OF_RESOURCES);
    bi->kernel_phys = kernel.phys;
    bi->kernel_size = kernel.size;

    /* 4-6. */
    cmd_from = get_cmdline(li, root, bi);
    root->Close(root);
    find_tables(bi);
    keep_fdt(bi);
    firmware_name(bi);
    rng = get_seed(bi);
    set_console(bi);

    /* 7. Last words through the firmware console, then the memory map. */
    print_progress(&kernel, file_size, bi, cmd_from, rng);
    st = exit_boot_services(image, bi);
    if (EFI_ERROR(st)) {
        /* Best effort: after a failed ExitBootServices the console may already be gone. */
        Print(L"stackshift: ExitBootServices failed: %r\n", st);
        return st;
    }

    /* 8. */
    arch_handoff(kernel.entry, bi);
}
