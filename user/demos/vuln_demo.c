/* SPDX-License-Identifier: MIT */
/*
 * user/demos/vuln_demo.c - attack the two deliberately vulnerable system
 * call paths of a make VULN=1 kernel (kernel/syscall/sys_vuln.c) under every stack
 * offset strategy, and print how often each attack wins (docs/attacks.md,
 * "Two stack bugs"): make run VULN=1 CMDLINE=run=vuln_demo.
 *
 *   fill_use    plant a token with SYS_vuln_fill, present it to
 *               SYS_vuln_use, whose uninitialised local must hold it
 *   addr_reuse  leak a local's address with SYS_vuln_leak, aim
 *               SYS_vuln_write at it
 *   spray       plant a token in every request of the wide variant's batch
 *               (1 KiB either side of the one the use checks): it covers
 *               every depth, so it wins under every strategy
 *
 * Both win only if the two calls' frames are at the same depth: always
 * under `off`, when the two offsets are equal (1 in 64) under a random
 * strategy. For each strategy and attack the program measures
 *   one-shot   TRIALS independent attempts (two calls each): the rate, with
 *              its 95% Wilson interval;
 *   retrying   RETRIES attackers who repeat an attempt until it wins: the
 *              median number of attempts (1 - (63/64)^n = 1/2 at n = 44.01,
 *              so 45 is expected);
 * and, for the LFSR113 strategies and `pool`, an attacker who first
 * recovers the generator's state from leaked offsets (the probe, as in
 * user/demos/attack_lfsr.c) and then predicts: fill_use waits, making harmless
 * calls, until the next two offsets are equal; addr_reuse moves the leaked
 * address by the difference of the two offsets. Every system call draws
 * one offset, so the attacker counts its own calls; it runs pinned to
 * CPU 0 (prng's generator is per CPU) and prints nothing while it predicts.
 *
 * Every attempt plants a new token and writes a new value: a token left
 * by an earlier attempt at another depth must not count for this one.
 * For off, prng and pool the narrow plant and the spray run once more with
 * kstack.erase on (kernel/syscall/erase.c): the stack a call used is
 * cleared on its way out, and the spray loses too. `run.args=guide` prints,
 * instead, where each call lands (the layout and the offsets seen) under
 * prng with its state recovered (docs/attacks.md, "The exploit progression").
 *
 * KTAP: vuln.fill_use.{off,prng,pool}, vuln.addr_reuse.{off,prng,pool},
 * vuln.spray.{off,prng,pool} judge the one-shot rate (bounds in judge()),
 * vuln.spray.*.erased the spray with kstack.erase (measure_erased()),
 * vuln.refused_fill_plants_nothing a refused request, vuln.fill_use.*.retrying the
 * retrying attackers' median (judge_retrying()), vuln.*.{prng,pool}.predicted
 * the predicting attacker's rate (judge_predicted()); the others are
 * reported. A fill_use win counts only if the kernel granted it too (its
 * count of SYS_vuln_use calls that returned 1, in SYS_debug_stats): an
 * attacker that claims wins it did not get fails. vuln.stats.* check the
 * interval and the median on known answers.
 *
 * Lab 8 (docs/labs/08-exploit.md) has the student write fill_use(), the
 * median and the Wilson interval, and in its part 2 spray_use().
 */
#include <math.h>
#include <stdarg.h>

#include "lib/lfsr113_solve.h"
#include "lib/user/ulib.h"
#include "lib/user/vuln.h"
#include "user/common/kstack_probe.h"

#define TRIALS       4096 /* one-shot attempts per strategy and attack */
#define RETRIES      101  /* retrying attackers (odd: the median is one of them) */
#define MAX_TRIES    2000 /* (63/64)^2000 < 1e-13: a retrying attacker always wins */
#define PRED_TRIALS  512  /* attempts of the predicting attacker */
#define ERASE_TRIALS 1024 /* attempts of each attack with kstack.erase on */
#define MAX_BURN     4096 /* calls it may make waiting for two equal offsets */
#define CHECK_DRAWS  8    /* offsets that must agree with the solved state */

enum attack { FILL_USE, ADDR_REUSE, SPRAY, NATTACKS };
static const char *const attack_names[NATTACKS] = {"fill_use", "addr_reuse", "spray"};

static unsigned long tokens = 0x70c3000000000000ul;

/*
 * The attacker of bug 1 (lab 8): one attempt with a fresh token, two system
 * calls. True if SYS_vuln_use granted access, i.e. its uninitialised local
 * held the token the attempt planted. Every win is also counted by the
 * kernel (SYS_debug_stats, vuln_granted); judge() believes the kernel.
 */
static bool fill_use(unsigned long token)
{
    /* LAB 8 BEGIN: plant the token with SYS_vuln_fill, then present it to SYS_vuln_use */
    struct vuln_request req = {VULN_OP_NOP, token};
    vuln_fill(&req);
    return vuln_use(token) == 1;
    /* LAB 8 STUB
    (void)token;
    return false;
    LAB 8 END */
}

/*
 * The spray (lab 8, part 2): one attempt against the wide variant of bug 1,
 * whose handler takes a batch of VULN_WIDE_REQUESTS requests into one local
 * and then checks the middle one's token. Plant `token` in every request of
 * the batch (each VULN_OP_NOP), present it to the wide use, and say whether
 * access was granted: whatever the two offsets, the middle of the use's
 * batch lies inside the 2 KiB the fill wrote.
 */
static struct vuln_request batch[VULN_WIDE_REQUESTS];

static bool spray_use(unsigned long token)
{
    /* LAB 8 BEGIN: plant the token in every request of a wide batch, then present it */
    for (unsigned i = 0; i < VULN_WIDE_REQUESTS; i++)
        batch[i] = (struct vuln_request){VULN_OP_NOP, token};
    vuln_fill_wide(batch);
    return vuln_use_wide(token) == 1;
    /* LAB 8 STUB
    (void)token, (void)batch;
    return false;
    LAB 8 END */
}

/* One attempt: two calls; true if the second found the first's frame. */
static bool attempt(enum attack a)
{
    unsigned long token = ++tokens;
    if (a == FILL_USE)
        return fill_use(token);
    if (a == SPRAY)
        return spray_use(token);
    long addr = vuln_leak();
    return vuln_write((unsigned long)addr, token) == 1;
}

/* A retrying attacker: attempts until one wins, at most MAX_TRIES; how many
 * it made, and in *won whether the last one won. */
static unsigned tries_to_win(enum attack a, bool *won)
{
    unsigned n = 1;
    while (!(*won = attempt(a)) && n < MAX_TRIES)
        n++;
    return n;
}

/* The uses the kernel granted so far (SYS_vuln_use returned 1). */
static unsigned long granted(void)
{
    struct debug_stats st;
    return syscall1(SYS_debug_stats, &st) == 0 ? st.vuln_granted : 0;
}

/* LAB 8 BEGIN: the median of n values (n odd; the values may be reordered) */
static int cmp_unsigned(const void *x, const void *y)
{
    unsigned a = *(const unsigned *)x, b = *(const unsigned *)y;
    return (a > b) - (a < b);
}

static unsigned median(unsigned *v, unsigned n)
{
    qsort(v, n, sizeof(v[0]), cmp_unsigned);
    return v[n / 2];
}
/* LAB 8 STUB
static unsigned median(unsigned *v, unsigned n)
{
    (void)v;
    (void)n;
    return 0;
}
LAB 8 END */

/* ---- the predicting attacker ---------------------------------------- */

static struct lfsr113_solver solver;

/* Observe offsets until the state is determined and CHECK_DRAWS more agree
 * with it; *g is then the generator after the last observed draw. False if
 * no LFSR113 state explains them (the strategy is something else). */
static bool recover(struct lfsr113 *g)
{
    lfsr113_solver_init(&solver);
    unsigned extra = 0;
    while (extra < CHECK_DRAWS) {
        long off = kstack_offset_now();
        if (off < 0 || !lfsr113_solver_add(&solver, (uint32_t)off))
            return false;
        extra += solver.rank == LFSR113_STATE_BITS;
    }
    lfsr113_solver_state(&solver, g);
    for (unsigned n = 0; n < solver.draws; n++)
        lfsr113_next(g);
    return solver.inconsistent == 0;
}

static uint32_t next_offset(struct lfsr113 *g)
{
    return lfsr113_next(g) & KSTACK_OFFSET_MASK;
}

/* One predicted attempt; *g follows every call it makes. */
static bool predicted_attempt(enum attack a, struct lfsr113 *g)
{
    unsigned long token = ++tokens;
    if (a == ADDR_REUSE) {
        uint32_t leak_off = next_offset(g), write_off = next_offset(g);
        long addr = vuln_leak();
        /* A deeper offset is a lower address. */
        return vuln_write((unsigned long)addr + leak_off - write_off, token) == 1;
    }
    struct lfsr113 t = *g;
    uint32_t first = next_offset(&t);
    unsigned burn = 0;
    for (uint32_t second; (second = next_offset(&t)) != first && burn < MAX_BURN; first = second)
        burn++;
    for (unsigned i = 0; i < burn; i++) /* harmless calls, each taking one draw */
        syscall0(SYS_getpid);
    for (unsigned i = 0; i < burn + 2; i++)
        next_offset(g);
    return fill_use(token);
}

/* PRED_TRIALS predicted attempts: wins. A probe after each one checks that
 * the attacker is still in step (another thread drawing on CPU 0 would
 * break it); out of step, it recovers the state again. */
static unsigned predicted(enum attack a, bool *fits, unsigned *resyncs)
{
    struct lfsr113 g;
    *fits = recover(&g);
    *resyncs = 0;
    unsigned wins = 0;
    for (unsigned i = 0; i < PRED_TRIALS; i++) {
        wins += predicted_attempt(a, &g);
        if (kstack_offset_now() != (long)next_offset(&g) && *fits && *resyncs < 8) {
            ++*resyncs;
            *fits = recover(&g);
        }
    }
    return wins;
}

/* ---- results ---------------------------------------------------------- */

/* The 95% Wilson score interval of k successes in n, in percent. */
static void wilson(unsigned k, unsigned n, double *lo, double *hi)
{
    /* LAB 8 BEGIN: the 95% Wilson score interval of k successes in n, in percent */
    const double z = 1.959964;
    double p = (double)k / n, z2n = z * z / n;
    double centre = (p + z2n / 2) / (1 + z2n);
    double half = z / (1 + z2n) * sqrt(p * (1 - p) / n + z2n / (4.0 * n));
    *lo = 100 * fmax(0, centre - half);
    *hi = 100 * fmin(1, centre + half);
    /* LAB 8 STUB
    (void)k;
    (void)n;
    *lo = *hi = 0;
    LAB 8 END */
}

/* wilson() and median() on known answers (lab 8): the intervals computed
 * in double precision from the formula, to 0.01 percentage points. */
static void check_statistics(void)
{
    static const struct {
        unsigned k, n;
        double lo, hi;
    } known[] = {{64, 4096, 1.2256, 1.9902},
                 {0, 10, 0, 27.7533},
                 {10, 10, 72.2467, 100},
                 {4090, 4096, 99.6808, 99.9328},
                 {1, 2, 9.4531, 90.5469}};
    bool ok = true;
    for (unsigned i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
        double lo, hi;
        wilson(known[i].k, known[i].n, &lo, &hi);
        if (fabs(lo - known[i].lo) > 0.01 || fabs(hi - known[i].hi) > 0.01) {
            ktap_note("wilson(%u, %u) = [%.4f, %.4f], expected [%.4f, %.4f]", known[i].k,
                      known[i].n, lo, hi, known[i].lo, known[i].hi);
            ok = false;
        }
    }
    ktap_check(ok, "vuln.stats.wilson_interval");
    unsigned five[] = {5, 1, 4, 2, 3}, same[] = {7, 7, 7}, one[] = {9}, big[RETRIES];
    for (unsigned i = 0; i < RETRIES; i++)
        big[i] = (i * 37) % RETRIES + 1000; /* a permutation of 1000..1100 */
    /* and skewed ones, whose mean is far from the median (34 and 9.2) */
    unsigned skew[] = {100, 1, 2}, tail[] = {1, 40, 1, 3, 1};
    unsigned m5 = median(five, 5), m3 = median(same, 3), m1 = median(one, 1);
    unsigned mb = median(big, RETRIES), ms = median(skew, 3), mt = median(tail, 5);
    bool ok_m = m5 == 3 && m3 == 7 && m1 == 9 && mb == 1050 && ms == 2 && mt == 1;
    if (!ok_m)
        ktap_note("median: %u %u %u %u %u %u, expected 3 7 9 1050 2 1%s", m5, m3, m1, mb, ms, mt,
                  ms == 34 || mt == 9 ? " (the mean is not the median)" : "");
    ktap_check(ok_m, "vuln.stats.median");
}

/*
 * The judged strategies. `off`: at least 95%. Not 100%: an interrupt taken
 * between the two calls runs on the same stack and can overwrite the
 * planted token (12 of 4,096 attempts on riscv64 under TCG, more on a
 * busier host, whose slower emulation sees more timer ticks per attempt).
 * Even if that happened to 1% of attempts, more than 204 misses of 4,096
 * (5 times the mean) has probability below 1e-40. The random ones:
 * between 20 and 120 wins of 4,096 (64 expected): for the binomial with
 * p = 1/64, P(X < 20) = 3.0e-11 and P(X > 120) = 9.8e-11, so a correct
 * kernel fails this test less than once in 7e9 runs; one without the
 * offset (4,096 wins) always fails it.
 */
static void judge(unsigned id, enum attack a, unsigned wins, bool honest)
{
    const char *attack = attack_names[a], *name = kstack_names[id];
    if (a == SPRAY) { /* the offset does not stop it: as `off` under every strategy */
        if (id == KSTACK_OFF || id == KSTACK_PRNG || id == KSTACK_POOL)
            ktap_check(honest && wins * 100 >= TRIALS * 95u, "vuln.%s.%s", attack, name);
        return;
    }
    if (id == KSTACK_OFF && a == FILL_USE && wins * 100 < TRIALS * 95u)
        ktap_note("fill_use won %u of %u under off: is the token planted? SYS_vuln_fill "
                  "refuses (-EINVAL) a request whose op is not VULN_OP_NOP, and a refused "
                  "request leaves nothing behind",
                  wins, TRIALS);
    if (id == KSTACK_OFF)
        ktap_check(honest && wins * 100 >= TRIALS * 95u, "vuln.%s.%s", attack, name);
    else if (id == KSTACK_PRNG || id == KSTACK_POOL)
        ktap_check(honest && wins >= 20 && wins <= 120, "vuln.%s.%s", attack, name);
}

/*
 * The retrying attackers' median, judged for fill_use: 1 under `off`; for
 * prng and pool between 16 and 100 (45 expected: for the median of 101
 * draws of the geometric distribution with p = 1/64, P(median <= 15) =
 * 5.9e-11 and P(median > 100) = 3.2e-11). Every attacker wins (at most
 * MAX_TRIES tries each), and the kernel must have granted one use to each.
 */
static void judge_retrying(unsigned id, unsigned m, unsigned winners, bool honest)
{
    bool ok = honest && winners == RETRIES;
    if (id == KSTACK_OFF)
        ktap_check(ok && m == 1, "vuln.fill_use.%s.retrying", kstack_names[id]);
    else if (id == KSTACK_PRNG || id == KSTACK_POOL)
        ktap_check(ok && m >= 16 && m <= 100, "vuln.fill_use.%s.retrying", kstack_names[id]);
}

/*
 * The predicting attacker, judged for prng and pool. prng: at least 486
 * wins of 512 (a miss needs another draw on CPU 0 that the attacker did not
 * count, and the probe after each attempt resynchronises it; even at 1%
 * misses, more than 26 has probability 6e-12). pool: at most 30 of 512, as
 * without prediction (p = 1/64: P(X > 30) = 3.2e-10).
 */
static void judge_predicted(unsigned id, enum attack a, unsigned wins, bool honest)
{
    const char *attack = attack_names[a], *name = kstack_names[id];
    if (id == KSTACK_PRNG)
        ktap_check(honest && wins >= 486, "vuln.%s.%s.predicted", attack, name);
    else if (id == KSTACK_POOL)
        ktap_check(wins <= 30, "vuln.%s.%s.predicted", attack, name);
}

static void row(const char *name, enum attack a, unsigned wins, unsigned n, const char *median)
{
    double lo, hi;
    wilson(wins, n, &lo, &hi);
    ktap_note("%-16s %-10s %4u/%-4u %6.2f%% [%6.2f, %6.2f]  %s", name, attack_names[a], wins, n,
              100.0 * wins / n, lo, hi, median);
}

/*
 * Does the kernel agree? For fill_use, the wins the attacker claims must be
 * the uses the kernel granted meanwhile (`before` is granted() at the start);
 * addr_reuse has no count in the kernel, and is believed.
 */
static bool honest(enum attack a, unsigned long before, unsigned claimed)
{
    if (a == ADDR_REUSE)
        return true;
    unsigned long counted = granted() - before;
    if (counted != claimed)
        ktap_note("%s: the attacker claims %u wins, the kernel granted %lu", attack_names[a],
                  claimed, counted);
    return counted == claimed;
}

static void measure(unsigned id)
{
    for (enum attack a = 0; a < NATTACKS; a++) {
        unsigned wins = 0, tries[RETRIES], winners = 0;
        unsigned long before = granted();
        for (unsigned i = 0; i < TRIALS; i++)
            wins += attempt(a);
        bool one_shot_honest = honest(a, before, wins);
        /* Once half the attackers gave up, the median is known: > MAX_TRIES;
         * an attack that never won one-shot is not retried either. */
        before = granted();
        for (unsigned i = 0, gave_up = 0; i < RETRIES; i++) {
            bool won = false;
            tries[i] = gave_up > RETRIES / 2 || wins == 0 ? MAX_TRIES : tries_to_win(a, &won);
            gave_up += !won;
            winners += won;
        }
        bool retry_honest = honest(a, before, winners);
        char text[48];
        unsigned m = median(tries, RETRIES);
        if (winners > RETRIES / 2)
            snprintf(text, sizeof(text), "median %u tries", m);
        else
            snprintf(text, sizeof(text), "median > %d tries (never wins)", MAX_TRIES);
        row(kstack_names[id], a, wins, TRIALS, text);
        judge(id, a, wins, one_shot_honest);
        if (a == FILL_USE)
            judge_retrying(id, m, winners, retry_honest);
    }
}

/* Under `off`: a request SYS_vuln_fill refuses (its op is not VULN_OP_NOP)
 * leaves no token behind, where a right one would win (kernel/uapi/vuln.h):
 * so an attacker whose request is wrong loses, as lab 8's grade needs. A
 * few may win anyway: the token passed to the use is also in a user
 * register, which an interrupt between the two calls can save at that very
 * depth (about 1 in 10^4 attempts under load); a fill that plants, plants
 * every time. So the bound is a tenth: 26 of 256 (P(X > 25) for p = 1e-3
 * is below 1e-30). */
static void check_refused_fill(void)
{
    unsigned refused = 0, planted = 0;
    for (unsigned i = 0; i < 256; i++) {
        static volatile unsigned long token; /* in memory, not in a saved register */
        token = ++tokens;
        struct vuln_request req = {VULN_OP_NOP + 1, token};
        refused += vuln_fill(&req) == -EINVAL;
        planted += vuln_use(token) == 1;
    }
    if (refused != 256 || planted != 0)
        ktap_note("256 fills with a wrong op: %u refused, %u planted their token", refused,
                  planted);
    ktap_check(refused == 256 && planted <= 25, "vuln.refused_fill_plants_nothing");
}

static void measure_predicted(unsigned id)
{
    for (enum attack a = 0; a < SPRAY; a++) {
        bool fits;
        unsigned resyncs;
        fflush(stdout); /* nothing may write while the attacker counts draws */
        unsigned long before = granted();
        unsigned wins = predicted(a, &fits, &resyncs);
        bool ok = honest(a, before, wins);
        char name[32], how[64];
        snprintf(name, sizeof(name), "%s+predict", kstack_names[id]);
        snprintf(how, sizeof(how), "%s, %u resyncs",
                 fits ? "LFSR113 state recovered" : "no LFSR113 state fits", resyncs);
        row(name, a, wins, PRED_TRIALS, how);
        judge_predicted(id, a, wins, ok);
    }
}

/* kstack.erase on or off (kernel/syscall/erase.c): 0, or -errno. */
static long set_erase(bool on)
{
    return syscall2(SYS_kstack_debug, KSTACK_DEBUG_ERASE, on);
}

/*
 * The last step of the progression: the narrow plant and the spray with
 * kstack.erase on, which clears the stack each system call used on its way
 * out. No token outlives the call that planted it: the spray, which beat
 * every strategy, loses. Not always: the token is also in a user register,
 * which an interrupt between the two calls can save at the very depth the
 * use reads (about 1 in 10^4 attempts under load, as for the refused
 * fill); so at most 51 of 1,024 (5%: P(X > 51) for p = 1e-3 is below
 * 1e-50), where an erase that missed the batch loses nothing (1,024).
 */
static void measure_erased(unsigned id)
{
    if (set_erase(true) != 0) {
        ktap_check(false, "vuln.spray.%s.erased (kstack.erase cannot be switched on)",
                   kstack_names[id]);
        return;
    }
    char name[32];
    snprintf(name, sizeof(name), "%s+erase", kstack_names[id]);
    const enum attack erased[] = {FILL_USE, SPRAY};
    for (unsigned k = 0; k < 2; k++) {
        enum attack a = erased[k];
        unsigned wins = 0;
        unsigned long before = granted();
        for (unsigned i = 0; i < ERASE_TRIALS; i++)
            wins += attempt(a);
        bool ok = honest(a, before, wins);
        row(name, a, wins, ERASE_TRIALS, "kstack.erase on");
        if (a == SPRAY)
            ktap_check(ok && wins <= 51, "vuln.spray.%s.erased", kstack_names[id]);
    }
    set_erase(false);
}

/* ---- the self-guiding mode (run.args=guide) ---------------------------- */

#define GUIDE_LINES 24
static char guide_lines[GUIDE_LINES][176];
static unsigned guide_n;

/* A line kept for later: printing is a system call, which would draw an
 * offset the guide did not count. */
static void keep(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void keep(const char *fmt, ...)
{
    if (guide_n == GUIDE_LINES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(guide_lines[guide_n++], sizeof(guide_lines[0]), fmt, ap);
    va_end(ap);
}

/* Under prng, with its state recovered from leaked offsets, show where each
 * call of each attack lands: the stack layout (a local's address at each
 * offset), the depths of the fill and the use, and why each won or lost. */
static void guide(void)
{
    struct lfsr113 g;
    fflush(stdout);
    if (kstack_set(KSTACK_PRNG) != 0 || !recover(&g)) {
        printf("guide: needs strategy prng and kstack.debug (the offset probe)\n");
        return;
    }
    keep("prng's LFSR113 state recovered from %u leaked offsets: every next offset is known",
         solver.draws);
    for (unsigned i = 0; i < 6; i++) {
        uint32_t leak = next_offset(&g);
        long addr = vuln_leak();
        uint32_t fill = next_offset(&g), use = next_offset(&g);
        bool won = fill_use(++tokens);
        keep("narrow: a local at %#lx at offset %4u (%#lx at offset 0); fill at %4u, use at %4u: "
             "%s",
             (unsigned long)addr, leak, (unsigned long)addr + leak, fill, use,
             won ? "won, the same depth" : "lost, the use read another depth");
    }
    for (unsigned i = 0; i < 2; i++) {
        struct lfsr113 t = g;
        uint32_t first = next_offset(&t), second = next_offset(&t);
        unsigned burn = 0;
        for (; second != first && burn < MAX_BURN; first = second, second = next_offset(&t))
            burn++;
        bool won = predicted_attempt(FILL_USE, &g);
        keep("narrow, predicted: %u harmless calls until two equal offsets (%u, %u): %s", burn,
             first, second, won ? "won" : "lost (another draw came in between)");
    }
    for (int erase = 0; erase < 2; erase++) {
        if (erase && set_erase(true) != 0)
            break;
        for (unsigned i = 0; i < 3; i++) {
            uint32_t fill = next_offset(&g), use = next_offset(&g);
            bool won = spray_use(++tokens);
            keep("spray%s: fill at %4u, use at %4u: the use's frame is %+5d bytes deeper, the "
                 "batch reaches 1024 either way: %s",
                 erase ? " + erase" : "", fill, use, (int)use - (int)fill,
                 won     ? "won"
                 : erase ? "lost, the fill's stack was cleared"
                         : "lost");
        }
    }
    set_erase(false);
    kstack_set(KSTACK_DEFAULT);
    for (unsigned i = 0; i < guide_n; i++)
        printf("guide: %s\n", guide_lines[i]);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "guide") == 0) {
        kstack_pin(0);
        if (vuln_leak() == -ENOSYS || !kstack_calibrate())
            printf("guide: needs a make VULN=1 kernel booted with kstack.debug\n");
        else
            guide();
        return 0;
    }
    if (vuln_leak() == -ENOSYS) {
        ktap_check(false, "vuln.built_in (this kernel was not built with make VULN=1)");
        return ktap_done();
    }
    if (!kstack_calibrate()) {
        ktap_check(false, "vuln.probe_available (needs kstack.debug on the command line)");
        return ktap_done();
    }
    check_statistics();
    kstack_pin(0);
    ktap_note(
        "two stack bugs (kernel/syscall/sys_vuln.c), one-shot: %d attempts, 95%% Wilson interval; "
        "retrying: median attempts of %d attackers",
        TRIALS, RETRIES);
    ktap_note("%-16s %-10s %9s %7s %16s  %s", "strategy", "attack", "wins", "rate", "95% interval",
              "retrying / predicting");
    for (unsigned id = 0; id < KSTACK_NR; id++) {
        long err = kstack_set(id);
        if (err != 0) {
            ktap_note("%-16s skipped: %s", kstack_names[id],
                      err == -ENODEV ? "not available on this CPU/firmware" : "cannot select");
            continue;
        }
        fflush(stdout);
        if (id == KSTACK_OFF)
            check_refused_fill();
        measure(id);
        if (id == KSTACK_PRNG || id == KSTACK_PRNG_TASK || id == KSTACK_POOL)
            measure_predicted(id);
        if (id == KSTACK_OFF || id == KSTACK_PRNG || id == KSTACK_POOL)
            measure_erased(id);
    }
    struct debug_stats st;
    syscall1(SYS_debug_stats, &st);
    kstack_unpin((unsigned)st.cpus_online);
    kstack_set(KSTACK_DEFAULT);
    return ktap_done();
}
