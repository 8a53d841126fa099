/* test_fault_report.c: what a user sees of a kernel fault (issue 15, defect
 * 4): the CUDA source line from the PTX's .loc/.file directives (nvcc
 * -lineinfo), the kernel's demangled name, and the option oob_read_zero that
 * lets out-of-bounds global reads return zero.  The PTX is written here in
 * the shape nvcc -lineinfo emits: .loc before the instructions, the .file
 * table after the functions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "func/mem.h"
#include "ptx/parser.h"
#include "warpsim.h"

/* _Z8oob_readPfS_j = oob_read(float*, float*, unsigned int): out[t] = in[t + off] */
static const char *const ptx_oob =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".visible .entry _Z8oob_readPfS_j(.param .u64 in, .param .u64 out, .param .u32 off)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .f32 %f<2>;\n  .reg .b64 %rd<8>;\n"
    "  .loc 1 10 3\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  ld.param.u32 %r1, [off];\n"
    "  .loc 1 11 5, function_name $L__info_string0, inlined_at 1 20 1\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  add.u32 %r3, %r2, %r1;\n"
    "  mul.wide.u32 %rd3, %r3, 4;\n"
    "  add.u64 %rd4, %rd1, %rd3;\n"
    "  .loc 2 42 7\n"
    "  ld.global.f32 %f1, [%rd4];\n"
    "  .loc 1 12 3\n"
    "  mul.wide.u32 %rd5, %r2, 4;\n"
    "  add.u64 %rd6, %rd2, %rd5;\n"
    "  st.global.f32 [%rd6], %f1;\n"
    "  ret;\n}\n"
    ".visible .entry nolines(.param .u64 out)\n{\n"
    "  .reg .b64 %rd<2>;\n  .reg .b32 %r<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, 0;\n"
    "  st.global.u32 [%rd1+4096], %r1;\n"
    "  ret;\n}\n"
    ".visible .entry misaligned(.param .u64 out)\n{\n"
    "  .reg .b64 %rd<2>;\n  .reg .b32 %r<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.global.u32 %r1, [%rd1+2];\n"
    "  ret;\n}\n"
    "\t.file\t1 \"/home/user/bench/oob.cu\", 1700000000, 512\n"
    "\t.file\t2 \"helpers.cuh\"\n";

static void test_loc_parsing(void **state)
{
    (void)state;
    struct ptx_module *m;
    struct err e;
    assert_int_equal(ptx_parse(ptx_oob, strlen(ptx_oob), "t.ptx", &m, &e), WS_OK);
    assert_int_equal(m->nfiles, 2);
    uint32_t f = ptx_find_func(m, "_Z8oob_readPfS_j");
    assert_int_not_equal(f, PTX_NO_INDEX);
    /* PCs: 0-2 at oob.cu:10, 3-6 at :11 (the inlined_at tail ignored), 7 the
     * load at helpers.cuh:42, 8-11 at :12 */
    static const struct {
        uint32_t pc, line;
        const char *file;
    } want[] = {{0, 10, "/home/user/bench/oob.cu"}, {2, 10, "/home/user/bench/oob.cu"},
                {3, 11, "/home/user/bench/oob.cu"}, {6, 11, "/home/user/bench/oob.cu"},
                {7, 42, "helpers.cuh"},             {8, 12, "/home/user/bench/oob.cu"},
                {11, 12, "/home/user/bench/oob.cu"}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const struct ptx_inst *in = &m->insts[m->funcs[f].first_pc + want[i].pc];
        assert_int_equal(in->src_line, want[i].line);
        assert_string_equal(ptx_inst_src_file(m, in), want[i].file);
    }
    /* a function without .loc has no source position (nothing carried over) */
    uint32_t g = ptx_find_func(m, "nolines");
    assert_null(ptx_inst_src_file(m, &m->insts[m->funcs[g].first_pc]));
    ptx_module_free(m);
}

static void test_loc_errors(void **state)
{
    (void)state;
    static const char *const bad[] = {
        ".version 7.5\n.target sm_75\n.address_size 64\n.file 1\n",
        ".version 7.5\n.target sm_75\n.address_size 64\n.file \"x.cu\"\n",
        ".version 7.5\n.target sm_75\n.address_size 64\n.file 1 \"a.cu\"\n.file 1 \"b.cu\"\n",
        ".version 7.5\n.target sm_75\n.address_size 64\n.entry k()\n{\n.loc 1\nret;\n}\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct ptx_module *m;
        struct err e;
        assert_int_equal(ptx_parse(bad[i], strlen(bad[i]), "bad.ptx", &m, &e), WS_ERR_PARSE);
        assert_non_null(strstr(e.msg, "bad.ptx:"));
    }
}

struct fx {
    ws_gpu *gpu;
    ws_module *mod;
    ws_devptr in, out;
};

static void setup_fx(struct fx *f, const char *mode, const char *oob_zero)
{
    assert_int_equal(ws_gpu_new(&f->gpu), WS_OK);
    assert_int_equal(ws_gpu_set(f->gpu, "mode", mode), WS_OK);
    if (oob_zero)
        assert_int_equal(ws_gpu_set(f->gpu, "oob_read_zero", oob_zero), WS_OK);
    /* a simulation key: a preset loaded afterwards keeps it */
    assert_int_equal(ws_gpu_load_config(f->gpu, "gtx480"), WS_OK);
    if (ws_module_load_string(f->gpu, ptx_oob, "tu0.compute_75.ptx", &f->mod) != WS_OK)
        fail_msg("%s", ws_last_error(f->gpu));
    float in[32];
    for (int i = 0; i < 32; i++)
        in[i] = (float)i + 0.5f;
    assert_int_equal(ws_malloc(f->gpu, sizeof in, &f->in), WS_OK);
    assert_int_equal(ws_malloc(f->gpu, sizeof in, &f->out), WS_OK);
    assert_int_equal(ws_memcpy_htod(f->gpu, f->in, in, sizeof in), WS_OK);
}

static int launch(struct fx *f, uint32_t off)
{
    void *args[] = {&f->in, &f->out, &off};
    return ws_launch(f->mod, "_Z8oob_readPfS_j", ws_dim(1, 1, 1), ws_dim(32, 1, 1), 0, args);
}

/* Thread 8 of off = 24 reads in[32], 0x80 bytes from in's base: the message
 * names the kernel once, demangled, and the CUDA line of the load. */
static void test_fault_message(void **state)
{
    (void)state;
    struct fx f;
    setup_fx(&f, "functional", NULL);
    assert_int_equal(launch(&f, 24), WS_ERR_FAULT);
    const char *m = ws_last_error(f.gpu);
    assert_non_null(strstr(m, "kernel 'oob_read(float*, float*, unsigned int)' thread (8,0,0) "
                              "block (0,0,0) at helpers.cuh:42 (tu0.compute_75.ptx:19, PC 7: "
                              "ld.global.f32)"));
    assert_null(strstr(m, "_Z8oob_read"));
    assert_non_null(strstr(m, "read of 4 bytes"));
    ws_gpu_free(f.gpu);
}

/* Without line information the PTX line is named. */
static void test_fault_message_ptx_line(void **state)
{
    (void)state;
    struct fx f;
    setup_fx(&f, "functional", NULL);
    void *args[] = {&f.out};
    assert_int_equal(ws_launch(f.mod, "nolines", ws_dim(1, 1, 1), ws_dim(1, 1, 1), 0, args),
                     WS_ERR_FAULT);
    assert_non_null(strstr(ws_last_error(f.gpu), "kernel 'nolines' thread (0,0,0) block (0,0,0) "
                                                 "at tu0.compute_75.ptx:32 (PC 14: st.global.u32)"));
    ws_gpu_free(f.gpu);
}

/* A misaligned access is a fault of its own kind (a GPU reports
 * cudaErrorMisalignedAddress rather than cudaErrorIllegalAddress). */
static void test_misaligned(void **state)
{
    (void)state;
    struct fx f;
    setup_fx(&f, "functional", "1"); /* oob_read_zero does not hide it */
    void *args[] = {&f.out};
    assert_int_equal(ws_launch(f.mod, "misaligned", ws_dim(1, 1, 1), ws_dim(1, 1, 1), 0, args),
                     WS_ERR_MISALIGNED);
    assert_non_null(strstr(ws_last_error(f.gpu), "kernel 'misaligned' thread (0,0,0) block "
                                                 "(0,0,0) at tu0.compute_75.ptx:40 (PC 17: "
                                                 "ld.global.u32): read of 4 bytes at 0x"));
    assert_non_null(strstr(ws_last_error(f.gpu), " misaligned (needs 4-byte alignment)"));
    assert_string_equal(ws_status_name(WS_ERR_MISALIGNED), "WS_ERR_MISALIGNED");
    ws_gpu_free(f.gpu);
}

/* oob_read_zero=1: the 8 threads past the end read 0 and are counted; the
 * other 24 read their values; writes out of bounds still fault. */
static void check_oob_zero(const char *mode)
{
    struct fx f;
    setup_fx(&f, mode, "1");
    if (launch(&f, 8) != WS_OK)
        fail_msg("%s", ws_last_error(f.gpu));
    float out[32];
    assert_int_equal(ws_memcpy_dtoh(f.gpu, out, f.out, sizeof out), WS_OK);
    for (int t = 0; t < 32; t++)
        assert_true(out[t] == (t + 8 < 32 ? (float)(t + 8) + 0.5f : 0.0f));
    uint64_t n = 0;
    assert_int_equal(ws_stat(f.gpu, "oob_global_reads_zeroed", &n), WS_OK);
    assert_int_equal(n, 8);
    void *args[] = {&f.out};
    assert_int_equal(ws_launch(f.mod, "nolines", ws_dim(1, 1, 1), ws_dim(1, 1, 1), 0, args),
                     WS_ERR_FAULT);
    ws_gpu_free(f.gpu);
}

static void test_oob_zero_functional(void **state)
{
    (void)state;
    check_oob_zero("functional");
}

static void test_oob_zero_timing(void **state)
{
    (void)state;
    check_oob_zero("timing");
}

/* The default faults, and counts nothing. */
static void test_oob_default(void **state)
{
    (void)state;
    struct fx f;
    setup_fx(&f, "functional", NULL);
    assert_int_equal(launch(&f, 8), WS_ERR_FAULT);
    uint64_t n = 1;
    assert_int_equal(ws_stat(f.gpu, "oob_global_reads_zeroed", &n), WS_OK);
    assert_int_equal(n, 0);
    ws_gpu_free(f.gpu);
}

/* An address outside every allocation names the one it is near: before it
 * (a negative index), past its end, or none when far from all. */
static void test_describe_near(void **state)
{
    (void)state;
    struct dev_mem m;
    struct err e;
    uint64_t a, b;
    char why[256];
    mem_init(&m, 1u << 30);
    assert_int_equal(mem_alloc(&m, 1000, &a, &e), WS_OK);
    assert_int_equal(mem_alloc(&m, 4096, &b, &e), WS_OK);
    mem_describe(&m, a - 512, 4, why, sizeof why);
    assert_non_null(strstr(why, "outside any allocation, 512 bytes before the 1000-byte"));
    mem_describe(&m, b + 4096 + 40, 4, why, sizeof why);
    assert_non_null(strstr(why, "outside any allocation, 40 bytes past the end of the 4096-byte"));
    mem_describe(&m, a + 1004, 4, why, sizeof why); /* inside the rounded span */
    assert_non_null(strstr(why, "past the end of the 1000-byte allocation"));
    mem_describe(&m, b + (64u << 20), 4, why, sizeof why);
    assert_string_equal(why, "outside any allocation");
    mem_fini(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loc_parsing),
        cmocka_unit_test(test_loc_errors),
        cmocka_unit_test(test_fault_message),
        cmocka_unit_test(test_fault_message_ptx_line),
        cmocka_unit_test(test_misaligned),
        cmocka_unit_test(test_oob_zero_functional),
        cmocka_unit_test(test_oob_zero_timing),
        cmocka_unit_test(test_oob_default),
        cmocka_unit_test(test_describe_near),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
