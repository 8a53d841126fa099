/* fatbin.c: parse nvcc fatbinary containers, decompress entries (zstd, LZ4)
 * and select the PTX entry warpsim runs. */
#include "runtime/fatbin.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <lz4.h>
#include <zstd.h>

#include "base/alloc.h"

/* Largest payload we agree to inflate (guards against absurd headers). */
#define FATBIN_MAX_UNCOMPRESSED (1ull << 30)

static uint16_t rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
    return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

int fatbin_from_wrapper(const void *wrapper, const uint8_t **data, size_t *len, struct err *e)
{
    if (!wrapper)
        return err_set(e, WS_ERR_INVALID, "fatbinary wrapper is NULL");
    const uint8_t *w = wrapper;
    uint32_t magic = rd32(w);
    if (magic != FATBIN_WRAPPER_MAGIC)
        return err_set(e, WS_ERR_PARSE,
                       "fatbinary wrapper has magic 0x%08x, expected 0x%08x", magic,
                       FATBIN_WRAPPER_MAGIC);
    const uint8_t *d;
    memcpy(&d, w + 8, sizeof d);
    if (!d)
        return err_set(e, WS_ERR_PARSE, "fatbinary wrapper points to no data");
    uint32_t dmagic = rd32(d);
    if (dmagic != FATBIN_MAGIC)
        return err_set(e, WS_ERR_PARSE,
                       "fatbinary data has magic 0x%08x, expected 0x%08x", dmagic,
                       FATBIN_MAGIC);
    uint64_t body = rd64(d + 8);
    if (body > (1ull << 40))
        return err_set(e, WS_ERR_PARSE, "fatbinary size %llu is implausible",
                       (unsigned long long)body);
    *data = d;
    *len = (size_t)(FATBIN_HEADER_SIZE + body);
    return WS_OK;
}

int fatbin_parse(const uint8_t *buf, size_t len, struct fatbin *out, struct err *e)
{
    memset(out, 0, sizeof *out);
    if (len < FATBIN_HEADER_SIZE)
        return err_set(e, WS_ERR_PARSE, "fatbinary truncated: %zu bytes, header needs %u",
                       len, FATBIN_HEADER_SIZE);
    uint32_t magic = rd32(buf);
    if (magic != FATBIN_MAGIC)
        return err_set(e, WS_ERR_PARSE, "not a fatbinary: magic 0x%08x, expected 0x%08x",
                       magic, FATBIN_MAGIC);
    unsigned hsize = rd16(buf + 6);
    if (hsize < FATBIN_HEADER_SIZE || hsize > len)
        return err_set(e, WS_ERR_PARSE, "fatbinary header size %u is invalid", hsize);
    uint64_t body = rd64(buf + 8);
    if (body > len - hsize)
        return err_set(e, WS_ERR_PARSE,
                       "fatbinary truncated: header announces %llu bytes of entries, %zu present",
                       (unsigned long long)body, len - hsize);
    size_t end = hsize + (size_t)body;
    size_t pos = hsize, cap = 0;
    while (pos < end) {
        if (end - pos < FATBIN_ENTRY_MIN_SIZE) {
            fatbin_free(out);
            return err_set(e, WS_ERR_PARSE,
                           "fatbinary truncated: entry at offset %zu has %zu of %u header bytes",
                           pos, end - pos, FATBIN_ENTRY_MIN_SIZE);
        }
        const uint8_t *h = buf + pos;
        uint32_t esize = rd32(h + 4);
        uint64_t psize = rd64(h + 8);
        if (esize < FATBIN_ENTRY_MIN_SIZE || esize > end - pos) {
            fatbin_free(out);
            return err_set(e, WS_ERR_PARSE, "fatbinary entry at offset %zu has invalid header size %u",
                           pos, esize);
        }
        if (psize > end - pos - esize) {
            fatbin_free(out);
            return err_set(e, WS_ERR_PARSE,
                           "fatbinary entry at offset %zu: payload of %llu bytes runs past the end",
                           pos, (unsigned long long)psize);
        }
        struct fatbin_entry *en = ARRAY_PUSH(out->entries, out->nentries, cap);
        en->kind = rd16(h);
        en->ptx_minor = rd16(h + 0x18);
        en->ptx_major = rd16(h + 0x1a);
        en->arch = rd32(h + 0x1c);
        en->flags = rd64(h + 0x28);
        en->uncompressed_size = rd64(h + 0x38);
        en->payload = h + esize;
        uint32_t stored = rd32(h + 0x10);
        en->payload_size = stored && stored <= psize ? stored : (size_t)psize;
        pos += esize + (size_t)psize;
    }
    out->size = end;
    return WS_OK;
}

void fatbin_free(struct fatbin *fb)
{
    free(fb->entries);
    fb->entries = NULL;
    fb->nentries = 0;
}

int fatbin_lz4_decode(const uint8_t *src, size_t n, uint8_t *dst, size_t dst_cap,
                      size_t *written, struct err *e)
{
    if (n > INT_MAX || dst_cap > INT_MAX)
        return err_set(e, WS_ERR_PARSE, "LZ4 block of %zu bytes is too large", n);
    int r = LZ4_decompress_safe((const char *)src, (char *)dst, (int)n, (int)dst_cap);
    if (r < 0)
        return err_set(e, WS_ERR_PARSE, "LZ4 block is corrupt or larger than %zu bytes",
                       dst_cap);
    *written = (size_t)r;
    return WS_OK;
}

int fatbin_entry_data(const struct fatbin_entry *en, char **out, size_t *len, struct err *e)
{
    const uint8_t *src = en->payload;
    size_t n = en->payload_size;
    char *buf;
    size_t got;
    int zstd = (en->flags & FATBIN_FLAG_ZSTD) ||
               (n >= 4 && rd32(src) == 0xfd2fb528u);
    if (zstd) {
        unsigned long long want = ZSTD_getFrameContentSize(src, n);
        if (want == ZSTD_CONTENTSIZE_ERROR)
            return err_set(e, WS_ERR_PARSE, "fatbinary entry: corrupt zstd frame header");
        if (want == ZSTD_CONTENTSIZE_UNKNOWN)
            want = en->uncompressed_size;
        if (want == 0 || want > FATBIN_MAX_UNCOMPRESSED)
            return err_set(e, WS_ERR_PARSE, "fatbinary entry: implausible decompressed size %llu",
                           want);
        buf = xmalloc((size_t)want + 1);
        size_t r = ZSTD_decompress(buf, (size_t)want, src, n);
        if (ZSTD_isError(r)) {
            free(buf);
            return err_set(e, WS_ERR_PARSE, "fatbinary entry: zstd decompression failed: %s",
                           ZSTD_getErrorName(r));
        }
        got = r;
    } else if (en->flags & FATBIN_FLAG_LZ4) {
        uint64_t want = en->uncompressed_size;
        if (want == 0 || want > FATBIN_MAX_UNCOMPRESSED)
            return err_set(e, WS_ERR_PARSE, "fatbinary entry: implausible decompressed size %llu",
                           (unsigned long long)want);
        buf = xmalloc((size_t)want + 1);
        if (fatbin_lz4_decode(src, n, (uint8_t *)buf, (size_t)want, &got, e) != WS_OK) {
            free(buf);
            return err_prefix(e, "fatbinary entry: ");
        }
    } else {
        buf = xmalloc(n + 1);
        memcpy(buf, src, n);
        got = n;
    }
    buf[got] = '\0';
    while (got > 0 && buf[got - 1] == '\0')
        got--;
    *out = buf;
    *len = got;
    return WS_OK;
}

size_t fatbin_ptx_order(const struct fatbin *fb, size_t *idx, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < fb->nentries && k < cap; i++) {
        if (fb->entries[i].kind != FATBIN_KIND_PTX)
            continue;
        size_t j = k++;
        while (j > 0 && fb->entries[idx[j - 1]].arch < fb->entries[i].arch) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = i;
    }
    return k;
}

int fatbin_best_ptx(const struct fatbin *fb, char **ptx, size_t *len, unsigned *arch,
                    struct err *e)
{
    size_t idx[1];
    if (fatbin_ptx_order(fb, idx, 1) == 0) {
        unsigned sass = 0;
        for (size_t i = 0; i < fb->nentries; i++)
            if (fb->entries[i].arch > sass)
                sass = fb->entries[i].arch;
        if (sass == 0)
            return err_set(e, WS_ERR_UNSUPPORTED,
                           "fatbinary has no PTX entry; warpsim runs PTX: rebuild with "
                           "-gencode arch=compute_XX,code=compute_XX (e.g. compute_75)");
        return err_set(e, WS_ERR_UNSUPPORTED,
                       "fatbinary has only SASS (sm_%u) and no PTX; warpsim runs PTX: rebuild "
                       "with -gencode arch=compute_%u,code=compute_%u",
                       sass, sass, sass);
    }
    const struct fatbin_entry *en = &fb->entries[idx[0]];
    if (fatbin_entry_data(en, ptx, len, e) != WS_OK)
        return e->code;
    if (arch)
        *arch = en->arch;
    return WS_OK;
}
