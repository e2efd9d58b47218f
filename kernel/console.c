/* SPDX-License-Identifier: MIT */
/*
 * kernel/console.c - find the boot console and write to it.
 *
 * The UART comes from, in order: the loader's hint in boot_info (x86 has no
 * devicetree; the loader names COM1), or the devicetree's
 * /chosen/stdout-path (Devicetree Specification v0.4, 3.6). Its "reg" is
 * translated through the "ranges" of every bus above it (2.3.8): on the
 * Raspberry Pis the UARTs sit on /soc at bus addresses 0x7e2xxxxx that the
 * CPU sees elsewhere.
 */
#include "kernel/console.h"

#include "arch/arch.h"

#include "kernel/bootinfo.h"
#include "kernel/dev/uart.h"
#include "kernel/errno.h"
#include "kernel/mm.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"
#include "kernel/uapi/ipc.h"
#include "lib/cmdline.h"
#include "lib/fdt.h"
#include "lib/printf.h"

static struct uart uart;
static const struct uart_driver *driver; /* set with uart.kind */
static char name[48];

/* Input received by interrupt, waiting for console_getc(): a ring. */
#define RX_SIZE 256
static struct spinlock rx_lock = SPINLOCK_INIT;
static char rx_ring[RX_SIZE];
static unsigned rx_head, rx_tail; /* head: next write, tail: next read */
static bool rx_by_irq;
static unsigned long rx_irqs;

/* Said once no console is found; it shows if a later console replays the log. */
static bool fdt_console_missing(const struct fdt *f, int where, const char *why, int err)
{
    const char *node = fdt_node_name(f, where);
    kprintf("console: devicetree node '%s': %s%s%s\n", node && *node ? node : "/", why,
            err ? ": " : "", err ? fdt_strerror(err) : "");
    return false;
}

/* The UARTs a devicetree's stdout node may be compatible with, in the order
 * tried (Devicetree Specification v0.4, 2.3.1): the driver's kind and its
 * register layout. */
struct uart_match {
    const char *compatible;
    enum uart_kind kind;
    unsigned reg_shift, io_width;
    bool layout_props; /* the node's reg-shift and reg-io-width override them */
};

static const struct uart_match uart_matches[] = {
    {"arm,pl011", UART_PL011, 0, 0, false},
    {"sifive,uart0", UART_SIFIVE, 0, 0, false},
    {"ns16550a", UART_NS16550_MMIO, 0, 1, true},
    {"ns16550", UART_NS16550_MMIO, 0, 1, true},
    {"snps,dw-apb-uart", UART_NS16550_MMIO, 0, 1, true},
    /* The BCM2835/BCM2711 mini UART (the Pi 4's console on GPIO 14/15;
     * BCM2711 ARM Peripherals, 2.2 "Mini UART"): 16550-like registers one
     * 32-bit word apart from AUX_MU_IO_REG (IER +4, IIR/FCR +8, LCR +0xc,
     * MCR +0x10, LSR +0x14: bit 0 data ready, bit 5 transmitter can take a
     * byte). Its baud register stays as the firmware set it. */
    {"brcm,bcm2835-aux-uart", UART_NS16550_MMIO, 2, 4, false},
};

/* The first entry of uart_matches the node is compatible with, or NULL. */
static const struct uart_match *uart_match_of(const struct fdt *f, int node)
{
    for (unsigned i = 0; i < ARRAY_SIZE(uart_matches); i++) {
        if (fdt_is_compatible(f, node, uart_matches[i].compatible))
            return &uart_matches[i];
    }
    return NULL;
}

static bool uart_from_fdt(const struct fdt *f)
{
    int where = -1, node = fdt_stdout_node(f, &where), err;
    uint64_t base, size;
    if (node < 0)
        return fdt_console_missing(f, where, "no stdout-path naming a node", node);
    if ((err = fdt_reg_cpu(f, node, 0, &base, &size, &where)) < 0)
        return fdt_console_missing(f, where, "the UART's reg cannot be translated", err);
    const struct uart_match *m = uart_match_of(f, node);
    if (!m)
        return fdt_console_missing(f, node, "the stdout UART's compatible has no driver", 0);
    uint32_t shift = m->reg_shift, width = m->io_width;
    if (m->layout_props) {
        fdt_prop_u32(f, node, "reg-shift", &shift);
        fdt_prop_u32(f, node, "reg-io-width", &width);
    }
    uart.kind = m->kind;
    uart.reg_shift = shift;
    uart.io_width = width;
    uart.phys = base;
    uart.base = (uintptr_t)phys_to_virt(base);
    uart.size = size;
    return true;
}

static bool uart_from_hint(const struct boot_console *c)
{
    switch (c->kind) {
    case BOOT_CONSOLE_NS16550_PIO:
        uart = (struct uart){.kind = UART_NS16550_PIO, .base = (uintptr_t)c->base, .io_width = 1};
        return ARCH_HAS_PIO;
    case BOOT_CONSOLE_NS16550_MMIO:
    case BOOT_CONSOLE_PL011:
        uart.kind = c->kind == BOOT_CONSOLE_PL011 ? UART_PL011 : UART_NS16550_MMIO;
        uart.phys = c->base;
        uart.base = (uintptr_t)phys_to_virt(c->base);
        uart.reg_shift = c->reg_shift;
        uart.io_width = 1;
        /* No reg from a loader's hint: the kind's own registers (PC16550D:
         * eight; PL011 TRM 3.2: a 4 KiB block). */
        uart.size = c->kind == BOOT_CONSOLE_PL011 ? 0x1000 : 8ul << c->reg_shift;
        return true;
    default: return false;
    }
}

static const struct uart_driver *driver_of(enum uart_kind kind)
{
    switch (kind) {
    case UART_NS16550_PIO:
    case UART_NS16550_MMIO: return &ns16550_driver;
    case UART_PL011: return &pl011_driver;
    case UART_SIFIVE: return &sifive_uart_driver;
    default: return NULL;
    }
}

void console_init(const struct boot_info *bi)
{
    const struct fdt *f = boot_fdt();
    if (!uart_from_hint(&bi->console) && !(f && uart_from_fdt(f))) {
        uart.kind = UART_NONE;
        /* Without a console this kernel cannot say or be told anything:
         * stop rather than run mute. The line above, naming the node at
         * fault, is in the log buffer, and the exit status says it failed. */
        if (f)
            panic("console: none in the devicetree; the boot stops");
        return;
    }
    driver = driver_of(uart.kind);
    if (uart.kind == UART_NS16550_PIO)
        snprintf(name, sizeof(name), "ns16550 @ port %#llx", (unsigned long long)uart.base);
    else
        snprintf(name, sizeof(name), "%s @ %#llx", driver->name, (unsigned long long)uart.phys);
    driver->init(&uart);
    printk_set_console(console_write);
}

bool console_ready(void)
{
    return uart.kind != UART_NONE;
}

const char *console_name(void)
{
    return console_ready() ? name : "none";
}

static int uart_getc(void)
{
    return driver ? driver->getc(&uart) : -1;
}

/* rx_lock held: every byte the UART holds into the ring (ring full: the byte is dropped). */
static void rx_drain(void)
{
    int c;
    while ((c = uart_getc()) >= 0) {
        if (rx_head - rx_tail < RX_SIZE)
            rx_ring[rx_head++ % RX_SIZE] = (char)c;
    }
}

/* console.rx_stall_us (tests only): spin this long after the drain, with the
 * interrupt still active, so that bytes arrive between the drain and the EOI
 * every time (the window that lost input when it was only microseconds). */
static uint64_t rx_stall_ns;

static void rx_stall(void)
{
    for (uint64_t end = time_now_ns() + rx_stall_ns; rx_stall_ns && time_now_ns() < end;)
        arch_cpu_relax();
}

/*
 * rx_lock held: acknowledge, then drain. The PL011's receive interrupts are
 * cleared before the FIFO is read, never after: a byte arriving after the
 * last read must leave its interrupt raised (see pl011_rx_irq_clear). The
 * 16550's and the SiFive UART's are cleared by the reads themselves.
 */
static void rx_service(void)
{
    if (driver->rx_irq_clear)
        driver->rx_irq_clear(&uart);
    rx_drain();
    rx_stall();
}

/* Asked first on every UART interrupt; true: it took the interrupt. */
static bool (*irq_hook)(void);

void console_set_irq_hook(bool (*hook)(void))
{
    irq_hook = hook;
}

/* The UART's interrupt (arch code calls it, IRQs off). */
static void console_rx_interrupt(void)
{
    if (irq_hook && irq_hook())
        return; /* a user-space driver serves it */
    unsigned long flags = spin_lock_irqsave(&rx_lock);
    rx_service();
    rx_irqs++;
    spin_unlock_irqrestore(&rx_lock, flags);
}

int console_getc(void)
{
    if (!rx_by_irq)
        return uart_getc();
    unsigned long flags = spin_lock_irqsave(&rx_lock);
    int c = rx_head != rx_tail ? (unsigned char)rx_ring[rx_tail++ % RX_SIZE] : -1;
    spin_unlock_irqrestore(&rx_lock, flags);
    return c;
}

void console_start_input_irq(void)
{
    if (uart.kind == UART_NONE || !arch_console_irq(console_rx_interrupt)) {
        kprintf("console: input is polled (no interrupt route for the UART)\n");
        return;
    }
    rx_by_irq = true;
    driver->rx_irq_enable(&uart);
    /* Bytes the firmware left behind may have no interrupt raised for them
     * (an interrupt cleared with the FIFO not empty): take them now. */
    unsigned long flags = spin_lock_irqsave(&rx_lock);
    rx_service();
    unsigned long stall_us = cmdline_ulong(boot_info.cmdline, "console.rx_stall_us", 0);
    rx_stall_ns = 1000ull * (stall_us < 100000 ? stall_us : 100000); /* 100 ms, at most */
    spin_unlock_irqrestore(&rx_lock, flags);
    kprintf("console: input by interrupt\n");
}

unsigned long console_rx_interrupts(void)
{
    return READ_ONCE(rx_irqs);
}

bool console_mmio(uint64_t *pa, uint64_t *size)
{
    if (uart.kind == UART_NONE || uart.kind == UART_NS16550_PIO)
        return false;
    *pa = uart.phys;
    *size = 0x1000;
    return true;
}

void console_relocate(void)
{
    if (uart.kind != UART_NONE && uart.kind != UART_NS16550_PIO)
        uart.base = (uintptr_t)phys_to_virt(uart.phys);
}

/* Where the registers start in their page, in DEVICE_INFO_PAGE_OFFSET's place. */
static unsigned long page_offset(void)
{
    return (unsigned long)(uart.phys & 0xfff) << 32;
}

unsigned long console_device_info(void)
{
    switch (uart.kind) {
    case UART_NS16550_PIO: return DEVICE_UART_NS16550 | 1ul << 16 | DEVICE_INFO_PORTS;
    case UART_NS16550_MMIO:
        return DEVICE_UART_NS16550 | (unsigned long)uart.reg_shift << 8 |
               (unsigned long)uart.io_width << 16 | page_offset();
    case UART_PL011: return DEVICE_UART_PL011 | 4ul << 16 | page_offset();
    case UART_SIFIVE: return DEVICE_UART_SIFIVE | 4ul << 16 | page_offset();
    default: return 0;
    }
}

/* Store `value` in the register at `offset` of the window (checked). */
static void device_store(unsigned long offset, unsigned long value)
{
#if ARCH_HAS_PIO
    if (uart.kind == UART_NS16550_PIO) {
        arch_pio_write8((uint16_t)(uart.base + offset), (uint8_t)value);
        return;
    }
#endif
    if (DEVICE_INFO_WIDTH(console_device_info()) == 4)
        arch_mmio_write32(uart.base + offset, (uint32_t)value);
    else
        arch_mmio_write8(uart.base + offset, (uint8_t)value);
}

/* The transmit register: offset 0 on every UART here (16550 THR, PL011 DR,
 * SiFive txdata). */
static void device_send(unsigned long c)
{
    device_store(0, c);
}

static long device_load(unsigned long offset)
{
#if ARCH_HAS_PIO
    if (uart.kind == UART_NS16550_PIO)
        return arch_pio_read8((uint16_t)(uart.base + offset));
#endif
    uintptr_t a = uart.base + offset;
    return DEVICE_INFO_WIDTH(console_device_info()) == 4 ? (long)arch_mmio_read32(a)
                                                         : (long)arch_mmio_read8(a);
}

/* The bytes of the device window: ports, DEVICE_PORTS; memory, the UART's
 * reg (from its first register), and never past the end of its page. */
static unsigned long device_window(void)
{
    if (uart.kind == UART_NS16550_PIO)
        return DEVICE_PORTS;
    unsigned long page_rest = 0x1000 - (uart.phys & 0xfff);
    return uart.size < page_rest ? uart.size : page_rest;
}

/* One access in the window, at the UART's access width (PL011 TRM 3.2:
 * 32-bit registers). A character sent goes through printk's guard, which
 * the kernel's own lines go through too. */
long console_device_io(unsigned long offset, unsigned long value, unsigned how)
{
    unsigned long width = DEVICE_INFO_WIDTH(console_device_info());
    if (uart.kind == UART_NONE || width == 0 || offset % width)
        return -EINVAL;
    if (offset >= device_window())
        return -EINVAL;
    if (how == DEVICE_IO_READ)
        return device_load(offset);
    if (offset == 0)
        kwrite_device(device_send, value, how == DEVICE_IO_WRITE_VOUCHED);
    else
        device_store(offset, value);
    return 0;
}

bool console_input_irq_routed(void)
{
    return rx_by_irq;
}

/* A user driver let go: whatever it did to the UART's interrupt enables,
 * the receive interrupt is on again (off first, so that bytes already
 * waiting raise the line anew: an edge on x86's 16550). */
void console_input_to_kernel(void)
{
    if (!driver)
        return;
    driver->rx_irq_disable(&uart);
    driver->rx_irq_enable(&uart);
}

static void putc_raw(char c)
{
    if (driver)
        driver->putc(&uart, c);
}

void console_write(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\n')
            putc_raw('\r');
        putc_raw(s[i]);
    }
}
