/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_malloc.c - newlib's malloc on the kernel's brk: a child makes
 * 10^5 random malloc, calloc, realloc and free calls over 1024 slots,
 * filling each block with its own byte and checking every byte before it
 * is freed or moved; at the end everything is freed and malloc_trim must
 * give the heap back to the kernel. The parent checks the child's verdict and that the
 * kernel has as many free pages after the child as before it
 * (SYS_debug_free_pages): the heap, stack and page tables all came back.
 */
#include <malloc.h> /* malloc_trim */

#include "lib/user/ulib.h"

#define SLOTS 1024
#define OPS   100000

enum { CORRUPT = 1, NO_MEMORY = 2, NOT_ALL_FREED = 4 }; /* the child's exit status */

struct slot {
    unsigned char *p;
    size_t size;
    unsigned char fill;
};

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t next_random(void) /* xorshift64 */
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 32);
}

/* Mostly small blocks, some pages, a few large enough to move the break. */
static size_t random_size(void)
{
    uint32_t r = next_random();
    if (r % 100 < 2)
        return 4096 + r % 28672;
    if (r % 100 < 22)
        return 257 + r % 3840;
    return 1 + r % 256;
}

/* Every byte of [p, p + n) is `fill` (word by word: malloc aligns to 8). */
static bool intact(const unsigned char *p, size_t n, unsigned char fill)
{
    uint64_t w = 0x0101010101010101ull * fill;
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        if (*(const uint64_t *)(p + i) != w)
            return false;
    for (; i < n; i++)
        if (p[i] != fill)
            return false;
    return true;
}

/* One random operation on a slot: free, realloc, malloc or calloc (the
 * block then filled with op's byte). Its verdict bits; *filled says
 * whether the slot holds a new fill. */
static int stress_op(struct slot *sl, unsigned op, bool *filled)
{
    int result = 0;
    *filled = false;
    if (sl->p && !intact(sl->p, sl->size, sl->fill))
        result |= CORRUPT;
    uint32_t what = next_random() % 10;
    if (sl->p && what < 5) { /* free */
        free(sl->p);
        sl->p = NULL;
        return result;
    } else if (sl->p && what < 7) { /* realloc: the old bytes must move along */
        size_t size = random_size();
        unsigned char *q = realloc(sl->p, size);
        if (!q)
            return result | NO_MEMORY;
        if (!intact(q, size < sl->size ? size : sl->size, sl->fill))
            result |= CORRUPT;
        sl->p = q, sl->size = size;
    } else if (!sl->p) { /* malloc, or calloc, which must give zeros */
        size_t size = random_size();
        bool zeroed = what == 9;
        sl->p = zeroed ? calloc(1, size) : malloc(size);
        if (!sl->p)
            return result | NO_MEMORY;
        if (zeroed && !intact(sl->p, size, 0))
            result |= CORRUPT;
        sl->size = size;
    } else {
        return result;
    }
    sl->fill = (unsigned char)(op * 37 + 11);
    memset(sl->p, sl->fill, sl->size);
    *filled = true;
    return result;
}

static int stress(void)
{
    static struct slot s[SLOTS];
    int result = 0;
    size_t peak = 0;
    unsigned char *start_brk = sbrk(0);
    for (unsigned op = 0; op < OPS; op++) {
        bool filled;
        result |= stress_op(&s[next_random() % SLOTS], op, &filled);
        size_t used = (size_t)((unsigned char *)sbrk(0) - start_brk);
        peak = filled && used > peak ? used : peak;
    }
    for (unsigned i = 0; i < SLOTS; i++) {
        if (s[i].p && !intact(s[i].p, s[i].size, s[i].fill))
            result |= CORRUPT;
        free(s[i].p);
    }
    /* Everything freed: malloc_trim hands the top of the heap back to the
     * kernel (a negative sbrk), all but a page or two. (newlib 3.3.0's
     * mallinfo() is no help: on aarch64 the struct it fills is half the
     * size of the one <malloc.h> declares.) */
    malloc_trim(0);
    size_t left = (size_t)((unsigned char *)sbrk(0) - start_brk);
    if (left > 8192)
        result |= NOT_ALL_FREED;
    printf("    # malloc stress: %d operations, heap peak %zu KiB, %zu KiB after malloc_trim, "
           "verdict %d\n",
           OPS, peak / 1024, left / 1024, result);
    return result;
}

static int run_child(const char *what)
{
    const char *argv[] = {"test_malloc", what, NULL};
    int status = -1, pid = spawn("test_malloc", argv);
    return pid > 0 && sys_wait(pid, &status) == pid ? status : -1;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        return strcmp(argv[1], "stress") == 0 ? stress() : 0;
    /* A first child warms the kernel's caches (a kernel stack is kept for reuse). */
    KTAP_EXPECT_EQ(run_child("warm-up"), 0, "newlib.malloc_child_runs");
    long before = syscall0(SYS_debug_free_pages);
    int status = run_child("stress");
    long after = syscall0(SYS_debug_free_pages);
    bool ran = status >= 0 && status < 8; /* not killed: a verdict */
    if (!ran)
        ktap_note("the stress child ended with status %d", status);
    ktap_check(ran && !(status & CORRUPT), "newlib.malloc_stress_contents_intact");
    ktap_check(ran && !(status & NO_MEMORY), "newlib.malloc_stress_no_failed_allocation");
    ktap_check(ran && !(status & NOT_ALL_FREED), "newlib.malloc_stress_heap_given_back");
    if (before != after)
        ktap_note("free pages before the child %ld, after %ld", before, after);
    ktap_check(before == after, "newlib.malloc_no_pages_left_after_exit");
    return ktap_done();
}
