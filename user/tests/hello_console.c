/* SPDX-License-Identifier: MIT */
/*
 * user/tests/hello_console.c - a client of the console server. Started by
 * user/init.c with a console handle of its own as handle 0, it prints
 * through that handle; the KTAP results go straight to the kernel, so that
 * they come out even when the server is gone. Prints ipc.console_* subtests.
 *   hello_console stdout started by anyone: the handle every program gets
 *                        (IPC_CONSOLE_HANDLE) reaches the system's server,
 *                        badged with the pid; printf goes through it; a
 *                        program can neither stop nor kill that server,
 *                        not even with a label the protocol lacks;
 *   hello_console        say hello through the server, check its count; a
 *                        too long WRITE is cut to what a message holds, and
 *                        the server refuses QUIT from a client (a badge);
 *   hello_console input  ask for a word (tests/run.py types it), read it
 *                        through the server, which took it by interrupt;
 *   hello_console die    the server dies: calls fail with -EPIPE, at once.
 */
#include "lib/user/console_client.h"
#include "lib/user/ipc.h"
#include "lib/user/ulib.h"

#define CONSOLE_H 0
#define MS        1000000ull
#define WORD      "stackshift"

static void report_to_kernel(void)
{
    fflush(stdout);
    console_client_use(-1);
}

static void hello(void)
{
    struct console_stats before = {0}, after = {0};
    long r0 = console_client_stats(&before);
    static const char line[] = "hello_console: hello through the console server\n";
    ssize_t n = write(1, line, sizeof(line) - 1);
    long r1 = console_client_stats(&after);
    /* The server must not read past the message: 1000 bytes asked, the words hold 24. */
    struct ipc_msg big = {
        .tag = IPC_TAG(CONSOLE_WRITE, 0),
        .w = {1000, 0x2d2d2d2d2d2d2d2dul, 0x2d2d2d2d2d2d2d2dul, 0x0a2d2d2d2d2d2d2dul}};
    long r2 = ipc_call(CONSOLE_H, &big);
    /* Only init (badge 0) may stop the server; this client's handle has a badge. */
    struct ipc_msg quit = {.tag = IPC_TAG(CONSOLE_QUIT, 0)};
    long r3 = ipc_call(CONSOLE_H, &quit);
    ssize_t n2 = write(1, "hello_console: still served\n", 28);
    report_to_kernel();
    KTAP_EXPECT_EQ(n, sizeof(line) - 1, "ipc.console_write_returns_count");
    ktap_check(r0 == 0 && r1 == 0 && after.written - before.written == sizeof(line) - 1,
               "ipc.console_write_through_server");
    ktap_check(r2 == 0 && big.w[0] == CONSOLE_MSG_BYTES, "ipc.console_write_length_cut_to_message");
    ktap_check(r3 == 0 && n2 == 28, "ipc.console_server_refuses_quit_from_a_client");
    if (r2 == 0 && r3 == 0 &&
        (IPC_TAG_LABEL(big.tag) != CONSOLE_WRITE || IPC_TAG_LABEL(quit.tag) != CONSOLE_QUIT))
        ktap_note("reply labels %lu and %lu, expected %u (WRITE) and %u (QUIT)",
                  (unsigned long)IPC_TAG_LABEL(big.tag), (unsigned long)IPC_TAG_LABEL(quit.tag),
                  (unsigned)CONSOLE_WRITE, (unsigned)CONSOLE_QUIT);
    ktap_check(r2 == 0 && r3 == 0 && IPC_TAG_LABEL(big.tag) == CONSOLE_WRITE &&
                   IPC_TAG_LABEL(quit.tag) == CONSOLE_QUIT,
               "ipc.console_replies_carry_the_label");
}

/* Through the console service, as every program prints. */
static void stdout_default(void)
{
    struct console_stats before = {0}, after = {0}, last = {0};
    long r0 = console_client_stats(&before);
    static const char line[] = "hello_console: hello through the system's console server\n";
    printf("%s", line);
    fflush(stdout);
    long r1 = console_client_stats(&after);
    struct ipc_msg die = {.tag = IPC_TAG(CONSOLE_DIE, 0)}, quit = {.tag = IPC_TAG(CONSOLE_QUIT, 0)};
    long r2 = ipc_call(IPC_CONSOLE_HANDLE, &die);
    long r3 = ipc_call(IPC_CONSOLE_HANDLE, &quit);
    long r4 = console_client_stats(&last);
    /* A label the protocol does not have is answered, and the server goes on. */
    struct ipc_msg odd = {.tag = IPC_TAG(99, 0)};
    long r5 = ipc_call(IPC_CONSOLE_HANDLE, &odd);
    long r6 = console_client_stats(&last);
    KTAP_EXPECT_EQ(r0, 0, "ipc.console_handle_given_to_every_program");
    ktap_check(r1 == 0 && after.written - before.written == sizeof(line) - 1,
               "ipc.console_stdout_through_server");
    /* the pid, and the mark of a program the kernel (or init) vouches for */
    ktap_check(r0 == 0 &&
                   before.badge == (long)((unsigned long)getpid() | IPC_CONSOLE_BADGE_VOUCHED),
               "ipc.console_badge_is_the_pid");
    ktap_check(r2 == 0 && r3 == 0 && r4 == 0,
               "ipc.console_service_refuses_die_and_quit_from_a_program");
    if (r5 != 0 || r6 != 0)
        ktap_note("a message with an unknown label (99): ipc_call %ld, then STATS %ld: it "
                  "stopped the server, which any program may do then",
                  r5, r6);
    ktap_check(r4 == 0 && r5 == 0 && r6 == 0, "ipc.console_service_survives_an_unknown_label");
}

static void input(void)
{
    char none;
    read(0, &none, 0); /* the server takes the input now, before the word is typed */
    printf("### INPUT PLEASE: " WORD "\n");
    fflush(stdout);
    char got[32];
    size_t n = 0;
    uint64_t deadline = now_ns() + 10000 * MS;
    while (n < strlen(WORD) && now_ns() < deadline) {
        char c;
        ssize_t r = read(0, &c, 1);
        if (r <= 0)
            sleep_ns(5 * MS);
        else if (c != '\r' && c != '\n')
            got[n++] = c;
    }
    got[n] = '\0';
    struct console_stats st = {0};
    console_client_stats(&st);
    report_to_kernel();
    if (strcmp(got, WORD) != 0)
        ktap_note("read \"%s\"", got);
    ktap_check(strcmp(got, WORD) == 0, "ipc.console_input_through_server");
    ktap_check(st.interrupts > 0 && st.received >= strlen(WORD), "ipc.console_input_by_interrupt");
}

static void server_dies(void)
{
    struct ipc_msg m = {.tag = IPC_TAG(CONSOLE_DIE, 0)};
    long r = ipc_call(CONSOLE_H, &m);
    uint64_t t0 = now_ns();
    errno = 0;
    ssize_t n = write(1, "lost\n", 5);
    int err = errno;
    uint64_t took = now_ns() - t0;
    report_to_kernel();
    KTAP_EXPECT_EQ(r, -EPIPE, "ipc.console_server_died_call_fails");
    ktap_check(n == -1 && err == EPIPE, "ipc.console_write_after_server_died");
    ktap_check(took < 1000 * MS, "ipc.console_write_after_server_died_no_hang");
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "hello";
    if (strcmp(mode, "stdout") == 0) {
        stdout_default();
        return ktap_done();
    }
    console_client_use(CONSOLE_H);
    if (strcmp(mode, "input") == 0)
        input();
    else if (strcmp(mode, "die") == 0)
        server_dies();
    else
        hello();
    return ktap_done();
}
