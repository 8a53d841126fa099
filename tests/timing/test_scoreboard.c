/* test_scoreboard.c: the per-warp register scoreboard: hazards on sources,
 * destinations, guards, address bases and vector elements; long-op marks;
 * release; per-PC register lists from parsed PTX. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/err.h"
#include "ptx/parser.h"
#include "timing/scoreboard.h"

static const char ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    ".reg .pred %p<3>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [p];\n"              /* pc 0: writes rd1 */
    "ld.global.v2.u32 {%r1, %r2}, [%rd1+8];\n" /* pc 1: writes r1 r2, reads rd1 */
    "@%p1 add.s32 %r3, %r1, %r2;\n"          /* pc 2: reads p1 r1 r2, writes r3 */
    "st.global.v2.u32 [%rd2], {%r4, %r5};\n" /* pc 3: reads rd2 r4 r5 */
    "ret;\n}\n";

static int has(const uint32_t *list, unsigned n, uint32_t r)
{
    for (unsigned i = 0; i < n; i++)
        if (list[i] == r)
            return 1;
    return 0;
}

static uint32_t reg(const struct ptx_module *m, const char *name)
{
    const struct ptx_func *f = &m->funcs[0];
    for (uint32_t i = 0; i < f->nregs; i++)
        if (strcmp(f->regs[i].name, name) == 0)
            return i;
    fail_msg("no register %s", name);
    return 0;
}

static void test_inst_regs_and_hazards(void **state)
{
    (void)state;
    struct ptx_module *m = NULL;
    struct err e;
    err_clear(&e);
    assert_int_equal(ptx_parse(ptx, strlen(ptx), "sb.ptx", &m, &e), WS_OK);
    struct sb_inst_regs r[5];
    for (uint32_t pc = 0; pc < 5; pc++)
        scoreboard_inst_regs(m, pc, &r[pc]);
    uint32_t rd1 = reg(m, "%rd1"), rd2 = reg(m, "%rd2"), r1 = reg(m, "%r1"),
             r2 = reg(m, "%r2"), r3 = reg(m, "%r3"), r4 = reg(m, "%r4"), r5 = reg(m, "%r5"),
             p1 = reg(m, "%p1");
    assert_int_equal(r[0].nwrite, 1);
    assert_true(has(r[0].write, r[0].nwrite, rd1));
    assert_int_equal(r[1].nwrite, 2);
    assert_true(has(r[1].write, 2, r1) && has(r[1].write, 2, r2));
    assert_true(has(r[1].read, r[1].nread, rd1)); /* address base */
    assert_true(has(r[2].read, r[2].nread, p1));  /* guard */
    assert_true(has(r[2].read, r[2].nread, r1) && has(r[2].read, r[2].nread, r2));
    assert_true(has(r[2].write, r[2].nwrite, r3));
    assert_int_equal(r[3].nwrite, 0);
    assert_true(has(r[3].read, r[3].nread, rd2) && has(r[3].read, r[3].nread, r4) &&
                has(r[3].read, r[3].nread, r5));

    struct scoreboard sb;
    memset(&sb, 0, sizeof sb);
    scoreboard_init(&sb, 4, m->funcs[0].nregs);
    assert_false(scoreboard_hazard(&sb, 1, &r[2]));
    scoreboard_reserve(&sb, 1, &r[1], 1); /* the load: long-op */
    assert_true(scoreboard_has_long(&sb, 1));
    assert_false(scoreboard_has_long(&sb, 0));
    assert_true(scoreboard_hazard(&sb, 1, &r[2]));  /* RAW on r1/r2 */
    assert_false(scoreboard_hazard(&sb, 0, &r[2])); /* other warp */
    assert_true(scoreboard_hazard(&sb, 1, &r[1]));  /* WAW */
    assert_false(scoreboard_hazard(&sb, 1, &r[3]));
    uint32_t pend[8];
    assert_int_equal(scoreboard_pending(&sb, 1, pend, 8), 2);
    scoreboard_release(&sb, 1, &r[1]);
    assert_false(scoreboard_hazard(&sb, 1, &r[2]));
    assert_false(scoreboard_has_long(&sb, 1));
    scoreboard_reserve(&sb, 2, &r[0], 0); /* short op: no long mark */
    assert_false(scoreboard_has_long(&sb, 2));
    assert_true(scoreboard_hazard(&sb, 2, &r[1])); /* reads rd1 */
    scoreboard_clear_warp(&sb, 2);
    assert_false(scoreboard_hazard(&sb, 2, &r[1]));
    scoreboard_fini(&sb);
    ptx_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inst_regs_and_hazards),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
