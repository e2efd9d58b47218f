/* SPDX-License-Identifier: MIT */
/*
 * tests/kernel/test_console.c - console input arrives by interrupt.
 * Booted with console.expect=<word>, the test prints "### INPUT PLEASE:
 * <word>" and waits (at most 10 s) for that word on the serial line;
 * tests/run.py types it. It must arrive, unchanged, through the UART's
 * interrupt (x86 I/O APIC, arm64 GIC SPI, riscv64 PLIC or APLIC). And the
 * window a user-space driver has on the UART is its registers, no more.
 */
#include "kernel/bootinfo.h"
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/ktest.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/time.h"
#include "kernel/uapi/ipc.h"
#include "lib/cmdline.h"
#include "lib/fdt.h"
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

/* A user-space driver reaches the UART's registers and nothing else: its
 * window ends where the devicetree's reg for the stdout UART ends (QEMU
 * riscv64 virt: 0x100 bytes, in a page of 0x1000), or after the 16550's
 * eight ports. Only reads past the end, which are refused before any
 * access (a read inside could take a byte of input). */
KTEST(console, device_window_is_the_uart_reg)
{
    const struct fdt *f = boot_fdt();
    int where = -1, node = f ? fdt_stdout_node(f, &where) : -1;
    uint64_t base, size;
    unsigned long info = console_device_info();
    if (info & DEVICE_INFO_PORTS) {
        KEXPECT_EQ(console_device_io(DEVICE_PORTS, 0, DEVICE_IO_READ), -EINVAL);
        return;
    }
    if (node < 0 || fdt_reg_cpu(f, node, 0, &base, &size, &where) < 0) {
        ktest_note("no stdout UART in a devicetree: nothing to compare");
        return;
    }
    unsigned long page_rest = 0x1000 - DEVICE_INFO_PAGE_OFFSET(info);
    if (size < page_rest)
        KEXPECT_EQ(console_device_io(size, 0, DEVICE_IO_READ), -EINVAL);
    KEXPECT_EQ(console_device_io(page_rest, 0, DEVICE_IO_READ), -EINVAL);
}
