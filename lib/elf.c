/* SPDX-License-Identifier: MIT */
/*
 * lib/elf.c - ELF64 executable validation (see elf.h).
 * Header offsets: e_ident 0 (16 bytes), e_type 16, e_machine 18, e_entry 24,
 * e_phoff 32, e_phentsize 54, e_phnum 56. Program header (56 bytes): p_type
 * 0, p_flags 4, p_offset 8, p_vaddr 16, p_filesz 32, p_memsz 40.
 * Fields are read byte by byte, so the file may sit at any alignment.
 */
#include "lib/elf.h"

#include "lib/string.h"

#define ET_EXEC   2
#define PT_LOAD   1
#define PHDR_SIZE 56
#define PAGE      4096u

static uint64_t le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static int check_header(const uint8_t *d, size_t size, unsigned machine)
{
    static const uint8_t ident[7] = {0x7f, 'E', 'L', 'F', 2 /* 64-bit */, 1 /* LE */, 1};
    if (size < 64 || memcmp(d, ident, sizeof(ident)) != 0 || le(d + 16, 2) != ET_EXEC)
        return ELF_ERR_HEADER;
    if (le(d + 18, 2) != machine)
        return ELF_ERR_MACHINE;
    uint64_t phoff = le(d + 32, 8), phnum = le(d + 56, 2);
    if (le(d + 54, 2) != PHDR_SIZE || phnum == 0 || phoff > size ||
        phnum * PHDR_SIZE > size - phoff)
        return ELF_ERR_PHDRS;
    return ELF_OK;
}

static int check_segment(const struct elf_segment *s, size_t size, uint64_t lo, uint64_t hi)
{
    if (s->filesz > s->memsz || s->offset > size || s->filesz > size - s->offset)
        return ELF_ERR_SEGMENT;
    if (s->vaddr < lo || s->memsz > hi - lo || s->vaddr > hi - s->memsz)
        return ELF_ERR_SEGMENT;
    if ((s->flags & ELF_SEG_W) && (s->flags & ELF_SEG_X))
        return ELF_ERR_SEGMENT; /* W^X */
    return ELF_OK;
}

/* Two segments may not share a page: each page gets one set of permissions. */
static bool pages_overlap(const struct elf_segment *a, const struct elf_segment *b)
{
    uint64_t a0 = a->vaddr / PAGE, a1 = (a->vaddr + a->memsz + PAGE - 1) / PAGE;
    uint64_t b0 = b->vaddr / PAGE, b1 = (b->vaddr + b->memsz + PAGE - 1) / PAGE;
    return a0 < b1 && b0 < a1;
}

int elf_parse(const void *data, size_t size, unsigned machine, uint64_t lo, uint64_t hi,
              struct elf_image *img)
{
    const uint8_t *d = data;
    int err = check_header(d, size, machine);
    if (err)
        return err;
    memset(img, 0, sizeof(*img));
    img->entry = le(d + 24, 8);
    const uint8_t *ph = d + le(d + 32, 8);
    bool entry_ok = false;
    for (uint64_t i = 0; i < le(d + 56, 2); i++, ph += PHDR_SIZE) {
        if (le(ph, 4) != PT_LOAD || le(ph + 40, 8) == 0)
            continue;
        if (img->nsegments == ELF_MAX_SEGMENTS)
            return ELF_ERR_PHDRS;
        struct elf_segment *s = &img->seg[img->nsegments];
        *s = (struct elf_segment){le(ph + 16, 8), le(ph + 40, 8), le(ph + 8, 8), le(ph + 32, 8),
                                  (uint32_t)le(ph + 4, 4) & 7};
        if ((err = check_segment(s, size, lo, hi)))
            return err;
        for (int j = 0; j < img->nsegments; j++) {
            if (pages_overlap(s, &img->seg[j]))
                return ELF_ERR_SEGMENT;
        }
        if ((s->flags & ELF_SEG_X) && img->entry >= s->vaddr && img->entry < s->vaddr + s->memsz)
            entry_ok = true;
        img->nsegments++;
    }
    if (img->nsegments == 0)
        return ELF_ERR_SEGMENT;
    return entry_ok ? ELF_OK : ELF_ERR_ENTRY;
}
