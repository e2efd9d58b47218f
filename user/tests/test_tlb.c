/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_tlb.c - a page unmapped on one CPU must be gone on every CPU.
 *
 * Run as "test_tlb", it starts itself as "test_tlb reader" ROUNDS times and
 * checks through sys_wait() how each child ended. In the child, a reader thread
 * pinned to CPU 1 reads a heap page over and over, so CPU 1's TLB holds the
 * translation; the main thread, pinned to CPU 0, shrinks the heap (brk) so
 * that the page is unmapped and freed, and then raises a flag. The reader
 * looks at the flag before each read: once it has seen it, the kernel's
 * TLB shootdown has finished, and the read must fault, so the kernel kills
 * the child with SEGV. A read that succeeds went through a stale TLB entry
 * on CPU 1 (a shootdown that missed the other CPUs, into a page the kernel
 * may already have given to someone else): the reader exits with STALE.
 */
#include "lib/user/ulib.h"

#define PAGE       4096ul
#define ROUNDS     3
#define WARM_READS 10000 /* reads before the unmap: the translation is cached */
#define STALE      3     /* the reader read the page after the unmap */
#define NO_FAULT   4     /* nothing happened within 30 s of the unmap */
#define NOT_SET_UP 5     /* heap, thread or CPU placement failed */

static volatile uint64_t *page;
static volatile int unmapped;
static volatile unsigned long warm_reads;
static volatile int reader_cpu = -1;
static char reader_stack[16384] __attribute__((aligned(16))); /* in .bss, not the heap */

static void reader(void *arg)
{
    sys_sched_setaffinity(0, 2);
    yield();
    reader_cpu = getcpu();
    for (;;) {
        int after = __atomic_load_n(&unmapped, __ATOMIC_ACQUIRE);
        (void)page[0]; /* must fault once `after` is set */
        if (after)
            exit(STALE);
        warm_reads++;
    }
}

/* The child: returns only if something went wrong. */
static int child(void)
{
    sys_sched_setaffinity(0, 1);
    yield();
    char *start = (char *)(((uintptr_t)sys_brk(0) + PAGE - 1) & ~(PAGE - 1));
    if (sys_brk(start + PAGE) != start + PAGE)
        return NOT_SET_UP;
    page = (volatile uint64_t *)start;
    page[0] = 42;
    if (thread_create(reader, NULL, reader_stack, sizeof(reader_stack)) < 0)
        return NOT_SET_UP;
    /* Both waits end as soon as the reader has run (guest events); their
     * limits, 60 s and 30 s, only end a kernel that never runs it. A busy
     * host can leave CPU 1's thread unscheduled for seconds. */
    uint64_t deadline = now_ns() + 60000000000ull;
    while (warm_reads < WARM_READS && now_ns() < deadline)
        sleep_ns(1000000);
    if (warm_reads < WARM_READS || reader_cpu != 1 || getcpu() != 0)
        return NOT_SET_UP;
    sys_brk(start); /* unmapped on CPU 0, while CPU 1 is reading it */
    __atomic_store_n(&unmapped, 1, __ATOMIC_RELEASE);
    for (int i = 0; i < 30; i++)
        sleep_ns(1000000000ull); /* the reader's next read ends the program */
    return NO_FAULT;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "reader") == 0)
        return child();
    struct debug_stats st;
    syscall1(SYS_debug_stats, &st);
    if (st.cpus_online < 2) {
        ktap_skip("tlb.unmapped_page_faults_on_other_cpus", "needs two CPUs");
        return ktap_done();
    }
    int bad = 0;
    for (int round = 0; round < ROUNDS; round++) {
        const char *args[] = {"test_tlb", "reader", NULL};
        int status = -1, pid = spawn("test_tlb", args);
        if (pid < 0 || sys_wait(pid, &status) != pid || status != EXIT_KILLED_SEGV) {
            ktap_note("round %d: pid %d, exit status %d, expected %d (SEGV; %d = stale read, "
                      "%d = no fault, %d = not set up)",
                      round, pid, status, EXIT_KILLED_SEGV, STALE, NO_FAULT, NOT_SET_UP);
            bad++;
        }
    }
    ktap_check(bad == 0, "tlb.unmapped_page_faults_on_other_cpus");
    return ktap_done();
}
