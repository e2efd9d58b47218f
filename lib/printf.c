/* SPDX-License-Identifier: MIT */
/*
 * lib/printf.c - vsnprintf for the kernel (see lib/printf.h for the subset).
 * Output goes through struct out, which counts every character but stores
 * only those that fit, which gives C99's return value for free.
 */
#include "lib/printf.h"

#include <stdbool.h>
#include <stdint.h>

struct out {
    char *buf;
    size_t size; /* capacity including the final NUL */
    size_t len;  /* characters produced so far (may exceed size) */
};

struct spec {
    bool left, plus, space, alt, zero;
    int width;     /* -1 if absent */
    int precision; /* -1 if absent */
    char length;   /* 'H' hh, 'h', 'l', 'L' ll, 'z', 't', 'j', 0 */
};

static void put(struct out *o, char c)
{
    if (o->len + 1 < o->size)
        o->buf[o->len] = c;
    o->len++;
}

static void put_repeat(struct out *o, char c, int n)
{
    while (n-- > 0)
        put(o, c);
}

static void put_padded(struct out *o, const struct spec *sp, const char *s, int n)
{
    int pad = sp->width > n ? sp->width - n : 0;
    if (!sp->left)
        put_repeat(o, ' ', pad);
    for (int i = 0; i < n; i++)
        put(o, s[i]);
    if (sp->left)
        put_repeat(o, ' ', pad);
}

/* Digits of v in base, least significant first; returns the count. */
static int to_digits(char *tmp, uint64_t v, unsigned base, bool upper)
{
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    int n = 0;
    do {
        tmp[n++] = digits[v % base];
        v /= base;
    } while (v);
    return n;
}

/* One integer conversion: sign/prefix, precision zeros, width padding. */
static void put_number(struct out *o, const struct spec *sp, uint64_t v, bool negative,
                       bool is_signed, unsigned base, bool upper)
{
    char tmp[24];
    int ndigits = (v == 0 && sp->precision == 0) ? 0 : to_digits(tmp, v, base, upper);
    const char *prefix = "";
    if (negative)
        prefix = "-";
    else if (is_signed && sp->plus) /* '+' and ' ' apply to signed conversions only */
        prefix = "+";
    else if (is_signed && sp->space)
        prefix = " ";
    else if (sp->alt && base == 16 && v != 0)
        prefix = upper ? "0X" : "0x";
    int zeros = sp->precision > ndigits ? sp->precision - ndigits : 0;
    if (sp->alt && base == 8 && zeros == 0 && (ndigits == 0 || tmp[ndigits - 1] != '0'))
        zeros = 1;
    int plen = 0;
    while (prefix[plen])
        plen++;
    int body = plen + zeros + ndigits;
    int pad = sp->width > body ? sp->width - body : 0;
    bool zero_pad = sp->zero && !sp->left && sp->precision < 0;
    if (!sp->left && !zero_pad)
        put_repeat(o, ' ', pad);
    for (int i = 0; i < plen; i++)
        put(o, prefix[i]);
    if (zero_pad)
        put_repeat(o, '0', pad);
    put_repeat(o, '0', zeros);
    while (ndigits--)
        put(o, tmp[ndigits]);
    if (sp->left)
        put_repeat(o, ' ', pad);
}

static int64_t signed_arg(const struct spec *sp, va_list *ap)
{
    switch (sp->length) {
    case 'H': return (signed char)va_arg(*ap, int);
    case 'h': return (short)va_arg(*ap, int);
    case 'l': return va_arg(*ap, long);
    case 'L': return va_arg(*ap, long long);
    case 'z': return va_arg(*ap, long); /* ssize_t */
    case 't': return va_arg(*ap, ptrdiff_t);
    case 'j': return va_arg(*ap, intmax_t);
    default: return va_arg(*ap, int);
    }
}

static uint64_t unsigned_arg(const struct spec *sp, va_list *ap)
{
    switch (sp->length) {
    case 'H': return (unsigned char)va_arg(*ap, unsigned);
    case 'h': return (unsigned short)va_arg(*ap, unsigned);
    case 'l': return va_arg(*ap, unsigned long);
    case 'L': return va_arg(*ap, unsigned long long);
    case 'z': return va_arg(*ap, size_t);
    case 't': return (uint64_t)va_arg(*ap, ptrdiff_t);
    case 'j': return va_arg(*ap, uintmax_t);
    default: return va_arg(*ap, unsigned);
    }
}

/* Parses flags, width, precision and length; returns the conversion char. */
static const char *parse_spec(const char *f, struct spec *sp, va_list *ap)
{
    *sp = (struct spec){.width = -1, .precision = -1};
    for (;; f++) {
        if (*f == '-')
            sp->left = true;
        else if (*f == '+')
            sp->plus = true;
        else if (*f == ' ')
            sp->space = true;
        else if (*f == '#')
            sp->alt = true;
        else if (*f == '0')
            sp->zero = true;
        else
            break;
    }
    if (*f == '*') {
        sp->width = va_arg(*ap, int);
        if (sp->width < 0) {
            sp->left = true;
            sp->width = -sp->width;
        }
        f++;
    } else {
        for (; *f >= '0' && *f <= '9'; f++)
            sp->width = (sp->width < 0 ? 0 : sp->width) * 10 + (*f - '0');
    }
    if (*f == '.') {
        f++;
        sp->precision = 0;
        if (*f == '*') {
            sp->precision = va_arg(*ap, int);
            f++;
        } else {
            for (; *f >= '0' && *f <= '9'; f++)
                sp->precision = sp->precision * 10 + (*f - '0');
        }
    }
    if (f[0] == 'h' && f[1] == 'h') {
        sp->length = 'H';
        f += 2;
    } else if (f[0] == 'l' && f[1] == 'l') {
        sp->length = 'L';
        f += 2;
    } else if (*f == 'h' || *f == 'l' || *f == 'z' || *f == 't' || *f == 'j')
        sp->length = *f++;
    return f;
}

static void put_string(struct out *o, const struct spec *sp, const char *s)
{
    if (!s)
        s = "(null)";
    int n = 0;
    while (s[n] && (sp->precision < 0 || n < sp->precision))
        n++;
    put_padded(o, sp, s, n);
}

static void convert(struct out *o, const struct spec *sp, char c, va_list *ap)
{
    switch (c) {
    case 'd':
    case 'i': {
        int64_t v = signed_arg(sp, ap);
        put_number(o, sp, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0, true, 10, false);
        break;
    }
    case 'u': put_number(o, sp, unsigned_arg(sp, ap), false, false, 10, false); break;
    case 'o': put_number(o, sp, unsigned_arg(sp, ap), false, false, 8, false); break;
    case 'x': put_number(o, sp, unsigned_arg(sp, ap), false, false, 16, false); break;
    case 'X': put_number(o, sp, unsigned_arg(sp, ap), false, false, 16, true); break;
    case 'p': {
        struct spec p = *sp;
        p.alt = true;
        put_number(o, &p, (uintptr_t)va_arg(*ap, void *), false, false, 16, false);
        break;
    }
    case 'c': {
        char ch = (char)va_arg(*ap, int);
        put_padded(o, sp, &ch, 1);
        break;
    }
    case 's': put_string(o, sp, va_arg(*ap, const char *)); break;
    case '%': put(o, '%'); break;
    default: /* unknown conversion: print it verbatim so the bug is visible */
        put(o, '%');
        if (c)
            put(o, c);
    }
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    struct out o = {buf, size, 0};
    va_list args;
    va_copy(args, ap);
    for (const char *f = fmt; *f; f++) {
        if (*f != '%') {
            put(&o, *f);
            continue;
        }
        struct spec sp;
        f = parse_spec(f + 1, &sp, &args);
        convert(&o, &sp, *f, &args);
        if (!*f)
            break;
    }
    va_end(args);
    if (size)
        buf[o.len < size ? o.len : size - 1] = '\0';
    return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}
