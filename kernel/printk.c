/* SPDX-License-Identifier: MIT */
/*
 * kernel/printk.c - formatted kernel output into a log buffer and the console.
 * One lock keeps the kernel's lines from different CPUs whole; programs'
 * output (SYS_write) takes it for short pieces only, and goes through a
 * guard that keeps it from passing for the kernel's test results
 * (lib/result_guard.h), which follows everything the console shows: the
 * kernel's lines, programs' SYS_write and the characters a user-space
 * console driver sends (kwrite_device), so that the UART has one line
 * state whoever writes to it.
 */
#include "kernel/printk.h"

#include "kernel/spinlock.h"
#include "lib/printf.h"
#include "lib/result_guard.h"
#include "lib/string.h"

#define LOG_SIZE (64 * 1024)

static char log_buf[LOG_SIZE]; /* the first LOG_SIZE bytes of output, for replay */
static size_t log_len;
static struct spinlock printk_lock = SPINLOCK_INIT;
static bool emergency;
static struct result_guard guard; /* the UART's line, whoever writes it */
/* The console's writer, once console_init has one (printk_set_console):
 * handed down, so that printk calls nothing above it. */
static void (*console_out)(const char *s, size_t n);

#define PIECE 64 /* bytes of a program's output written per hold of printk_lock */

static void log_append(const char *s, size_t n)
{
    size_t room = LOG_SIZE - log_len;
    if (n > room)
        n = room;
    memcpy(log_buf + log_len, s, n);
    log_len += n;
}

static void emit(const char *s, size_t n)
{
    if (console_out)
        console_out(s, n);
}

void kvprintf(const char *fmt, va_list ap)
{
    char line[512];
    int n = vsnprintf(line, sizeof(line), fmt, ap);
    size_t len = n < (int)sizeof(line) ? (size_t)n : sizeof(line) - 1;
    unsigned long flags = 0;
    if (!emergency)
        flags = spin_lock_irqsave(&printk_lock);
    if (!console_out)
        log_append(line, len);
    result_guard_follow(&guard, line, len);
    emit(line, len);
    if (!emergency)
        spin_unlock_irqrestore(&printk_lock, flags);
}

void kwrite_user(const char *buf, size_t n, bool vouched)
{
    for (size_t done = 0; done < n; done += PIECE) {
        char out[2 * PIECE];
        unsigned long flags = spin_lock_irqsave(&printk_lock);
        size_t len = result_guard(&guard, buf + done, MIN(n - done, PIECE), out, vouched);
        emit(out, len);
        spin_unlock_irqrestore(&printk_lock, flags);
    }
}

void kwrite_device(void (*send)(unsigned long c), unsigned long c, bool vouched)
{
    char in = (char)c, out[2];
    unsigned long flags = 0;
    if (!emergency)
        flags = spin_lock_irqsave(&printk_lock);
    if (result_guard(&guard, &in, 1, out, vouched) == 2)
        emit(out, 1); /* the mark */
    send(c);
    if (!emergency)
        spin_unlock_irqrestore(&printk_lock, flags);
}

void kprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kvprintf(fmt, ap);
    va_end(ap);
}

void printk_emergency(void)
{
    emergency = true;
}

void printk_set_console(void (*write)(const char *s, size_t n))
{
    console_out = write;
    write(log_buf, log_len); /* what came before */
}
