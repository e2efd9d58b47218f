/* SPDX-License-Identifier: MIT */
/* kernel/quota.c - accounts of task trees (see quota.h). */
#include "kernel/quota.h"

#include "kernel/mm/page_alloc.h"
#include "kernel/panic.h"
#include "kernel/sched/sched.h"
#include "kernel/task.h"
#include "kernel/uapi/quota.h"

struct quota_account {
    bool used;
    size_t held[CHARGE_KINDS];
};

/* Every task may be a root, and an account outlives its tasks while an
 * object it paid for still exists: room for as many again. */
#define MAX_ACCOUNTS (2 * MAX_TASKS)

static struct quota_account accounts[MAX_ACCOUNTS];
static size_t page_limit; /* set with the first account */

size_t quota_limit(enum quota_kind kind)
{
    switch (kind) {
    case CHARGE_TASKS: return QUOTA_TREE_TASKS;
    case CHARGE_THREADS: return QUOTA_TREE_THREADS;
    case CHARGE_ENDPOINTS: return QUOTA_TREE_ENDPOINTS;
    case CHARGE_NOTIFICATIONS: return QUOTA_TREE_NOTIFICATIONS;
    case CHARGE_PAGES: return page_limit;
    }
    return 0;
}

struct quota_account *quota_account_new_locked(void)
{
    if (!page_limit)
        page_limit = page_free_count() / QUOTA_TREE_PAGE_SHARE;
    for (int i = 0; i < MAX_ACCOUNTS; i++) {
        if (!accounts[i].used) {
            accounts[i] = (struct quota_account){.used = true};
            return &accounts[i];
        }
    }
    return NULL;
}

bool quota_charge_locked(struct quota_account *a, enum quota_kind kind, size_t n)
{
    if (!a)
        return true;
    if (a->held[kind] + n > quota_limit(kind))
        return false;
    a->held[kind] += n;
    return true;
}

void quota_uncharge_locked(struct quota_account *a, enum quota_kind kind, size_t n)
{
    if (!a)
        return;
    BUG_ON(a->held[kind] < n);
    a->held[kind] -= n;
    bool empty = true;
    for (int k = 0; k < CHARGE_KINDS; k++)
        empty = empty && a->held[k] == 0;
    if (empty)
        a->used = false;
}

unsigned quota_accounts_in_use(void)
{
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    unsigned n = 0;
    for (int i = 0; i < MAX_ACCOUNTS; i++)
        n += accounts[i].used;
    spin_unlock_irqrestore(&sched_lock, flags);
    return n;
}

bool quota_charge_pages(struct quota_account *a, size_t n)
{
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    bool ok = quota_charge_locked(a, CHARGE_PAGES, n);
    spin_unlock_irqrestore(&sched_lock, flags);
    return ok;
}

void quota_uncharge_pages(struct quota_account *a, size_t n)
{
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    quota_uncharge_locked(a, CHARGE_PAGES, n);
    spin_unlock_irqrestore(&sched_lock, flags);
}
