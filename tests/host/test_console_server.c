/* SPDX-License-Identifier: MIT */
/*
 * tests/host/test_console_server.c - lab 7's answer() (the console server's
 * request handling, user/servers/console_server.c) driven on the host, one
 * request at a time, with the server's ring and counters set by the test
 * and the UART's output recorded (tests/host/fake_user/ stands in for the
 * IPC calls and the C library).
 *
 * The boots check what a client sees, but a boot types no input into
 * hello_console's requests and its counters are whatever they are: a READ
 * that always answers 0 bytes, or one that copies more than the 24-byte
 * message into its buffer, and STATS words in the wrong order all pass
 * there. Here 40 bytes wait in the ring when a client asks for 100, and
 * the counters have values that cannot be confused. Each case runs in a
 * child process, so that an overrun (AddressSanitizer stops it) fails that
 * case, with what was asked, and not the whole program.
 */
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define main console_server_main
#include "user/servers/console_server.c"
#undef main

/* ---- stand-ins for the calls the server makes -------------------------- */
static char tx[256];
static unsigned long tx_len;

void console_client_use(int h)
{
    (void)h;
}
int uart_dev_open(struct uart_dev *u, int h)
{
    (void)u, (void)h;
    return -ENODEV;
}
const char *uart_dev_name(const struct uart_dev *u)
{
    (void)u;
    return "fake";
}
int uart_dev_getc(const struct uart_dev *u)
{
    (void)u;
    return -1;
}
void uart_dev_send(const struct uart_dev *u, char c, bool vouched_for)
{
    (void)u, (void)vouched_for;
    if (c != '\r' && tx_len < sizeof(tx))
        tx[tx_len++] = c;
}
void uart_dev_irq_enable(const struct uart_dev *u, bool tx_too)
{
    (void)u, (void)tx_too;
}
void uart_dev_irq_clear(const struct uart_dev *u)
{
    (void)u;
}
long ipc_recv(int h, struct ipc_msg *m)
{
    (void)h, (void)m;
    return -EPIPE;
}
long ipc_reply_recv(int h, struct ipc_msg *m)
{
    return ipc_recv(h, m);
}
int notify_create(void)
{
    return -ENOMEM;
}
long notify_wait(int h)
{
    (void)h;
    return -EPIPE;
}
long irq_bind(int dev, int notify, unsigned long bits)
{
    (void)dev, (void)notify, (void)bits;
    return -ENODEV;
}
long irq_ack(int dev)
{
    (void)dev;
    return -ENODEV;
}
int thread_create(void (*fn)(void *), void *arg, void *stack, unsigned long size)
{
    (void)fn, (void)arg, (void)stack, (void)size;
    return -EAGAIN;
}

/* ---- the server's state, and one request ------------------------------- */
static void server_holds(const char *waiting)
{
    input = INPUT_IRQ; /* the receive interrupt is taken: take() only reads the ring */
    ring_head = ring_tail = 0;
    for (const char *p = waiting; *p; p++)
        ring[ring_head++ % RING] = *p;
    written = received = interrupts = 0;
    tx_len = 0;
}

struct answered {
    bool go_on, quit;
    struct ipc_msg m;
};

static struct answered ask(unsigned long label, long badge, unsigned long w0)
{
    struct answered a = {.m = {.tag = IPC_TAG(label, 0), .w = {w0}}};
    a.go_on = answer(&a.m, badge, &a.quit);
    return a;
}

#define LABEL(a) IPC_TAG_LABEL((a).m.tag)

/* Run fn in a child: an overrun that AddressSanitizer stops, or any other
 * crash, fails the case with `crash` as its reason. */
static void isolated(void (*fn)(void), const char *crash)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        fn();
        fflush(stdout);
        _exit(check_failures ? 2 : 0);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) {
        printf("    # cannot run the case in a child process\n");
        check_failures++;
    } else if (!WIFEXITED(status) || (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 2)) {
        printf("    # %s (the child %s %d)\n", crash,
               WIFEXITED(status) ? "exited with status" : "died of signal",
               WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
        check_failures++;
    } else if (WEXITSTATUS(status) == 2) {
        check_failures++;
    }
}

/* ---- the cases ---------------------------------------------------------- */
static void write_body(void)
{
    server_holds("");
    struct answered a = {.m = {.tag = IPC_TAG(CONSOLE_WRITE, 0), .w = {5}}};
    memcpy(&a.m.w[1], "hello", 5);
    a.go_on = answer(&a.m, 3, &a.quit);
    CHECK(a.go_on && !a.quit);
    CHECK_EQ_INT(LABEL(a), CONSOLE_WRITE);
    CHECK_EQ_INT(a.m.w[0], 5);
    CHECK(tx_len == 5 && memcmp(tx, "hello", 5) == 0);
    server_holds("");
    struct answered big = {.m = {.tag = IPC_TAG(CONSOLE_WRITE, 0), .w = {1000}}};
    memset(&big.m.w[1], '-', CONSOLE_MSG_BYTES);
    big.go_on = answer(&big.m, 3, &big.quit);
    CHECK(big.go_on);
    CHECK_EQ_INT(big.m.w[0], CONSOLE_MSG_BYTES);
    CHECK_EQ_INT(tx_len, CONSOLE_MSG_BYTES);
}

TEST(write_replies_the_count_and_stays_in_the_message)
{
    isolated(write_body, "a WRITE of 1000 bytes read past the 24 the message holds");
}

static void read_body(void)
{
    server_holds("0123456789");
    struct answered a = ask(CONSOLE_READ, 3, 4);
    CHECK(a.go_on && !a.quit);
    CHECK_EQ_INT(LABEL(a), CONSOLE_READ);
    if (a.m.w[0] != 4 || memcmp(&a.m.w[1], "0123", 4) != 0)
        printf("    # READ of 4 with \"0123456789\" received: replied %lu bytes \"%.*s\", "
               "expected 4, \"0123\"\n",
               a.m.w[0], (int)(a.m.w[0] < 24 ? a.m.w[0] : 24), (const char *)&a.m.w[1]);
    CHECK(a.m.w[0] == 4 && memcmp(&a.m.w[1], "0123", 4) == 0);
    a = ask(CONSOLE_READ, 3, 24);
    CHECK(a.m.w[0] == 6 && memcmp(&a.m.w[1], "456789", 6) == 0);
    a = ask(CONSOLE_READ, 3, 24);
    CHECK_EQ_INT(a.m.w[0], 0);
}

TEST(read_replies_what_was_received)
{
    isolated(read_body, "READ crashed the server");
}

#define FORTY "abcdefghijklmnopqrstuvwxyz0123456789ABCD"

static void read_100_body(void)
{
    server_holds(FORTY);
    struct answered a = ask(CONSOLE_READ, 3, 100);
    if (a.m.w[0] != CONSOLE_MSG_BYTES)
        printf("    # READ of 100 bytes, 40 waiting: replied %lu bytes, expected the 24 a "
               "message holds\n",
               a.m.w[0]);
    CHECK(a.go_on && a.m.w[0] == CONSOLE_MSG_BYTES && memcmp(&a.m.w[1], FORTY, 24) == 0);
    CHECK_EQ_INT(ring_head - ring_tail, 16); /* the rest waits for the next READ */
}

TEST(read_of_100_bytes_stays_in_the_message)
{
    isolated(read_100_body, "READ of 100 bytes with 40 waiting overran a 24-byte buffer: "
                            "cap the count at CONSOLE_MSG_BYTES before take()");
}

static void stats_body(void)
{
    server_holds("");
    written = 11, received = 22, interrupts = 33;
    struct answered a = ask(CONSOLE_STATS, 44, 0);
    CHECK(a.go_on && !a.quit);
    CHECK_EQ_INT(LABEL(a), CONSOLE_STATS);
    if (a.m.w[0] != 11 || a.m.w[1] != 22 || a.m.w[2] != 33 || a.m.w[3] != 44)
        printf("    # STATS replied {%lu, %lu, %lu, %lu}; the counters were written 11, "
               "received 22, interrupts 33 and the badge 44: expected {11, 22, 33, 44}\n",
               a.m.w[0], a.m.w[1], a.m.w[2], a.m.w[3]);
    CHECK(a.m.w[0] == 11 && a.m.w[1] == 22 && a.m.w[2] == 33 && a.m.w[3] == 44);
}

TEST(stats_in_the_protocol_order)
{
    isolated(stats_body, "STATS crashed the server");
}

static void quit_body(void)
{
    server_holds("");
    struct answered a = ask(CONSOLE_QUIT, 0, 0);
    if (a.go_on || !a.quit)
        printf("    # QUIT from init (badge 0): answer() returned %s with *quit %s; expected "
               "false with *quit true (main then exits 0, a clean stop; *quit false exits 9)\n",
               a.go_on ? "true" : "false", a.quit ? "true" : "false");
    CHECK(!a.go_on && a.quit);
    a = ask(CONSOLE_QUIT, 7, 0);
    if (!a.go_on || a.quit)
        printf("    # QUIT from badge 7 stopped the server: only init may\n");
    CHECK(a.go_on && !a.quit);
    CHECK_EQ_INT(LABEL(a), CONSOLE_QUIT);
}

TEST(quit_stops_cleanly_for_init_only)
{
    isolated(quit_body, "QUIT crashed the server");
}

static void die_body(void)
{
    server_holds("");
    struct answered a = ask(CONSOLE_DIE, 0, 0);
    if (a.go_on || a.quit)
        printf("    # DIE from init (badge 0): answer() returned %s with *quit %s; expected "
               "false with *quit false (the server exits 9 at once, without replying)\n",
               a.go_on ? "true" : "false", a.quit ? "true" : "false");
    CHECK(!a.go_on && !a.quit);
    a = ask(CONSOLE_DIE, 7, 0);
    if (!a.go_on || a.quit)
        printf("    # DIE from badge 7 stopped the server: only init may\n");
    CHECK(a.go_on && !a.quit);
}

TEST(die_stops_at_once_for_init_only)
{
    isolated(die_body, "DIE crashed the server");
}

static void unknown_body(void)
{
    static const unsigned long labels[] = {0, CONSOLE_QUIT + 1, 99, (1ul << 56) + CONSOLE_WRITE};
    for (unsigned i = 0; i < sizeof(labels) / sizeof(labels[0]); i++) {
        server_holds("");
        struct answered a = ask(labels[i], 7, 0);
        if (!a.go_on || a.quit) {
            printf("    # a message with an unknown label (%lu) from badge 7 stopped the "
                   "server: any program could stop the system's console\n",
                   labels[i]);
            check_failures++;
        }
    }
}

TEST(unknown_label_answered_and_served_on)
{
    isolated(unknown_body, "a message with an unknown label crashed the server");
}

RUN_TESTS("console_server", CASE(write_replies_the_count_and_stays_in_the_message),
          CASE(read_replies_what_was_received), CASE(read_of_100_bytes_stays_in_the_message),
          CASE(stats_in_the_protocol_order), CASE(quit_stops_cleanly_for_init_only),
          CASE(die_stops_at_once_for_init_only), CASE(unknown_label_answered_and_served_on))
