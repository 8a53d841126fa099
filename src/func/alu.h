/* alu.h: instruction semantics of the data-processing PTX instructions
 * (integer, bit, floating-point, half-precision, comparison, selection and
 * conversion), executed for all active lanes of a warp at once.
 *
 * Register values are raw bit patterns in uint64_t; a value of an N-bit type occupies the low
 * N bits and is zero-extended on write (predicates are 0 or 1).  Sources arrive already
 * gathered per lane (immediates replicated, "!%p" already applied); the caller scatters dst.
 *
 * Semantics follow PTX ISA 9.0 as emitted by nvcc, with these documented choices:
 *  - Integer division by zero (unspecified in PTX): div.u gives all ones, div.s gives -1,
 *    rem.u and rem.s give the dividend.  INT_MIN / -1 wraps to INT_MIN (rem gives 0).
 *  - `.approx` floating-point ops (div, rcp, sqrt, rsqrt, sin, cos, lg2, ex2, tanh) are
 *    computed with the correctly rounded host operation or the host libm function, so
 *    warpsim's approximate ops are MORE precise than the hardware's.
 *  - Arithmetic that produces a NaN returns the canonical NaN (f32 0x7fffffff,
 *    f64 0x7fffffffffffffff, f16/bf16 0x7fff); abs/neg/copysign/mov only move bits.
 *  - min/max return the non-NaN operand when one is NaN (canonical NaN when both are, or
 *    when .NaN is given and either is); -0.0 is smaller than +0.0.
 *  - .ftz flushes subnormal f32 (and f16/bf16) inputs and results to sign-preserving zero;
 *    .sat clamps float results to [0.0, 1.0] with NaN -> +0.0.
 *  - f16/bf16 arithmetic and conversions are rounded bit-exactly in software (no host
 *    half-precision type is used).
 *
 * Operand order follows PTX text (dst first, then sources a, b, c...).  Type fields of
 * struct ptx_inst used here: `type` is the destination/operation type; `type2` is the
 * cvt source type, the setp/set/slct compared type (when absent, `type` is used), the
 * mul.wide/mad.wide source type (when absent, `type` is taken as the source type) and the
 * dp4a/dp2a b type.  setp: dst[0]=p, dst[1]=q (q = !cmp combined with c); src a, b[, c].
 * selp: d = c ? a : b.  slct: d = (c >= 0) ? a : b with c's type in type2.  lop3: src[3] is
 * the LUT.  dp2a: sub PTX_SUB_LO/PTX_SUB_HI selects the half of b. */
#ifndef WS_FUNC_ALU_H
#define WS_FUNC_ALU_H

#include <stdint.h>
#include <string.h>

#include "base/err.h"
#include "ptx/ir.h"

#define ALU_MAX_SRC 5
#define ALU_MAX_DST 2

int alu_handles(enum ptx_op op); /* 1 if alu_exec implements op */

/* Execute `in` for every lane whose bit is set in `mask`.  src[k][lane] is source k,
 * dst[k][lane] receives destination k.  *carry is a per-lane carry/borrow bitmask (bit = lane),
 * read by addc/subc/madc and written by any .cc instruction.  Returns WS_OK, or
 * WS_ERR_UNSUPPORTED (writing a message that names the instruction, e.g. "div.rp.f16x2") into
 * e for a type/modifier combination it does not implement.  Lanes outside `mask` keep their
 * dst values. */
int alu_exec(const struct ptx_inst *in, uint32_t mask, const uint64_t src[][32],
             uint64_t dst[][32], uint32_t *carry, struct err *e);

/* ---- Helpers shared by alu*.c (also usable by callers) ---------------------------- */

/* Half-precision formats handled in software. */
enum alu_half_fmt { ALU_HALF_F16, ALU_HALF_BF16 };

/* Round a double to f16/bf16 bits with rounding mode rnd (enum ptx_rnd; NONE = RN). */
uint16_t alu_half_from_double(double x, enum alu_half_fmt fmt, int rnd);
/* Exact value of f16/bf16 bits as a double. */
double alu_half_to_double(uint16_t h, enum alu_half_fmt fmt);

/* Internal: the per-family executors (alu_int.c, alu_float.c, alu_cvt.c).  They return
 * WS_OK or WS_ERR_UNSUPPORTED (after calling alu_unsupported). */
int alu_exec_int(const struct ptx_inst *in, uint32_t mask, const uint64_t src[][32],
                 uint64_t dst[][32], uint32_t *carry, struct err *e);

/* Raw register bits <-> float values (the low 32 bits hold an f32). */
static inline float f32_from(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint64_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline double f64_from(uint64_t v)
{
    double d;
    memcpy(&d, &v, 8);
    return d;
}

static inline uint64_t f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

int alu_exec_float(const struct ptx_inst *in, uint32_t mask, const uint64_t src[][32],
                   uint64_t dst[][32], struct err *e);
int alu_exec_half(const struct ptx_inst *in, uint32_t mask, const uint64_t src[][32],
                  uint64_t dst[][32], struct err *e);
int alu_exec_cvt(const struct ptx_inst *in, uint32_t mask, const uint64_t src[][32],
                 uint64_t dst[][32], struct err *e);
int alu_exec_cmp(const struct ptx_inst *in, uint32_t mask, const uint64_t src[][32],
                 uint64_t dst[][32], struct err *e);
/* Writes "unsupported instruction '<name>'" (name rebuilt from the fields) into e. */
int alu_unsupported(const struct ptx_inst *in, struct err *e);
unsigned alu_type_bits(enum ptx_type t); /* 1 for pred, 0 for none */
int alu_type_signed(enum ptx_type t);

#endif
