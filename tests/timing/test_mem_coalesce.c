/* test_mem_coalesce.c: the coalescer produces GPGPU-Sim's segment counts and
 * sizes (SPEC-policies 1.3). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "timing/coalesce.h"

#define BASE 0x100000000ull

static uint32_t run(uint64_t stride, uint32_t size, uint32_t mask, int sectored,
                    struct coal_access *out)
{
    uint64_t a[32];
    for (int l = 0; l < 32; l++)
        a[l] = BASE + (uint64_t)l * stride;
    return coalesce_warp(a, mask, size, sectored, out);
}

static void test_stride1_word(void **state)
{
    (void)state;
    struct coal_access o[COAL_MAX_ACCESSES];
    assert_int_equal(run(4, 4, 0xffffffffu, 0, o), 1);
    assert_int_equal(o[0].bytes, 128);
    assert_int_equal(o[0].addr, BASE);
    assert_int_equal(o[0].mask, 0xffffffffu);
    /* sectored: four 32 B sectors */
    assert_int_equal(run(4, 4, 0xffffffffu, 1, o), 4);
    for (int k = 0; k < 4; k++) {
        assert_int_equal(o[k].bytes, 32);
        assert_int_equal(o[k].addr, BASE + 32u * k);
        assert_int_equal(o[k].mask, 0xffu << (8 * k));
    }
}

static void test_stride2_word(void **state)
{
    (void)state;
    struct coal_access o[COAL_MAX_ACCESSES];
    assert_int_equal(run(8, 4, 0xffffffffu, 0, o), 2);
    assert_int_equal(o[0].bytes, 128);
    assert_int_equal(o[1].bytes, 128);
    assert_int_equal(o[1].addr, BASE + 128);
    assert_int_equal(o[0].mask, 0x0000ffffu);
    assert_int_equal(o[1].mask, 0xffff0000u);
}

static void test_scattered(void **state)
{
    (void)state;
    struct coal_access o[COAL_MAX_ACCESSES];
    /* every lane in its own 128 B segment: 32 accesses shrunk to 32 B */
    assert_int_equal(run(256, 4, 0xffffffffu, 0, o), 32);
    for (int k = 0; k < 32; k++) {
        assert_int_equal(o[k].bytes, 32);
        assert_int_equal(o[k].mask, 1u << k);
    }
    /* reverse order input still comes out ascending */
    uint64_t a[32];
    for (int l = 0; l < 32; l++)
        a[l] = BASE + (uint64_t)(31 - l) * 1024 + 96;
    assert_int_equal(coalesce_warp(a, 0xffffffffu, 4, 0, o), 32);
    assert_int_equal(o[0].addr, BASE + 96);
    assert_int_equal(o[0].mask, 1u << 31);
}

static void test_byte_and_dword(void **state)
{
    (void)state;
    struct coal_access o[COAL_MAX_ACCESSES];
    /* 1-byte stride-1: one 32 B segment */
    assert_int_equal(run(1, 1, 0xffffffffu, 0, o), 1);
    assert_int_equal(o[0].bytes, 32);
    /* 2-byte stride-1: 64 B segment */
    assert_int_equal(run(2, 2, 0xffffffffu, 0, o), 1);
    assert_int_equal(o[0].bytes, 64);
    /* 8-byte stride-1: 256 B = two 128 B segments */
    assert_int_equal(run(8, 8, 0xffffffffu, 0, o), 2);
    assert_int_equal(o[0].bytes, 128);
    /* 16-byte vector: 512 B = four segments */
    assert_int_equal(run(16, 16, 0xffffffffu, 0, o), 4);
}

static void test_halving(void **state)
{
    (void)state;
    struct coal_access o[COAL_MAX_ACCESSES];
    /* lower 16 lanes of 4 B: 64 B in the lower half -> one 64 B access */
    assert_int_equal(run(4, 4, 0x0000ffffu, 0, o), 1);
    assert_int_equal(o[0].bytes, 64);
    assert_int_equal(o[0].addr, BASE);
    /* lanes 24..31: upper quarter -> one 32 B access at +96 */
    assert_int_equal(run(4, 4, 0xff000000u, 0, o), 1);
    assert_int_equal(o[0].bytes, 32);
    assert_int_equal(o[0].addr, BASE + 96);
    /* all lanes on one word: broadcast, 32 B */
    assert_int_equal(run(0, 4, 0xffffffffu, 0, o), 1);
    assert_int_equal(o[0].bytes, 32);
    /* no lanes: nothing */
    assert_int_equal(run(4, 4, 0, 0, o), 0);
}

static void test_straddle(void **state)
{
    (void)state;
    struct coal_access o[COAL_MAX_ACCESSES];
    /* one lane, 8 B across a 128 B boundary: two accesses */
    uint64_t a[32] = {0};
    a[0] = BASE + 124;
    assert_int_equal(coalesce_warp(a, 1u, 8, 0, o), 2);
    assert_int_equal(o[0].addr, BASE + 96);
    assert_int_equal(o[1].addr, BASE + 128);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stride1_word), cmocka_unit_test(test_stride2_word),
        cmocka_unit_test(test_scattered),    cmocka_unit_test(test_byte_and_dword),
        cmocka_unit_test(test_halving),      cmocka_unit_test(test_straddle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
