/* SPDX-License-Identifier: MIT */
/*
 * tests/host/fake_user/lib/user/ipc.h - the IPC calls a user-space server
 * makes, for a host test that drives its request handling directly
 * (tests/host/test_console_server.c): the message layout is the real one;
 * the calls themselves are the test's (a server loop that receives
 * nothing). (-Itests/host/fake_user comes before -I.: this file and
 * ulib.h here stand in for lib/user's, which make system calls.)
 */
#ifndef FAKE_USER_IPC_H
#define FAKE_USER_IPC_H

#include "kernel/uapi/ipc.h"

struct ipc_msg {
    unsigned long tag;
    unsigned long w[IPC_REG_WORDS];
};

long ipc_recv(int h, struct ipc_msg *m);
long ipc_reply_recv(int h, struct ipc_msg *m);
int notify_create(void);
long notify_wait(int h);
long irq_bind(int dev, int notify, unsigned long bits);
long irq_ack(int dev);

#endif
