/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_asid.c - address spaces switched without a TLB flush
 * (ASIDs, kernel/mm/asid.c) must still see only their own pages.
 *
 *   test_asid rollover   PROCS copies of "test_asid pattern K", half of them
 *                        on CPU 0 and half on CPU 1, each writing its own
 *                        pattern to the same virtual address (a page of its
 *                        .bss), yielding, and checking that the whole page
 *                        still holds it, ROUNDS times. With mm.asid_limit=2
 *                        every switch between two of them starts a new ASID
 *                        generation and reuses the one value: a CPU that
 *                        skipped the flush would show one program the
 *                        other's page.
 *   test_asid unmap      a reader thread on CPU 1 reads a heap page while
 *                        the main thread, on CPU 0, unmaps it and maps new
 *                        pages there, UNMAP_ROUNDS times. In even rounds
 *                        another program on CPU 1 takes turns with the
 *                        reader, so the reader's translation is under an
 *                        ASID not loaded when the page goes; in odd rounds
 *                        the reader spins, its ASID loaded throughout.
 *                        After each remap the reader must see the new
 *                        page's value.
 *
 * Each exits 0 if all was well, STALE if a program saw what was not its
 * own, NOT_SET_UP if the test could not be arranged. The kernel side
 * (tests/kernel/test_asid.c) checks the status and the generations.
 */
#include "lib/user/ulib.h"

#define PAGE_WORDS 512
#define PAGE       4096ul
#define STALE      3
#define NOT_SET_UP 5

/* ---- rollover ------------------------------------------------------------ */

#define PROCS         6
#define PATTERN_ROUND 300

static uint64_t own_page[PAGE_WORDS] __attribute__((aligned(4096)));

static uint64_t pattern(unsigned k, unsigned round)
{
    return 0xa51d000000000000ull | (uint64_t)k << 32 | round;
}

/* One program: its pattern, a switch, and the same pattern back. */
static int pattern_child(unsigned k, unsigned cpus)
{
    sys_sched_setaffinity(0, 1ul << (k % cpus));
    yield();
    for (unsigned r = 0; r < PATTERN_ROUND; r++) {
        for (unsigned i = 0; i < PAGE_WORDS; i++)
            own_page[i] = pattern(k, r);
        yield();
        for (unsigned i = 0; i < PAGE_WORDS; i++) {
            if (own_page[i] != pattern(k, r)) {
                ktap_note("program %u, round %u: word %u is %#llx, not %#llx", k, r, i,
                          (unsigned long long)own_page[i], (unsigned long long)pattern(k, r));
                return STALE;
            }
        }
    }
    return 0;
}

static int spawn_pattern(unsigned k, unsigned cpus)
{
    char num[3] = {(char)('0' + k), (char)('0' + cpus), 0}; /* both below 10 */
    const char *args[] = {"test_asid", "pattern", num, NULL};
    return spawn("test_asid", args);
}

static int wait_all(const int *pids, unsigned n)
{
    int bad = 0;
    for (unsigned i = 0; i < n; i++) {
        int status = -1;
        if (pids[i] < 0 || sys_wait(pids[i], &status) != pids[i] || status != 0) {
            ktap_note("program %u: pid %d, exit status %d", i, pids[i], status);
            bad++;
        }
    }
    return bad;
}

static int rollover(unsigned cpus)
{
    int pids[PROCS];
    for (unsigned k = 0; k < PROCS; k++)
        pids[k] = spawn_pattern(k, cpus);
    return wait_all(pids, PROCS) ? STALE : 0;
}

/* ---- stale after unmap ----------------------------------------------------- */

#define UNMAP_ROUNDS 40
#define READS        2000
#define TAKER_TURNS  20000

static volatile uint64_t *heap;
static volatile long published; /* the round whose pages are mapped */
static volatile long seen;      /* the last round the reader checked */
static char reader_stack[16384] __attribute__((aligned(16)));

static uint64_t token(long round)
{
    return 0x7e57000000000000ull | (uint64_t)round;
}

/* Another program on CPU 1 that takes turns with the reader. */
static int turn_taker(void)
{
    sys_sched_setaffinity(0, 2);
    for (int i = 0; i < TAKER_TURNS; i++)
        yield();
    return 0;
}

static void reader(void *arg)
{
    (void)arg;
    sys_sched_setaffinity(0, 2);
    yield();
    for (long r = 1; r <= UNMAP_ROUNDS; r++) {
        bool take_turns = r % 2 == 0;
        while (__atomic_load_n(&published, __ATOMIC_ACQUIRE) < r) {
            if (take_turns)
                yield(); /* the turn taker runs: this ASID is not loaded meanwhile */
        }
        for (int i = 0; i < READS; i++) {
            uint64_t v = heap[0];
            if (v != token(r)) {
                ktap_note("round %ld: the reader on CPU %d read %#llx, not %#llx", r, getcpu(),
                          (unsigned long long)v, (unsigned long long)token(r));
                exit(STALE);
            }
            if (take_turns && i % 500 == 0)
                yield();
        }
        __atomic_store_n(&seen, r, __ATOMIC_RELEASE);
    }
    thread_exit();
}

/* Two pages at `start`: freed in order and taken back from the free list
 * the other way round, so a stale translation of the first page leads to
 * the second (which holds something else). */
static bool map_round(char *start, long round)
{
    if (sys_brk(start + 2 * PAGE) != start + 2 * PAGE)
        return false;
    heap = (volatile uint64_t *)start;
    heap[0] = token(round);
    heap[PAGE_WORDS] = ~token(round);
    __atomic_store_n(&published, round, __ATOMIC_RELEASE);
    return true;
}

static bool wait_seen(long round)
{
    uint64_t deadline = now_ns() + 60000000000ull; /* only ends a reader that never runs */
    while (__atomic_load_n(&seen, __ATOMIC_ACQUIRE) < round && now_ns() < deadline)
        yield();
    return seen >= round;
}

static int unmap_remap(void)
{
    sys_sched_setaffinity(0, 1);
    yield();
    char *start = (char *)(((uintptr_t)sys_brk(0) + PAGE - 1) & ~(PAGE - 1));
    if (!map_round(start, 1) || thread_create(reader, NULL, reader_stack, sizeof(reader_stack)) < 0)
        return NOT_SET_UP;
    const char *args[] = {"test_asid", "taker", NULL};
    int taker = spawn("test_asid", args);
    for (long r = 2; r <= UNMAP_ROUNDS; r++) {
        if (!wait_seen(r - 1))
            return NOT_SET_UP;
        sys_brk(start); /* unmapped while CPU 1 may hold the translation */
        if (!map_round(start, r))
            return NOT_SET_UP;
    }
    if (!wait_seen(UNMAP_ROUNDS))
        return NOT_SET_UP;
    int status = -1;
    if (taker < 0 || sys_wait(taker, &status) != taker || status != 0)
        return NOT_SET_UP;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "pattern") == 0 && strlen(argv[2]) == 2)
        return pattern_child((unsigned)(argv[2][0] - '0'), (unsigned)(argv[2][1] - '0'));
    if (argc > 1 && strcmp(argv[1], "taker") == 0)
        return turn_taker();
    struct debug_stats st = {0};
    syscall1(SYS_debug_stats, &st);
    unsigned cpus = st.cpus_online < 2 ? 1 : 2;
    if (argc > 1 && strcmp(argv[1], "rollover") == 0)
        return rollover(cpus);
    if (argc > 1 && strcmp(argv[1], "unmap") == 0)
        return cpus < 2 ? NOT_SET_UP : unmap_remap();
    return NOT_SET_UP;
}
