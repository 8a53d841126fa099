/* alu_int.c: integer and bit-manipulation instructions of the ALU (add/sub with carry,
 * mul/mad in all widths, mul24, sad, div/rem, min/max, shifts, funnel shifts, bit-field
 * ops, prmt, lop3, dp4a/dp2a, fns, logic ops including .pred). */
#include "func/alu.h"

/* Every loop below runs `body` once per lane that is set in `mask`; inside it `l` is the
 * lane.  Dispatch on op and type happens once, outside these loops. */
#define LANES for (unsigned l = 0; l < 32; l++) if (mask >> l & 1)
#define A(l) src[0][l]
#define B(l) src[1][l]
#define C(l) src[2][l]
#define D(l) src[3][l]

typedef unsigned __int128 alu_u128;
typedef __int128 alu_s128;

static inline uint64_t width_mask(unsigned w)
{
    return w >= 64 ? ~0ull : (1ull << w) - 1;
}

/* Sign-extend the low w bits of v. */
static inline int64_t sext(uint64_t v, unsigned w)
{
    unsigned s = 64 - w;
    return (int64_t)(v << s) >> s;
}

static inline uint64_t clamp_s(alu_s128 v, unsigned w)
{
    alu_s128 hi = ((alu_s128)1 << (w - 1)) - 1;
    alu_s128 lo = -hi - 1;
    if (v > hi)
        v = hi;
    if (v < lo)
        v = lo;
    return (uint64_t)v & width_mask(w);
}

/* Product of a and b (w-bit values, signed or not) as a 128-bit pattern. */
static inline alu_u128 mul_full(uint64_t a, uint64_t b, unsigned w, int sgn)
{
    if (sgn)
        return (alu_u128)((alu_s128)sext(a, w) * (alu_s128)sext(b, w));
    return (alu_u128)(a & width_mask(w)) * (alu_u128)(b & width_mask(w));
}

/* Common tail of add/sub/mul/mad with optional carry: writes r (w bits) and, with .cc,
 * the carry (bit w of the 128-bit sum). */
static int exec_arith(const struct ptx_inst *in, uint32_t mask, const uint64_t src[][32],
                      uint64_t dst[][32], uint32_t *carry, struct err *e)
{
    enum ptx_op op = (enum ptx_op)in->op;
    enum ptx_type t = (enum ptx_type)in->type;
    unsigned w = alu_type_bits(t);
    int sgn = alu_type_signed(t);
    int cc = (in->flags & PTX_F_CC) != 0;
    int sat = (in->flags & PTX_F_SAT) != 0;
    uint32_t cin = *carry, cout = 0;
    uint64_t m = width_mask(w);
    uint64_t *R = dst[0];

    if (w < 16 || w > 64 || t == PTX_T_PRED)
        return alu_unsupported(in, e);
    if ((cc || op == PTX_OP_ADDC || op == PTX_OP_SUBC || op == PTX_OP_MADC) && w < 32)
        return alu_unsupported(in, e);
    if (sat && t != PTX_T_S32)
        return alu_unsupported(in, e);

    switch (op) {
    case PTX_OP_ADD: case PTX_OP_ADDC: {
        int use_c = op == PTX_OP_ADDC;
        if (sat) {
            LANES R[l] = clamp_s((alu_s128)sext(A(l), 32) + sext(B(l), 32), 32);
            break;
        }
        if (!cc && !use_c) {
            LANES R[l] = (A(l) + B(l)) & m;
            break;
        }
        LANES {
            alu_u128 s = (alu_u128)(A(l) & m) + (B(l) & m) + (use_c ? (cin >> l & 1) : 0);
            R[l] = (uint64_t)s & m;
            cout |= (uint32_t)((s >> w) & 1) << l;
        }
        break;
    }
    case PTX_OP_SUB: case PTX_OP_SUBC: {
        int use_c = op == PTX_OP_SUBC;
        if (sat) {
            LANES R[l] = clamp_s((alu_s128)sext(A(l), 32) - sext(B(l), 32), 32);
            break;
        }
        if (!cc && !use_c) {
            LANES R[l] = (A(l) - B(l)) & m;
            break;
        }
        LANES {
            alu_u128 sub = (alu_u128)(B(l) & m) + (use_c ? (cin >> l & 1) : 0);
            alu_u128 x = A(l) & m;
            R[l] = (uint64_t)(x - sub) & m;
            cout |= (uint32_t)(x < sub) << l;
        }
        break;
    }
    case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_MADC: {
        enum ptx_sub sub = (enum ptx_sub)in->sub;
        int is_mad = op != PTX_OP_MUL;
        int use_c = op == PTX_OP_MADC;
        if (sub == PTX_SUB_WIDE) {
            enum ptx_type st = in->type2 != PTX_T_NONE ? (enum ptx_type)in->type2 : t;
            unsigned sw = alu_type_bits(st);
            if (sw > 32 || cc || use_c)
                return alu_unsupported(in, e);
            int ss = alu_type_signed(st);
            uint64_t wm = width_mask(2 * sw);
            LANES {
                uint64_t p = (uint64_t)mul_full(A(l), B(l), sw, ss);
                R[l] = (p + (is_mad ? C(l) : 0)) & wm;
            }
            break;
        }
        if (sub == PTX_SUB_HI && sat) {
            /* mad.hi.sat.s32: (a*b)>>32 + c, saturated */
            if (!is_mad)
                return alu_unsupported(in, e);
            LANES {
                alu_s128 p = (alu_s128)sext(A(l), 32) * sext(B(l), 32);
                R[l] = clamp_s((p >> 32) + sext(C(l), 32), 32);
            }
            break;
        }
        if (sat)
            return alu_unsupported(in, e);
        if (sub != PTX_SUB_HI && !cc && !use_c) { /* low half: signedness does not matter */
            if (is_mad) {
                LANES R[l] = (A(l) * B(l) + C(l)) & m;
            } else {
                LANES R[l] = (A(l) * B(l)) & m;
            }
            break;
        }
        unsigned shift = sub == PTX_SUB_HI ? w : 0;
        LANES {
            uint64_t p = (uint64_t)(mul_full(A(l), B(l), w, sgn) >> shift) & m;
            if (!is_mad) {
                R[l] = p;
                continue;
            }
            alu_u128 s = (alu_u128)p + (C(l) & m) + (use_c ? (cin >> l & 1) : 0);
            R[l] = (uint64_t)s & m;
            cout |= (uint32_t)((s >> w) & 1) << l;
        }
        break;
    }
    default:
        return alu_unsupported(in, e);
    }
    if (cc)
        *carry = (cin & ~mask) | (cout & mask);
    return WS_OK;
}

static int exec_divrem(const struct ptx_inst *in, uint32_t mask, const uint64_t src[][32],
                       uint64_t dst[][32], struct err *e)
{
    enum ptx_type t = (enum ptx_type)in->type;
    unsigned w = alu_type_bits(t);
    uint64_t m = width_mask(w);
    uint64_t *R = dst[0];
    int is_div = in->op == PTX_OP_DIV;
    if (w < 16 || w > 64 || t == PTX_T_PRED)
        return alu_unsupported(in, e);
    if (alu_type_signed(t)) {
        LANES {
            int64_t a = sext(A(l), w), b = sext(B(l), w);
            uint64_t r;
            if (b == 0)
                r = is_div ? ~0ull : (uint64_t)a;
            else if (b == -1)
                r = is_div ? 0 - (uint64_t)a : 0; /* no INT_MIN / -1 trap on the host */
            else
                r = (uint64_t)(is_div ? a / b : a % b);
            R[l] = r & m;
        }
    } else {
        LANES {
            uint64_t a = A(l) & m, b = B(l) & m;
            uint64_t r;
            if (b == 0)
                r = is_div ? ~0ull : a;
            else
                r = is_div ? a / b : a % b;
            R[l] = r & m;
        }
    }
    return WS_OK;
}

/* prmt: byte index selected for result byte k by selector c in a non-default mode. */
static unsigned prmt_mode_byte(enum ptx_sub mode, unsigned s, unsigned k)
{
    switch (mode) {
    case PTX_SUB_PRMT_F4E: return (k + s) & 7;
    case PTX_SUB_PRMT_B4E: return (s - k) & 7;
    case PTX_SUB_PRMT_RC8: return s;
    case PTX_SUB_PRMT_ECL: return k > s ? k : s;
    case PTX_SUB_PRMT_ECR: return k < s ? k : s;
    case PTX_SUB_PRMT_RC16: return (s & 1) * 2 + (k & 1);
    default: return k;
    }
}

static void exec_prmt(enum ptx_sub mode, uint32_t mask, const uint64_t src[][32],
                      uint64_t dst[][32])
{
    uint64_t *R = dst[0];
    if (mode == PTX_SUB_NONE) {
        LANES {
            uint64_t bytes = (A(l) & 0xffffffffull) | (B(l) << 32);
            uint32_t c = (uint32_t)C(l), r = 0;
            for (unsigned k = 0; k < 4; k++) {
                unsigned sel = c >> (4 * k) & 0xf;
                uint32_t v = (uint32_t)(bytes >> (8 * (sel & 7))) & 0xff;
                if (sel & 8)
                    v = (v & 0x80) ? 0xff : 0;
                r |= v << (8 * k);
            }
            R[l] = r;
        }
        return;
    }
    LANES {
        uint64_t bytes = (A(l) & 0xffffffffull) | (B(l) << 32);
        unsigned s = (unsigned)C(l) & 3;
        uint32_t r = 0;
        for (unsigned k = 0; k < 4; k++)
            r |= ((uint32_t)(bytes >> (8 * prmt_mode_byte(mode, s, k))) & 0xff) << (8 * k);
        R[l] = r;
    }
}

static uint32_t fns32(uint32_t m32, uint32_t base, int32_t offset)
{
    if (base > 31)
        return 0xffffffffu;
    if (offset == 0)
        return (m32 >> base & 1) ? base : 0xffffffffu;
    int inc = offset > 0 ? 1 : -1;
    uint32_t count = (offset > 0 ? (uint32_t)offset : 0u - (uint32_t)offset) - 1;
    for (int pos = (int)base; pos >= 0 && pos < 32; pos += inc) {
        if (m32 >> pos & 1) {
            if (count == 0)
                return (uint32_t)pos;
            count--;
        }
    }
    return 0xffffffffu;
}

static inline uint64_t brev64(uint64_t x)
{
    x = (x >> 1 & 0x5555555555555555ull) | (x & 0x5555555555555555ull) << 1;
    x = (x >> 2 & 0x3333333333333333ull) | (x & 0x3333333333333333ull) << 2;
    x = (x >> 4 & 0x0f0f0f0f0f0f0f0full) | (x & 0x0f0f0f0f0f0f0f0full) << 4;
    return __builtin_bswap64(x);
}

int alu_exec_int(const struct ptx_inst *in, uint32_t mask, const uint64_t src[][32],
                 uint64_t dst[][32], uint32_t *carry, struct err *e)
{
    enum ptx_op op = (enum ptx_op)in->op;
    enum ptx_type t = (enum ptx_type)in->type;
    unsigned w = alu_type_bits(t);
    int sgn = alu_type_signed(t);
    uint64_t m = width_mask(w);
    uint64_t *R = dst[0];

    if (w == 0 || w > 64)
        return alu_unsupported(in, e);
    switch (op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_ADDC: case PTX_OP_SUBC:
    case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_MADC:
        return exec_arith(in, mask, src, dst, carry, e);
    case PTX_OP_DIV: case PTX_OP_REM:
        return exec_divrem(in, mask, src, dst, e);
    case PTX_OP_MUL24: case PTX_OP_MAD24: {
        if (w != 32)
            return alu_unsupported(in, e);
        int hi = in->sub == PTX_SUB_HI;
        int is_mad = op == PTX_OP_MAD24;
        int sat = (in->flags & PTX_F_SAT) != 0;
        if (sat && !(is_mad && hi && sgn))
            return alu_unsupported(in, e);
        LANES {
            int64_t a = sgn ? sext(A(l), 24) : (int64_t)(A(l) & 0xffffff);
            int64_t b = sgn ? sext(B(l), 24) : (int64_t)(B(l) & 0xffffff);
            int64_t p = a * b; /* at most 48 bits */
            uint64_t r = hi ? (uint64_t)(p >> 16) : (uint64_t)p;
            if (sat)
                R[l] = clamp_s((alu_s128)sext(r, 32) + sext(C(l), 32), 32);
            else
                R[l] = (r + (is_mad ? C(l) : 0)) & 0xffffffffull;
        }
        return WS_OK;
    }
    case PTX_OP_SAD:
        if (w < 16)
            return alu_unsupported(in, e);
        LANES {
            uint64_t a = A(l) & m, b = B(l) & m;
            int lt = sgn ? sext(a, w) < sext(b, w) : a < b;
            R[l] = ((C(l) & m) + (lt ? b - a : a - b)) & m;
        }
        return WS_OK;
    case PTX_OP_ABS:
        if (!sgn)
            return alu_unsupported(in, e);
        LANES R[l] = (sext(A(l), w) < 0 ? 0 - A(l) : A(l)) & m;
        return WS_OK;
    case PTX_OP_NEG:
        if (t == PTX_T_PRED) {
            LANES R[l] = (A(l) & 1) ^ 1;
            return WS_OK;
        }
        LANES R[l] = (0 - A(l)) & m;
        return WS_OK;
    case PTX_OP_MIN: case PTX_OP_MAX: {
        int is_min = op == PTX_OP_MIN;
        int relu = (in->flags & PTX_F_RELU) != 0;
        if (t == PTX_T_PRED || (relu && !sgn))
            return alu_unsupported(in, e);
        if (sgn) {
            LANES {
                int64_t a = sext(A(l), w), b = sext(B(l), w);
                int64_t r = is_min ? (a < b ? a : b) : (a > b ? a : b);
                if (relu && r < 0)
                    r = 0;
                R[l] = (uint64_t)r & m;
            }
        } else {
            LANES {
                uint64_t a = A(l) & m, b = B(l) & m;
                R[l] = is_min ? (a < b ? a : b) : (a > b ? a : b);
            }
        }
        return WS_OK;
    }
    case PTX_OP_POPC:
        LANES R[l] = (uint64_t)__builtin_popcountll(A(l) & m);
        return WS_OK;
    case PTX_OP_BFIND:
        /* Position of the most significant non-sign bit (for signed types the
         * first bit that differs from the sign), 0xffffffff when there is none;
         * .shiftamt gives the left shift that brings that bit to the top. */
        LANES {
            uint64_t x = A(l) & m;
            if (sgn && (x >> (w - 1) & 1))
                x = ~x & m;
            if (!x) {
                R[l] = 0xffffffffull;
                continue;
            }
            unsigned pos = 63u - (unsigned)__builtin_clzll(x);
            R[l] = (in->flags & PTX_F_SHIFTAMT) ? w - 1 - pos : pos;
        }
        return WS_OK;
    case PTX_OP_CLZ:
        LANES {
            uint64_t x = A(l) & m;
            R[l] = x ? (uint64_t)(__builtin_clzll(x) - (64 - (int)w)) : w;
        }
        return WS_OK;
    case PTX_OP_BREV:
        LANES R[l] = brev64(A(l)) >> (64 - w);
        return WS_OK;
    case PTX_OP_AND:
        LANES R[l] = A(l) & B(l) & m;
        return WS_OK;
    case PTX_OP_OR:
        LANES R[l] = (A(l) | B(l)) & m;
        return WS_OK;
    case PTX_OP_XOR:
        LANES R[l] = (A(l) ^ B(l)) & m;
        return WS_OK;
    case PTX_OP_NOT:
        LANES R[l] = ~A(l) & m;
        return WS_OK;
    case PTX_OP_CNOT:
        LANES R[l] = (A(l) & m) == 0;
        return WS_OK;
    case PTX_OP_SHL:
        LANES {
            uint64_t n = B(l) & 0xffffffffull;
            R[l] = n >= w ? 0 : (A(l) << n) & m;
        }
        return WS_OK;
    case PTX_OP_SHR:
        if (sgn) {
            LANES {
                uint64_t n = B(l) & 0xffffffffull;
                int64_t a = sext(A(l), w);
                R[l] = (uint64_t)(a >> (n >= w ? w - 1 : n)) & m;
            }
        } else {
            LANES {
                uint64_t n = B(l) & 0xffffffffull;
                R[l] = n >= w ? 0 : (A(l) & m) >> n;
            }
        }
        return WS_OK;
    case PTX_OP_SHF: {
        if (w != 32 || (in->sub != PTX_SUB_SHF_L && in->sub != PTX_SUB_SHF_R))
            return alu_unsupported(in, e);
        int wrap = (in->flags & PTX_F_WRAP) != 0 || in->sub == PTX_SUB_WRAP;
        if (in->sub == PTX_SUB_SHF_L) {
            LANES {
                uint64_t n = C(l) & 0xffffffffull;
                n = wrap ? n & 31 : (n > 32 ? 32 : n);
                uint64_t v = (A(l) & 0xffffffffull) | B(l) << 32;
                R[l] = (v << n) >> 32;
            }
        } else {
            LANES {
                uint64_t n = C(l) & 0xffffffffull;
                n = wrap ? n & 31 : (n > 32 ? 32 : n);
                uint64_t v = (A(l) & 0xffffffffull) | B(l) << 32;
                R[l] = (v >> n) & 0xffffffffull;
            }
        }
        return WS_OK;
    }
    case PTX_OP_BFE:
        if (w < 32)
            return alu_unsupported(in, e);
        LANES {
            uint64_t a = A(l) & m;
            unsigned pos = (unsigned)B(l) & 0xff, len = (unsigned)C(l) & 0xff;
            unsigned msb = w - 1;
            uint64_t sbit = 0;
            if (sgn && len != 0) {
                unsigned top = pos + len - 1;
                sbit = a >> (top < msb ? top : msb) & 1;
            }
            uint64_t r;
            if (len == 0 || pos > msb) {
                r = sbit ? m : 0;
            } else {
                unsigned avail = w - pos;              /* bits of a at or above pos */
                unsigned n = len < avail ? len : avail; /* bits actually extracted */
                r = (a >> pos) & width_mask(n);
                if (sbit && n < w)
                    r |= m & ~width_mask(n);
            }
            R[l] = r;
        }
        return WS_OK;
    case PTX_OP_BFI:
        if (w < 32)
            return alu_unsupported(in, e);
        LANES {
            unsigned pos = (unsigned)C(l) & 0xff, len = (unsigned)D(l) & 0xff;
            uint64_t r = B(l) & m;
            if (len != 0 && pos < w) {
                unsigned avail = w - pos;
                unsigned n = len < avail ? len : avail;
                uint64_t f = width_mask(n) << pos;
                r = (r & ~f) | ((A(l) << pos) & f);
            }
            R[l] = r;
        }
        return WS_OK;
    case PTX_OP_BMSK: {
        if (w != 32)
            return alu_unsupported(in, e);
        int wrap = in->sub == PTX_SUB_WRAP || (in->flags & PTX_F_WRAP) != 0;
        LANES {
            uint64_t pos = A(l) & 0xffffffffull, len = B(l) & 0xffffffffull;
            if (wrap) {
                pos &= 31;
                len &= 31;
            } else {
                pos = pos > 32 ? 32 : pos;
                len = len > 32 ? 32 : len;
            }
            R[l] = (width_mask((unsigned)len) << pos) & 0xffffffffull;
        }
        return WS_OK;
    }
    case PTX_OP_PRMT:
        if (w != 32)
            return alu_unsupported(in, e);
        exec_prmt((enum ptx_sub)in->sub, mask, src, dst);
        return WS_OK;
    case PTX_OP_LOP3:
        if (w != 32 && w != 64)
            return alu_unsupported(in, e);
        LANES {
            uint64_t a = A(l), b = B(l), c = C(l), r = 0;
            unsigned lut = (unsigned)D(l) & 0xff;
            for (unsigned i = 0; i < 8; i++)
                if (lut >> i & 1)
                    r |= (i & 4 ? a : ~a) & (i & 2 ? b : ~b) & (i & 1 ? c : ~c);
            R[l] = r & m;
        }
        return WS_OK;
    case PTX_OP_FNS:
        if (w != 32)
            return alu_unsupported(in, e);
        LANES R[l] = fns32((uint32_t)A(l), (uint32_t)B(l), (int32_t)(uint32_t)C(l));
        return WS_OK;
    case PTX_OP_DP4A: case PTX_OP_DP2A: {
        enum ptx_type bt = in->type2 != PTX_T_NONE ? (enum ptx_type)in->type2 : t;
        if (w != 32 || alu_type_bits(bt) != 32)
            return alu_unsupported(in, e);
        int as = sgn, bs = alu_type_signed(bt);
        if (op == PTX_OP_DP4A) {
            LANES {
                uint32_t acc = (uint32_t)C(l);
                for (unsigned k = 0; k < 4; k++) {
                    uint64_t ab = A(l) >> (8 * k), bb = B(l) >> (8 * k);
                    int64_t x = as ? sext(ab, 8) : (int64_t)(ab & 0xff);
                    int64_t y = bs ? sext(bb, 8) : (int64_t)(bb & 0xff);
                    acc += (uint32_t)(x * y);
                }
                R[l] = acc;
            }
        } else {
            unsigned base = in->sub == PTX_SUB_HI ? 2 : 0;
            LANES {
                uint32_t acc = (uint32_t)C(l);
                for (unsigned k = 0; k < 2; k++) {
                    uint64_t ah = A(l) >> (16 * k), bb = B(l) >> (8 * (base + k));
                    int64_t x = as ? sext(ah, 16) : (int64_t)(ah & 0xffff);
                    int64_t y = bs ? sext(bb, 8) : (int64_t)(bb & 0xff);
                    acc += (uint32_t)(x * y);
                }
                R[l] = acc;
            }
        }
        return WS_OK;
    }
    default:
        break;
    }
    return alu_unsupported(in, e);
}
