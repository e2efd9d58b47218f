/* SPDX-License-Identifier: MIT */
/*
 * user/longrun/fuzz/fuzz.h - what the syscall fuzzer's parent (fuzz.c) and
 * its children (fuzz_child.c) share: the batch size, the children's exit
 * statuses, which batches end fatally, and the child's entry.
 */
#ifndef USER_LONGRUN_FUZZ_FUZZ_H
#define USER_LONGRUN_FUZZ_FUZZ_H

#include <stdbool.h>
#include <stdint.h>

#define BATCH_CALLS 2000

/* Child exit statuses besides 0 (batch done) and 128 + signal (killed). */
#define ST_KSTACK_CANARY 2 /* a call changed the caller's kernel stack canary */
#define ST_ENOSYS        3 /* an unknown number did not get -ENOSYS */
#define ST_BAD_ARGS      4
#define ST_SURVIVED      5 /* its fatal last call did not kill it (thread_create -EAGAIN) */

/* One batch in four ends with a call that gets the child killed. */
bool fatal_batch(uint64_t seed, unsigned long batch);
/* A child: batch `batch` of seed's calls (`calls` of them), checking the
 * kernel's direct-map canary dmap_canary; verbose prints each call first
 * (fuzz replay). Returns its exit status. */
int child_main(uint64_t seed, unsigned long batch, long calls, uintptr_t dmap_canary, bool verbose);

#endif
