/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The stackshift authors */
/*
 * tools/kstack-recorder/sim.c - recorder.h's hooks over a simulated kernel,
 * the example of an adapter and the recorder's host test
 * (tests/host/test_kstack_recorder.py):
 *
 *   sim entry|exit CPUS CALLS_PER_CPU TRIALS > sample.txt
 *
 * Each simulated CPU keeps a SplitMix64 generator. `entry` draws the offset
 * at system call entry on the CPU the call starts on (the rule); `exit`
 * chooses the next call's offset at exit and keeps it per CPU (Linux's old
 * design), so a call moved from CPU 0 to CPU 1 leaves CPU 0's next offset
 * the one it just ran at: the kit's migration test must fail it.
 */
#include "recorder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CPUS 64

static uint64_t state[MAX_CPUS];  /* each CPU's generator */
static uint64_t stored[MAX_CPUS]; /* `exit`: the offset the next call will use */
static int at_exit;
static int current_cpu;

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A system call that starts on `start` and ends on `end`: its offset. */
static uint64_t syscall_offset(int start, int end)
{
    if (!at_exit)
        return splitmix64(&state[start]) & 0x3F0;
    uint64_t offset = stored[start];
    stored[end] = splitmix64(&state[end]) & 0x3F0; /* chosen at exit, where it ends */
    return offset;
}

static int sim_pin(int cpu)
{
    current_cpu = cpu;
    return 0;
}

static int sim_probe(uint64_t *value)
{
    *value = syscall_offset(current_cpu, current_cpu);
    return current_cpu;
}

static int sim_probe_moved(int from, int to, uint64_t *leaked)
{
    *leaked = syscall_offset(from, to);
    current_cpu = to;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 5 || (strcmp(argv[1], "entry") && strcmp(argv[1], "exit"))) {
        fprintf(stderr, "usage: sim entry|exit CPUS CALLS_PER_CPU TRIALS\n");
        return 2;
    }
    at_exit = strcmp(argv[1], "exit") == 0;
    int ncpus = atoi(argv[2]);
    if (ncpus < 1 || ncpus > MAX_CPUS)
        return 2;
    for (int c = 0; c < ncpus; c++) {
        state[c] = 0x5EED0000ull + (uint64_t)c; /* a real kernel: its CRNG */
        stored[c] = splitmix64(&state[c]) & 0x3F0;
    }
    struct rec_ops ops = {
        .ncpus = ncpus, .pin = sim_pin, .probe = sim_probe, .probe_moved = sim_probe_moved};
    struct rec_plan plan = {.calls_per_cpu = (unsigned)atoi(argv[3]),
                            .trials = (unsigned)atoi(argv[4]),
                            .align = 16,
                            .values = 64};
    return rec_record(&ops, &plan, stdout) == 0 ? 0 : 1;
}
