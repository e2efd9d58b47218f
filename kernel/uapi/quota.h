/* SPDX-License-Identifier: MIT */
/*
 * kernel/uapi/quota.h - what one task, and one task tree, may hold at a
 * time, shared with user programs. A call that would go past a limit fails
 * with -EAGAIN and changes nothing (brk: the break stays where it was).
 *
 * A limit QUOTA_* bounds one task. A limit QUOTA_TREE_* bounds a task tree:
 * a program the kernel started, or one that a holder of the whole control
 * capability (init, the self-test programs) started, together with
 * everything it starts, and everything those start (kernel/quota.h). The
 * global tables behind them are larger (64 tasks, 256 threads, 128
 * endpoints, 128 notifications), so no tree can fill one and shut every
 * other program out: a fork bomb or an allocation storm stays inside its
 * own tree's share.
 */
#ifndef KERNEL_UAPI_QUOTA_H
#define KERNEL_UAPI_QUOTA_H

#define QUOTA_CHILDREN      16 /* spawn: children running or not yet collected by wait */
#define QUOTA_THREADS       64 /* thread_create: live threads, the first one included */
#define QUOTA_ENDPOINTS     16 /* endpoint_create: endpoints it made that still exist */
#define QUOTA_NOTIFICATIONS 16 /* notify_create: notifications it made that still exist */

#define QUOTA_TREE_TASKS         24 /* tasks, zombies included, the root too */
#define QUOTA_TREE_THREADS       96 /* live threads of all of them */
#define QUOTA_TREE_ENDPOINTS     32 /* endpoints they made that still exist */
#define QUOTA_TREE_NOTIFICATIONS 32 /* notifications they made that still exist */
#define QUOTA_TREE_PAGE_SHARE    4  /* heap pages: a quarter of the memory free at boot */

#endif
