/* SPDX-License-Identifier: MIT */
/*
 * user/tests/test_ipc_fast/transcript.c - the differential transcript: one fixed-seed workload, the
 * same hash with the fastpath on and off (the program: test_ipc_fast.c).
 */
#include "user/tests/test_ipc_fast/ipc_fast.h"

/* ---- the differential transcript ---------------------------------------------------- */

static unsigned long hash = 0xcbf29ce484222325ul; /* FNV-1a, 64 bits */

static void mix(unsigned long v)
{
    for (int i = 0; i < 8; i++) {
        hash ^= (v >> (8 * i)) & 0xff;
        hash *= 0x100000001b3ul;
    }
}

static unsigned long rnd_state = 42;

static unsigned long rnd(void)
{
    rnd_state = rnd_state * 6364136223846793005ul + 1442695040888963407ul;
    return rnd_state >> 33;
}

/* One call, into the transcript: what was asked, what came back. */
static void logged_call(int h, struct ipc_msg m, unsigned long *buf)
{
    mix((unsigned long)h);
    mix(m.tag);
    for (int i = 0; i < IPC_REG_WORDS; i++)
        mix(m.w[i]);
    long r = ipc_call(h, &m);
    mix((unsigned long)r);
    mix(m.tag);
    for (int i = 0; i < IPC_REG_WORDS; i++)
        mix(m.w[i]);
    for (unsigned long i = 0; r == 0 && i < IPC_TAG_LEN(m.tag); i++)
        mix(buf[i]);
}

static unsigned long tbuf[IPC_BUF_WORDS];

/* 400 calls of every kind, drawn from a fixed seed, on CPU 0 and (far) CPU 1. */
static void transcript(int h, int far)
{
    unsigned long *buf = tbuf;
    ipc_set_buffer(buf);
    int badged = handle_mint(h, IPC_RIGHT_SEND, 42), recv_only = handle_mint(h, IPC_RIGHT_RECV, 0);
    for (int i = 0; i < 400; i++) {
        unsigned long op = rnd() % 8, len = rnd() % 9, w = rnd();
        for (unsigned long k = 0; k < len; k++)
            buf[k] = w + k;
        switch (op) {
        case 0:
        case 1: logged_call(h, msg(L_ECHO, 0, w, w + 1, w + 2, w + 3), buf); break;
        case 2: logged_call(h, msg(L_ECHO, len, w, 0, 0, w), buf); break;
        case 3: logged_call(far, msg(L_ECHO, 0, w, ~w, w, 0), buf); break;
        case 4: logged_call(badged, msg(L_BADGE, 0, w, 0, 0, 0), buf); break;
        case 5: logged_call(UNUSED_H + (int)(w % 4), msg(L_ECHO, 0, w, 0, 0, 0), buf); break;
        case 6: logged_call(recv_only, msg(L_ECHO, 0, w, 0, 0, 0), buf); break;
        default: {
            int note = notify_create();
            notify_signal(note, w & IPC_NOTIFY_BITS);
            mix((unsigned long)notify_poll(note));
            handle_close(note);
        }
        }
    }
    handle_close(badged);
    handle_close(recv_only);
}

/* The transcript's hash with the fastpath off (a kernel built before the
 * fastpath gave the same): both modes must give it. */
#define TRANSCRIPT_HASH 0xf6eb0220f51c45d5ul

void test_transcript(void)
{
    int near = endpoint_create(), far = endpoint_create();
    int near_pid = spawn_server(near, 0);
    int far_pid = spawn_server(far, online_cpus() > 1 ? 1 : 0);
    transcript(near, far);
    /* A server killed in the middle of a call, last: -EPIPE. */
    int e = endpoint_create();
    int pid = spawn_server(e, 0);
    struct ipc_msg m = msg(L_DIE, 0, 0, 0, 0, 0);
    mix((unsigned long)ipc_call(e, &m));
    int status = -1;
    if (sys_wait(pid, &status) != pid || status != 5)
        servers_ok = false;
    unsigned long got = hash;
    handle_close(e);
    stop_server(near, near_pid);
    stop_server(far, far_pid);
    handle_close(near);
    handle_close(far);
    if (got != TRANSCRIPT_HASH)
        ktap_note("transcript hash %#lx, expected %#lx", got, TRANSCRIPT_HASH);
    ktap_check(got == TRANSCRIPT_HASH, "ipc.fastpath_transcript_same_both_ways");
}
