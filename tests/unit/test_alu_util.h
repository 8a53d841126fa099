/* test_alu_util.h: shared helpers of the ALU unit tests — a table-driven case format and a
 * runner that executes a case on a partial lane mask and checks that active lanes get the
 * expected value while inactive lanes keep their previous contents. */
#ifndef WS_TEST_ALU_UTIL_H
#define WS_TEST_ALU_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "func/alu.h"

struct alu_case {
    int line;          /* source line of the case, for failure messages */
    uint16_t op;
    uint8_t type, type2, sub, cmp, boolop, rnd, ndst;
    uint32_t flags;
    uint64_t a, b, c, d;
    uint64_t want;     /* dst[0] */
    uint64_t want2;    /* dst[1], checked when ndst == 2 */
};

/* A case line: CASE(.op = PTX_OP_ADD, .type = PTX_T_U32, .a = 1, .b = 2, .want = 3) */
#define CASE(...) {.line = __LINE__, __VA_ARGS__}

#define ALU_SENTINEL 0x5a5a5a5a5a5a5a5aull
#define ALU_TEST_MASK 0xa5c3f00fu /* partial mask: inactive lanes must stay untouched */

static inline float tf_from(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint64_t tf_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline uint64_t td_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static inline double td_from(uint64_t v)
{
    double d;
    memcpy(&d, &v, 8);
    return d;
}

static inline struct ptx_inst alu_case_inst(const struct alu_case *k)
{
    struct ptx_inst in;
    memset(&in, 0, sizeof in);
    in.op = k->op;
    in.type = k->type;
    in.type2 = k->type2;
    in.sub = k->sub;
    in.cmp = k->cmp;
    in.boolop = k->boolop;
    in.rnd = k->rnd;
    in.flags = k->flags;
    in.ndst = k->ndst ? k->ndst : 1;
    in.guard = PTX_NO_INDEX;
    return in;
}

/* Run every case; a mismatch names the case's line and prints both values. */
static inline void alu_run_cases(const struct alu_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct alu_case *k = &cases[i];
        struct ptx_inst in = alu_case_inst(k);
        uint64_t src[ALU_MAX_SRC][32], dst[ALU_MAX_DST][32];
        uint32_t carry = 0;
        struct err e;
        err_clear(&e);
        for (unsigned l = 0; l < 32; l++) {
            src[0][l] = k->a;
            src[1][l] = k->b;
            src[2][l] = k->c;
            src[3][l] = k->d;
            src[4][l] = 0;
            dst[0][l] = dst[1][l] = ALU_SENTINEL;
        }
        int rc = alu_exec(&in, ALU_TEST_MASK, (const uint64_t(*)[32])src, dst, &carry, &e);
        if (rc != WS_OK) {
            print_error("case at line %d failed: %s\n", k->line, e.msg);
            fail();
        }
        for (unsigned l = 0; l < 32; l++) {
            int active = ALU_TEST_MASK >> l & 1;
            uint64_t w0 = active ? k->want : ALU_SENTINEL;
            if (dst[0][l] != w0) {
                print_error("case at line %d lane %u: got 0x%llx want 0x%llx\n", k->line, l,
                            (unsigned long long)dst[0][l], (unsigned long long)w0);
                fail();
            }
            if (in.ndst == 2) {
                uint64_t w1 = active ? k->want2 : ALU_SENTINEL;
                if (dst[1][l] != w1) {
                    print_error("case at line %d lane %u: dst[1] got 0x%llx want 0x%llx\n",
                                k->line, l, (unsigned long long)dst[1][l],
                                (unsigned long long)w1);
                    fail();
                }
            }
        }
    }
}

#define RUN_CASES(arr) alu_run_cases((arr), sizeof(arr) / sizeof((arr)[0]))

#endif
