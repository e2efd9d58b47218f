/* SPDX-License-Identifier: MIT */
/*
 * Host tests for lib/elf.c: executables built here byte by byte (gABI
 * ELF-64 layout), each rule of elf_parse broken once, and a mutation sweep
 * under ASan/UBSan.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "lib/elf.h"

#define LO 0x10000ull
#define HI 0x4000000000ull

static uint8_t file[8192];

static void put(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void phdr(int i, uint32_t type, uint32_t flags, uint64_t off, uint64_t va, uint64_t filesz,
                 uint64_t memsz)
{
    uint8_t *p = file + 64 + 56 * i;
    put(p, type, 4), put(p + 4, flags, 4), put(p + 8, off, 8), put(p + 16, va, 8);
    put(p + 32, filesz, 8), put(p + 40, memsz, 8);
}

/* Text at 0x400000 (R+X, 0x1000 bytes from offset 0x1000), data at 0x402000
 * (R+W, 0x100 bytes in the file, 0x3000 in memory), and a PT_NOTE to skip. */
static void build(void)
{
    memset(file, 0, sizeof file);
    memcpy(file,
           "\x7f"
           "ELF\x02\x01\x01",
           7);
    put(file + 16, 2, 2), put(file + 18, EM_RISCV, 2), put(file + 24, 0x400010, 8);
    put(file + 32, 64, 8), put(file + 54, 56, 2), put(file + 56, 3, 2);
    phdr(0, 1, 5, 0x1000, 0x400000, 0x1000, 0x1000);
    phdr(1, 1, 6, 0x1800, 0x402000, 0x100, 0x3000);
    phdr(2, 4, 4, 0x200, 0, 0x20, 0x20);
}

static int parse(size_t size, struct elf_image *img)
{
    return elf_parse(file, size, EM_RISCV, LO, HI, img);
}

TEST(valid_executable)
{
    struct elf_image img;
    build();
    CHECK_EQ_INT(parse(sizeof file, &img), ELF_OK);
    CHECK_EQ_INT(img.entry, 0x400010);
    CHECK_EQ_INT(img.nsegments, 2);
    CHECK_EQ_INT(img.seg[0].flags, ELF_SEG_R | ELF_SEG_X);
    CHECK_EQ_INT(img.seg[1].memsz, 0x3000);
    CHECK_EQ_INT(img.seg[1].filesz, 0x100);
    CHECK_EQ_INT(elf_parse(file, sizeof file, EM_X86_64, LO, HI, &img), ELF_ERR_MACHINE);
}

TEST(rejects_each_broken_rule)
{
    struct elf_image img;
    build(), file[4] = 1; /* 32-bit */
    CHECK_EQ_INT(parse(sizeof file, &img), ELF_ERR_HEADER);
    build(), put(file + 16, 3, 2); /* ET_DYN */
    CHECK_EQ_INT(parse(sizeof file, &img), ELF_ERR_HEADER);
    build();
    CHECK_EQ_INT(parse(63, &img), ELF_ERR_HEADER);
    build(), put(file + 32, sizeof file - 8, 8); /* program headers past the end */
    CHECK_EQ_INT(parse(sizeof file, &img), ELF_ERR_PHDRS);
    build(), put(file + 54, 32, 2);
    CHECK_EQ_INT(parse(sizeof file, &img), ELF_ERR_PHDRS);
    build(), phdr(1, 1, 6, 0x1800, 0x402000, 0x4000, 0x3000); /* filesz > memsz */
    CHECK_EQ_INT(parse(sizeof file, &img), ELF_ERR_SEGMENT);
    build(), phdr(1, 1, 6, 0x1f00, 0x402000, 0x200, 0x3000); /* bytes past the file */
    CHECK_EQ_INT(parse(sizeof file, &img), ELF_ERR_SEGMENT);
    build(), phdr(1, 1, 7, 0x1800, 0x402000, 0x100, 0x3000); /* writable and executable */
    CHECK_EQ_INT(parse(sizeof file, &img), ELF_ERR_SEGMENT);
    build(), phdr(1, 1, 6, 0x1800, 0x400800, 0x100, 0x100); /* shares a page with text */
    CHECK_EQ_INT(parse(sizeof file, &img), ELF_ERR_SEGMENT);
    build(), phdr(1, 1, 6, 0x1800, 0x1000, 0x100, 0x100); /* below user space */
    CHECK_EQ_INT(parse(sizeof file, &img), ELF_ERR_SEGMENT);
    build(), phdr(1, 1, 6, 0x1800, HI - 0x100, 0x100, 0x200); /* past its end */
    CHECK_EQ_INT(parse(sizeof file, &img), ELF_ERR_SEGMENT);
    build(), phdr(1, 1, 6, 0x1800, UINT64_MAX - 0xfff, 0x100, 0x2000); /* wraps */
    CHECK_EQ_INT(parse(sizeof file, &img), ELF_ERR_SEGMENT);
    build(), put(file + 24, 0x402000, 8); /* entry in data */
    CHECK_EQ_INT(parse(sizeof file, &img), ELF_ERR_ENTRY);
    build(), phdr(0, 4, 5, 0, 0, 0, 0), phdr(1, 4, 5, 0, 0, 0, 0); /* nothing to load */
    CHECK_EQ_INT(parse(sizeof file, &img), ELF_ERR_SEGMENT);
}

TEST(mutations_never_crash)
{
    uint64_t s = 99;
    int accepted = 0;
    for (int i = 0; i < 20000; i++) {
        build();
        for (int k = 0; k < 4; k++) {
            s = s * 6364136223846793005ull + 1;
            file[(s >> 33) % 256] = (uint8_t)(s >> 24);
        }
        size_t size = 64 + (s >> 40) % (sizeof file - 64);
        uint8_t *copy = malloc(size); /* exact size, so ASan sees any over-read */
        memcpy(copy, file, size);
        struct elf_image img;
        if (elf_parse(copy, size, EM_RISCV, LO, HI, &img) == ELF_OK) {
            accepted++;
            for (int j = 0; j < img.nsegments; j++)
                CHECK(img.seg[j].offset + img.seg[j].filesz <= size);
        }
        free(copy);
    }
    printf("    # %d of 20000 mutated files accepted\n", accepted);
}

RUN_TESTS("elf", CASE(valid_executable), CASE(rejects_each_broken_rule),
          CASE(mutations_never_crash))
