/* SPDX-License-Identifier: MIT */
/*
 * kernel/exec.c - load an ELF executable and its arguments (see exec.h).
 *
 * Each PT_LOAD segment gets fresh zeroed pages, filled from the file through
 * the direct map, then mapped with the segment's permissions plus VM_USER.
 * The stack holds, from the top: the argument strings, then (16-byte
 * aligned) argc, argv[0..argc-1], NULL. The program also gets argc and argv
 * in its first two argument registers.
 */
#include "kernel/exec.h"

#include "kernel/errno.h"
#include "lib/elf.h"
#include "lib/string.h"

static unsigned segment_prot(uint32_t flags)
{
    return VM_USER | ((flags & ELF_SEG_R) ? VM_READ : 0) | ((flags & ELF_SEG_W) ? VM_WRITE : 0) |
           ((flags & ELF_SEG_X) ? VM_EXEC : 0);
}

static int load_segment(struct aspace *as, const uint8_t *file, const struct elf_segment *s)
{
    uintptr_t start = ALIGN_DOWN(s->vaddr, PAGE_SIZE);
    uintptr_t end = ALIGN_UP(s->vaddr + s->memsz, PAGE_SIZE);
    for (uintptr_t page = start; page < end; page += PAGE_SIZE) {
        uint64_t pa = page_alloc();
        if (!pa)
            return -ENOMEM;
        /* The part of [vaddr, vaddr + filesz) that falls in this page. */
        uintptr_t lo = MAX(page, s->vaddr), hi = MIN(page + PAGE_SIZE, s->vaddr + s->filesz);
        if (lo < hi)
            memcpy((uint8_t *)page_va(pa) + (lo - page), file + s->offset + (lo - s->vaddr),
                   hi - lo);
        if (s->flags & ELF_SEG_X)
            arch_sync_icache(page_va(pa), PAGE_SIZE);
        if (vm_map(as, page, pa, PAGE_SIZE, segment_prot(s->flags)) != 0) {
            page_free(pa);
            return -ENOMEM;
        }
    }
    if (s->flags & ELF_SEG_X)
        arch_sync_icache_done();
    return 0;
}

/* Map the stack and write argc/argv into its top page. */
static int build_stack(struct aspace *as, int argc, const char *const argv[],
                       struct exec_result *out)
{
    size_t strings = 0;
    for (int i = 0; i < argc; i++)
        strings += strlen(argv[i]) + 1;
    size_t table = (size_t)(argc + 2) * sizeof(uintptr_t);
    if (argc < 0 || strings + table + 16 > PAGE_SIZE)
        return -E2BIG;
    uint64_t top_pa = 0;
    for (uintptr_t va = USER_STACK_TOP - USER_STACK_SIZE; va < USER_STACK_TOP; va += PAGE_SIZE) {
        uint64_t pa = page_alloc();
        if (!pa || vm_map(as, va, pa, PAGE_SIZE, VM_USER | VM_READ | VM_WRITE) != 0) {
            if (pa)
                page_free(pa);
            return -ENOMEM;
        }
        top_pa = pa;
    }
    uint8_t *top = (uint8_t *)page_va(top_pa) + PAGE_SIZE; /* kernel view of USER_STACK_TOP */
    uintptr_t str_user = USER_STACK_TOP - strings;
    uintptr_t sp = ALIGN_DOWN(str_user - table, 16);
    uintptr_t *slots = (uintptr_t *)(top - (USER_STACK_TOP - sp));
    slots[0] = (uintptr_t)argc;
    for (int i = 0; i < argc; i++) {
        size_t n = strlen(argv[i]) + 1;
        memcpy(top - (USER_STACK_TOP - str_user), argv[i], n);
        slots[1 + i] = str_user;
        str_user += n;
    }
    slots[1 + argc] = 0;
    out->sp = sp;
    out->argv = sp + sizeof(uintptr_t);
    return 0;
}

int exec_load(struct aspace *as, const void *image, size_t size, int argc, const char *const argv[],
              struct exec_result *out)
{
    struct elf_image img;
    if (elf_parse(image, size, ARCH_ELF_MACHINE, USER_IMAGE_BASE, USER_STACK_GUARD, &img) != 0)
        return -ENOEXEC;
    uintptr_t end = 0;
    for (int i = 0; i < img.nsegments; i++) {
        int err = load_segment(as, image, &img.seg[i]);
        if (err)
            return err;
        end = MAX(end, ALIGN_UP(img.seg[i].vaddr + img.seg[i].memsz, PAGE_SIZE));
    }
    out->entry = img.entry;
    out->brk_base = end;
    return build_stack(as, argc, argv, out);
}
