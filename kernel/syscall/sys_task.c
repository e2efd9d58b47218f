/* SPDX-License-Identifier: MIT */
/* kernel/syscall/sys_task.c - system calls about tasks and threads. */
#include "kernel/errno.h"
#include "kernel/syscall/syscall.h"
#include "kernel/task.h"
#include "kernel/uaccess.h"
#include "kernel/uapi/ipc.h"
#include "lib/string.h"

long sys_exit(const struct sysargs *args)
{
    task_exit((int)args->a[0], true);
}

long sys_getpid(const struct sysargs *args)
{
    return current_task()->pid;
}

long sys_getppid(const struct sysargs *args)
{
    struct task *parent = current_task()->parent;
    return parent ? parent->pid : 0;
}

long sys_gettid(const struct sysargs *args)
{
    return current_thread()->tid;
}

/* Copy argv (a NULL-terminated array of user strings) into buf. */
static int copy_argv(uintptr_t uargv, char *buf, const char *argv[MAX_ARGS])
{
    size_t used = 0;
    for (int argc = 0; argc <= MAX_ARGS; argc++) {
        uintptr_t p;
        if (copy_from_user(&p, uargv + argc * sizeof(p), sizeof(p)) != 0)
            return -EFAULT;
        if (!p)
            return argc;
        if (argc == MAX_ARGS)
            return -E2BIG;
        long n = strncpy_from_user(buf + used, p, MAX_ARG_BYTES - used);
        if (n < 0)
            return (int)n;
        argv[argc] = buf + used;
        used += (size_t)n + 1;
    }
    return -E2BIG;
}

/* The program name and argv from user memory (argv may be 0, then argv =
 * {name}), started as a child of the caller with handles[0..n-1]. */
static long spawn_from_user(uintptr_t uname, uintptr_t uargv, const int *handles, int n)
{
    char name[TASK_NAME_MAX];
    char buf[MAX_ARG_BYTES];
    const char *argv[MAX_ARGS];
    long len = strncpy_from_user(name, uname, sizeof(name));
    if (len < 0)
        return len == -E2BIG ? -ENOENT : len;
    int argc = 1;
    argv[0] = name;
    if (uargv) {
        argc = copy_argv(uargv, buf, argv);
        if (argc < 0)
            return argc;
    }
    return task_spawn_with(name, argc, argv, current_task(), handles, n);
}

/* spawn(name, argv). */
long sys_spawn(const struct sysargs *args)
{
    return spawn_from_user(args->a[0], args->a[1], NULL, 0);
}

/* spawn_with(name, argv, handles, n): spawn, and the child gets copies of
 * the caller's handles handles[0..n-1] as its handles 0..n-1. */
long sys_spawn_with(const struct sysargs *args)
{
    int handles[IPC_MAX_HANDLES];
    size_t n = args->a[3];
    if (n > IPC_MAX_HANDLES)
        return -EINVAL;
    if (n && copy_from_user(handles, args->a[2], n * sizeof(handles[0])) != 0)
        return -EFAULT;
    return spawn_from_user(args->a[0], args->a[1], handles, (int)n);
}

/* wait(pid, status): pid -1 means any child; status may be NULL. A pid is
 * judged at full width: one past an int names no child (-ECHILD). */
long sys_wait(const struct sysargs *args)
{
    long wide = (long)args->a[0];
    if (wide < -1 || wide == 0)
        return -EINVAL;
    if (wide > INT_MAX)
        return -ECHILD;
    int pid = (int)wide, status = 0;
    if (args->a[1] && !user_access_ok(args->a[1], sizeof(int), true))
        return -EFAULT;
    int ret = task_wait(current_task(), pid, &status);
    if (ret > 0 && args->a[1] && copy_to_user(args->a[1], &status, sizeof(status)) != 0)
        return -EFAULT; /* the child is reaped either way, as on POSIX systems */
    return ret;
}

long sys_thread_create(const struct sysargs *args)
{
    return task_thread_create(args->a[0], args->a[1], args->a[2]);
}

long sys_thread_exit(const struct sysargs *args)
{
    task_exit(0, false);
}
