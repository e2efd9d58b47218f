/* SPDX-License-Identifier: MIT */
/*
 * linux/client/lx_io.c - output, the environment, power off and the entry
 * point of the client programs (lx_io.h). Freestanding: no C library.
 */
#include <stddef.h>

#include "linux/client/lx_io.h"
#include "linux/client/lx_sys.h"

#define LINUX_REBOOT_MAGIC1        0xfee1dead
#define LINUX_REBOOT_MAGIC2        672274793
#define LINUX_REBOOT_CMD_POWER_OFF 0x4321fedc

static char buf[4096];
static size_t used;
static char **environment;

/* The compiler may turn loops into these calls even when freestanding. */
void *memset(void *d, int c, size_t n)
{
    unsigned char *p = d;
    while (n--)
        *p++ = (unsigned char)c;
    return d;
}

void *memcpy(void *d, const void *s, size_t n)
{
    unsigned char *p = d;
    const unsigned char *q = s;
    while (n--)
        *p++ = *q++;
    return d;
}

void out_flush(void)
{
    size_t done = 0;
    while (done < used) {
        long n = lx_syscall3(NR_write, 1, buf + done, used - done);
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    used = 0;
}

void out_str(const char *s)
{
    while (*s) {
        if (used == sizeof(buf))
            out_flush();
        buf[used++] = *s++;
    }
}

void out_u64(uint64_t v)
{
    char digits[21];
    int i = 20;
    digits[i] = '\0';
    do {
        digits[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    out_str(digits + i);
}

const char *env_get(const char *name)
{
    for (char **e = environment; e && *e; e++) {
        const char *p = *e, *n = name;
        while (*n && *p == *n)
            p++, n++;
        if (!*n && *p == '=')
            return p + 1;
    }
    return NULL;
}

long arg_number(const char *s, int index, long fallback)
{
    for (; s && index > 0; index--) {
        while (*s && *s != ',')
            s++;
        s = *s ? s + 1 : NULL;
    }
    if (!s || *s < '0' || *s > '9')
        return fallback;
    long v = 0;
    while (*s >= '0' && *s <= '9')
        v = v * 10 + (*s++ - '0');
    return v;
}

_Noreturn void power_off(void)
{
    out_flush();
    for (;;)
        lx_syscall6(NR_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2, LINUX_REBOOT_CMD_POWER_OFF,
                    0, 0, 0);
}

/* From _start: the initial stack holds argc, argv[], NULL, envp[], NULL. */
_Noreturn void lx_start(long *sp)
{
    long argc = sp[0];
    environment = (char **)(sp + 1 + argc + 1);
    int status = lx_main();
    out_str(status ? "lx: FAIL\n" : "");
    power_off();
}

#if defined(__x86_64__)
__asm__(".globl _start\n_start:\n  mov %rsp, %rdi\n  and $-16, %rsp\n  call lx_start\n");
#else
__asm__(".globl _start\n_start:\n  mov x0, sp\n  bl lx_start\n");
#endif
