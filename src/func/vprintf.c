/* vprintf.c: device printf formatting (CUDA's vprintf argument buffer). */
#include "func/vprintf.h"

#include <inttypes.h>
#include <string.h>

#define VPRINTF_MAX_STR 4096

/* Read a NUL-terminated string at addr (bounded) into buf. */
static int read_str(const struct vprintf_reader *r, uint64_t addr, char *buf, size_t len,
                    uint64_t *bad)
{
    size_t i = 0;
    for (; i + 1 < len; i++) {
        char ch;
        if (r->read(r->ctx, addr + i, &ch, 1) != 0) {
            *bad = addr + i;
            return -1;
        }
        if (ch == '\0')
            break;
        buf[i] = ch;
    }
    buf[i] = '\0';
    return 0;
}

/* Fetch an argument of `size` bytes (4 or 8) with natural alignment. */
static int fetch(const struct vprintf_reader *r, uint64_t *pos, unsigned size, uint64_t *val,
                 uint64_t *bad)
{
    *pos = (*pos + size - 1) / size * size;
    uint64_t v = 0;
    if (r->read(r->ctx, *pos, &v, size) != 0) {
        *bad = *pos;
        return -1;
    }
    *pos += size;
    *val = v;
    return 0;
}

int vprintf_format(const struct vprintf_reader *r, uint64_t fmt, uint64_t args, FILE *out,
                   uint64_t *bad_addr)
{
    char f[VPRINTF_MAX_STR];
    if (read_str(r, fmt, f, sizeof f, bad_addr) != 0)
        return -1;
    uint64_t pos = args, v0 = 0;
    int total = 0;
    const char *p = f;
    while (*p) {
        if (*p != '%') {
            const char *q = strchr(p, '%');
            size_t n = q ? (size_t)(q - p) : strlen(p);
            fwrite(p, 1, n, out);
            total += (int)n;
            p += n;
            continue;
        }
        /* conversion spec: %[flags][width][.prec][length]conv; a '*' width or
         * precision is an int argument (a negative width means '-') */
        const char *start = p++;
        char spec[64];
        size_t sl = 1;
        spec[0] = '%';
        while (*p && strchr("-+ #0", *p)) {
            if (sl < 16)
                spec[sl++] = *p;
            p++;
        }
        char num[12]; /* an int (from "*") or up to 11 digits */
        if (*p == '*') {
            p++;
            if (fetch(r, &pos, 4, &v0, bad_addr) != 0)
                return -1;
            snprintf(num, sizeof num, "%d", (int32_t)(uint32_t)v0);
        } else {
            size_t k = 0;
            while (*p >= '0' && *p <= '9' && k + 1 < sizeof num)
                num[k++] = *p++;
            num[k] = '\0';
        }
        sl += (size_t)snprintf(spec + sl, sizeof spec - sl, "%s", num);
        if (*p == '.') {
            p++;
            if (*p == '*') {
                p++;
                if (fetch(r, &pos, 4, &v0, bad_addr) != 0)
                    return -1;
                snprintf(num, sizeof num, "%d", (int32_t)(uint32_t)v0);
            } else {
                size_t k = 0;
                while (*p >= '0' && *p <= '9' && k + 1 < sizeof num)
                    num[k++] = *p++;
                num[k] = '\0';
            }
            sl += (size_t)snprintf(spec + sl, sizeof spec - sl, ".%s", num);
        }
        /* length: l, ll, z, j, t, L take 8 bytes; h and hh 4 bytes, narrowed */
        int lng = 0, shorts = 0;
        while (*p == 'l' || *p == 'h' || *p == 'z' || *p == 'j' || *p == 't' || *p == 'L') {
            if (*p == 'h')
                shorts++;
            else
                lng = 1;
            p++;
        }
        char conv = *p;
        if (!conv)
            break;
        p++;
        if (conv == '%') {
            fputc('%', out);
            total++;
            continue;
        }
        spec[sl] = '\0';
        uint64_t v = 0;
        char buf[VPRINTF_MAX_STR + 64];
        int n = 0;
        switch (conv) {
        case 'd':
        case 'i':
            if (fetch(r, &pos, lng ? 8 : 4, &v, bad_addr) != 0)
                return -1;
            strcat(spec, "lld");
            spec[strlen(spec) - 1] = conv;
            n = snprintf(buf, sizeof buf, spec,
                         lng           ? (long long)(int64_t)v
                         : shorts >= 2 ? (long long)(int8_t)(uint8_t)v
                         : shorts      ? (long long)(int16_t)(uint16_t)v
                                       : (long long)(int32_t)(uint32_t)v);
            break;
        case 'u':
        case 'x':
        case 'X':
        case 'o':
            if (fetch(r, &pos, lng ? 8 : 4, &v, bad_addr) != 0)
                return -1;
            strcat(spec, "ll");
            {
                size_t sl = strlen(spec);
                spec[sl] = conv;
                spec[sl + 1] = '\0';
            }
            n = snprintf(buf, sizeof buf, spec,
                         lng           ? (unsigned long long)v
                         : shorts >= 2 ? (unsigned long long)(uint8_t)v
                         : shorts      ? (unsigned long long)(uint16_t)v
                                       : (unsigned long long)(uint32_t)v);
            break;
        case 'c':
            if (fetch(r, &pos, 4, &v, bad_addr) != 0)
                return -1;
            strcat(spec, "c");
            n = snprintf(buf, sizeof buf, spec, (int)(unsigned char)v);
            break;
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
        case 'a':
        case 'A': {
            if (fetch(r, &pos, 8, &v, bad_addr) != 0)
                return -1;
            double d;
            memcpy(&d, &v, sizeof d);
            size_t sl = strlen(spec);
            spec[sl] = conv;
            spec[sl + 1] = '\0';
            n = snprintf(buf, sizeof buf, spec, d);
            break;
        }
        case 'p':
            if (fetch(r, &pos, 8, &v, bad_addr) != 0)
                return -1;
            strcat(spec, "p");
            n = snprintf(buf, sizeof buf, spec, (void *)(uintptr_t)v);
            break;
        case 's': {
            if (fetch(r, &pos, 8, &v, bad_addr) != 0)
                return -1;
            char s[VPRINTF_MAX_STR];
            if (v == 0)
                snprintf(s, sizeof s, "(null)");
            else if (read_str(r, v, s, sizeof s, bad_addr) != 0)
                return -1;
            strcat(spec, "s");
            n = snprintf(buf, sizeof buf, spec, s);
            break;
        }
        default:
            /* unknown conversion: print it literally */
            n = snprintf(buf, sizeof buf, "%.*s", (int)(p - start), start);
            break;
        }
        if (n > 0) {
            size_t w = (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1;
            fwrite(buf, 1, w, out);
            total += (int)w;
        }
    }
    return total;
}
