/* SPDX-License-Identifier: MIT */
/*
 * user/init.c - the first task: starts the console server and hands out
 * handles, then runs the programs named in its arguments, if any.
 *
 * The kernel starts init at boot with handle 0, the console device, and
 * handle 1, the console service (kernel/ipc/console_service.c). init
 * starts user/servers/console_server with both and lets go of them, keeping a
 * handle that may only send (and mint); from then on every program the
 * kernel or anyone starts prints through that server. With no arguments
 * init waits for the server, which serves until the machine stops.
 *
 * run=init run.args=prog[:arg],...: init runs those programs too and
 * waits for them. Each gets, as its handle 0, a handle of its own to the
 * server with a badge (1, 2, ...) marked IPC_CONSOLE_BADGE_VOUCHED, and as
 * handle 1 the control capability's CONSOLE right: the command line named
 * it, so its output may read as test results. "prog:arg" passes one argument, and
 * "prog:die" (a test of a dying server) gets init's unbadged right to stop
 * the server instead. At the end init stops the server and prints what it
 * counted. Started by a test with the device only (no handle 1), init
 * makes an endpoint of its own: a second, private console server.
 * Exit status: 0 if every program and the server ended with 0.
 */
#include "lib/user/console_client.h"
#include "lib/user/ipc.h"
#include "lib/user/ulib.h"

#define DEV_H     0
#define SERVICE_H 1
#define MAX_PROGS 8

/* The server gets the device and the endpoint's only handle that may
 * receive: init keeps none of either, so that when the server dies every
 * call to it fails at once instead of waiting for another receiver. */
static int start_server(int ep)
{
    const int handles[] = {DEV_H, ep};
    const char *argv[] = {"console_server", NULL};
    int pid = spawn_with("console_server", argv, handles, 2);
    handle_close(DEV_H);
    handle_close(ep);
    return pid;
}

/* "prog" or "prog:arg", with its own handle to the console as handle 0. */
static int start_client(int ep, char *spec, unsigned long badge)
{
    char *colon = strchr(spec, ':');
    const char *argv[] = {spec, NULL, NULL};
    if (colon) {
        *colon = '\0';
        argv[1] = colon + 1;
    }
    if (argv[1] && strcmp(argv[1], "die") == 0)
        badge = 0;
    /* The command line names it: its output may read as test results, in
     * the badge (for the server) and with the CONSOLE right (for the kernel). */
    int s = handle_mint(ep, IPC_RIGHT_SEND, badge ? badge | IPC_CONSOLE_BADGE_VOUCHED : 0);
    if (s < 0)
        return s;
    int handles[] = {s, handle_mint(IPC_CONTROL_HANDLE, IPC_RIGHT_CONSOLE, 0)};
    int pid = spawn_with(spec, argv, handles, handles[1] >= 0 ? 2 : 1);
    handle_close(s);
    if (handles[1] >= 0)
        handle_close(handles[1]);
    return pid;
}

/* The console service if the kernel gave it, else a new endpoint. */
static int console_endpoint(void)
{
    int probe = handle_mint(SERVICE_H, IPC_RIGHT_SEND, 0);
    if (probe < 0)
        return endpoint_create();
    handle_close(probe);
    return SERVICE_H;
}

static int run_programs(int ep, int n, char **progs)
{
    int failed = 0, pids[MAX_PROGS];
    for (int i = 0; i < n; i++) {
        pids[i] = start_client(ep, progs[i], (unsigned long)i + 1);
        if (pids[i] < 0)
            printf("init: cannot start %s (error %d)\n", progs[i], pids[i]);
        failed += pids[i] < 0;
    }
    for (int i = 0; i < n; i++) {
        int status = -1;
        if (pids[i] < 0 || sys_wait(pids[i], &status) != pids[i])
            continue;
        printf("init: %s exit status %d\n", progs[i], status);
        failed += status != 0;
    }
    return failed;
}

/* Ask the server what it counted, then stop it. Whether it was still there. */
static bool stop_server(int ep)
{
    struct console_stats st = {0};
    console_client_use(ep);
    long r = console_client_stats(&st);
    if (r == 0)
        printf("init: console server: %lu bytes written, %lu received, %lu interrupts\n",
               st.written, st.received, st.interrupts);
    console_client_use(CONSOLE_DEBUG);
    struct ipc_msg m = {.tag = IPC_TAG(CONSOLE_QUIT, 0)};
    ipc_call(ep, &m);
    return r == 0;
}

int main(int argc, char **argv)
{
    int ep = console_endpoint();
    int send = ep >= 0 ? handle_mint(ep, IPC_RIGHT_SEND | IPC_RIGHT_MINT, 0) : ep;
    int server = send >= 0 ? start_server(ep) : send;
    ep = send; /* from here on, init only sends (unbadged: it may stop the server) */
    if (server < 0) {
        printf("init: cannot start the console server (error %d)\n", server);
        return 1;
    }
    /* init's own lines go to the kernel's debug console: it has no console
     * handle (it starts the server), and its last ones come after the server. */
    int n = argc - 1 < MAX_PROGS ? argc - 1 : MAX_PROGS;
    int failed = n ? run_programs(ep, n, argv + 1) : 0;
    bool alive = n ? stop_server(ep) : true;
    int status = -1;
    sys_wait(server, &status);
    printf("init: console_server exit status %d\n", status);
    return failed || (alive && status != 0);
}
