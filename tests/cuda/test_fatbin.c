/* test_fatbin.c: the fatbinary parser on committed .nv_fatbin sections of
 * the tests/cuda programs (built by nvcc 13): PTX entries are found,
 * decompressed and parsed; SASS-only and damaged fatbinaries give errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <lz4.h>

#include "base/err.h"
#include "base/file.h"
#include "ptx/ir.h"
#include "ptx/parser.h"
#include "runtime/fatbin.h"

static uint8_t *load(const char *name, size_t *len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/tests/cuda/fixtures/%s", WS_SOURCE_DIR, name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc((size_t)n);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* Parse every container of a section; whether an entry kernel of that name
 * is in one of them; *ncontainers counts the containers with entries. */
static int section_has_kernel(const uint8_t *buf, size_t len, const char *kernel,
                              size_t *ncontainers)
{
    size_t pos = 0;
    int found = 0;
    *ncontainers = 0;
    while (pos < len) {
        struct fatbin fb;
        struct err e;
        err_clear(&e);
        assert_int_equal(fatbin_parse(buf + pos, len - pos, &fb, &e), WS_OK);
        if (fb.nentries == 0) { /* the (empty) device-link container */
            pos += (fb.size + 7) / 8 * 8;
            continue;
        }
        char *ptx;
        size_t plen;
        unsigned arch = 0;
        assert_int_equal(fatbin_best_ptx(&fb, &ptx, &plen, &arch, &e), WS_OK);
        assert_int_equal(arch, 75);
        assert_true(strstr(ptx, ".version") != NULL);
        struct ptx_module *m = NULL;
        if (ptx_parse(ptx, plen, "fatbin", &m, &e) != WS_OK)
            fail_msg("%s", e.msg);
        uint32_t i = ptx_find_func(m, kernel);
        if (i != PTX_NO_INDEX && m->funcs[i].is_entry)
            found = 1;
        ptx_module_free(m);
        free(ptx);
        /* containers are 8-byte aligned in the section */
        pos += (fb.size + 7) / 8 * 8;
        fatbin_free(&fb);
        (*ncontainers)++;
    }
    return found;
}

static void test_api_basic(void **state)
{
    (void)state;
    size_t len, n;
    uint8_t *buf = load("api_basic.fatbin", &len);
    assert_true(section_has_kernel(buf, len, "_Z5scalePiii", &n));
    assert_true(section_has_kernel(buf, len, "_Z13reverse_blockPKiPi", &n));
    assert_true(section_has_kernel(buf, len, "_Z5helloi", &n));
    assert_false(section_has_kernel(buf, len, "_Z7missingv", &n));
    struct fatbin fb;
    struct err e;
    assert_int_equal(fatbin_parse(buf, len, &fb, &e), WS_OK);
    assert_int_equal(fb.nentries, 0); /* the device-link container comes first */
    size_t first = (fb.size + 7) / 8 * 8;
    fatbin_free(&fb);
    assert_int_equal(fatbin_parse(buf + first, len - first, &fb, &e), WS_OK);
    assert_true(fb.nentries >= 1);
    assert_int_equal(fb.entries[0].kind, FATBIN_KIND_PTX);
    assert_true(fb.entries[0].flags & FATBIN_FLAG_ZSTD);
    fatbin_free(&fb);
    free(buf);
}

static void test_multi_tu(void **state)
{
    (void)state;
    size_t len, n;
    uint8_t *buf = load("multi.fatbin", &len);
    assert_true(section_has_kernel(buf, len, "_Z4polyPKiPii", &n));
    assert_int_equal(n, 3); /* one container per translation unit */
    assert_true(section_has_kernel(buf, len, "_Z10accumulatef", &n));
    free(buf);
}

static void test_sass_only(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = load("sass.fatbin", &len);
    struct fatbin fb;
    struct err e;
    err_clear(&e);
    assert_int_equal(fatbin_parse(buf, len, &fb, &e), WS_OK);
    assert_true(fb.nentries >= 1);
    size_t idx[4];
    assert_int_equal(fatbin_ptx_order(&fb, idx, 4), 0);
    char *ptx = NULL;
    size_t plen;
    assert_int_equal(fatbin_best_ptx(&fb, &ptx, &plen, NULL, &e), WS_ERR_UNSUPPORTED);
    assert_non_null(strstr(e.msg, "-gencode arch=compute_75,code=compute_75"));
    assert_null(ptx);
    fatbin_free(&fb);
    free(buf);
}

static void test_truncated(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = load("api_basic.fatbin", &len);
    struct fatbin whole;
    struct err e;
    const size_t first = 16; /* skip the empty device-link container */
    assert_int_equal(fatbin_parse(buf + first, len - first, &whole, &e), WS_OK);
    size_t size = whole.size;
    fatbin_free(&whole);
    for (size_t cut = 0; cut < size; cut++) {
        uint8_t *copy = malloc(cut ? cut : 1); /* exact size so ASan sees overreads */
        memcpy(copy, buf + first, cut);
        struct fatbin fb;
        err_clear(&e);
        assert_int_equal(fatbin_parse(copy, cut, &fb, &e), WS_ERR_PARSE);
        assert_true(strlen(e.msg) > 0);
        free(copy);
    }
    free(buf);
}

static void test_corrupted(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = load("api_basic.fatbin", &len);
    struct err e;
    struct fatbin fb;
    /* bad magic */
    uint8_t *copy = malloc(len);
    memcpy(copy, buf, len);
    copy[0] ^= 0xff;
    assert_int_equal(fatbin_parse(copy, len, &fb, &e), WS_ERR_PARSE);
    assert_non_null(strstr(e.msg, "magic"));
    memcpy(copy, buf, len);
    copy[16] ^= 0xff; /* the second container's magic */
    assert_int_equal(fatbin_parse(copy + 16, len - 16, &fb, &e), WS_ERR_PARSE);
    /* every byte of the entry header and payload flipped in turn: an error
     * or a (possibly different) text, never a crash */
    int errors = 0;
    for (size_t i = 32; i < 32 + 200 && i < len; i++) {
        memcpy(copy, buf, len);
        copy[i] ^= 0x5a;
        err_clear(&e);
        if (fatbin_parse(copy, len, &fb, &e) != WS_OK) {
            errors++;
            continue;
        }
        char *ptx = NULL;
        size_t plen;
        if (fatbin_best_ptx(&fb, &ptx, &plen, NULL, &e) != WS_OK)
            errors++;
        free(ptx);
        fatbin_free(&fb);
    }
    assert_true(errors > 0);
    free(copy);
    free(buf);
}

static void test_wrapper(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = load("api_basic.fatbin", &len);
    struct {
        uint32_t magic, version;
        const void *data;
        const void *unused;
    } w = {FATBIN_WRAPPER_MAGIC, 1, buf + 16, NULL};
    const uint8_t *data;
    size_t dlen;
    struct err e;
    assert_int_equal(fatbin_from_wrapper(&w, &data, &dlen, &e), WS_OK);
    assert_ptr_equal(data, buf + 16);
    assert_true(dlen <= len - 16 && dlen > 16);
    w.magic = 0x12345678;
    assert_int_equal(fatbin_from_wrapper(&w, &data, &dlen, &e), WS_ERR_PARSE);
    free(buf);
}

static void test_lz4(void **state)
{
    (void)state;
    /* A block made by liblz4's compressor decodes back; an output buffer that
     * is too small and a truncated block are errors, not crashes. */
    char text[600];
    for (size_t i = 0; i < sizeof text; i++)
        text[i] = "abcabcabx"[i % 9];
    char block[LZ4_COMPRESSBOUND(sizeof text)];
    int blen = LZ4_compress_default(text, block, (int)sizeof text, (int)sizeof block);
    assert_true(blen > 0 && (size_t)blen < sizeof text);
    uint8_t out[sizeof text];
    size_t n = 0;
    struct err e;
    assert_int_equal(fatbin_lz4_decode((const uint8_t *)block, (size_t)blen, out, sizeof out, &n,
                                       &e),
                     WS_OK);
    assert_int_equal(n, sizeof text);
    assert_memory_equal(out, text, sizeof text);
    assert_int_equal(fatbin_lz4_decode((const uint8_t *)block, (size_t)blen, out, 100, &n, &e),
                     WS_ERR_PARSE);
    assert_int_equal(fatbin_lz4_decode((const uint8_t *)block, (size_t)blen / 2, out, sizeof out,
                                       &n, &e),
                     WS_ERR_PARSE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_api_basic), cmocka_unit_test(test_multi_tu),
        cmocka_unit_test(test_sass_only), cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_corrupted), cmocka_unit_test(test_wrapper),
        cmocka_unit_test(test_lz4),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
