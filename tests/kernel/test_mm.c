/* SPDX-License-Identifier: MIT */
/*
 * tests/kernel/test_mm.c - memory protections the kernel switches on for
 * itself, checked by what happens rather than by reading control bits:
 *   - with a user address space loaded, the kernel's ordinary loads from a
 *     user page fault (x86 SMAP, arm64 PAN, riscv64 SUM = 0), before and
 *     after the user-copy routines ran, whether they succeeded or faulted
 *     (each opens the user window and must close it again);
 *   - a kernel stack has an unmapped guard page right below it, and faults
 *     there are recognised as stack overflows; so has each per-CPU area.
 * The third protection, no kernel execution of user pages (SMEP, PXN), ends
 * in a kernel fault by design, so it is the crash=exec-user boot instead.
 */
#include "kernel/errno.h"
#include "kernel/ktest.h"
#include "kernel/mm/kernel_stack.h"
#include "kernel/mm/kvmap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/vm.h"
#include "kernel/sched/sched.h"
#include "kernel/uaccess.h"

#define TEST_UVA 0x200000ul /* any user address: the address space is the test's own */

/* Plain kernel reads of a user page, and user copies in between, with
 * `as` loaded on this CPU. */
struct probe {
    int before, copy_in, after_copy, bad_copy, after_fault;
    uint64_t copied;
};

static void probe_user_page(struct aspace *as, struct probe *r)
{
    uint64_t v, word = 0x0123456789abcdefull;
    preempt_disable(); /* stay on this CPU, with these tables */
    aspace_activate(as);
    r->before = arch_safe_read64(TEST_UVA, &v);
    r->copy_in = copy_to_user(TEST_UVA + 8, &word, sizeof(word));
    r->after_copy = arch_safe_read64(TEST_UVA, &v);
    r->bad_copy = copy_from_user(&v, TEST_UVA + PAGE_SIZE, sizeof(v)); /* unmapped: faults */
    r->after_fault = arch_safe_read64(TEST_UVA, &v);
    copy_from_user(&r->copied, TEST_UVA + 8, sizeof(r->copied));
    aspace_activate(NULL);
    preempt_enable();
}

KTEST(mm, kernel_cannot_touch_user_pages)
{
    struct aspace as;
    uint64_t pa = page_alloc();
    KEXPECT(pa != 0);
    if (!pa || aspace_create(&as) != 0) {
        if (pa)
            page_free(pa);
        ktest_fail(__FILE__, __LINE__, "no memory for the test address space");
        return;
    }
    KEXPECT_EQ(vm_map(&as, TEST_UVA, pa, PAGE_SIZE, VM_USER | VM_READ | VM_WRITE), 0);
    struct probe r;
    probe_user_page(&as, &r);
    aspace_destroy(&as); /* frees pa too */
    KEXPECT_EQ(r.copy_in, 0);
    KEXPECT_EQ(r.copied, 0x0123456789abcdefull);
    KEXPECT_EQ(r.bad_copy, -EFAULT);
    if (!(arch_user_guards() & ARCH_GUARD_NO_ACCESS)) {
        ktest_note("this CPU cannot keep the kernel out of user pages: not checked");
        return;
    }
    KEXPECT_EQ(r.before, -EFAULT);
    KEXPECT_EQ(r.after_copy, -EFAULT);
    KEXPECT_EQ(r.after_fault, -EFAULT);
}

KTEST(mm, kernel_stacks_have_guard_pages)
{
    uintptr_t top[2] = {kstack_alloc(), kstack_alloc()};
    for (int i = 0; i < 2; i++) {
        KEXPECT(top[i] != 0);
        if (!top[i])
            continue;
        uintptr_t bottom = top[i] - KSTACK_SIZE;
        uint64_t v;
        KEXPECT_EQ(arch_safe_read64(bottom, &v), 0);
        KEXPECT_EQ(arch_safe_read64(top[i] - 8, &v), 0);
        KEXPECT_EQ(arch_safe_read64(bottom - 8, &v), -EFAULT);
        KEXPECT_EQ(arch_safe_read64(bottom - PAGE_SIZE, &v), -EFAULT);
        KEXPECT(kstack_is_guard(bottom - 8));
        KEXPECT(kstack_is_guard(bottom - PAGE_SIZE));
        KEXPECT(!kstack_is_guard(bottom));
        KEXPECT(!kstack_is_guard(top[i] - 8));
    }
    for (int i = 0; i < 2; i++) {
        if (top[i])
            kstack_free(top[i]);
    }
}

/* Per-CPU areas (kvmap_alloc): zeroed, writable to their last byte, each
 * above an unmapped guard page, and never overlapping the previous area. The
 * test's two small areas stay allocated (they are permanent by design). */
KTEST(mm, per_cpu_areas_have_guard_pages)
{
    uint8_t *a = kvmap_alloc(2 * PAGE_SIZE), *b = kvmap_alloc(100);
    KEXPECT(a && b);
    if (!a || !b)
        return;
    uint64_t v;
    KEXPECT_EQ(a[0] | a[2 * PAGE_SIZE - 1] | b[99], 0);
    a[2 * PAGE_SIZE - 1] = 0x5a;
    KEXPECT_EQ(arch_safe_read64((uintptr_t)a - 8, &v), -EFAULT);
    KEXPECT_EQ(arch_safe_read64((uintptr_t)b - 8, &v), -EFAULT);
    KEXPECT(kvmap_is_guard((uintptr_t)b - PAGE_SIZE));
    KEXPECT(!kvmap_is_guard((uintptr_t)b));
    KEXPECT((uintptr_t)b >= (uintptr_t)a + 3 * PAGE_SIZE);
    KEXPECT_EQ(a[2 * PAGE_SIZE - 1], 0x5a);
    KEXPECT(!kvmap_alloc(0));
}

/* ioremap maps device registers, nothing else: RAM (a free page, the
 * memory map's usable RAM) and ranges that are empty, wrap or run past the
 * direct map are refused (NULL), as a trimmed or malformed devicetree
 * might name them (kernel/mm/ioremap.c). */
KTEST(mm, ioremap_refuses_ram_and_outside_ranges)
{
    uint64_t page = page_alloc();
    KEXPECT(page != 0);
    KEXPECT(ioremap(page, 16) == NULL);
    KEXPECT(ioremap(page + PAGE_SIZE - 8, 16) == NULL); /* ending in it */
    page_free(page);
    KEXPECT(ioremap(ARCH_DIRECT_MAP_SIZE - 8, 16) == NULL);
    KEXPECT(ioremap(ARCH_DIRECT_MAP_SIZE, 4) == NULL);
    KEXPECT(ioremap(~0ull - 7, 16) == NULL);
    KEXPECT(ioremap(0x1000, 0) == NULL);
}
