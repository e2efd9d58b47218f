/* SPDX-License-Identifier: MIT */
/*
 * kernel/task.c - starting, ending and waiting for user tasks (see task.h).
 * The task table and every task's state are guarded by sched_lock, so that
 * "is there a zombie child? no: sleep" cannot miss the child's wake-up.
 */
#include "kernel/task.h"

#include "kernel/arch_callbacks.h"
#include "kernel/errno.h"
#include "kernel/exec.h"
#include "kernel/initrd.h"
#include "kernel/ipc/ipc.h"
#include "kernel/kstack_offset/kstack_offset.h"
#include "kernel/panic.h"
#include "kernel/quota.h"
#include "kernel/syscall/path.h"
#include "kernel/uapi/quota.h"
#include "lib/string.h"

static struct task tasks[MAX_TASKS];
static int next_pid = 1;
static int kernel_waiters; /* wait channel for tasks the kernel started */

struct task *current_task(void)
{
    return current_thread()->task;
}

/* The first code a user thread runs: drop to user mode (unless the task
 * started exiting while this thread was being created). */
static void user_thread_start(void *unused)
{
    struct thread *t = current_thread();
    if (READ_ONCE(t->task->exiting))
        task_exit(0, false);
    arch_enter_user(t->user_start.pc, t->user_start.sp, t->user_start.arg0, t->user_start.arg1);
}

/* A thread of `task` that will start in user mode, with its own stack
 * offset state (only threads that make system calls need one). */
static struct thread *user_thread_create(const char *name, struct task *task)
{
    struct thread *th = thread_create(name, user_thread_start, NULL, ALL_CPUS, task);
    if (th) {
        kstack_offset_thread_init(th);
        th->path_epoch = syscall_path_epoch(); /* before any system call it makes */
    }
    return th;
}

/* Children of parent that still hold a slot: running, or zombies (sched_lock held). */
static int children_locked(const struct task *parent)
{
    int n = 0;
    for (int i = 0; i < MAX_TASKS; i++)
        n += tasks[i].state != TASK_UNUSED && tasks[i].parent == parent;
    return n;
}

void task_pid_counter_set(int next)
{
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    next_pid = next;
    spin_unlock_irqrestore(&sched_lock, flags);
}

static bool pid_in_use_locked(int pid)
{
    for (int i = 0; i < MAX_TASKS; i++)
        if (tasks[i].state != TASK_UNUSED && tasks[i].pid == pid)
            return true;
    return false;
}

/* The next pid no task holds (sched_lock held): at most MAX_TASKS are. */
static int alloc_pid_locked(void)
{
    for (;;) {
        int pid = next_pid;
        next_pid = next_pid >= PID_MAX || next_pid < 1 ? 1 : next_pid + 1;
        if (pid >= 1 && !pid_in_use_locked(pid))
            return pid;
    }
}

/* The account a child of parent (NULL: the kernel) is charged to: a new
 * one for a task the kernel or a holder of the whole control capability
 * starts (kernel/quota.h), its parent's otherwise; NULL if none is left. */
static struct quota_account *account_for_child_locked(const struct task *parent)
{
    if (!parent || control_held_locked(parent, IPC_RIGHTS_CONTROL))
        return quota_account_new_locked();
    return parent->account;
}

/* Charge a new task and its first thread to a; false (nothing charged) if
 * that would pass the tree's quota. */
static bool charge_task_locked(struct quota_account *a)
{
    if (!a || !quota_charge_locked(a, CHARGE_TASKS, 1))
        return false;
    if (quota_charge_locked(a, CHARGE_THREADS, 1))
        return true;
    quota_uncharge_locked(a, CHARGE_TASKS, 1);
    return false;
}

/* The slot is free again (sched_lock held): the tree's charge for it goes. */
static void release_slot_locked(struct task *t)
{
    t->state = TASK_UNUSED;
    quota_uncharge_locked(t->account, CHARGE_TASKS, 1);
    t->account = NULL;
}

/* A new task, or NULL if the table is full, parent has QUOTA_CHILDREN or
 * the tree would pass its quota of tasks or threads. */
static struct task *alloc_task(const char *name, struct task *parent)
{
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    struct task *t = NULL;
    for (int i = 0; i < MAX_TASKS && !t; i++) {
        if (tasks[i].state == TASK_UNUSED)
            t = &tasks[i];
    }
    if (t && parent && children_locked(parent) >= QUOTA_CHILDREN)
        t = NULL;
    struct quota_account *account = t ? account_for_child_locked(parent) : NULL;
    if (t && !charge_task_locked(account))
        t = NULL;
    if (t) {
        memset(t, 0, sizeof(*t));
        t->pid = alloc_pid_locked(); /* before it holds one */
        t->state = TASK_ALIVE;
        t->parent = parent;
        t->threads = 1;
        t->account = account;
        strlcpy(t->name, name, sizeof(t->name));
    }
    spin_unlock_irqrestore(&sched_lock, flags);
    return t;
}

static void free_task(struct task *t)
{
    if (t->as.root)
        aspace_destroy(&t->as);
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    handles_close_all_locked(t); /* handed to a child that never started */
    quota_uncharge_locked(t->account, CHARGE_THREADS, (size_t)t->threads);
    release_slot_locked(t);
    spin_unlock_irqrestore(&sched_lock, flags);
}

/* The handles the kernel gives a new task (TASK_GIFT_* and these). */
#define GIFT_SERVICE 4u /* init: the console service (kernel/ipc/console_service.c) */
#define GIFTS_INIT   (TASK_GIFT_DEVICE | TASK_GIFT_CONTROL | GIFT_SERVICE)

/* The child's handles, before its first thread starts (so nothing else
 * touches its table yet): the parent's list as 0..n-1, the device next, the
 * control capability at IPC_CONTROL_HANDLE (every right, or CONSOLE only),
 * and IPC_CONSOLE_HANDLE if a
 * console server serves (init does not get it: it starts that server). */
static int give_handles(struct task *child, struct task *parent, const int *handles, int n,
                        unsigned gifts)
{
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    long err = parent && n ? handles_give_locked(child, parent, handles, n) : 0;
    if (err >= 0 && (gifts & TASK_GIFT_DEVICE))
        err = device_give_console_locked(child);
    if (err >= 0 && (gifts & (TASK_GIFT_CONTROL | TASK_GIFT_CONSOLE)))
        err = control_give_locked(child, gifts & TASK_GIFT_CONTROL ? IPC_RIGHTS_CONTROL
                                                                   : IPC_RIGHT_CONSOLE);
    if (err >= 0 && (gifts & GIFT_SERVICE))
        err = console_service_give_init_locked(child);
    else if (err >= 0)
        console_service_give_client_locked(child);
    spin_unlock_irqrestore(&sched_lock, flags);
    return err < 0 ? (int)err : 0;
}

int task_spawn(const char *name, int argc, const char *const argv[], struct task *parent)
{
    return task_spawn_with(name, argc, argv, parent, NULL, 0);
}

static int spawn(const char *name, int argc, const char *const argv[], struct task *parent,
                 const int *handles, int nhandles, unsigned gifts)
{
    const struct initrd_entry *prog = initrd_find(name);
    if (!prog)
        return -ENOENT;
    struct task *t = alloc_task(name, parent);
    if (!t)
        return -EAGAIN;
    struct exec_result r;
    int err = aspace_create(&t->as);
    if (!err)
        err = exec_load(&t->as, prog->data, prog->size, argc, argv, &r);
    if (!err)
        err = give_handles(t, parent, handles, nhandles, gifts);
    struct thread *th = err ? NULL : user_thread_create(name, t);
    if (!th) {
        free_task(t);
        return err ? err : -EAGAIN;
    }
    t->brk_base = t->brk = r.brk_base;
    th->user_start.pc = r.entry;
    th->user_start.sp = r.sp;
    th->user_start.arg0 = (uintptr_t)argc;
    th->user_start.arg1 = r.argv;
    int pid = t->pid;
    thread_start(th);
    return pid;
}

int task_spawn_with(const char *name, int argc, const char *const argv[], struct task *parent,
                    const int *handles, int nhandles)
{
    return spawn(name, argc, argv, parent, handles, nhandles, 0);
}

int task_spawn_kernel(const char *name, int argc, const char *const argv[], unsigned gifts)
{
    return spawn(name, argc, argv, NULL, NULL, 0,
                 gifts & (TASK_GIFT_DEVICE | TASK_GIFT_CONTROL | TASK_GIFT_CONSOLE));
}

int task_spawn_init(int argc, const char *const argv[])
{
    return spawn("init", argc, argv, NULL, NULL, 0, GIFTS_INIT);
}

int task_thread_create(uintptr_t pc, uintptr_t arg, uintptr_t sp)
{
    struct task *task = current_task();
    if (pc >= USER_TOP || sp >= USER_TOP)
        return -EINVAL; /* a bad sp is the program's problem: it faults in user mode */
    /* Count the thread first, so the task cannot end under it. */
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    bool exiting = task->exiting;
    bool full = !exiting && (task->threads >= QUOTA_THREADS ||
                             !quota_charge_locked(task->account, CHARGE_THREADS, 1));
    if (!exiting && !full)
        task->threads++;
    spin_unlock_irqrestore(&sched_lock, flags);
    if (exiting)
        return -ESRCH;
    if (full)
        return -EAGAIN;
    struct thread *th = user_thread_create(task->name, task);
    if (!th) {
        flags = spin_lock_irqsave(&sched_lock);
        task->threads--; /* the caller is still running: this never reaches 0 */
        quota_uncharge_locked(task->account, CHARGE_THREADS, 1);
        spin_unlock_irqrestore(&sched_lock, flags);
        return -EAGAIN;
    }
    th->user_start.pc = pc;
    th->user_start.sp = sp;
    th->user_start.arg0 = arg;
    thread_start(th);
    return th->tid;
}

static void kill_sibling(struct thread *t, void *task)
{
    if (t->task == task && t != this_cpu()->sched.current) {
        t->killed = true;
        sched_wake_thread_locked(t);
    }
}

/* The task's last thread has switched out (sched_lock held): zombie, reparent, notify. */
void task_ended_locked(struct task *task)
{
    /* An orphan has nobody to wait for it: it is gone at once. */
    if (task->orphan)
        release_slot_locked(task);
    else
        task->state = TASK_ZOMBIE;
    for (int i = 0; i < MAX_TASKS; i++) {
        struct task *child = &tasks[i];
        if (child->state == TASK_UNUSED || child->parent != task)
            continue;
        child->parent = NULL;
        child->orphan = true;
        if (child->state == TASK_ZOMBIE)
            release_slot_locked(child);
    }
    sched_wakeup_locked(task->parent ? (const void *)task->parent : &kernel_waiters);
}

/*
 * Every exiting thread first moves its CPU off the task's page tables, with
 * preemption disabled from then on (a switch back to it would reload them).
 * So when the count of live threads reaches 0, no CPU is using the tables
 * any more and the last thread can free them. The task itself ends (becomes
 * a zombie, its slot reusable) only after that thread's final switch: see
 * finish_switch() in kernel/sched/sched.c.
 */
void task_exit(int status, bool whole_task)
{
    struct task *task = current_task();
    ipc_loan_wait(current_thread()); /* its slot must outlive every receiver's copy */
    preempt_disable();
    aspace_activate(NULL);
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    if (whole_task && !task->exiting) {
        task->exiting = true;
        task->exit_status = status;
        sched_for_each_thread_locked(kill_sibling, task);
    } else if (!task->exiting && task->threads == 1) {
        task->exit_status = status;
    }
    ipc_thread_exit_locked(current_thread());
    bool last = --task->threads == 0;
    quota_uncharge_locked(task->account, CHARGE_THREADS, 1);
    if (last) {
        handles_close_all_locked(task); /* its servers' clients fail, its objects go */
        quota_uncharge_locked(task->account, CHARGE_PAGES, task_heap_pages(task));
    }
    spin_unlock_irqrestore(&sched_lock, flags);
    if (last) {
        aspace_destroy(&task->as);
        current_thread()->last_of_task = true;
    }
    thread_exit();
}

size_t task_heap_pages(const struct task *t)
{
    return (ALIGN_UP(t->brk, PAGE_SIZE) - ALIGN_UP(t->brk_base, PAGE_SIZE)) / PAGE_SIZE;
}

void task_kill(const char *why, uintptr_t addr, uintptr_t pc, int status)
{
    struct task *task = current_task();
    kprintf("pid %d (%s): killed: %s, address %#lx, pc %#lx\n", task->pid, task->name, why,
            (unsigned long)addr, (unsigned long)pc);
    task_exit(status, true);
}

/* A matching zombie child is reaped; *any tells whether a matching child exists. */
static int reap_locked(struct task *parent, int pid, int *status, bool *any)
{
    for (int i = 0; i < MAX_TASKS; i++) {
        struct task *c = &tasks[i];
        if (c->state == TASK_UNUSED || c->parent != parent || (pid != -1 && c->pid != pid))
            continue;
        *any = true;
        if (c->state == TASK_ZOMBIE) {
            *status = c->exit_status;
            release_slot_locked(c);
            return c->pid;
        }
    }
    return 0;
}

int task_wait(struct task *parent, int pid, int *status)
{
    if (!parent && pid <= 0)
        return -EINVAL; /* the kernel waits for specific tasks only */
    const void *chan = parent ? (const void *)parent : &kernel_waiters;
    unsigned long flags = spin_lock_irqsave(&sched_lock);
    int result;
    for (;;) {
        bool any = false;
        result = reap_locked(parent, pid, status, &any);
        if (result > 0 || !any) {
            result = result > 0 ? result : -ECHILD;
            break;
        }
        if ((result = (int)sched_sleep_killable_locked(chan)) < 0)
            break;
    }
    spin_unlock_irqrestore(&sched_lock, flags);
    return result;
}
