/* SPDX-License-Identifier: MIT */
/*
 * lib/user/syscalls.c - the operating system interface newlib asks its port
 * for (the newlib manual, "System Calls"): each stub makes the stackshift
 * system call and turns a -errno result into -1 with errno set. The console
 * is fds 0 (read), 1 and 2 (write); there is no file system, so open, stat,
 * link, unlink, fork, execve and wait fail with ENOSYS (programs start
 * others with spawn(), lib/user/ulib.h). Time is CLOCK_MONOTONIC: there is
 * no wall clock.
 *
 * aarch64 and riscv64 newlib call _write, _read, ...; x86_64 newlib (no
 * syscall directory for x86_64-*-elf) calls write, read, ... directly: the
 * plain names are weak aliases of the underscored ones.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/user/console_client.h"
#include "lib/user/syscall.h"

#define ALIAS(name) __attribute__((weak, alias(#name)))
#define RW_RESULT   _READ_WRITE_RETURN_TYPE /* newlib's type for read and write */

/* The underscored names newlib calls; its headers declare some of them
 * only while newlib itself is being compiled. */
int _close(int fd);
int _execve(const char *path, char *const argv[], char *const envp[]);
pid_t _fork(void);
int _fstat(int fd, struct stat *st);
pid_t _getpid(void);
int _isatty(int fd);
int _link(const char *old, const char *new);
off_t _lseek(int fd, off_t offset, int whence);
RW_RESULT _read(int fd, void *buf, size_t len);
void *_sbrk(ptrdiff_t incr);
int _stat(const char *path, struct stat *st);
clock_t _times(struct tms *t);
int _unlink(const char *path);
pid_t _wait(int *status);
RW_RESULT _write(int fd, const void *buf, size_t len);
void _init(void);
void _fini(void);

/* -1 and errno for a -errno result (already in newlib's numbering). */
static long check(long r)
{
    if (r < 0 && r >= -4095) {
        errno = (int)-r;
        return -1;
    }
    return r;
}

static int fail(int err)
{
    errno = err;
    return -1;
}

void _exit(int status)
{
    syscall1(SYS_exit, status);
    for (;;)
        ;
}

/* The console goes through the console server (lib/user/console_client.h:
 * the handle the kernel gave, or the one the program chose), else, with no
 * server there, straight to the kernel's debug console. */
RW_RESULT _write(int fd, const void *buf, size_t len)
{
    if ((fd == 1 || fd == 2) && console_client_handle() >= 0) {
        long r = console_client_write(buf, len);
        if (!console_client_fall_back(r))
            return (RW_RESULT)check(r);
    }
    return (RW_RESULT)check(syscall3(SYS_write, fd, buf, len));
}

RW_RESULT _read(int fd, void *buf, size_t len)
{
    if (fd == 0 && console_client_handle() >= 0) {
        long r = console_client_read(buf, len);
        if (!console_client_fall_back(r))
            return (RW_RESULT)check(r);
    }
    return (RW_RESULT)check(syscall3(SYS_read, fd, buf, len));
}

pid_t _getpid(void)
{
    return (pid_t)syscall0(SYS_getpid);
}
pid_t getppid(void)
{
    return (pid_t)syscall0(SYS_getppid);
}

static int is_console(int fd)
{
    return fd >= 0 && fd <= 2;
}

int _close(int fd)
{
    return is_console(fd) ? 0 : fail(EBADF);
}
int _isatty(int fd)
{
    return is_console(fd) ? 1 : fail(EBADF);
}
off_t _lseek(int fd, off_t offset, int whence)
{
    return fail(is_console(fd) ? ESPIPE : EBADF);
}

int _fstat(int fd, struct stat *st)
{
    if (!is_console(fd))
        return fail(EBADF);
    *st = (struct stat){.st_mode = S_IFCHR | 0620, .st_blksize = 1024};
    return 0;
}

/*
 * The heap is the kernel's brk area, which starts after the program.
 * SYS_brk returns the new break, or the old one when it refuses. Negative
 * increments hand memory back (malloc trims its top this way); malloc's
 * lock serialises the calls. The break is asked for every time, not
 * remembered, so programs that also move it with sys_brk() stay correct.
 */
void *_sbrk(ptrdiff_t incr)
{
    uintptr_t old = (uintptr_t)raw_syscall6(SYS_brk, 0, 0, 0, 0, 0, 0);
    uintptr_t want = old + (uintptr_t)incr;
    if (incr && (uintptr_t)raw_syscall6(SYS_brk, (long)want, 0, 0, 0, 0, 0) != want) {
        errno = ENOMEM;
        return (void *)-1;
    }
    return (void *)old;
}

/* Only one signal action exists: the program ends, with the status the
 * kernel gives a killed program (128 + the signal). abort() comes here. */
int _kill(pid_t pid, int sig)
{
    if (pid != _getpid())
        return fail(ENOSYS);
    _exit(128 + sig);
}

static uint64_t monotonic_ns(void)
{
    struct kernel_timespec ts;
    syscall2(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int _gettimeofday(struct timeval *tv, void *tz)
{
    uint64_t ns = monotonic_ns();
    if (tv)
        *tv = (struct timeval){(time_t)(ns / 1000000000u), (suseconds_t)(ns % 1000000000u / 1000)};
    return 0;
}

/* clock() is tms_utime + tms_stime: the time since boot, all counted as user time. */
clock_t _times(struct tms *t)
{
    clock_t now = (clock_t)(monotonic_ns() / (1000000000u / CLOCKS_PER_SEC));
    if (t)
        *t = (struct tms){.tms_utime = now};
    return now;
}

int _open(const char *path, int flags, ...)
{
    return fail(ENOSYS);
}
int _stat(const char *path, struct stat *st)
{
    return fail(ENOSYS);
}
int _link(const char *old, const char *new)
{
    return fail(ENOSYS);
}
int _unlink(const char *path)
{
    return fail(ENOSYS);
}
pid_t _fork(void)
{
    return fail(ENOSYS);
}
int _execve(const char *path, char *const argv[], char *const envp[])
{
    return fail(ENOSYS);
}
pid_t _wait(int *status)
{
    return fail(ENOSYS);
}

/* aarch64 and x86_64 newlib's __libc_init_array calls _init (HAVE_INIT_FINI);
 * everything it runs is in .init_array, so there is nothing to do. */
void _init(void) {}
void _fini(void) {}

/* x86_64 newlib's names (see the top of the file). */
int close(int fd) ALIAS(_close);
int execve(const char *path, char *const argv[], char *const envp[]) ALIAS(_execve);
pid_t fork(void) ALIAS(_fork);
int fstat(int fd, struct stat *st) ALIAS(_fstat);
pid_t getpid(void) ALIAS(_getpid);
int gettimeofday(struct timeval *tv, void *tz) ALIAS(_gettimeofday);
int isatty(int fd) ALIAS(_isatty);
int kill(pid_t pid, int sig) ALIAS(_kill);
int link(const char *old, const char *new) ALIAS(_link);
off_t lseek(int fd, off_t offset, int whence) ALIAS(_lseek);
int open(const char *path, int flags, ...) ALIAS(_open);
RW_RESULT read(int fd, void *buf, size_t len) ALIAS(_read);
void *sbrk(ptrdiff_t incr) ALIAS(_sbrk);
int stat(const char *path, struct stat *st) ALIAS(_stat);
clock_t times(struct tms *t) ALIAS(_times);
int unlink(const char *path) ALIAS(_unlink);
pid_t wait(int *status) ALIAS(_wait);
RW_RESULT write(int fd, const void *buf, size_t len) ALIAS(_write);
