/* SPDX-License-Identifier: MIT */
/*
 * boot/efi/elf.c - place the ELF64 kernel in physical memory (UEFI loader, x86_64 and arm64).
 *
 * The kernel is linked at a high virtual address (0xffffffff80000000 region) but entered at its
 * physical load address, so the loader ignores p_paddr and keeps only the *shape* of the image:
 * one block covering [lowest PT_LOAD p_vaddr, highest p_vaddr + p_memsz), each segment copied to
 * block + (p_vaddr - lowest), everything else (.bss, gaps) zero. The block is 2 MiB aligned so
 * the kernel can map itself with 2 MiB pages, and below 4 GiB so 32-bit early code could reach it.
 *
 * Structures and constants are from the System V gABI, "ELF Header" and "Program Header"
 * (ELF-64 Object File Format 1.5); the file may be unaligned, so headers are copied out before use.
 */
#include "loader.h"

#define EI_NIDENT   16
#define ELFCLASS64  2
#define ELFDATA2LSB 1
#define EV_CURRENT  1
#define ET_EXEC     2
#define PT_LOAD     1
#define EM_X86_64   62
#define EM_AARCH64  183

#if defined(__x86_64__)
#define ELF_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define ELF_MACHINE EM_AARCH64
#else
#error "unsupported loader architecture"
#endif

/* Refuse absurd images: a teaching kernel is a few MiB; 1 GiB catches garbage vaddrs. */
#define KERNEL_SPAN_MAX (1ull << 30)

struct elf64_ehdr {
    UINT8 e_ident[EI_NIDENT];
    UINT16 e_type;
    UINT16 e_machine;
    UINT32 e_version;
    UINT64 e_entry;
    UINT64 e_phoff;
    UINT64 e_shoff;
    UINT32 e_flags;
    UINT16 e_ehsize;
    UINT16 e_phentsize;
    UINT16 e_phnum;
    UINT16 e_shentsize;
    UINT16 e_shnum;
    UINT16 e_shstrndx;
};

struct elf64_phdr {
    UINT32 p_type;
    UINT32 p_flags;
    UINT64 p_offset;
    UINT64 p_vaddr;
    UINT64 p_paddr;
    UINT64 p_filesz;
    UINT64 p_memsz;
    UINT64 p_align;
};

static EFI_STATUS bad_elf(const CHAR16 *why)
{
    Print(L"stackshift: kernel.elf: %s\n", why);
    return EFI_LOAD_ERROR;
}

/* Segments that occupy memory; the same test is used to validate and to copy. */
static BOOLEAN loaded(const struct elf64_phdr *ph)
{
    return ph->p_type == PT_LOAD && ph->p_memsz != 0;
}

static EFI_STATUS check_ehdr(const struct elf64_ehdr *eh, UINTN size)
{
    const UINT8 *id = eh->e_ident;

    if (id[0] != 0x7f || id[1] != 'E' || id[2] != 'L' || id[3] != 'F')
        return bad_elf(L"not an ELF file");
    if (id[4] != ELFCLASS64 || id[5] != ELFDATA2LSB || id[6] != EV_CURRENT)
        return bad_elf(L"not ELF64 little endian version 1");
    if (eh->e_type != ET_EXEC)
        return bad_elf(L"not ET_EXEC");
    if (eh->e_machine != ELF_MACHINE)
        return bad_elf(L"built for another architecture");
    if (eh->e_phentsize != sizeof(struct elf64_phdr) || eh->e_phnum == 0)
        return bad_elf(L"bad program header size or count");
    /* e_phnum <= 65535 entries of 56 bytes: the product cannot overflow, the sum is checked. */
    if (eh->e_phoff > size || size - eh->e_phoff < (UINT64)eh->e_phnum * sizeof(struct elf64_phdr))
        return bad_elf(L"program headers outside the file");
    return EFI_SUCCESS;
}

static void get_phdr(const UINT8 *file, const struct elf64_ehdr *eh, UINTN i, struct elf64_phdr *ph)
{
    CopyMem(ph, (VOID *)(file + eh->e_phoff + i * sizeof(*ph)), sizeof(*ph));
}

/*
 * Check every PT_LOAD and return the virtual span they cover. The gABI requires PT_LOAD entries
 * sorted by p_vaddr; requiring them not to overlap as well lets the copy below be order-free.
 */
static EFI_STATUS load_span(const UINT8 *file, UINTN size, const struct elf64_ehdr *eh, UINT64 *lo,
                            UINT64 *hi)
{
    struct elf64_phdr ph;
    UINT64 end = 0;
    BOOLEAN any = FALSE;

    for (UINTN i = 0; i < eh->e_phnum; i++) {
        get_phdr(file, eh, i, &ph);
        if (!loaded(&ph))
            continue;
        if (ph.p_filesz > ph.p_memsz || ph.p_offset > size || size - ph.p_offset < ph.p_filesz)
            return bad_elf(L"PT_LOAD data outside the file");
        if (ph.p_vaddr + ph.p_memsz < ph.p_vaddr)
            return bad_elf(L"PT_LOAD wraps the address space");
        if (any && ph.p_vaddr < end)
            return bad_elf(L"PT_LOAD segments unsorted or overlapping");
        if (!any)
            *lo = ph.p_vaddr;
        end = ph.p_vaddr + ph.p_memsz;
        any = TRUE;
    }
    if (!any)
        return bad_elf(L"no PT_LOAD segment");
    *hi = end;
    if (*hi - *lo > KERNEL_SPAN_MAX)
        return bad_elf(L"PT_LOAD span larger than 1 GiB");
    if (eh->e_entry < *lo || eh->e_entry >= *hi)
        return bad_elf(L"entry point outside the loaded image");
    if (*lo & (SZ_2M - 1))
        Print(L"stackshift: warning: lowest vaddr 0x%lx is not 2 MiB aligned\n", *lo);
    return EFI_SUCCESS;
}

/*
 * One block of `size` bytes, 2 MiB aligned, entirely below 4 GiB. UEFI only promises 4 KiB page
 * alignment, so ask for 2 MiB more than needed, round the start up, and give back the unused
 * head and tail pages (edk2 and the spec's FreePages accept any sub-range of an allocation; if
 * a firmware refuses, the pages simply stay allocated as loader data).
 */
static EFI_STATUS alloc_2m_aligned(UINT64 size, UINT64 *phys)
{
    UINTN need = EFI_SIZE_TO_PAGES(size);
    UINTN total = need + SZ_2M / SZ_4K;
    EFI_PHYSICAL_ADDRESS addr = BELOW_4G;
    EFI_STATUS st;

    st = BS->AllocatePages(AllocateMaxAddress, EfiLoaderData, total, &addr);
    if (EFI_ERROR(st)) {
        Print(L"stackshift: no %ld KiB below 4 GiB for the kernel: %r\n", (UINT64)total * 4, st);
        return st;
    }
    UINT64 aligned = (addr + SZ_2M - 1) & ~(SZ_2M - 1);
    UINTN head = (aligned - addr) / SZ_4K;
    UINTN tail = total - head - need;

    if (head)
        BS->FreePages(addr, head);
    if (tail)
        BS->FreePages(aligned + need * SZ_4K, tail);
    *phys = aligned;
    return EFI_SUCCESS;
}

EFI_STATUS elf_load(const VOID *file_v, UINTN size, struct kernel_image *out)
{
    const UINT8 *file = file_v;
    struct elf64_ehdr eh;
    struct elf64_phdr ph;
    UINT64 lo = 0, hi = 0, base;
    EFI_STATUS st;

    if (size < sizeof(eh))
        return bad_elf(L"shorter than an ELF header");
    CopyMem(&eh, (VOID *)file, sizeof(eh));
    st = check_ehdr(&eh, size);
    if (EFI_ERROR(st))
        return st;
    st = load_span(file, size, &eh, &lo, &hi);
    if (EFI_ERROR(st))
        return st;
    st = alloc_2m_aligned(hi - lo, &base);
    if (EFI_ERROR(st))
        return st;

    ZeroMem((VOID *)(UINTN)base, hi - lo);
    for (UINTN i = 0; i < eh.e_phnum; i++) {
        get_phdr(file, &eh, i, &ph);
        if (loaded(&ph) && ph.p_filesz)
            CopyMem((VOID *)(UINTN)(base + (ph.p_vaddr - lo)), (VOID *)(file + ph.p_offset),
                    ph.p_filesz);
    }
    out->phys = base;
    out->size = hi - lo;
    out->entry = base + (eh.e_entry - lo);
    return EFI_SUCCESS;
}
