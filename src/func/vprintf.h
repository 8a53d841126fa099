/* vprintf.h: CUDA device printf — formats one thread's vprintf(fmt, args)
 * call, reading the format string and the packed argument buffer from
 * simulated memory through a caller-supplied reader. */
#ifndef WS_FUNC_VPRINTF_H
#define WS_FUNC_VPRINTF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct vprintf_reader {
    /* Copy n bytes at device address addr into dst; 0 on success, -1 on a fault. */
    int (*read)(void *ctx, uint64_t addr, void *dst, size_t n);
    void *ctx;
};

/* Format into out.  Arguments follow CUDA's layout: int-sized values take 4
 * bytes aligned to 4; long, long long, double and pointers (%s %p) take 8
 * aligned to 8.  Returns the number of characters written, or -1 (with
 * *bad_addr set) when the format string or an argument cannot be read. */
int vprintf_format(const struct vprintf_reader *r, uint64_t fmt, uint64_t args, FILE *out,
                   uint64_t *bad_addr);

#endif
