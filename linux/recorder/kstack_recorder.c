// SPDX-License-Identifier: MIT OR GPL-2.0-only
/*
 * linux/recorder/kstack_recorder.c - a Linux module that tells a program how
 * deep in its kernel stack its own system call ran: the stack offset
 * recorder behind `make conformance-linux` (linux/README.md).
 *
 * Copyright (c) 2026 The stackshift authors. This file is a work of its
 * own, written from the kernel's documented module interfaces (the misc
 * device API, struct file_operations, wait queues: Documentation/ in the
 * kernel's source and the headers of linux-headers-*), and built against
 * the headers of Debian's kernel; it contains no code from the kernel. Its
 * licence is MIT or, at the user's choice, GPL-2.0-only, so the module
 * licence string below is one the kernel accepts as GPL-compatible.
 *
 * /dev/kstack_recorder takes three ioctls (linux/recorder/kstack_recorder.h):
 *
 *   KSR_PROBE   writes one struct ksr_reply: the depth of a local variable
 *               of this handler below the top of the calling thread's
 *               kernel stack, and the CPU the call began and ended on.
 *               Everything between the system call's entry and this frame
 *               is the same on every call, so two calls' depths differ by
 *               exactly the difference of their entry offsets.
 *   KSR_SLEEP   the same reply, but the call first waits until KSR_WAKE
 *               (from another thread or process): long enough for another
 *               program to move the caller to another CPU in the middle
 *               (a Bug 1 migration trial, docs/attacks.md). The depth is
 *               taken on entry, before the wait.
 *   KSR_WAKE    ends the wait of a KSR_SLEEP; returns 0.
 *   KSR_WAITING returns 1 while a KSR_SLEEP waits, else 0.
 */
#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/smp.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "kstack_recorder.h"

static DECLARE_WAIT_QUEUE_HEAD(ksr_queue);
static atomic_t ksr_waiting = ATOMIC_INIT(0);
static atomic_t ksr_released = ATOMIC_INIT(0);

/* Wait for KSR_WAKE; -ERESTARTSYS if a signal came first. */
static int ksr_sleep(void)
{
    int err;

    atomic_set(&ksr_waiting, 1);
    err = wait_event_interruptible(ksr_queue, atomic_read(&ksr_released));
    atomic_set(&ksr_released, 0);
    atomic_set(&ksr_waiting, 0);
    return err;
}

/*
 * noinline: the frame whose depth is measured must be this function's on
 * every call, whatever the compiler makes of its callers.
 */
static noinline long ksr_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
    unsigned long here = 0;
    unsigned long top = (unsigned long)task_stack_page(current) + THREAD_SIZE;
    struct ksr_reply reply = {
        .depth = top - (unsigned long)&here,
        .cpu_begin = raw_smp_processor_id(),
    };

    switch (cmd) {
    case KSR_PROBE: break;
    case KSR_SLEEP:
        if (ksr_sleep())
            return -ERESTARTSYS;
        break;
    case KSR_WAKE:
        atomic_set(&ksr_released, 1);
        wake_up_interruptible(&ksr_queue);
        return 0;
    case KSR_WAITING: return atomic_read(&ksr_waiting);
    default: return -ENOTTY;
    }
    reply.cpu_end = raw_smp_processor_id();
    /* `here` must live in this frame: its address was taken above. */
    OPTIMIZER_HIDE_VAR(here);
    if (copy_to_user((void __user *)arg, &reply, sizeof(reply)))
        return -EFAULT;
    return 0;
}

static const struct file_operations ksr_fops = {
    .owner = THIS_MODULE,
    .unlocked_ioctl = ksr_ioctl,
};

static struct miscdevice ksr_device = {
    .minor = MISC_DYNAMIC_MINOR,
    .name = "kstack_recorder",
    .fops = &ksr_fops,
    .mode = 0600,
};

static int __init ksr_init(void)
{
    return misc_register(&ksr_device);
}

static void __exit ksr_exit(void)
{
    misc_deregister(&ksr_device);
}

module_init(ksr_init);
module_exit(ksr_exit);
MODULE_LICENSE("Dual MIT/GPL");
MODULE_AUTHOR("The stackshift authors");
MODULE_DESCRIPTION("Reports the depth of a system call's frame in its kernel stack");
