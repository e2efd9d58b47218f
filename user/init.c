/* SPDX-License-Identifier: MIT */
/*
 * user/init.c - the first task (run=init run.args=prog[:arg],...): starts
 * the user-space servers and hands out handles, then the programs named in
 * its arguments, and waits for them.
 *
 * The kernel gives init handle 0, the console device. init makes the
 * console endpoint, starts user/console_server with the device and the
 * endpoint (as its handles 0 and 1) and lets go of both, keeping a handle
 * that may only send (and mint the clients' handles). Each
 * program gets a handle that may only send to the console, with a badge
 * of its own (1, 2, ...), as its handle 0; "prog:arg" passes it one
 * argument. At the end init stops the server and prints what it counted.
 * Exit status: 0 if every program and the server ended with 0.
 */
#include "lib/user/console_client.h"
#include "lib/user/ipc.h"
#include "lib/user/ulib.h"

#define DEV_H 0
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

/* "prog" or "prog:arg", with its own badged handle to the console. */
static int start_client(int ep, char *spec, unsigned long badge)
{
    char *colon = strchr(spec, ':');
    const char *argv[] = {spec, NULL, NULL};
    if (colon) {
        *colon = '\0';
        argv[1] = colon + 1;
    }
    int s = handle_mint(ep, IPC_RIGHT_SEND, badge);
    if (s < 0)
        return s;
    int pid = spawn_with(spec, argv, &s, 1);
    handle_close(s);
    return pid;
}

int main(int argc, char **argv)
{
    int ep = endpoint_create();
    int send = ep >= 0 ? handle_mint(ep, IPC_RIGHT_SEND | IPC_RIGHT_MINT, 0) : ep;
    int server = send >= 0 ? start_server(ep) : send;
    ep = send; /* from here on, init only sends (unbadged: it may stop the server) */
    if (server < 0) {
        printf("init: cannot start the console server (error %d)\n", server);
        return 1;
    }
    int failed = 0, pids[MAX_PROGS];
    int n = argc - 1 < MAX_PROGS ? argc - 1 : MAX_PROGS;
    for (int i = 0; i < n; i++) {
        pids[i] = start_client(ep, argv[1 + i], (unsigned long)i + 1);
        if (pids[i] < 0)
            printf("init: cannot start %s (error %d)\n", argv[1 + i], pids[i]);
        failed += pids[i] < 0;
    }
    for (int i = 0; i < n; i++) {
        int status = -1;
        if (pids[i] < 0 || sys_wait(pids[i], &status) != pids[i])
            continue;
        printf("init: %s exit status %d\n", argv[1 + i], status);
        failed += status != 0;
    }
    console_client_use(ep);
    struct console_stats st = {0};
    long r = console_client_stats(&st);
    console_client_use(-1);
    if (r == 0)
        printf("init: console server: %lu bytes written, %lu received, %lu interrupts\n",
               st.written, st.received, st.interrupts);
    struct ipc_msg m = {.tag = IPC_TAG(CONSOLE_QUIT, 0)};
    ipc_call(ep, &m);
    int status = -1;
    sys_wait(server, &status);
    printf("init: console_server exit status %d\n", status);
    return failed || (r == 0 && status != 0);
}
