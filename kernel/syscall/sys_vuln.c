/* SPDX-License-Identifier: MIT */
/*
 * kernel/syscall/sys_vuln.c - two DELIBERATELY VULNERABLE system call paths, the
 * targets of user/demos/vuln_demo.c (docs/attacks.md, "Two stack bugs").
 * They are compiled only with make VULN=1 (build/<arch>-vuln, which says so
 * in the boot banner); every other kernel has empty slots for them in the
 * system call table and answers -ENOSYS. Neither bug can hurt the machine:
 * each "exploit" can do no more than make the call return 1.
 *
 * What the random stack offset does against them: each call's handler runs
 * at its own random depth (kernel/syscall/syscall.c, the bump). A bug that needs two
 * calls' frames to line up then works only when the two draws are equal,
 * 1 in 64 for independent draws, instead of every time.
 *
 * Each bug puts the two calls of its attack in one function, with a mode
 * argument, so that their frames have one layout: under strategy `off`
 * they are at the same depth, and the attack always wins. The handlers
 * are wrappers of the same shape around it (one call, no locals); noipa
 * stops gcc from inlining it or cloning it per constant mode (each clone
 * could have its own frame layout).
 */
#include "kernel/errno.h"
#include "kernel/syscall/syscall.h"
#include "kernel/uaccess.h"
#include "kernel/uapi/vuln.h"

#if CONFIG_VULN

enum { VULN_FILL, VULN_USE, VULN_LEAK, VULN_WRITE };

/*
 * Bug 1: an uninitialised stack variable.
 *
 * SYS_vuln_fill copies the caller's struct vuln_request into a local and
 * returns: the 16 bytes stay behind on the kernel stack. SYS_vuln_use
 * compares the caller's token with req.token, which on its path nothing
 * ever sets (as if a lookup that should fill it in had been skipped), and
 * "grants access" (returns 1) when they are equal. The attacker plants its
 * token with the first call and presents it with the second: it wins when
 * the second call's req.token is the word the first call's copy wrote.
 *
 * One depth only: the attacker controls 16 bytes, one offset step, so a
 * use at any other offset reads a word the fill did not write. Spraying is
 * ruled out by the size of the request (a bigger user buffer copied into a
 * bigger local would let the attacker cover all 64 depths at once, and the
 * offset would not help at all). Tokens planted by earlier attempts would
 * do the same over time, so the demo uses a new token on every attempt;
 * token 0 never wins (an unused stack is full of zeros).
 *
 * Keeping the bug in the binary: reading req.token on the use path is
 * reading an uninitialised variable, which gcc may fold to anything or
 * warn about. The empty asm says it may have written req (the "+m"
 * operand), so gcc must keep req in this frame and load req.token from
 * memory after it. -Wuninitialized and -Wmaybe-uninitialized rightly
 * object to the asm reading req (they see the bug); they are silenced for
 * this function only, because the bug is the point.
 *
 * vuln_granted counts the uses that returned 1 (SYS_debug_stats reports
 * it): a test can check an attacker's claimed wins against the kernel's.
 */
unsigned long vuln_granted;

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
static __attribute__((noipa)) long vuln_request(int mode, uintptr_t arg)
{
    struct vuln_request req;
    if (mode == VULN_FILL) {
        if (copy_from_user(&req, arg, sizeof(req)) != 0)
            return -EFAULT;
        bool nop = req.op == VULN_OP_NOP;
        if (!nop)
            req.token = 0;                /* a refused request leaves nothing behind */
        __asm__ volatile("" : "+m"(req)); /* the copy stays in the frame */
        return nop ? 0 : -EINVAL;
    }
    __asm__ volatile("" : "+m"(req)); /* BUG: req was never written on this path */
    bool granted = arg != 0 && req.token == arg;
    if (granted) /* counted here, in the shared frame: the wrappers stay alike */
        __atomic_fetch_add(&vuln_granted, 1, __ATOMIC_RELAXED);
    return granted;
}

/*
 * Bug 1, wide: the same bug in a handler that takes a batch of
 * VULN_WIDE_REQUESTS requests into one local and checks the middle one's
 * token, which on the use path nothing writes. The fill plants the
 * attacker's 2 KiB, 1 KiB either side of that token: whatever the two
 * calls' offsets, the use's token lies inside what the fill wrote (their
 * depths differ by at most KSTACK_OFFSET_MAX, 1008 bytes), so this spray
 * wins under every strategy. Only clearing the stack a call used on its
 * way out (kstack.erase, kernel/syscall/erase.c) stops it. A batch with any
 * request not VULN_OP_NOP is refused and leaves no token behind.
 */
static __attribute__((noipa)) long vuln_wide(int mode, uintptr_t arg)
{
    struct vuln_request reqs[VULN_WIDE_REQUESTS];
    if (mode == VULN_FILL) {
        if (copy_from_user(reqs, arg, sizeof(reqs)) != 0)
            return -EFAULT;
        bool nop = true;
        for (unsigned i = 0; i < VULN_WIDE_REQUESTS; i++)
            nop &= reqs[i].op == VULN_OP_NOP;
        for (unsigned i = 0; i < VULN_WIDE_REQUESTS && !nop; i++)
            reqs[i].token = 0;
        __asm__ volatile("" : "+m"(reqs)); /* the copy stays in the frame */
        return nop ? 0 : -EINVAL;
    }
    __asm__ volatile("" : "+m"(reqs)); /* BUG: reqs was never written on this path */
    bool granted = arg != 0 && reqs[VULN_WIDE_REQUESTS / 2].token == arg;
    if (granted)
        __atomic_fetch_add(&vuln_granted, 1, __ATOMIC_RELAXED);
    return granted;
}
#pragma GCC diagnostic pop

/* The second argument picks the wide variant; both calls of each variant
 * go through the same wrappers, so their frames stay alike. */
long sys_vuln_fill(const struct sysargs *args)
{
    return args->a[1] == 1 ? vuln_wide(VULN_FILL, args->a[0]) : vuln_request(VULN_FILL, args->a[0]);
}

long sys_vuln_use(const struct sysargs *args)
{
    return args->a[1] == 1 ? vuln_wide(VULN_USE, args->a[0]) : vuln_request(VULN_USE, args->a[0]);
}

/*
 * Bug 2: a stack address that is reused.
 *
 * SYS_vuln_leak returns the address of a local: a kernel stack address in
 * user hands. SYS_vuln_write is a write-what-where, limited to exactly one
 * address: it writes `value` only when `addr` is the address of the same
 * local in its own frame (and the canary it put there is in place), and
 * returns 1; any other address writes nothing and returns 0. The attacker
 * leaks with one call and aims with the next: without an offset the two
 * frames are at the same depth and the write lands; with one, it lands
 * only when the two draws are equal.
 *
 * gcc turns `return &local` into `return 0` (the address is useless to a
 * correct caller); the empty asm hides where the number came from.
 */
#define VULN_CANARY 0x5afe57ac4ca9a11eul

static __attribute__((noipa)) long vuln_slot(int mode, uintptr_t addr, unsigned long value)
{
    volatile unsigned long slot = VULN_CANARY;
    uintptr_t here = (uintptr_t)&slot;
    __asm__("" : "+r"(here));
    if (mode == VULN_LEAK)
        return (long)here; /* BUG: a kernel stack address to user space */
    if (addr != here || slot != VULN_CANARY)
        return 0;
    *(volatile unsigned long *)addr = value; /* BUG: the caller chose where */
    return slot == value;
}

long sys_vuln_leak(const struct sysargs *args)
{
    return vuln_slot(VULN_LEAK, 0, 0);
}

long sys_vuln_write(const struct sysargs *args)
{
    return vuln_slot(VULN_WRITE, args->a[0], args->a[1]);
}

#endif /* CONFIG_VULN */
