/* SPDX-License-Identifier: MIT */
/* kernel/sched/stats.h - scheduler event counters the tests read (under sched_lock). */
#ifndef KERNEL_SCHED_STATS_H
#define KERNEL_SCHED_STATS_H

#include "kernel/types.h"

struct sched_stats {
    uint64_t migrations;           /* a thread ran on a different CPU than last time */
    uint64_t preempted_in_syscall; /* a thread lost its CPU in the middle of a syscall */
    /* sched_sleep_handoff_locked switched straight to a thread (the IPC
     * fastpath's hand-offs are its hits: SYS_debug_stats adds them) */
    uint64_t handoffs;
    uint64_t user_access_ticks; /* ticks whose handler could reach user pages: must stay 0 */
};

extern struct sched_stats sched_stats;

#endif
