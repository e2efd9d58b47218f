/* SPDX-License-Identifier: MIT */
/*
 * kernel/quota.h - what a task tree may hold at a time (kernel/uapi/quota.h
 * gives the limits).
 *
 * Every task is charged to one account: its own if the kernel started it,
 * or if its parent holds the control capability with every right (init,
 * the self-test programs, a run.control program: trusted to start programs
 * that are independent of one another); its parent's otherwise. So a
 * program and everything it starts, and everything those start, share one
 * account: the root of that tree's. The account holds the tree's tasks
 * (zombies included), live threads, endpoints and notifications (charged
 * when made, given back when the last handle to them goes, whoever made
 * them and whether or not that task still runs) and heap pages (brk). A
 * charge past the account's limit fails and changes nothing; the global
 * tables behind them (64 tasks, 256 threads, 128 endpoints, 128
 * notifications, all of RAM) are larger than one account's share, so one
 * tree cannot shut the others out. An account goes when nothing is charged
 * to it any more.
 *
 * Everything here is guarded by sched_lock (the tables it charges for are);
 * quota_charge_pages and quota_uncharge_pages take it themselves.
 */
#ifndef KERNEL_QUOTA_H
#define KERNEL_QUOTA_H

#include "kernel/types.h"

enum quota_kind {
    CHARGE_TASKS,
    CHARGE_THREADS,
    CHARGE_ENDPOINTS,
    CHARGE_NOTIFICATIONS,
    CHARGE_PAGES
};
#define CHARGE_KINDS 5

struct quota_account;

/* A new account with nothing charged (it goes as soon as its first charge
 * is given back), or NULL if every account is in use. */
struct quota_account *quota_account_new_locked(void);
/* Charge n of kind to the account: false, charging nothing, if that would
 * pass its limit. A NULL account (the kernel's own objects) is never
 * charged and always succeeds. */
bool quota_charge_locked(struct quota_account *a, enum quota_kind kind, size_t n);
/* Give n of kind back (NULL: nothing). */
void quota_uncharge_locked(struct quota_account *a, enum quota_kind kind, size_t n);
/* The same for pages, taking sched_lock. */
bool quota_charge_pages(struct quota_account *a, size_t n);
void quota_uncharge_pages(struct quota_account *a, size_t n);
/* Accounts in use now (the tests: every charge came back once a tree is gone). */
unsigned quota_accounts_in_use(void);
/* A tree's limit of kind (pages: a quarter of the pages free when the
 * first account was made). */
size_t quota_limit(enum quota_kind kind);

#endif
