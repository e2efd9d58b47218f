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
#include "kernel/mm/kstack.h"
#include "kernel/mm/kvmap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/vm.h"
#include "kernel/sched/sched.h"
#include "kernel/uaccess.h"
#include "lib/string.h"

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

/*
 * The user copies move 64 bytes a turn, then 8, then single bytes
 * (arch/<arch>/uaccess.S): each loop must put every word where it
 * belongs, and a fault in any of them must end the copy with -EFAULT
 * (each user access in the exception table), in both directions. The
 * copies below start near the end of the one mapped page, so that the
 * fault comes in the loop named.
 */
struct copy_case {
    size_t back, n; /* start `back` bytes before the page's end, copy n */
};
static const struct copy_case faulting[] = {
    {128, 512}, /* the 64-byte loop's third turn */
    {16, 40},   /* the 8-byte loop's third word */
    {3, 5},     /* bytes (unaligned), the fourth */
};

static uint8_t copy_buf[2][PAGE_SIZE] __attribute__((aligned(64)));

static int copies_round_trip(uintptr_t uva, size_t n)
{
    for (size_t i = 0; i < n; i++)
        copy_buf[0][i] = (uint8_t)(i * 7 + n);
    if (copy_to_user(uva, copy_buf[0], n) != 0 || copy_from_user(copy_buf[1], uva, n) != 0)
        return -1;
    return memcmp(copy_buf[0], copy_buf[1], n) == 0 ? 0 : 1;
}

static void probe_copies(struct aspace *as, int *round_trips, int *faults)
{
    static const size_t sizes[] = {PAGE_SIZE, 64 * 2 + 8 * 3 + 5, 512, 7};
    preempt_disable();
    aspace_activate(as);
    *round_trips = 0;
    for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        *round_trips += copies_round_trip(TEST_UVA + (i == 1 ? 8 : 0), sizes[i]) == 0;
    *faults = 0;
    for (unsigned i = 0; i < sizeof(faulting) / sizeof(faulting[0]); i++) {
        uintptr_t at = TEST_UVA + PAGE_SIZE - faulting[i].back;
        *faults += copy_from_user(copy_buf[1], at, faulting[i].n) == -EFAULT;
        *faults += copy_to_user(at, copy_buf[0], faulting[i].n) == -EFAULT;
    }
    aspace_activate(NULL);
    preempt_enable();
}

KTEST(mm, user_copies_fault_in_each_loop)
{
    struct aspace as;
    uint64_t pa = page_alloc();
    if (!pa || aspace_create(&as) != 0) {
        if (pa)
            page_free(pa);
        ktest_fail(__FILE__, __LINE__, "no memory for the test address space");
        return;
    }
    KEXPECT_EQ(vm_map(&as, TEST_UVA, pa, PAGE_SIZE, VM_USER | VM_READ | VM_WRITE), 0);
    int round_trips, faults;
    probe_copies(&as, &round_trips, &faults);
    aspace_destroy(&as);
    KEXPECT_EQ(round_trips, 4);
    KEXPECT_EQ(faults, 6);
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
