/* SPDX-License-Identifier: MIT */
/*
 * kernel/ipc/device.c - the console UART as an object a user-space driver
 * holds a handle to (kernel/uapi/ipc.h): register access, and its
 * interrupt delivered as notification bits.
 *
 * There is one device, made at boot: the console. Only the task the kernel
 * gives a handle (run=init, a kernel test) and those it passes the handle
 * on to can use it. Once a handle binds the interrupt, the interrupt masks
 * the line at the interrupt controller and signals the notification; the
 * driver reads the UART (device_io) and acknowledges, which unmasks it.
 * The kernel's own output keeps going to the same UART by polling; only
 * input changes hands. When the binding handle goes (closed, or its task
 * died) the kernel takes the input back: line unmasked, receive interrupt
 * on, its own handler again. All state is guarded by sched_lock, which the
 * interrupt takes too, so a bind, an ack and an unbind never race a
 * firing interrupt.
 */
#include "arch/arch.h"
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/ipc/ipc.h"
#include "kernel/mm/vm.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/syscall.h"
#include "kernel/task.h"

struct device {
    int refs;              /* handles naming it */
    struct notify *notify; /* the bound notification (holding a reference), or NULL */
    uint64_t bits;         /* what the interrupt signals on it */
    struct task *owner;    /* the task and handle that bound it */
    int owner_h;
    bool masked; /* fired, not yet acknowledged */
};

static struct device console_device;

void device_hold_locked(struct device *d)
{
    d->refs++;
}

static void unbind_locked(struct device *d)
{

    notify_release_locked(d->notify);
    d->notify = NULL;
    d->owner = NULL;
    d->masked = false;
    console_input_to_kernel();
    arch_console_irq_mask(false);
}

void device_release_locked(struct device *d, struct task *t, int h)
{
    if (d->notify && d->owner == t && d->owner_h == h)
        unbind_locked(d);
    d->refs--;
}

long device_give_console_locked(struct task *t)
{
    return handle_install_locked(t, IPC_KIND_DEVICE, &console_device, IPC_RIGHT_MINT, 0);
}

bool device_console_interrupt(void)
{
    struct device *d = &console_device;
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    bool bound = d->notify != NULL;
    if (bound) {
        arch_console_irq_mask(true);
        d->masked = true;
        notify_signal_locked(d->notify, d->bits);
    }
    spin_unlock_irqrestore(&sched_lock, flags);
    return bound;
}

static int handle_arg(uintptr_t v)
{
    return v < IPC_MAX_HANDLES ? (int)v : -1;
}

/* The caller's device handle h (sched_lock held), or NULL and *err. */
static struct device *lookup_locked(int h, long *err)
{
    struct ipc_handle *s =
        handle_lookup_locked(current_task(), h, IPC_KIND_DEVICE, IPC_RIGHT_MINT, err);
    return s ? s->obj : NULL;
}

/* Whether the caller holds device handle a0 (-errno if not). */
static long check_device(uintptr_t a0)
{
    long err = 0;
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    lookup_locked(handle_arg(a0), &err);
    spin_unlock_irqrestore(&sched_lock, flags);
    return err;
}

long sys_device_info(const struct sysargs *args)
{
    long err = check_device(args->a[0]);
    return err ? err : (long)console_device_info();
}

long sys_device_io(const struct sysargs *args)
{
    long err = check_device(args->a[0]);
    if (err)
        return err;
    if (args->a[3] > DEVICE_IO_WRITE_VOUCHED)
        return -EINVAL;
    return console_device_io(args->a[1], args->a[2], (unsigned)args->a[3]);
}

/* The register page, user read-write, never executable, with device
 * attributes (x86 PCD, arm64 Device-nGnRE, riscv64 the PMA's own); the
 * page is not RAM, so unmapping it at exit frees nothing (kernel/mm/vm.c). */
long sys_device_map(const struct sysargs *args)
{
    long err = check_device(args->a[0]);
    uintptr_t va = args->a[1];
    uint64_t pa, size;
    if (err)
        return err;
    if (!console_mmio(&pa, &size) || va == 0 || va % PAGE_SIZE || va >= USER_TOP - PAGE_SIZE)
        return -EINVAL;
    /* The page the registers are in (DEVICE_INFO_PAGE_OFFSET says where). */
    return vm_map(&current_task()->as, va, ALIGN_DOWN(pa, PAGE_SIZE), PAGE_SIZE,
                  VM_USER | VM_READ | VM_WRITE | VM_DEVICE);
}

long sys_irq_bind(const struct sysargs *args)
{
    uint64_t bits = args->a[2];
    if (!bits || (bits & ~IPC_NOTIFY_BITS))
        return -EINVAL;
    long err = 0;
    int h = handle_arg(args->a[0]);
    struct task *t = current_task();
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    struct device *d = lookup_locked(h, &err);
    struct ipc_handle *n =
        d ? handle_lookup_locked(t, handle_arg(args->a[1]), IPC_KIND_NOTIFY, IPC_RIGHT_SIGNAL, &err)
          : NULL;
    if (n && d->notify)
        err = -EBUSY;
    else if (n && (!console_input_irq_routed() || !arch_console_irq_maskable()))
        err = -ENODEV; /* an interrupt it could not mask would never stop */
    else if (n) {
        notify_hold_locked(n->obj);
        *d = (struct device){
            .refs = d->refs, .notify = n->obj, .bits = bits, .owner = t, .owner_h = h};
    }
    spin_unlock_irqrestore(&sched_lock, flags);
    return err;
}

long sys_irq_ack(const struct sysargs *args)
{
    long err = 0;
    int h = handle_arg(args->a[0]);
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    struct device *d = lookup_locked(h, &err);
    if (d && (!d->notify || d->owner != current_task() || d->owner_h != h))
        err = -EINVAL;
    else if (d && d->masked) {
        d->masked = false;
        arch_console_irq_mask(false);
    }
    spin_unlock_irqrestore(&sched_lock, flags);
    return err;
}
