/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_kstack/kstack_test.h - what the parts of test_kstack share:
 * the sample sizes and thresholds (each with its false-fail rate:
 * docs/testing.md; tests/host/test_false_fail.py and test_conformance.py read
 * them here), the strategy list of a lab's run, the debug and statistics
 * calls, the offsets recorded on one or two CPUs, and the worker threads
 * with their stacks.
 */
#ifndef USER_TESTS_TEST_KSTACK_KSTACK_TEST_H
#define USER_TESTS_TEST_KSTACK_KSTACK_TEST_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/uapi/kstack.h"

/* Per strategy, over two CPUs: the kit needs 118,175 for its min-entropy
 * test at 5.8 bits. At 120,000 the largest of the 64 counts exceeds 2153
 * (5.8 bits) for a uniform generator with probability 7.5e-9 (64 times the
 * Binomial(120000, 1/64) tail above 2153, tools/kstack-conformance's
 * min_entropy_false_fail); per make test run, tests/false_fail.py counts it
 * over 8 strategies, kstack.pool_hostile's sample and every kstack boot. A constant offset
 * scores 0 bits; a generator stuck on 32 of the 64 values 5 bits (and misses coverage). */
#define SAMPLES               120000
/* `off` in a lab's grade: every offset must be 0, no statistics involved,
 * so fewer calls show it as well (a tenth of the part's time on riscv64). */
#define OFF_LAB_SAMPLES       10000
#define SAMPLE_LINE           64 /* offsets per printed migration line */
/* Offsets per "kstack-sample" line: the line's prefix (about 30 bytes) is
 * paid once per 1,000 offsets, not once per 64 (a third of what the serial
 * line carried, and the serial line is most of the part's time). */
#define SAMPLE_LINE_LONG      1000
#define SAMPLE_TRIALS         1000 /* migration trials printed per strategy */
/* chi-square(63) at a false-fail rate of 1e-8, as tools/kstack-conformance
 * computes it: the in-kernel test and the kit judge a sample alike.
 * False-fail rate: 1e-8 per strategy (per make test run: tests/false_fail.py,
 * which counts the kstack boots in tests/boots.py). A generator that never gives one of the 64
 * values scores about SAMPLES/63 = 1900; one whose values are 5% off uniform (every other
 * value 1.05 and 0.95 of its share) about 300. */
#define CHI2_63_MILLI         147460
/* ... and the number of correct predictions in TRIALS migration trials at
 * which the kit's migration test fails (Binomial(TRIALS, 1/64) tail at or
 * above 232 is below 1e-8, tools/kstack-conformance's binom_critical).
 * False-fail rate: 1e-8 per strategy (6 strategies per kstack boot: see
 * tests/false_fail.py). Chance is 156; a design that lets one trial in 20 be
 * predicted scores about 650, counter and crng16 about 10,000. */
#define MIGRATION_FAIL_AT     232
#define TRIALS                10000
/* A lab's grading boot (a strategy list given: lab 4 grades prng) runs
 * fewer trials, so that a grade takes seconds: Binomial(1000, 1/64) at or
 * above 43 is 6.2e-9 (kstack_chance_fail_at(1000) and the kit's
 * binom_critical agree; tests/host/test_false_fail.py checks both
 * constants). False-fail rate: 6.2e-9 per grade and arch. Chance is 16; a
 * design that lets one trial in 20 be predicted scores about 65, an offset
 * chosen at exit and stored per CPU (Bug 1) about 1000. */
#define LAB_MIGRATION_FAIL_AT 43
#define LAB_TRIALS            1000
#define STACK_SIZE            (16 * 1024)
#define MAX_THREADS           8
/* The minimum min-entropy of a sample, in thousandths of a bit (5.8 bits:
 * the kit's MIN_ENTROPY_BITS), the same for kstack.distribution and
 * kstack.pool_hostile. */
#define MIN_ENTROPY_MILLI     5800

extern unsigned ncpus; /* CPUs online */
/* The strategies named as the program's second argument, a comma list: the
 * only ones tested (a lab's grading boot: lab 4 grades off, prng and
 * prng-task); NULL: all. With a list, no samples are printed for the
 * conformance kit (a lab's tree does not have it, and printing 120,000
 * offsets per strategy over the serial line is most of the part's time) and
 * the migration part runs LAB_TRIALS trials. */
extern const char *only;

long kdebug(unsigned op, unsigned long arg);
void stats(long cpu, struct kstack_stats *st);
/* Whether name is in the comma list. */
bool listed(const char *list, const char *name);
/* Switch to strategy id; false (and a SKIP line for `what`) if unavailable. */
bool use(unsigned id, const char *what);

/* One offset as one printable character, for the conformance kit. */
char sample_char(long off);
/* The CPUs a sample is recorded on: two if there are, else one. */
unsigned sample_cpus(void);
/* n offsets, the i-th share made pinned to CPU i. */
void record_offsets(long *offs, unsigned n);

/* Threads that run beside the test (integrity's churn, pool's storm). */
struct worker {
    uint64_t seed;
    volatile int done;
};
extern struct worker workers[MAX_THREADS];
extern volatile int stop;
extern char *stacks; /* MAX_THREADS stacks of STACK_SIZE, from sys_brk */

/* The parts, one per run. */
void test_distribution(void);
void test_migration(void);
void test_integrity(void);
void test_pool(void);

#endif
