/* SPDX-License-Identifier: MIT */
/*
 * kernel/ipc/fastpath_long.c - a long message on the fastpath: its extra
 * words go once, from the sender's buffer straight into the receiver's,
 * both reached through the kernel's direct map of the pages they are
 * mapped to (docs/ipc.md, "Long messages on the fastpath").
 *
 * Under sched_lock, IRQs off, so it must not fault and must not wait:
 * - both buffers are looked up in their address spaces' page tables
 *   (vm_query) and must be mapped as ipc_set_buffer requires (the user's
 *   to read and write) and be RAM, which the direct map maps: the copy
 *   touches no user mapping and cannot fault. Else the ordinary path takes
 *   the message, nothing written;
 * - their pages stay mapped and allocated: each address space's lock is
 *   held from the look-up to the end of the copy. vm_unmap clears an entry
 *   under that lock and frees the page only after dropping it, so a page
 *   found mapped under the lock is freed, at the earliest, after the copy.
 *   The look-up is kept per thread (buf_map) while the address space has
 *   unmapped nothing (aspace.unmaps, counted under the same lock);
 * - no wait: the locks are only tried (spin_trylock_irqs_off). A sibling
 *   thread that holds one (unmapping, and perhaps waiting for this CPU to
 *   acknowledge a TLB shootdown) makes the fastpath give up, never wait:
 *   no lock order to break, whoever holds what.
 */
#include "kernel/ipc/fastpath_long.h"

#include "kernel/mm/vm.h"
#include "kernel/sched/sched.h"
#include "kernel/task.h"
#include "kernel/uapi/ipc.h"

/* A buffer of IPC_BUF_WORDS words spans at most two pages. */
#define SPAN_PAGES 2

/* Where the bytes [va, va + len) of `as` are in the direct map: up to two
 * pieces, split at the page boundary; false if a page is not the user's to
 * read and write, or is device memory. as->lock held. */
static bool resolve(struct aspace *as, uintptr_t va, size_t len, unsigned char *piece[SPAN_PAGES])
{
    const unsigned need = VM_USER | VM_READ | VM_WRITE;
    if (va >= USER_TOP || len > USER_TOP - va)
        return false;
    uintptr_t page = va & ~(uintptr_t)(PAGE_SIZE - 1);
    for (int i = 0; i < SPAN_PAGES; i++, page += PAGE_SIZE) {
        uint64_t pa;
        unsigned prot;
        if (page >= va + len) {
            piece[i] = NULL;
            continue;
        }
        if (!vm_query(as, page, &pa, &prot) || (prot & need) != need || (prot & VM_DEVICE))
            return false;
        piece[i] = (unsigned char *)page_va(pa);
    }
    return true;
}

/* t's whole buffer in the direct map, looked up again only if it moved
 * or its address space has unmapped anything since. as->lock held. */
static unsigned char *const *buffer_pieces(struct aspace *as, struct thread *t)
{
    struct ipc_buf_map *m = &t->ipc.buf_map;
    uintptr_t va = t->ipc.ubuf;
    if (m->va == va && m->gen == as->unmaps)
        return m->piece;
    m->va = 0;
    if (!resolve(as, va, IPC_BUF_WORDS * sizeof(uint64_t), m->piece))
        return NULL;
    m->va = va;
    m->gen = as->unmaps;
    return m->piece;
}

#ifndef ARCH_HAS_COPY_WORDS
/* n words, eight at a time (LDP/STP pairs on arm64, which the compiler
 * makes of it; LD/SD on riscv64, which has no pairs). */
static void arch_copy_words(uint64_t *d, const uint64_t *s, size_t n)
{
    for (; n >= 8; n -= 8, d += 8, s += 8) {
        uint64_t a = s[0], b = s[1], c = s[2], e = s[3], f = s[4], g = s[5], h = s[6], k = s[7];
        d[0] = a, d[1] = b, d[2] = c, d[3] = e, d[4] = f, d[5] = g, d[6] = h, d[7] = k;
    }
    while (n--)
        *d++ = *s++;
}
#endif

/* The address of byte `off` of a buffer at va, found in two pieces. */
static unsigned char *at(unsigned char *const piece[SPAN_PAGES], uintptr_t va, size_t off)
{
    size_t first = PAGE_SIZE - (va & (PAGE_SIZE - 1));
    return off < first ? piece[0] + (va & (PAGE_SIZE - 1)) + off : piece[1] + (off - first);
}

/* Bytes from offset `off` of a buffer at va to the end of its page. */
static size_t to_page_end(uintptr_t va, size_t off)
{
    return PAGE_SIZE - ((va + off) & (PAGE_SIZE - 1));
}

/* len bytes, both buffers through the direct map: at most three runs,
 * none crossing a page of either. */
static void copy_pieces(unsigned char *const dst[SPAN_PAGES], uintptr_t dva,
                        unsigned char *const src[SPAN_PAGES], uintptr_t sva, size_t len)
{
    for (size_t off = 0; off < len;) {
        size_t run = len - off, d = to_page_end(dva, off), s = to_page_end(sva, off);
        run = run < d ? run : d;
        run = run < s ? run : s;
        arch_copy_words((uint64_t *)(void *)at(dst, dva, off),
                        (const uint64_t *)(const void *)at(src, sva, off), run / sizeof(uint64_t));
        off += run;
    }
}

/* (fastpath_long.h) Each lock only tried: see the top of this file. */
bool ipc_fast_copy_long_locked(struct thread *from, struct thread *to, size_t n)
{
    struct aspace *sas = &from->task->as, *das = &to->task->as;
    uintptr_t sva = from->ipc.ubuf, dva = to->ipc.ubuf;
    if (!sva || !dva || !spin_trylock_irqs_off(&sas->lock))
        return false;
    bool two = das != sas; /* threads of one program share one */
    bool ok = false;
    if (!two || spin_trylock_irqs_off(&das->lock)) {
        unsigned char *const *src = buffer_pieces(sas, from);
        unsigned char *const *dst = src ? buffer_pieces(das, to) : NULL;
        ok = dst != NULL;
        if (ok)
            copy_pieces(dst, dva, src, sva, n * sizeof(uint64_t));
        if (two)
            spin_unlock_irqs_off(&das->lock);
    }
    spin_unlock_irqs_off(&sas->lock);
    return ok;
}
