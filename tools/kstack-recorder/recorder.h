/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The stackshift authors */
/*
 * tools/kstack-recorder/recorder.h - what a kernel supplies so that
 * recorder.c can record a sample of its per-syscall stack offsets for
 * tools/kstack-conformance (the format: docs/porting.md, "The sample
 * format").
 *
 * The probe contract. The kernel has one cheap system call (or a debug
 * hook on one) whose handler reports how deep its own frame sits: either
 * the offset itself, or the address of a local variable of the handler
 * (the kit then takes each thread's highest address as offset 0:
 * --addresses). It must report the call it is made in, not an earlier one,
 * and go through the same entry path, draw and bump as every other call.
 *
 * Pinning: pin() keeps the calling thread on one CPU until the next pin(),
 * so that the recorded stream of each CPU is that CPU's generator's output
 * in order (other programs' calls in between only make the kit miss a
 * weak generator, never fail a good one).
 *
 * Staging a migration (Bug 1, optional): probe_moved(from, to) makes one
 * probe call that starts on CPU `from`, is moved to CPU `to` while it is
 * inside the kernel (it sleeps there while another thread changes its
 * affinity, or the kernel's test hook moves it), and finishes there. It
 * returns the offset that call ran at (the attacker's leak). The recorder
 * then pins to `from` and probes again: the next offset drawn there.
 */
#ifndef KSTACK_RECORDER_H
#define KSTACK_RECORDER_H

#include <stdint.h>

struct rec_ops {
    int ncpus;
    int addresses; /* 1: probe() reports a stack address, not an offset */
    /* Keep the calling thread on cpu; 0 on success. */
    int (*pin)(int cpu);
    /* One probe system call: stores the offset (or address) in *value and
     * returns the CPU the call ran on, or a negative number on failure. */
    int (*probe)(uint64_t *value);
    /* One probe call moved from `from` to `to` in the middle; stores its
     * offset in *leaked and returns 0 if it really ended on `to`, 1 if the
     * move did not happen (the trial is staged again), negative on error.
     * NULL: the kernel cannot stage migrations (one CPU, or no hook). */
    int (*probe_moved)(int from, int to, uint64_t *leaked);
};

struct rec_plan {
    unsigned calls_per_cpu; /* at least 60,000 on 2 CPUs (the kit needs 118,175 in all) */
    unsigned trials;        /* migrate records: at least 100 */
    unsigned align, values; /* the geometry line; 0: leave it out (16 and 64) */
};

/* Write the sample to out (a FILE *); 0 on success. */
int rec_record(const struct rec_ops *ops, const struct rec_plan *plan, void *out);

#endif
