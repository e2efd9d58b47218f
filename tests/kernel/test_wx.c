/* SPDX-License-Identifier: MIT */
/*
 * tests/kernel/test_wx.c - W^X in every mapping the kernel keeps: its text
 * and read-only data cannot be written through any address (the direct
 * map included), no page is writable and executable at once, and code is
 * rewritten only through a mapping made for the patch and removed after it
 * (kernel/mm/mm_init.c, kernel/text_patch.c).
 */
#include "arch/arch.h"
#include "kernel/arch_callbacks.h"
#include "kernel/errno.h"
#include "kernel/ktest.h"
#include "kernel/mm.h"
#include "kernel/mm/vm.h"
#include "kernel/syscall/path.h"
#include "kernel/text_patch.h"

/* A store of what is there already (harmless if it lands) to `va` faults. */
static bool store_faults(uintptr_t va)
{
    uint64_t v;
    va = ALIGN_DOWN(va, 8);
    if (arch_safe_read64(va, &v) != 0)
        return false; /* not even readable: not the alias this test is about */
    return arch_safe_write64(va, v) == -EFAULT;
}

/* The direct map's view of a kernel address in the image. */
static uintptr_t direct_alias(const void *p)
{
    return (uintptr_t)phys_to_virt(arch_kernel_phys_base() +
                                   ((uintptr_t)p - (uintptr_t)_kernel_start));
}

/* A text page and a rodata page: their stores fault through the image's
 * mapping and through the direct map. (The syscall table is rodata.) */
KTEST(mm, code_and_rodata_read_only_in_direct_map)
{
    const void *text = (const void *)syscall_dispatch_off;
    const void *rodata = (const void *)&syscall_paths[0][0];
    KEXPECT((uintptr_t)rodata >= (uintptr_t)_etext && (uintptr_t)rodata < (uintptr_t)_erodata);
    KEXPECT(store_faults((uintptr_t)text));
    KEXPECT(store_faults((uintptr_t)rodata));
    KEXPECT(store_faults(direct_alias(text)));
    KEXPECT(store_faults(direct_alias(rodata)));
}

struct wx_scan {
    uint64_t code_lo, code_hi; /* physical range of text and rodata */
    unsigned writable_code;    /* leaves mapping part of it writable */
    unsigned wx;               /* leaves writable and executable */
    uintptr_t first_bad_va;
};

static void scan_leaf(uintptr_t va, uint64_t pa, uint64_t size, unsigned prot, void *arg)
{
    struct wx_scan *s = arg;
    bool bad = false;
    if ((prot & VM_WRITE) && pa < s->code_hi && pa + size > s->code_lo) {
        s->writable_code++;
        bad = true;
    }
    if ((prot & VM_WRITE) && (prot & VM_EXEC)) {
        s->wx++;
        bad = true;
    }
    if (bad && !s->first_bad_va)
        s->first_bad_va = va;
}

static void scan_kernel(struct wx_scan *s)
{
    s->code_lo = arch_kernel_phys_base();
    s->code_hi = s->code_lo + ((uintptr_t)_erodata - (uintptr_t)_kernel_start);
    s->writable_code = s->wx = 0;
    s->first_bad_va = 0;
    vm_for_each_leaf(&kernel_aspace, scan_leaf, s);
}

struct patch_probe {
    struct wx_scan during;
    bool window_mapped;
};

/* Inside a patch: take the window as arch_text_patch_call does, write
 * nothing, and scan while it is there. */
static void alias_and_scan(void *arg)
{
    struct patch_probe *p = arg;
    (void)text_patch_alias(arch_syscall_call_site);
    uintptr_t va;
    size_t size;
    p->window_mapped = text_patch_window(&va, &size);
    scan_kernel(&p->during);
}

/* Every leaf of the kernel's page tables: none maps text or rodata
 * writable, none is writable and executable, once a patch is over; while
 * one is written, exactly the patch window is (which shows the scan sees
 * such a mapping). */
KTEST(mm, no_writable_alias_of_code_and_no_wx_page)
{
    struct patch_probe p = {0};
    text_patch_run(alias_and_scan, &p);
    KEXPECT(p.window_mapped);
    KEXPECT_EQ(p.during.writable_code, 2); /* the window's two pages */
    KEXPECT_EQ(p.during.wx, 0);

    struct wx_scan after;
    scan_kernel(&after);
    uintptr_t va;
    size_t size;
    KEXPECT(!text_patch_window(&va, &size));
    KEXPECT_EQ(after.writable_code, 0);
    KEXPECT_EQ(after.wx, 0);
    if (after.first_bad_va)
        ktest_note("first offending mapping at %#lx", (unsigned long)after.first_bad_va);
}

/* The strategy switch still works through the window: choosing the one in
 * force rewrites the call to what it was, and leaves no window behind. */
KTEST(mm, patch_window_gone_after_a_switch)
{
    syscall_path_select(syscall_path_strategy());
    struct wx_scan after;
    scan_kernel(&after);
    KEXPECT_EQ(after.writable_code, 0);
}
