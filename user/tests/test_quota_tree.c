/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_quota_tree.c - a fork bomb and an allocation storm from
 * one program stay inside that program's tree (kernel/quota.h,
 * docs/security.md).
 *
 *   test_quota_tree            a self-test program (the tasks it starts are
 *                              trees of their own): starts the storm, waits
 *                              until every link of it holds all it could
 *                              get, then starts a second program and asks
 *                              the console server for its counters; both
 *                              must work (security.quota.storm_leaves_others_running).
 *                              The chain is as long as the tree's task
 *                              quota allows (security.quota.tree_bounds_the_storm).
 *   test_quota_tree storm D    one link of the storm, D deep: starts the
 *                              next link; the last, which cannot, gives
 *                              the go (handle 2), which each link passes
 *                              on; then takes threads, endpoints,
 *                              notifications and heap until refused, says
 *                              so (bit D on handle 1; bit 62 too if it
 *                              is the last), and waits for the stop
 *                              (handle 0), which it passes on too
 *   test_quota_tree victim     the second program: a thread, an endpoint,
 *                              a notification, 32 MiB of heap, a sleep
 *                              that a timer interrupt ends, and the console
 *                              server's answer; exit status 0 if all worked
 */
#include "kernel/uapi/quota.h"
#include "lib/user/console_client.h"
#include "lib/user/ipc.h"
#include "lib/user/ulib.h"

#define STOP_H      0 /* a storm link's handles */
#define READY_H     1
#define GO_H        2
#define LAST_BIT    (1ul << 62) /* the link that could not start another */
#define MAX_DEPTH   61          /* bits 0..61 name links */
#define HEAP_STEP   (1ul << 20)
#define VICTIM_HEAP (32ul << 20) /* far more than a storm that took every page leaves */
#define STACK_SIZE  2048
#define WAIT_STEPS  12000 /* of 10 ms: only ends a kernel that never gets there */

static char stacks[QUOTA_THREADS][STACK_SIZE] __attribute__((aligned(16)));

/* A storm thread: waits on a notification nobody signals until its task ends. */
static void idle_thread(void *arg)
{
    for (;;) {
        if (notify_wait((int)(long)arg) < 0)
            sleep_ns(10000000);
    }
}

/* Threads, endpoints, notifications and heap, each until refused. */
static void take_everything(void)
{
    int idle = notify_create();
    for (int i = 0; idle >= 0 && i < QUOTA_THREADS; i++) {
        if (thread_create(idle_thread, (void *)(long)idle, stacks[i], STACK_SIZE) < 0)
            break;
    }
    while (endpoint_create() >= 0)
        ;
    while (notify_create() >= 0)
        ;
    char *base = sys_brk(NULL), *end = base;
    while (sys_brk(end + HEAP_STEP) == end + HEAP_STEP)
        end += HEAP_STEP;
}

static int storm(int depth)
{
    char next[16];
    snprintf(next, sizeof(next), "%d", depth + 1);
    const char *argv[] = {"test_quota_tree", "storm", next, NULL};
    const int handles[] = {STOP_H, READY_H, GO_H};
    int child = depth < MAX_DEPTH ? spawn_with("test_quota_tree", argv, handles, 3) : -EAGAIN;
    if (child < 0)
        notify_signal(GO_H, 1); /* the chain is as long as it gets: go */
    while (notify_wait(GO_H) < 0)
        sleep_ns(10000000);
    notify_signal(GO_H, 1); /* for the next link waiting */
    take_everything();
    notify_signal(READY_H, (1ul << depth) | (child < 0 ? LAST_BIT : 0));
    while (notify_wait(STOP_H) < 0)
        sleep_ns(10000000);
    notify_signal(STOP_H, 1); /* the next link's turn */
    int status;
    if (child > 0)
        sys_wait(child, &status);
    return 0;
}

static volatile int thread_ran;

static void victim_thread(void *arg)
{
    thread_ran = 1;
}

/* Each failure sets a bit of the exit status. */
static int victim(void)
{
    int bad = 0;
    if (thread_create(victim_thread, NULL, stacks[0], STACK_SIZE) < 0)
        bad |= 1;
    for (int i = 0; i < WAIT_STEPS && !thread_ran; i++)
        sleep_ns(10000000); /* a timer interrupt ends each sleep */
    bad |= thread_ran ? 0 : 2;
    bad |= endpoint_create() < 0 ? 4 : 0;
    int n = notify_create();
    if (n < 0 || notify_signal(n, 1) != 0 || notify_wait(n) != 1)
        bad |= 8;
    char *heap = sys_brk(NULL);
    if (sys_brk(heap + VICTIM_HEAP) == heap + VICTIM_HEAP)
        memset(heap, 0x5a, HEAP_STEP);
    else
        bad |= 16;
    struct console_stats st;
    bad |= console_client_stats(&st) != 0 ? 32 : 0;
    return bad;
}

/* Until the last link and every one before it said they hold all they
 * can: the depth of the last, or -1 if that never came. */
static int wait_for_storm(int ready)
{
    unsigned long seen = 0;
    for (int i = 0; i < WAIT_STEPS; i++) {
        long bits = notify_poll(ready);
        seen |= bits > 0 ? (unsigned long)bits : 0;
        if (seen & LAST_BIT) {
            int last = 63 - __builtin_clzl(seen & ~LAST_BIT);
            unsigned long all = (2ul << last) - 1;
            if ((seen & all) == all)
                return last;
        }
        sleep_ns(10000000);
    }
    ktap_note("storm links ready: %#lx, never all", seen);
    return -1;
}

static int run_victim(void)
{
    const char *argv[] = {"test_quota_tree", "victim", NULL};
    int status = -1, pid = spawn("test_quota_tree", argv);
    if (pid < 0 || sys_wait(pid, &status) != pid)
        ktap_note("the second program could not start: %d", pid);
    return pid < 0 ? pid : status;
}

static int test(void)
{
    int stop = notify_create(), ready = notify_create(), go = notify_create();
    const int handles[] = {stop, ready, go};
    const char *argv[] = {"test_quota_tree", "storm", "0", NULL};
    int root =
        stop >= 0 && ready >= 0 && go >= 0 ? spawn_with("test_quota_tree", argv, handles, 3) : -1;
    int last = root > 0 ? wait_for_storm(ready) : -1;
    int second = run_victim();
    struct console_stats st;
    int console = console_client_stats(&st);
    ktap_note("storm: %d links; second program: %d, console server: %d", last + 1, second, console);
    ktap_check(last >= 0 && second == 0 && console == 0,
               "security.quota.storm_leaves_others_running");
    if (last + 1 != QUOTA_TREE_TASKS)
        ktap_note("%d links in one tree (quota %d)", last + 1, QUOTA_TREE_TASKS);
    ktap_check(last + 1 == QUOTA_TREE_TASKS, "security.quota.tree_bounds_the_storm");
    int status = -1;
    if (root > 0) {
        notify_signal(stop, 1);
        sys_wait(root, &status);
    }
    return ktap_done();
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "storm") == 0)
        return storm(atoi(argv[2]));
    if (argc == 2 && strcmp(argv[1], "victim") == 0)
        return victim();
    return test();
}
