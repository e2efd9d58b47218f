/* SPDX-License-Identifier: MIT */
/*
 * kernel/uapi/quota.h - what one task may hold at a time, shared with user
 * programs. A call that would go past a limit fails with -EAGAIN and
 * changes nothing; the global tables behind them are larger (64 tasks, 256
 * threads, 128 endpoints, 128 notifications), so no single task can fill
 * one and shut every other program out. A limit bounds one task, not the
 * tasks it starts: each of those has limits of its own.
 */
#ifndef KERNEL_UAPI_QUOTA_H
#define KERNEL_UAPI_QUOTA_H

#define QUOTA_CHILDREN      16 /* spawn: children running or not yet collected by wait */
#define QUOTA_THREADS       64 /* thread_create: live threads, the first one included */
#define QUOTA_ENDPOINTS     16 /* endpoint_create: endpoints it made that still exist */
#define QUOTA_NOTIFICATIONS 16 /* notify_create: notifications it made that still exist */

#endif
