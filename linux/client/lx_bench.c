/* SPDX-License-Identifier: MIT */
/*
 * linux/client/lx_bench.c - user/bench's system call blocks on Linux: getpid,
 * getppid and an invalid number, each timed per call in user space with
 * the same counter (lx_sys.h), the same empty-read subtraction, the same
 * blocks and rounds and the same histogram (lib/hist.h), printed as the
 * same BENCH records (scripts/bench_report.py's header has the format).
 * The strategy column is the name given (linux-on, linux-off: the boot's
 * randomize_kstack_offset=), so the report puts Linux's rows beside every
 * stackshift strategy. Linux has no in-kernel timers of ours: user side
 * only.
 *
 *   lxargs=CALLS,ROUNDS,ICOUNT   lxname=NAME
 *   (after the recorder, lxmode=record+bench: lxbench=CALLS,ROUNDS,ICOUNT)
 */
#include "lib/hist.h"
#include "linux/client/lx_io.h"
#include "linux/client/lx_sys.h"

static const struct {
    const char *name;
    long nr;
} calls[] = {{"getpid", NR_getpid}, {"getppid", NR_getppid}, {"invalid", NR_INVALID}};
#define NCALLS 3

static struct hist scratch, sums[NCALLS];
static uint64_t empty_cost;
static const char *strategy;

/* The fastest of 2000 calls of nr, counter reads included (BENCH null). */
static uint64_t fastest(long nr)
{
    uint64_t best = ~0ull;
    for (int i = 0; i < 2000; i++) {
        uint64_t t0 = lx_counter();
        lx_syscall0(nr);
        uint64_t d = lx_counter() - t0;
        best = d < best ? d : best;
    }
    return best;
}

static void row(const char *call, long round, const struct hist *h)
{
    uint64_t v[] = {h->count,
                    hist_mean_x1000(h),
                    hist_percentile(h, 50000),
                    hist_percentile(h, 99000),
                    hist_percentile(h, 99900),
                    h->max};
    out_str("BENCH row user ");
    out_str(strategy);
    out_str(" ");
    out_str(call);
    out_str(" ");
    out_u64((uint64_t)round);
    for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
        out_str(" ");
        out_u64(v[i]);
    }
    out_str("\n");
    out_flush();
}

static void block(unsigned k, long n, long round)
{
    hist_reset(&scratch);
    for (long i = 0; i < n; i++) {
        uint64_t t0 = lx_counter();
        lx_syscall0(calls[k].nr);
        uint64_t d = lx_counter() - t0;
        hist_add(&scratch, d > empty_cost ? d - empty_cost : 0);
    }
    row(calls[k].name, round, &scratch);
    hist_merge(&sums[k], &scratch);
}

static void print_cdf(const char *call, const struct hist *h)
{
    int on_line = 0;
    for (unsigned b = 0; b < HIST_NBUCKETS; b++) {
        if (!h->bucket[b])
            continue;
        if (on_line == 0) {
            out_str("BENCH cdf user ");
            out_str(strategy);
            out_str(" ");
            out_str(call);
        }
        out_str(" ");
        out_u64(hist_bucket_lower(b));
        out_str(":");
        out_u64(h->bucket[b]);
        if (++on_line == 24) {
            out_str("\n");
            on_line = 0;
        }
    }
    if (on_line)
        out_str("\n");
}

static void header(long icount)
{
    uint64_t best = ~0ull;
    for (int i = 0; i < 1000; i++) {
        uint64_t t0 = lx_counter(), d = lx_counter() - t0;
        best = d < best ? d : best;
    }
    empty_cost = best;
    /* On a line of its own: the firmware may have left screen codes. */
    out_str("\nBENCH arch " LX_ARCH "\nBENCH counter ");
    out_str(LX_COUNTER_NAME);
    out_str(" ");
    out_u64(lx_counter_hz());
    out_str("\nBENCH icount ");
    out_u64((uint64_t)icount);
    fastest(NR_INVALID); /* warm up */
    uint64_t unknown = fastest(NR_INVALID), pid = fastest(NR_getpid);
    out_str("\nBENCH linux-null ");
    out_str(strategy);
    out_str(" ");
    out_u64(unknown);
    out_str(" ");
    out_u64(pid);
    out_str(" ");
    out_u64(empty_cost);
    out_str("\n");
    out_flush();
}

int lx_bench(void)
{
    const char *args = env_get("lxbench") ? env_get("lxbench") : env_get("lxargs");
    long n = arg_number(args, 0, 20000), rounds = arg_number(args, 1, 5);
    strategy = env_get("lxname") ? env_get("lxname") : "linux";
    for (unsigned k = 0; k < NCALLS; k++)
        hist_reset(&sums[k]);
    header(arg_number(args, 2, 0));
    for (long round = 0; round < rounds; round++) {
        out_str("bench: linux round ");
        out_u64((uint64_t)round + 1);
        out_str("\n");
        for (unsigned k = 0; k < NCALLS; k++)
            block(k, n, round);
    }
    for (unsigned k = 0; k < NCALLS; k++)
        print_cdf(calls[k].name, &sums[k]);
    out_str("BENCH end\n");
    out_flush();
    return 0;
}
