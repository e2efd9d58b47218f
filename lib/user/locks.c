/* SPDX-License-Identifier: MIT */
/*
 * lib/user/locks.c - the locks newlib takes around stdio streams, malloc,
 * atexit and the environment (built with --enable-newlib-retargetable-locking,
 * <sys/lock.h>). All of them are recursive here: the owner's thread id and a
 * depth. A thread that finds a lock taken yields its CPU until it is free.
 *
 * Until the program starts a second thread (thread_create(), ulib.c sets
 * locks_needed) nothing can contend, and the locks cost nothing: no gettid
 * call per printf. newlib never starts threads while holding a lock, so no
 * lock is taken before that moment and released after it.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <sys/lock.h>

#include "lib/user/syscall.h"

struct __lock {
    int owner; /* thread id, 0 when free */
    unsigned depth;
};

bool locks_needed;

/* The static locks newlib names (its misc/lock.c would define them too). */
struct __lock __lock___sinit_recursive_mutex, __lock___sfp_recursive_mutex,
    __lock___atexit_recursive_mutex, __lock___at_quick_exit_mutex, __lock___malloc_recursive_mutex,
    __lock___env_recursive_mutex, __lock___tz_mutex, __lock___dd_hash_mutex,
    __lock___arc4random_mutex;

/* Locks made at run time (one per FILE) come from malloc. If malloc fails,
 * the stream gets no lock (NULL), which the functions below accept. */
void __retarget_lock_init_recursive(_LOCK_T *lock)
{
    *lock = calloc(1, sizeof(struct __lock));
}

void __retarget_lock_init(_LOCK_T *lock)
{
    __retarget_lock_init_recursive(lock);
}
void __retarget_lock_close_recursive(_LOCK_T lock)
{
    free(lock);
}
void __retarget_lock_close(_LOCK_T lock)
{
    free(lock);
}

int __retarget_lock_try_acquire_recursive(_LOCK_T lock)
{
    if (!lock || !locks_needed)
        return 1;
    int me = (int)raw_syscall6(SYS_gettid, 0, 0, 0, 0, 0, 0), free_ = 0;
    if (__atomic_load_n(&lock->owner, __ATOMIC_RELAXED) == me) {
        lock->depth++;
        return 1;
    }
    if (!__atomic_compare_exchange_n(&lock->owner, &free_, me, false, __ATOMIC_ACQUIRE,
                                     __ATOMIC_RELAXED))
        return 0;
    lock->depth = 1;
    return 1;
}

void __retarget_lock_acquire_recursive(_LOCK_T lock)
{
    while (!__retarget_lock_try_acquire_recursive(lock))
        raw_syscall6(SYS_yield, 0, 0, 0, 0, 0, 0);
}

void __retarget_lock_release_recursive(_LOCK_T lock)
{
    if (lock && locks_needed && --lock->depth == 0)
        __atomic_store_n(&lock->owner, 0, __ATOMIC_RELEASE);
}

int __retarget_lock_try_acquire(_LOCK_T lock)
{
    return __retarget_lock_try_acquire_recursive(lock);
}
void __retarget_lock_acquire(_LOCK_T lock)
{
    __retarget_lock_acquire_recursive(lock);
}
void __retarget_lock_release(_LOCK_T lock)
{
    __retarget_lock_release_recursive(lock);
}
