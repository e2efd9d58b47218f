/* SPDX-License-Identifier: MIT */
/*
 * user/common/pages.h - free page accounting for the long-running tests
 * (user/longrun/fuzz/fuzz.c, user/longrun/soak.c): a baseline that later runs can return to,
 * and a wait for them to return to it.
 *
 * The kernel keeps some memory once it has been used: a freed kernel stack
 * stays mapped for the next thread (kernel/mm/kernel_stack.c) and the latency
 * histograms are allocated on first use. pages_baseline() first uses them
 * all (as many threads at once as the kernel allows, the timers on and off
 * again), so any page missing afterwards is really lost.
 */
#ifndef USER_COMMON_PAGES_H
#define USER_COMMON_PAGES_H

#include <stdbool.h>
#include <stdint.h>

/* Warm the kernel's caches, then return the free page count. */
long pages_baseline(void);

/* Wait up to timeout_ns for the free page count to be back at baseline
 * (tasks that are still ending give theirs back late); *now gets the last count. */
bool pages_back_to(long baseline, uint64_t timeout_ns, long *now);

#endif
