/* SPDX-License-Identifier: MIT */
/*
 * user/servers/console_server.c - the console as a user-space server: it owns the
 * UART (handle 0, the console device), takes its interrupt through a
 * notification, and serves its clients on an endpoint (handle 1, RECV)
 * with the protocol of lib/user/console_client.h. Started by the boot's
 * init, that endpoint is the console service, which every program reaches
 * (kernel/ipc/console_service.c). It exits when init asks (status 0) or a
 * test does (CONSOLE_DIE, status 9); both only from badge 0 (init).
 *
 * Input starts with the first READ: until a program asks for input, the
 * kernel keeps the UART's receive interrupt (its debug console's input).
 * Then two threads: the receiver waits on the notification the interrupt
 * signals, drains the UART into a ring, clears the device and acknowledges
 * (the kernel masked the line when it fired), then drains once more, for
 * a byte that came while the line was masked (an edge then is lost). The
 * main thread answers the clients: writes go to the transmitter by
 * polling, reads take what the ring holds. The ring has one producer and
 * one consumer, so two atomic indexes are its only lock. If the interrupt
 * cannot be had (another driver has it bound), reads poll the UART.
 *
 * A client's lines go through the kernel's guard (lib/result_guard.h),
 * the one that follows the kernel's own lines on the same UART: unless the
 * kernel or init vouched for the client (IPC_CONSOLE_BADGE_VOUCHED in its
 * badge), the server sends its characters unvouched (device_io), and a
 * line that would read as a test result gets a mark. The server's own
 * lines are sent vouched for. A client cannot stop it:
 * the server sets no long-message buffer, so the kernel refuses a message
 * with extra words to its sender (-EMSGSIZE) and the server never sees it.
 */
#include <stdarg.h>

#include "lib/user/console_client.h"
#include "lib/user/ipc.h"
#include "lib/user/ulib.h"
#include "user/common/uart_dev.h"

#define DEV_H   0
#define EP_H    1
#define IRQ_BIT 1ul
#define RING    1024

static struct uart_dev uart;
static char ring[RING];
static unsigned long ring_head, ring_tail; /* head: next write (receiver), tail: next read */
static unsigned long written, received, interrupts;
static int irq_notify;
static enum { INPUT_OFF, INPUT_IRQ, INPUT_POLL } input;
static char rx_stack[16 * 1024] __attribute__((aligned(16)));
static bool vouched; /* for the client being answered */

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void drain(void)
{
    int c;
    while ((c = uart_dev_getc(&uart)) >= 0) {
        unsigned long head = __atomic_load_n(&ring_head, __ATOMIC_RELAXED);
        if (head - __atomic_load_n(&ring_tail, __ATOMIC_ACQUIRE) < RING) { /* full: drop it */
            ring[head % RING] = (char)c;
            __atomic_store_n(&ring_head, head + 1, __ATOMIC_RELEASE);
        }
        __atomic_fetch_add(&received, 1, __ATOMIC_RELAXED);
    }
}

static void receiver(void *arg)
{
    (void)arg;
    for (;;) {
        if (notify_wait(irq_notify) < 0)
            return;
        __atomic_fetch_add(&interrupts, 1, __ATOMIC_RELAXED);
        drain();
        uart_dev_irq_clear(&uart);
        irq_ack(DEV_H);
        drain();
    }
}

/* The receive interrupt, bound to a notification the receiver thread waits
 * on; polling if that fails. */
static void input_start(void)
{
    irq_notify = notify_create();
    long err = irq_notify < 0 ? irq_notify : irq_bind(DEV_H, irq_notify, IRQ_BIT);
    if (!err) {
        uart_dev_irq_enable(&uart, false);
        drain(); /* what came before the bind, before the receiver is a second producer */
        err = thread_create(receiver, NULL, rx_stack, sizeof(rx_stack)) < 0 ? -EAGAIN : 0;
    }
    input = err ? INPUT_POLL : INPUT_IRQ;
    if (err)
        say("console_server: input by polling (no interrupt: error %ld)\n", err);
}

static unsigned long take(char *out, unsigned long n)
{
    if (input == INPUT_OFF)
        input_start();
    if (input == INPUT_POLL)
        drain();
    unsigned long tail = ring_tail, got = 0;
    unsigned long head = __atomic_load_n(&ring_head, __ATOMIC_ACQUIRE);
    while (got < n && tail != head)
        out[got++] = ring[tail++ % RING];
    __atomic_store_n(&ring_tail, tail, __ATOMIC_RELEASE);
    return got;
}

static void uart_out(const char *s, unsigned long n, bool vouched_for)
{
    for (unsigned long i = 0; i < n; i++) {
        if (s[i] == '\n')
            uart_dev_send(&uart, '\r', vouched_for);
        uart_dev_send(&uart, s[i], vouched_for);
    }
}

/* A client's bytes, guarded (by the kernel) unless it is vouched for. */
static void put(const char *s, unsigned long n)
{
    uart_out(s, n, vouched);
    __atomic_fetch_add(&written, n, __ATOMIC_RELAXED);
}

/* The server's own line. */
static void say(const char *fmt, ...)
{
    char line[160];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    unsigned long len = n < 0 ? 0 : n < (int)sizeof(line) ? (unsigned long)n : sizeof(line) - 1;
    uart_out(line, len, true);
}

/* The reply to m (from badge), in m; false: exit now (without replying). */
static bool answer(struct ipc_msg *m, long badge, bool *quit)
{
    /* LAB 7 BEGIN: serve WRITE, READ, STATS, DIE and QUIT (the last two: badge 0 only) */
    unsigned long n = m->w[0];
    switch (IPC_TAG_LABEL(m->tag)) {
    case CONSOLE_WRITE:
        if (n > CONSOLE_MSG_BYTES)
            n = CONSOLE_MSG_BYTES;
        put((const char *)&m->w[1], n);
        *m = (struct ipc_msg){.tag = IPC_TAG(CONSOLE_WRITE, 0), .w = {n}};
        return true;
    case CONSOLE_READ: {
        char buf[CONSOLE_MSG_BYTES];
        unsigned long got = take(buf, n < CONSOLE_MSG_BYTES ? n : CONSOLE_MSG_BYTES);
        *m = (struct ipc_msg){.tag = IPC_TAG(CONSOLE_READ, 0), .w = {got}};
        memcpy(&m->w[1], buf, got);
        return true;
    }
    case CONSOLE_STATS:
        *m = (struct ipc_msg){.tag = IPC_TAG(CONSOLE_STATS, 0),
                              .w = {__atomic_load_n(&written, __ATOMIC_RELAXED),
                                    __atomic_load_n(&received, __ATOMIC_RELAXED),
                                    __atomic_load_n(&interrupts, __ATOMIC_RELAXED),
                                    (unsigned long)badge}};
        return true;
    case CONSOLE_DIE: /* from badge 0 (a test's init-given handle): exit at once */
        *m = (struct ipc_msg){.tag = IPC_TAG(CONSOLE_DIE, 0)};
        return badge != 0;
    case CONSOLE_QUIT: /* from init (badge 0): stop; the caller sees -EPIPE */
        *quit = badge == 0;
        *m = (struct ipc_msg){.tag = IPC_TAG(CONSOLE_QUIT, 0)};
        return !*quit;
    default: *m = (struct ipc_msg){.tag = IPC_TAG(0, 0)}; return true;
    }
    /* LAB 7 STUB
    (void)m, (void)badge, (void)quit, (void)put, (void)take;
    return false;
    LAB 7 END */
}

int main(void)
{
    console_client_use(CONSOLE_DEBUG); /* before the UART is ours */
    int err = uart_dev_open(&uart, DEV_H);
    if (err) {
        printf("console_server: cannot drive the UART (error %d)\n", err);
        return 1;
    }
    say("console_server: serving the %s UART\n", uart_dev_name(&uart));
    struct ipc_msg m;
    bool quit = false;
    long badge = ipc_recv(EP_H, &m);
    for (;;) {
        vouched = badge == 0 || (badge > 0 && (badge & IPC_CONSOLE_BADGE_VOUCHED));
        if (badge < 0 || !answer(&m, badge, &quit))
            break;
        badge = ipc_reply_recv(EP_H, &m);
    }
    if (badge < 0)
        say("console_server: receive failed (error %ld)\n", badge);
    say("console_server: %s after %lu bytes out, %lu in, %lu interrupts\n",
        quit ? "stopping" : "dying", written, received, interrupts);
    exit(quit ? 0 : 9);
}
