/* SPDX-License-Identifier: MIT */
/*
 * kernel/ipc/fastpath_long.c - a long message on the fastpath: its extra
 * words go once, from the sender's user buffer (this CPU runs the sender's
 * address space) straight into the receiver's buffer through the kernel's
 * direct map of its pages (docs/ipc.md, "Long messages on the fastpath").
 *
 * Under sched_lock, IRQs off, so it must not fault and must not wait:
 * - both buffers are looked up in their address spaces' page tables
 *   (vm_query) and must be mapped as ipc_set_buffer requires (the user's
 *   to read and write) and be RAM, which the direct map maps; else the
 *   ordinary path takes the message, nothing written;
 * - their pages stay mapped and allocated: each address space's lock is
 *   held from the look-up to the end of the copy. vm_unmap clears an entry
 *   under that lock and frees the page only after dropping it, so a page
 *   found mapped under the lock is freed, at the earliest, after the copy.
 *   The look-up is kept per thread (buf_map) while the address space has
 *   unmapped nothing (aspace.unmaps, counted under the same lock);
 * - no wait: the locks are only tried (spin_trylock_masked). A sibling
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

/* Whether t's kept look-up still holds: its buffer has not moved and its
 * address space has unmapped nothing since. as->lock held. */
static inline __attribute__((always_inline)) bool kept(const struct aspace *as,
                                                       const struct thread *t)
{
    return t->ipc.buf_map.va == t->ipc.ubuf && t->ipc.buf_map.gen == as->unmaps;
}

/* t's whole buffer in the direct map, looked up again. as->lock held. */
static unsigned char *const *buffer_pieces(struct aspace *as, struct thread *t)
{
    struct ipc_buf_map *m = &t->ipc.buf_map;
    uintptr_t va = t->ipc.ubuf;
    if (kept(as, t))
        return m->piece;
    m->va = 0;
    if (!resolve(as, va, IPC_BUF_WORDS * sizeof(uint64_t), m->piece))
        return NULL;
    m->va = va;
    m->gen = as->unmaps;
    return m->piece;
}

/* The receiver's buffer crosses a page at `first` bytes into the words:
 * two runs. Out of line, so that the common run keeps no registers. */
static __attribute__((noinline)) bool copy_split(unsigned char *const dst[SPAN_PAGES],
                                                 unsigned char *d, size_t first, uintptr_t sva,
                                                 size_t len)
{
    return arch_copy_from_user(d, sva, first) == 0 &&
           arch_copy_from_user(dst[1], sva + first, len - first) == 0;
}

/* len bytes from the sender's buffer at sva, in the address space this
 * CPU runs (the sender's), into the receiver's pieces: the arch's user copy
 * (a word an instruction or two), one run per page of the receiver's. It
 * cannot fault: the sender's pages are mapped with their access and dirty
 * bits set (ARM64_PTE_AF, RV_PTE_A | RV_PTE_D) and stay so under its lock;
 * riscv64 may still fault on an invalid entry its hart cached, which its
 * trap handler retries without a lock (user_fault_was_stale). */
static inline __attribute__((always_inline)) bool copy_in(unsigned char *const dst[SPAN_PAGES],
                                                          uintptr_t dva, uintptr_t sva, size_t len)
{
    size_t first = PAGE_SIZE - (dva & (PAGE_SIZE - 1));
    unsigned char *d = dst[0] + (dva & (PAGE_SIZE - 1));
    if (len <= first)
        return arch_copy_from_user(d, sva, len) == 0;
    return copy_split(dst, d, first, sva, len);
}

/* Both buffers looked up again (a kept look-up was stale or never made),
 * then the copy; both locks held. Out of line: only the first long message
 * after a thread sets its buffer or its address space unmaps takes it. */
static __attribute__((noinline)) bool look_up_and_copy(struct aspace *sas, struct aspace *das,
                                                       struct thread *from, struct thread *to,
                                                       size_t len)
{
    /* The sender's buffer only looked up: mapped until the unlock. */
    unsigned char *const *dst = buffer_pieces(sas, from) ? buffer_pieces(das, to) : NULL;
    return dst && copy_in(dst, to->ipc.ubuf, from->ipc.ubuf, len);
}

/* The copy, both locks held: through the kept look-ups if both still hold. */
static inline __attribute__((always_inline)) bool copy_locked(struct aspace *sas,
                                                              struct aspace *das,
                                                              struct thread *from,
                                                              struct thread *to, size_t len)
{
    if (!kept(sas, from) || !kept(das, to))
        return look_up_and_copy(sas, das, from, to, len);
    return copy_in(to->ipc.buf_map.piece, to->ipc.ubuf, from->ipc.ubuf, len);
}

/* (fastpath_long.h) Each lock only tried: see the top of this file. */
bool ipc_fast_copy_long_locked(struct thread *from, struct thread *to, size_t n)
{
    struct aspace *sas = &from->task->as, *das = &to->task->as;
    if (!from->ipc.ubuf || !to->ipc.ubuf || !spin_trylock_masked(&sas->lock))
        return false;
    bool two = das != sas; /* threads of one program share one */
    bool ok = false;
    if (!two || spin_trylock_masked(&das->lock)) {
        ok = copy_locked(sas, das, from, to, n * sizeof(uint64_t));
        if (two)
            spin_release_masked(&das->lock);
    }
    spin_release_masked(&sas->lock);
    if (ok) /* this CPU's counter, sched_lock held: a plain add */
        arch_this_cpu()->ipc_fast.words_copied += n;
    return ok;
}
