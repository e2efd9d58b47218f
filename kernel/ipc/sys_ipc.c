/* SPDX-License-Identifier: MIT */
/*
 * kernel/ipc/sys_ipc.c - the IPC system calls (kernel/uapi/syscall.h,
 * kernel/uapi/ipc.h): argument checks and the copies between user memory
 * and the calling thread's message slot; the rendezvous itself is in
 * endpoint.c and notify.c.
 *
 * A message goes out in registers (tag, w0..w3 = arguments 1-5) and comes
 * back in the same registers (arch_sc_set_words), with the badge or -errno
 * as the result. Its IPC_TAG_LEN(tag) extra words travel through the
 * threads' user buffers: the sender's are copied into its own slot here,
 * before anything is delivered (a bad buffer fails the call, nothing is
 * sent), and the receiver copies them out of the sender's slot here, after
 * the message arrived, in its own address space: two copies, and no
 * mapping of one address space into the other.
 */
#include "kernel/errno.h"
#include "kernel/ipc/fastpath.h"
#include "kernel/ipc/ipc.h"
#include "kernel/quota.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/syscall.h"
#include "kernel/task.h"
#include "kernel/uaccess.h"
#include "kernel/uapi/quota.h"

/* Extra words the kernel has copied, user buffer to slot or slot to user
 * buffer, per CPU (relaxed: a thread may move between the copy and the
 * count, any CPU's row will do). SYS_debug_stats reports the sum. */
static unsigned long words_copied[MAX_CPUS];

void ipc_count_copied(size_t n)
{
    __atomic_fetch_add(&words_copied[arch_this_cpu()->id], n, __ATOMIC_RELAXED);
}

unsigned long ipc_words_copied(void)
{
    unsigned long n = 0;
    for (unsigned i = 0; i < MAX_CPUS; i++)
        n += __atomic_load_n(&words_copied[i], __ATOMIC_RELAXED);
    return n;
}

void ipc_loan_wait(struct thread *self)
{
    while (__atomic_load_n(&self->ipc.lent, __ATOMIC_ACQUIRE) != 0)
        sched_yield(); /* the receivers were woken: they copy, then let go */
}

/* The message in arguments 1-5 (and the buffer) into self's slot. Its
 * extra words overwrite the last message's only once no receiver still
 * copies from them. */
static long stage(struct thread *self, const struct sysargs *args)
{
    struct ipc_msg *m = &self->ipc.msg;
    size_t n = IPC_TAG_LEN(args->a[1]);
    if (n > IPC_BUF_WORDS)
        return -EINVAL;
    if (n) {
        if (!self->ipc.ubuf)
            return -EFAULT; /* extra words, but no buffer to read them from */
        ipc_loan_wait(self);
        if (copy_from_user(m->extra, self->ipc.ubuf, n * sizeof(m->extra[0])) != 0)
            return -EFAULT;
        ipc_count_copied(n);
    }
    for (int i = 0; i < 1 + IPC_REG_WORDS; i++)
        m->regs[i] = args->a[1 + i];
    return 0;
}

/* The n extra words lent by the sender's slot into self's buffer, then the
 * loan returned: false if self has no buffer or it is bad. */
static bool copy_lent_words(struct thread *self, size_t n)
{
    struct thread *from = self->ipc.lender;
    self->ipc.lender = NULL;
    bool ok = self->ipc.ubuf &&
              copy_to_user(self->ipc.ubuf, from->ipc.msg.extra, n * sizeof(uintptr_t)) == 0;
    if (ok)
        ipc_count_copied(n);
    __atomic_fetch_sub(&from->ipc.lent, 1, __ATOMIC_RELEASE); /* after the copy's loads */
    return ok;
}

/* After a wait that ended with `result`: a message arrived (result >= 0)
 * in self's slot; its words go back in the argument registers and its
 * extra words into self's buffer (-EFAULT if it has none or it is bad:
 * the message is lost, but a caller stays this server thread's to answer). */
long ipc_unstage(struct thread *self, long result)
{
    if (result < 0)
        return result;
    if (self->ipc.direct) { /* the fastpath wrote the registers already (fastpath.c) */
        self->ipc.direct = false;
        return result;
    }
    const struct ipc_msg *m = &self->ipc.msg;
    size_t n = IPC_TAG_LEN(m->tag);
    if (n && !copy_lent_words(self, n))
        return -EFAULT;
    arch_sc_set_words(arch_user_frame(self->kstack_top), m->regs);
    return result;
}

/* A new object of `kind`, named by a new handle of the caller's with every
 * right that kind has: -EAGAIN past the caller's quota or its tree's
 * (uapi/quota.h; the tree pays until the object goes), -ENOSPC if the
 * table is full. */
static long create_object(enum ipc_kind kind)
{
    struct task *t = current_task();
    bool endpoint = kind == IPC_KIND_ENDPOINT;
    unsigned rights =
        endpoint ? IPC_RIGHT_SEND | IPC_RIGHT_RECV : IPC_RIGHT_SIGNAL | IPC_RIGHT_WAIT;
    long ret = -EAGAIN;
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    int owned = endpoint ? endpoints_owned_locked(t) : notifies_owned_locked(t);
    enum quota_kind charge = endpoint ? CHARGE_ENDPOINTS : CHARGE_NOTIFICATIONS;
    if (owned < (endpoint ? QUOTA_ENDPOINTS : QUOTA_NOTIFICATIONS) &&
        quota_charge_locked(t->account, charge, 1)) {
        void *obj = endpoint ? (void *)endpoint_alloc_locked(t) : (void *)notify_alloc_locked(t);
        ret = obj ? handle_install_locked(t, kind, obj, rights | IPC_RIGHT_MINT, 0) : -ENOSPC;
        if (ret < 0)
            quota_uncharge_locked(t->account, charge, 1); /* the slot stayed free */
    }
    spin_unlock_irqrestore(&sched_lock, flags);
    return ret;
}

long sys_endpoint_create(const struct sysargs *args)
{
    (void)args;
    return create_object(IPC_KIND_ENDPOINT);
}

long sys_notify_create(const struct sysargs *args)
{
    (void)args;
    return create_object(IPC_KIND_NOTIFY);
}

long sys_handle_mint(const struct sysargs *args)
{
    if (args->a[1] & ~(uintptr_t)IPC_RIGHTS_ALL)
        return -EINVAL;
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    long ret = handle_mint_locked(current_task(), ipc_handle_arg(args->a[0]), (unsigned)args->a[1],
                                  args->a[2]);
    spin_unlock_irqrestore(&sched_lock, flags);
    return ret;
}

long sys_handle_close(const struct sysargs *args)
{
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    long ret = handle_close_locked(current_task(), ipc_handle_arg(args->a[0]));
    spin_unlock_irqrestore(&sched_lock, flags);
    return ret;
}

/* The ordinary path of ipc_call, which every call the fastpath does not
 * take goes down: the system call table's handler is the fastpath
 * (fastpath.c: ipc_fast_call), which calls this one when it may not. */
long sys_ipc_call(const struct sysargs *args)
{
    struct thread *self = current_thread();
    long err = stage(self, args);
    return err ? err : ipc_unstage(self, endpoint_call(self, ipc_handle_arg(args->a[0])));
}

long sys_ipc_send(const struct sysargs *args)
{
    struct thread *self = current_thread();
    long err = stage(self, args);
    return err ? err : endpoint_send(self, ipc_handle_arg(args->a[0]));
}

long sys_ipc_recv(const struct sysargs *args)
{
    struct thread *self = current_thread();
    return ipc_unstage(self, endpoint_recv(self, ipc_handle_arg(args->a[0])));
}

/* The same for ipc_reply_recv (fastpath.c: ipc_fast_reply_recv). */
long sys_ipc_reply_recv(const struct sysargs *args)
{
    struct thread *self = current_thread();
    long err = stage(self, args);
    return err ? err : ipc_unstage(self, endpoint_reply_recv(self, ipc_handle_arg(args->a[0])));
}

/* The calling thread's buffer of IPC_BUF_WORDS words (NULL: none). */
long sys_ipc_set_buffer(const struct sysargs *args)
{
    uintptr_t buf = args->a[0];
    size_t size = IPC_BUF_WORDS * sizeof(uintptr_t);
    if (buf && (buf % sizeof(uintptr_t) || !user_access_ok(buf, size, true)))
        return -EFAULT;
    current_thread()->ipc.ubuf = buf;
    return 0;
}

long sys_notify_signal(const struct sysargs *args)
{
    return notify_signal(current_task(), ipc_handle_arg(args->a[0]), args->a[1]);
}

long sys_notify_wait(const struct sysargs *args)
{
    return notify_take(current_task(), ipc_handle_arg(args->a[0]), true);
}

long sys_notify_poll(const struct sysargs *args)
{
    return notify_take(current_task(), ipc_handle_arg(args->a[0]), false);
}
