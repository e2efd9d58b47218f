/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_kstack/distribution.c - the distribution part: the offsets of every strategy,
 * counted and judged (chi-squared, min-entropy), printed for the conformance
 * kit, and the deepest calls at the largest offset (test_kstack.c's header).
 */
#include "kernel/uapi/ipc.h"
#include "lib/entropy.h"
#include "lib/user/console_client.h"
#include "lib/user/ulib.h"
#include "user/common/kstack_probe.h"
#include "user/tests/test_kstack/kstack_test.h"

static unsigned bit_length(unsigned v)
{
    unsigned n = 0;
    for (; v; v >>= 1)
        n++;
    return n;
}

/* "# kstack-sample STRATEGY CPU CHARS" lines, SAMPLE_LINE_LONG offsets
 * each (too long for ktap_note's buffer, so printed as its lines are).
 * A megabyte in all: it goes straight to the kernel's console (SYS_write,
 * allowed to a test run with the console right) rather than through the
 * console server, whose messages carry 24 bytes each (about 40 round trips
 * per line, ten times slower on a riscv64 machine under QEMU). */
static void print_sample(unsigned id, const long *offs)
{
    unsigned cpus = sample_cpus();
    static char line[SAMPLE_LINE_LONG + 1];
    fflush(stdout);
    console_client_use(CONSOLE_DEBUG);
    for (unsigned c = 0; c < cpus; c++) {
        unsigned end = (c + 1) * SAMPLES / cpus;
        for (unsigned i = c * SAMPLES / cpus; i < end; i += SAMPLE_LINE_LONG) {
            unsigned n = end - i < SAMPLE_LINE_LONG ? end - i : SAMPLE_LINE_LONG;
            for (unsigned j = 0; j < n; j++)
                line[j] = sample_char(offs[i + j]);
            line[n] = '\0';
            printf("    # kstack-sample %s %u %s\n", kstack_names[id], c, line);
        }
    }
    fflush(stdout);
    console_client_use(IPC_CONSOLE_HANDLE);
}

/* Deep system calls with the stack painted first: the most of the kernel
 * stack they used (the kernel scans for the first overwritten word). */
static long deep_calls_high_water(void)
{
    static char buf[512];
    memset(buf, '.', sizeof(buf) - 1);
    kdebug(KSTACK_DEBUG_PAINT, 0);
    const char *argv[] = {"child", "0", "0", NULL};
    char pid[16];
    snprintf(pid, sizeof(pid), "%d", getpid());
    argv[2] = pid;
    int status, child = spawn("child", argv);
    sys_wait(child, &status);
    sys_write(1, "\n", 1); /* a line of its own: a lone '\r' would hide the next result line */
    sleep_ns(1000000);
    yield();
    void *top = sys_brk(0);
    sys_brk((char *)top + 65536);
    sys_brk(top);
    struct kstack_probe r;
    kstack_probe(KSTACK_PROBE_MIGRATE, ncpus > 1 ? 1 : 0, &r);
    kstack_unpin(ncpus);
    syscall6(9999, -1, -1, -1, -1, -1, -1);
    return kdebug(KSTACK_DEBUG_HIGHWATER, 0);
}

static void report_distribution(unsigned id, const uint64_t *counts, long bad, unsigned n)
{
    struct entropy_report e;
    entropy_measure(counts, 64, &e);
    ktap_note("%s: %u distinct offsets (lkdtm would print \"%u bits\"), Shannon %lu.%03lu bits, "
              "min-entropy %lu.%03lu bits, chi2(63) %lu.%03lu, %ld outside {0,16,..,1008}",
              kstack_names[id], e.distinct, bit_length(e.distinct),
              (unsigned long)e.shannon_milli / 1000, (unsigned long)e.shannon_milli % 1000,
              (unsigned long)e.min_milli / 1000, (unsigned long)e.min_milli % 1000,
              (unsigned long)e.chi2_milli / 1000, (unsigned long)e.chi2_milli % 1000, bad);
    if (id == KSTACK_OFF)
        ktap_check(e.distinct == 1 && counts[0] == n && bad == 0, "kstack.distribution.off");
    else
        ktap_check(e.distinct == 64 && e.chi2_milli < CHI2_63_MILLI &&
                       e.min_milli >= MIN_ENTROPY_MILLI && bad == 0,
                   "kstack.distribution.%s", kstack_names[id]);
}

void test_distribution(void)
{
    long stack_size = kdebug(KSTACK_DEBUG_STACK_SIZE, 0), limit = stack_size * 3 / 4;
    kstack_fix(KSTACK_OFFSET_MAX);
    long deepest = kstack_offset_now(); /* the fixed strategy's offset, as measured */
    long worst = deep_calls_high_water();
    ktap_note("fixed offset %ld: deepest system calls used %ld of %ld bytes of kernel stack "
              "(limit %ld)",
              deepest, worst, stack_size, limit);
    for (unsigned id = 0; id < KSTACK_NR; id++) {
        static uint64_t counts[64];
        if (only && !listed(only, kstack_names[id]))
            continue;
        if (!use(id, "distribution")) {
            char name[64];
            snprintf(name, sizeof(name), "kstack.bounds.%s", kstack_names[id]);
            ktap_skip(name, "not available on this CPU/firmware");
            continue;
        }
        static long offs[SAMPLES];
        unsigned n = only && id == KSTACK_OFF ? OFF_LAB_SAMPLES : SAMPLES;
        record_offsets(offs, n);
        memset(counts, 0, sizeof(counts));
        long bad = 0, max = 0;
        for (unsigned i = 0; i < n; i++) {
            long off = offs[i];
            if (off < 0 || off > (long)KSTACK_OFFSET_MAX || off % 16) {
                bad++;
                continue;
            }
            counts[off / 16]++;
            max = off > max ? off : max;
        }
        report_distribution(id, counts, bad, n);
        if (!only)
            print_sample(id, offs);
        long used = deep_calls_high_water();
        ktap_note("%s: largest offset %ld; deepest calls used %ld bytes", kstack_names[id], max,
                  used);
        ktap_check(bad == 0 && deepest == (long)KSTACK_OFFSET_MAX && worst < limit && used < limit,
                   "kstack.bounds.%s", kstack_names[id]);
    }
    kstack_set(KSTACK_DEFAULT);
}
