/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The stackshift authors */
/*
 * tools/kstack-recorder/recorder.c - records per-syscall stack offsets in
 * tools/kstack-conformance's format through the hooks of recorder.h. Plain
 * C99 and stdio: compile it into a test program of the kernel under test.
 */
#include "recorder.h"

#include <stdio.h>

/* The CPUs in turn: calls_per_cpu probes on each, pinned. */
static int record_calls(const struct rec_ops *ops, const struct rec_plan *plan, FILE *f)
{
    fprintf(f, "# cpu %s thread call\n", ops->addresses ? "address" : "offset");
    for (int cpu = 0; cpu < ops->ncpus; cpu++) {
        if (ops->pin(cpu) != 0) {
            fprintf(stderr, "recorder: cannot pin to cpu %d\n", cpu);
            return -1;
        }
        for (unsigned i = 0; i < plan->calls_per_cpu; i++) {
            uint64_t v;
            int ran = ops->probe(&v);
            if (ran < 0)
                return -1;
            fprintf(f, "%d %#llx t%d probe\n", ran, (unsigned long long)v, cpu);
        }
    }
    return 0;
}

/* One Bug 1 trial between CPU 0 and CPU 1: 0, 1 (not staged), or <0. */
static int stage_trial(const struct rec_ops *ops, FILE *f)
{
    uint64_t leaked, next;
    int r = ops->probe_moved(0, 1, &leaked);
    if (r != 0)
        return r;
    if (ops->pin(0) != 0 || ops->probe(&next) != 0)
        return 1; /* not on CPU 0 after all: stage it again */
    fprintf(f, "migrate 0 1 %llu %llu\n", (unsigned long long)leaked, (unsigned long long)next);
    return 0;
}

static int record_migrations(const struct rec_ops *ops, const struct rec_plan *plan, FILE *f)
{
    unsigned done = 0, tries = 0;
    if (!ops->probe_moved || ops->ncpus < 2 || ops->addresses)
        return 0; /* LEAKED and NEXT must be offsets */
    fprintf(f, "# migrate from to leaked next\n");
    while (done < plan->trials) {
        if (++tries > 10 * plan->trials + 100) {
            fprintf(stderr, "recorder: only %u of %u migrations staged\n", done, plan->trials);
            return -1;
        }
        int r = stage_trial(ops, f);
        if (r < 0)
            return -1;
        done += r == 0;
    }
    return 0;
}

int rec_record(const struct rec_ops *ops, const struct rec_plan *plan, void *out)
{
    FILE *f = out;
    if (plan->align && plan->values)
        fprintf(f, "geometry %u %u\n", plan->align, plan->values);
    if (record_calls(ops, plan, f) != 0 || record_migrations(ops, plan, f) != 0)
        return -1;
    return fflush(f) == 0 ? 0 : -1;
}
