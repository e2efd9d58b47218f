/* SPDX-License-Identifier: MIT */
/*
 * tests/kernel/test_console.c - console input arrives by interrupt.
 * Booted with console.expect=<word>, the test prints "### INPUT PLEASE:
 * <word>" and waits (at most 10 s) for that word on the serial line;
 * tests/run.py types it. It must arrive, unchanged, through the UART's
 * interrupt (x86 I/O APIC, arm64 GIC SPI, riscv64 PLIC or APLIC).
 */
#include "kernel/bootinfo.h"
#include "kernel/console.h"
#include "kernel/ktest.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/time.h"
#include "lib/cmdline.h"
#include "lib/string.h"

#define WAIT_NS (10 * 1000000000ull)

KTEST(console, input_by_interrupt)
{
    char want[32], got[32];
    size_t n = 0;
    if (!cmdline_get(boot_info.cmdline, "console.expect", want, sizeof(want))) {
        ktest_note("not asked: boot with console.expect=<word> and type the word");
        return;
    }
    unsigned long before = console_rx_interrupts();
    kprintf("### INPUT PLEASE: %s\n", want);
    uint64_t deadline = time_now_ns() + WAIT_NS;
    while (n < strlen(want) && time_now_ns() < deadline) {
        int c = console_getc();
        if (c < 0)
            sched_sleep_ns(5000000);
        else if (c != '\r' && c != '\n')
            got[n++] = (char)c;
    }
    got[n] = '\0';
    if (strcmp(got, want) != 0)
        ktest_fail(__FILE__, __LINE__, "read \"%s\", expected \"%s\"", got, want);
    KEXPECT(console_rx_interrupts() > before);
}
