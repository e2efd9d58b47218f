/* SPDX-License-Identifier: MIT */
/*
 * lib/elf.h - validate a static ELF64 executable and list what to load.
 * Format: System V ABI (gABI) chapter 4 "Object Files", ELF-64 layout.
 * Freestanding: used by the kernel's program loader and the host tests.
 */
#ifndef LIB_ELF_H
#define LIB_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EM_X86_64  62
#define EM_AARCH64 183
#define EM_RISCV   243

#define ELF_MAX_SEGMENTS 8

enum elf_error {
    ELF_OK = 0,
    ELF_ERR_HEADER = -1,  /* not a little-endian 64-bit ELF executable */
    ELF_ERR_MACHINE = -2, /* built for another CPU */
    ELF_ERR_PHDRS = -3,   /* program headers outside the file or malformed */
    ELF_ERR_SEGMENT = -4, /* a segment outside the file, overlapping, wrapping or out of range */
    ELF_ERR_ENTRY = -5    /* entry point not in an executable segment */
};

#define ELF_SEG_R 4 /* PF_R */
#define ELF_SEG_W 2 /* PF_W */
#define ELF_SEG_X 1 /* PF_X */

struct elf_segment {
    uint64_t vaddr, memsz;   /* where it goes and how big it is in memory */
    uint64_t offset, filesz; /* the bytes from the file; the rest is zero */
    uint32_t flags;          /* ELF_SEG_R | W | X */
};

struct elf_image {
    uint64_t entry;
    int nsegments;
    struct elf_segment seg[ELF_MAX_SEGMENTS];
};

/*
 * Check data[0..size) is an ET_EXEC for `machine` whose PT_LOAD segments lie
 * in the file and in [lo, hi), do not overlap, are never both writable and
 * executable, and contain the entry point in an executable one. Fills *img.
 */
int elf_parse(const void *data, size_t size, unsigned machine, uint64_t lo, uint64_t hi,
              struct elf_image *img);

#endif
