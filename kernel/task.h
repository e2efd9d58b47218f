/* SPDX-License-Identifier: MIT */
/*
 * kernel/task.h - user tasks: an address space, its threads, a parent.
 *
 * A task ends when exit() is called (all its threads go) or its last thread
 * ends; it then stays a zombie, holding only its exit status, until its
 * parent collects it with wait(). A task whose parent is gone is collected
 * as soon as it ends.
 */
#ifndef KERNEL_TASK_H
#define KERNEL_TASK_H

#include "kernel/ipc/types.h"
#include "kernel/mm/vm.h"
#include "kernel/sched/sched.h"

#define MAX_TASKS     64
#define TASK_NAME_MAX 32
#define MAX_ARGS      16
#define MAX_ARG_BYTES 2048

enum task_state { TASK_UNUSED, TASK_ALIVE, TASK_ZOMBIE };

struct quota_account;

struct task {
    enum task_state state;
    int pid;
    struct task *parent;
    struct aspace as;
    uintptr_t brk_base, brk;  /* heap: [brk_base, brk) is mapped */
    struct spinlock brk_lock; /* guards brk_busy */
    bool brk_busy;            /* a thread is in brk(): the others wait their turn */
    int threads;              /* live threads */
    bool exiting;             /* exit() called: remaining threads leave */
    bool orphan;              /* its parent ended first: nobody will wait for it */
    int exit_status;
    struct ipc_handles handles; /* IPC handles (kernel/ipc/handle.c), closed when it ends */
    char name[TASK_NAME_MAX];
    /* Its tree's account (kernel/quota.h), while it holds a slot. */
    struct quota_account *account;
};

/* Start program `name` from the embedded archive with argv (kernel memory).
 * Returns the new pid or -errno. parent may be NULL (started by the kernel). */
int task_spawn(const char *name, int argc, const char *const argv[], struct task *parent);
/* The same, and the child gets copies of parent's IPC handles
 * handles[0..nhandles-1] as its handles 0..nhandles-1 (-EBADF if one is not
 * open: then nothing starts). */
int task_spawn_with(const char *name, int argc, const char *const argv[], struct task *parent,
                    const int *handles, int nhandles);
/* What the kernel gives a program it starts itself, besides the console:
 * handle 0 naming the console device (kernel/ipc/device.c: the device
 * tests, run.driver), and the control capability at IPC_CONTROL_HANDLE
 * (its self-test programs, run.control; docs/security.md). */
#define TASK_GIFT_DEVICE  1u
#define TASK_GIFT_CONTROL 2u
/* A control capability with the CONSOLE right only (a program the command
 * line names): its output may read as test results (lib/result_guard.h). */
#define TASK_GIFT_CONSOLE 8u
int task_spawn_kernel(const char *name, int argc, const char *const argv[], unsigned gifts);
/* task_spawn_kernel(name, argc, argv, TASK_GIFT_DEVICE). */
/* init (user/init.c), started by the kernel: handle 0 the console device,
 * handle 1 the console service with every endpoint right, so that the
 * console server init starts serves every program
 * (kernel/ipc/console_service.c), and the control capability. */
int task_spawn_init(int argc, const char *const argv[]);
/* Wait for a child (pid, or -1 for any) of `parent` (NULL: a task the kernel
 * started, pid required) to end; returns its pid and sets *status, or -errno. */
int task_wait(struct task *parent, int pid, int *status);
/* The calling thread ends; with whole_task, every thread of its task too. */
__noreturn void task_exit(int status, bool whole_task);
/* Pids are 1..PID_MAX: after PID_MAX the count starts again at 1, skipping
 * the pids tasks (zombies included) still hold, so a pid is never negative
 * (a console badge, kernel/ipc/console_service.c, is the pid) and never
 * names two tasks. */
#define PID_MAX 0x7fffffff
/* Tests only: the pid the next task gets, before the skipping. */
void task_pid_counter_set(int next);
/* A user program did something fatal: one-line report, then task_exit. */
__noreturn void task_kill(const char *why, uintptr_t addr, uintptr_t pc, int status);
/* A second thread in the caller's task, starting at pc with sp and arg. */
int task_thread_create(uintptr_t pc, uintptr_t arg, uintptr_t sp);
struct task *current_task(void);
/* The pages its heap holds now: what its tree is charged for it (brk). */
size_t task_heap_pages(const struct task *t);
/* The scheduler, sched_lock held: the task's last thread has switched out
 * for good; the task becomes a zombie (or goes, if nobody will wait). */
void task_ended_locked(struct task *task);

#endif
