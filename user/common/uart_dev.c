/* SPDX-License-Identifier: MIT */
/* user/common/uart_dev.c - see uart_dev.h. */
#include "user/common/uart_dev.h"

#include <errno.h>

#include "lib/user/ipc.h"

/* 16550 registers (PC16550D): RBR/THR 0, IER 1, IIR 2, LSR 5. */
enum { NS_DATA = 0, NS_IER = 1, NS_IIR = 2, NS_LSR = 5 };
#define NS_LSR_DR   0x01
#define NS_LSR_THRE 0x20
#define NS_IER_RX   0x01 /* received data available */
#define NS_IER_THR  0x02 /* transmitter holding register empty */
/* PL011 registers (DDI 0183, 3.2) and interrupt bits (3.3.10). */
enum { PL_DR = 0x000, PL_FR = 0x018, PL_IMSC = 0x038, PL_ICR = 0x044 };
#define PL_FR_RXFE (1u << 4)
#define PL_FR_TXFF (1u << 5)
#define PL_INT_RX  (1u << 4)
#define PL_INT_TX  (1u << 5)
#define PL_INT_RT  (1u << 6)
/* SiFive UART registers (FU540-C000 Manual, UART chapter): 32 bits each;
 * bit 31 of txdata reads "FIFO full", of rxdata "nothing received". */
enum { SF_TXDATA = 0x00, SF_RXDATA = 0x04, SF_IE = 0x10 };
#define SF_DATA_FLAG (1u << 31)
#define SF_IE_TXWM   (1u << 0) /* pending while the transmit FIFO is below txcnt */
#define SF_IE_RXWM   (1u << 1) /* pending while the receive FIFO is above rxcnt */

static long ns_read(const struct uart_dev *u, unsigned reg)
{
    return device_read(u->h, (unsigned long)reg << u->shift);
}

static void ns_write(const struct uart_dev *u, unsigned reg, unsigned v)
{
    device_write(u->h, (unsigned long)reg << u->shift, v);
}

int uart_dev_open(struct uart_dev *u, int h)
{
    long info = device_info(h);
    if (info < 0)
        return (int)info;
    u->h = h;
    u->kind = (unsigned)DEVICE_INFO_KIND(info);
    u->shift = (unsigned)DEVICE_INFO_REG_SHIFT(info);
    return u->kind == DEVICE_UART_NS16550 || u->kind == DEVICE_UART_PL011 ||
                   u->kind == DEVICE_UART_SIFIVE
               ? 0
               : -ENODEV;
}

const char *uart_dev_name(const struct uart_dev *u)
{
    switch (u->kind) {
    case DEVICE_UART_PL011: return "PL011";
    case DEVICE_UART_SIFIVE: return "SiFive";
    default: return "16550";
    }
}

int uart_dev_getc(const struct uart_dev *u)
{
    if (u->kind == DEVICE_UART_PL011) {
        long fr = device_read(u->h, PL_FR);
        return fr < 0 || (fr & PL_FR_RXFE) ? -1 : (int)(device_read(u->h, PL_DR) & 0xff);
    }
    if (u->kind == DEVICE_UART_SIFIVE) {
        long r = device_read(u->h, SF_RXDATA); /* the read pops the byte */
        return r < 0 || (r & SF_DATA_FLAG) ? -1 : (int)(r & 0xff);
    }
    long lsr = ns_read(u, NS_LSR);
    return lsr < 0 || !(lsr & NS_LSR_DR) ? -1 : (int)(ns_read(u, NS_DATA) & 0xff);
}

static bool tx_room(const struct uart_dev *u)
{
    switch (u->kind) {
    case DEVICE_UART_PL011: return !(device_read(u->h, PL_FR) & PL_FR_TXFF);
    case DEVICE_UART_SIFIVE: return !(device_read(u->h, SF_TXDATA) & SF_DATA_FLAG);
    default: return ns_read(u, NS_LSR) & NS_LSR_THRE;
    }
}

/* The transmit register is at offset 0 on all three (PL_DR, SF_TXDATA,
 * NS_DATA), which is where the kernel guards what is sent. */
void uart_dev_send(const struct uart_dev *u, char c, bool vouched)
{
    for (int spins = 0; spins < 100000 && !tx_room(u); spins++)
        ;
    if (vouched)
        device_write_vouched(u->h, 0, (unsigned char)c);
    else
        device_write(u->h, 0, (unsigned char)c);
}

void uart_dev_putc(const struct uart_dev *u, char c)
{
    uart_dev_send(u, c, false);
}

void uart_dev_irq_enable(const struct uart_dev *u, bool tx)
{
    if (u->kind == DEVICE_UART_PL011) {
        device_write(u->h, PL_IMSC, PL_INT_RX | PL_INT_RT | (tx ? PL_INT_TX : 0));
    } else if (u->kind == DEVICE_UART_SIFIVE) {
        /* txwm is pending whenever the FIFO is empty (the kernel set txcnt 1) */
        device_write(u->h, SF_IE, SF_IE_RXWM | (tx ? SF_IE_TXWM : 0));
    } else {
        /* Off first: a THRE interrupt is raised when it is enabled with the
         * holding register empty (PC16550D, IIR priorities). */
        ns_write(u, NS_IER, NS_IER_RX);
        if (tx)
            ns_write(u, NS_IER, NS_IER_RX | NS_IER_THR);
    }
}

void uart_dev_irq_clear(const struct uart_dev *u)
{
    if (u->kind == DEVICE_UART_PL011)
        device_write(u->h, PL_ICR, PL_INT_RX | PL_INT_RT | PL_INT_TX);
    else if (u->kind == DEVICE_UART_SIFIVE)
        device_write(u->h, SF_IE, SF_IE_RXWM); /* a level: only switching txwm off drops it */
    else
        ns_read(u, NS_IIR); /* reading IIR clears a pending THRE interrupt */
}
