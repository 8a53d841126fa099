/* ir.h: the in-memory form of a PTX module.
 *
 * Data flow: PTX text --lexer/parser (ptx/)--> struct ptx_module
 *            --analysis/ (CFG, post-dominators, loops)--> per-PC facts
 *            --func/ (executes instructions) and timing/ (models them).
 *
 * Everything here is produced once by the parser and is read-only afterwards,
 * except the `addr` of .global/.const variables, which the loader fills in
 * when it places them in simulated device memory.
 *
 * Program counters.  All instructions of all functions of a module live in
 * one array, module->insts; a PC is an index into it.  Function f owns PCs
 * [f->first_pc, f->first_pc + f->ninsts).  Branch targets, call targets and
 * reconvergence points are all such global PCs, so a warp's PC alone names
 * the instruction (no function id needed).
 *
 * Operands.  Each instruction's operands sit consecutively in module->opnds,
 * starting at inst->opnd; the first inst->ndst are destinations, the next
 * inst->nsrc are sources.  See "operand conventions" below for the order per
 * instruction family. */
#ifndef WS_PTX_IR_H
#define WS_PTX_IR_H

#include <stddef.h>
#include <stdint.h>

/* ---- Types -------------------------------------------------------------- */

enum ptx_type {
    PTX_T_NONE = 0,
    PTX_T_B8, PTX_T_B16, PTX_T_B32, PTX_T_B64, PTX_T_B128,
    PTX_T_U8, PTX_T_U16, PTX_T_U32, PTX_T_U64,
    PTX_T_S8, PTX_T_S16, PTX_T_S32, PTX_T_S64,
    PTX_T_F16, PTX_T_F16X2, PTX_T_BF16, PTX_T_BF16X2,
    PTX_T_F32, PTX_T_F64,
    PTX_T_PRED,
    PTX_T_COUNT
};

/* Size in bytes (pred: 1, none: 0). */
unsigned ptx_type_size(enum ptx_type t);
int ptx_type_is_float(enum ptx_type t);  /* f16/bf16 (x2), f32, f64 */
int ptx_type_is_signed(enum ptx_type t); /* s8..s64 */
const char *ptx_type_name(enum ptx_type t); /* "u32", "f64", ... */

/* ---- State spaces --------------------------------------------------------- */

enum ptx_space {
    PTX_SPACE_NONE = 0, /* no space given: generic addressing for ld/st/atom */
    PTX_SPACE_REG,
    PTX_SPACE_GLOBAL,
    PTX_SPACE_CONST,
    PTX_SPACE_SHARED,
    PTX_SPACE_LOCAL,
    PTX_SPACE_PARAM,
    PTX_SPACE_TEX,
    PTX_SPACE_COUNT
};
const char *ptx_space_name(enum ptx_space s);

/* ---- Opcodes -------------------------------------------------------------- */

enum ptx_op {
    PTX_OP_INVALID = 0,
    /* integer / float arithmetic */
    PTX_OP_ADD, PTX_OP_SUB, PTX_OP_ADDC, PTX_OP_SUBC, PTX_OP_MUL, PTX_OP_MAD, PTX_OP_MADC,
    PTX_OP_MUL24, PTX_OP_MAD24, PTX_OP_SAD, PTX_OP_FMA, PTX_OP_DIV, PTX_OP_REM,
    PTX_OP_ABS, PTX_OP_NEG, PTX_OP_MIN, PTX_OP_MAX, PTX_OP_COPYSIGN, PTX_OP_TESTP,
    /* transcendental / approximate float */
    PTX_OP_RCP, PTX_OP_SQRT, PTX_OP_RSQRT, PTX_OP_SIN, PTX_OP_COS, PTX_OP_LG2,
    PTX_OP_EX2, PTX_OP_TANH,
    /* bit manipulation */
    PTX_OP_AND, PTX_OP_OR, PTX_OP_XOR, PTX_OP_NOT, PTX_OP_CNOT, PTX_OP_SHL, PTX_OP_SHR,
    PTX_OP_SHF, PTX_OP_BFE, PTX_OP_BFI, PTX_OP_BMSK, PTX_OP_PRMT, PTX_OP_POPC,
    PTX_OP_CLZ, PTX_OP_BREV, PTX_OP_FNS, PTX_OP_DP4A, PTX_OP_DP2A, PTX_OP_LOP3,
    /* comparison and selection */
    PTX_OP_SETP, PTX_OP_SET, PTX_OP_SELP, PTX_OP_SLCT,
    /* data movement and conversion */
    PTX_OP_MOV, PTX_OP_CVT, PTX_OP_CVTA, PTX_OP_LD, PTX_OP_LDU, PTX_OP_ST,
    PTX_OP_PREFETCH, PTX_OP_ATOM, PTX_OP_RED,
    /* control flow */
    PTX_OP_BRA, PTX_OP_CALL, PTX_OP_RET, PTX_OP_EXIT, PTX_OP_TRAP,
    /* synchronisation and warp-level */
    PTX_OP_BAR, PTX_OP_MEMBAR, PTX_OP_FENCE, PTX_OP_SHFL, PTX_OP_VOTE,
    PTX_OP_ACTIVEMASK, PTX_OP_MATCH, PTX_OP_REDUX, PTX_OP_NANOSLEEP, PTX_OP_PMEVENT,
    /* added after the first contract: bfind(.shiftamt) d, a (__ffs, __clzll ...) */
    PTX_OP_BFIND,
    /* textures and surfaces (unified mode: the object is a 64-bit register) */
    PTX_OP_TEX, PTX_OP_TLD4, PTX_OP_TXQ, PTX_OP_SULD, PTX_OP_SUST,
    PTX_OP_COUNT
};
const char *ptx_op_name(enum ptx_op op);

/* Comparison operator of setp/set/slct (and the .cmp of testp-free ops). */
enum ptx_cmp {
    PTX_CMP_NONE = 0,
    PTX_CMP_EQ, PTX_CMP_NE, PTX_CMP_LT, PTX_CMP_LE, PTX_CMP_GT, PTX_CMP_GE,
    PTX_CMP_LO, PTX_CMP_LS, PTX_CMP_HI, PTX_CMP_HS, /* unsigned integer forms */
    PTX_CMP_EQU, PTX_CMP_NEU, PTX_CMP_LTU, PTX_CMP_LEU, PTX_CMP_GTU, PTX_CMP_GEU,
    PTX_CMP_NUM, PTX_CMP_NAN                        /* float: ordered / unordered */
};

/* Boolean combining op: setp's .and/.or/.xor, vote's mode uses enum ptx_sub. */
enum ptx_boolop { PTX_BOOL_NONE = 0, PTX_BOOL_AND, PTX_BOOL_OR, PTX_BOOL_XOR };

/* Rounding modifier. */
enum ptx_rnd {
    PTX_RND_NONE = 0,
    PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP,      /* float result rounding */
    PTX_RND_RNI, PTX_RND_RZI, PTX_RND_RMI, PTX_RND_RPI,  /* round to integral */
    PTX_RND_RNA                                          /* cvt.rna (tf32) */
};

/* The one family-specific sub-operation of an instruction (inst->sub). */
enum ptx_sub {
    PTX_SUB_NONE = 0,
    /* mul/mad/mul24/mad24 */
    PTX_SUB_LO, PTX_SUB_HI, PTX_SUB_WIDE,
    /* atom/red/redux */
    PTX_SUB_ATOM_ADD, PTX_SUB_ATOM_MIN, PTX_SUB_ATOM_MAX, PTX_SUB_ATOM_INC,
    PTX_SUB_ATOM_DEC, PTX_SUB_ATOM_CAS, PTX_SUB_ATOM_EXCH, PTX_SUB_ATOM_AND,
    PTX_SUB_ATOM_OR, PTX_SUB_ATOM_XOR,
    /* shfl */
    PTX_SUB_SHFL_UP, PTX_SUB_SHFL_DOWN, PTX_SUB_SHFL_BFLY, PTX_SUB_SHFL_IDX,
    /* vote */
    PTX_SUB_VOTE_ALL, PTX_SUB_VOTE_ANY, PTX_SUB_VOTE_UNI, PTX_SUB_VOTE_BALLOT,
    /* bar / barrier */
    PTX_SUB_BAR_SYNC, PTX_SUB_BAR_ARRIVE, PTX_SUB_BAR_RED_POPC, PTX_SUB_BAR_RED_AND,
    PTX_SUB_BAR_RED_OR,
    /* shf */
    PTX_SUB_SHF_L, PTX_SUB_SHF_R,
    /* match */
    PTX_SUB_MATCH_ANY, PTX_SUB_MATCH_ALL,
    /* testp */
    PTX_SUB_TESTP_FINITE, PTX_SUB_TESTP_INFINITE, PTX_SUB_TESTP_NUMBER,
    PTX_SUB_TESTP_NOTANUMBER, PTX_SUB_TESTP_NORMAL, PTX_SUB_TESTP_SUBNORMAL,
    /* cvta: direction */
    PTX_SUB_CVTA_TO,   /* cvta.to.<space>: generic -> space address */
    PTX_SUB_CVTA_FROM, /* cvta.<space>: space address -> generic */
    /* prmt modes (default mode is PTX_SUB_NONE) */
    PTX_SUB_PRMT_F4E, PTX_SUB_PRMT_B4E, PTX_SUB_PRMT_RC8, PTX_SUB_PRMT_ECL,
    PTX_SUB_PRMT_ECR, PTX_SUB_PRMT_RC16,
    /* shr/bmsk/shf clamp vs wrap (shf: .clamp/.wrap) */
    PTX_SUB_CLAMP, PTX_SUB_WRAP,
    /* bar.warp.sync membermask (__syncwarp): src = membermask */
    PTX_SUB_BAR_WARP_SYNC,
    /* tex/tld4/suld/sust geometry */
    PTX_SUB_GEOM_1D, PTX_SUB_GEOM_2D, PTX_SUB_GEOM_3D, PTX_SUB_GEOM_A1D, PTX_SUB_GEOM_A2D,
};

/* inst->aux of txq: the queried attribute. */
enum ptx_txq {
    PTX_TXQ_WIDTH, PTX_TXQ_HEIGHT, PTX_TXQ_DEPTH, PTX_TXQ_ARRAY_SIZE,
    PTX_TXQ_NORMALIZED_COORDS, PTX_TXQ_FILTER_MODE
};

/* inst->aux of suld/sust: what an out-of-range access does (.trap: fault,
 * .clamp: the nearest element, .zero: load zeros / drop the store). */
enum ptx_surf_mode { PTX_SURF_TRAP, PTX_SURF_CLAMP, PTX_SURF_ZERO };

/* Instruction flags (inst->flags). */
enum ptx_flag {
    PTX_F_FTZ = 1u << 0,
    PTX_F_SAT = 1u << 1,
    PTX_F_APPROX = 1u << 2,
    PTX_F_FULL = 1u << 3,
    PTX_F_UNI = 1u << 4,      /* bra.uni, call.uni */
    PTX_F_CC = 1u << 5,       /* add.cc etc.: writes the carry flag */
    PTX_F_NC = 1u << 6,       /* ld.global.nc */
    PTX_F_VOLATILE = 1u << 7,
    PTX_F_CACHE_HINT = 1u << 8, /* any of .ca .cg .cs .lu .cv .wb .wt .L1::... given */
    PTX_F_SYNC = 1u << 9,     /* shfl.sync, vote.sync, barrier.sync ... */
    PTX_F_ALIGNED = 1u << 10, /* barrier.sync.aligned, bar.sync (always aligned) */
    PTX_F_RELAXED_SCOPE = 1u << 11, /* .relaxed/.acquire/.release/.acq_rel/.sc given */
    PTX_F_SHIFTAMT = 1u << 12, /* bfind.shiftamt (reserved) */
    PTX_F_PRED_OUT = 1u << 13, /* shfl with "%r|%p": second destination is a predicate */
    PTX_F_RELU = 1u << 14,    /* min.relu / max.relu: clamp negative results to 0 */
    PTX_F_NAN = 1u << 15,     /* min.NaN / max.NaN: propagate NaN instead of ignoring it */
    PTX_F_WRAP = 1u << 16,    /* shf.wrap (shf keeps .l/.r in sub; no flag = .clamp) */
};

/* ---- Operands ------------------------------------------------------------- */

enum ptx_opnd_kind {
    PTX_OPND_NONE = 0,
    PTX_OPND_REG,    /* reg: register index within the owning function */
    PTX_OPND_IMM,    /* imm: bit pattern already in the instruction's type
                        (f32 literal stored as its 32 float bits, f64 as 64, integers
                        sign-extended to 64 bits) */
    PTX_OPND_SREG,   /* special register: reg = enum ptx_sreg, comp = 0..2 for x/y/z */
    PTX_OPND_ADDR,   /* [base+imm]: base is a register (reg), a variable (sym), or
                        absent (both PTX_NO_INDEX) for an absolute address */
    PTX_OPND_VEC,    /* {a, b, c, d}: vec[0..vec_n-1] register indexes
                        (PTX_NO_INDEX for "_" sink elements) */
    PTX_OPND_VAR,    /* the address of variable sym (mov %rd, sym; call args) */
    PTX_OPND_FUNC,   /* a function: sym = index into module->funcs */
    PTX_OPND_LABEL,  /* a branch target: imm = global PC */
    PTX_OPND_SINK,   /* "_" as a destination */
};

#define PTX_NO_INDEX UINT32_MAX

enum ptx_sreg {
    PTX_SREG_TID, PTX_SREG_NTID, PTX_SREG_CTAID, PTX_SREG_NCTAID, /* comp x/y/z */
    PTX_SREG_LANEID, PTX_SREG_WARPID, PTX_SREG_NWARPID, PTX_SREG_SMID, PTX_SREG_NSMID,
    PTX_SREG_GRIDID, PTX_SREG_CLOCK, PTX_SREG_CLOCK64, PTX_SREG_GLOBALTIMER,
    PTX_SREG_LANEMASK_EQ, PTX_SREG_LANEMASK_LE, PTX_SREG_LANEMASK_LT,
    PTX_SREG_LANEMASK_GE, PTX_SREG_LANEMASK_GT, PTX_SREG_DYNAMIC_SMEM_SIZE,
    PTX_SREG_TOTAL_SMEM_SIZE, PTX_SREG_COUNT
};
const char *ptx_sreg_name(enum ptx_sreg s);

struct ptx_operand {
    uint8_t kind;   /* enum ptx_opnd_kind */
    uint8_t neg;    /* "!%p" (logical not of a predicate source) */
    uint8_t comp;   /* special-register component 0=x 1=y 2=z */
    uint8_t vec_n;  /* PTX_OPND_VEC: number of elements */
    uint32_t reg;   /* REG/ADDR base register/SREG id; PTX_NO_INDEX if none */
    uint32_t sym;   /* ADDR/VAR: index into module->vars; FUNC: into module->funcs */
    int64_t imm;    /* IMM bits; ADDR offset; LABEL target PC */
    uint32_t vec[4];
    uint8_t vec_imm; /* VEC: bit i set = vec[i] is not a register but the low 32
                        bits of an immediate element, e.g. "mov.b32 %f1, {0, %rs1}"
                        (added after the first contract) */
};

/* ---- Instructions --------------------------------------------------------- */

struct ptx_inst {
    uint16_t op;      /* enum ptx_op */
    uint8_t type;     /* main type: the destination type (cvt: destination) */
    uint8_t type2;    /* second type: cvt source, setp/set/slct compared type,
                         mul.wide/mad.wide source, cvta size, ld/st unused */
    uint8_t space;    /* ld/st/atom/red/cvta/prefetch: enum ptx_space */
    uint8_t sub;      /* enum ptx_sub */
    uint8_t cmp;      /* enum ptx_cmp (setp/set/slct) */
    uint8_t boolop;   /* enum ptx_boolop (setp/set .and/.or/.xor) */
    uint8_t rnd;      /* enum ptx_rnd */
    uint8_t vec;      /* ld/st/mov vector width: 1, 2 or 4 */
    uint8_t ndst;
    uint8_t nsrc;
    uint32_t flags;   /* enum ptx_flag bits */
    uint32_t guard;   /* predicate register index, PTX_NO_INDEX when unguarded */
    uint8_t guard_neg;/* @!p */
    uint8_t aux;      /* tld4: component 0-3 (.r .g .b .a); txq: enum ptx_txq;
                         suld/sust: enum ptx_surf_mode */
    uint32_t opnd;    /* index of the first operand in module->opnds */
    uint32_t func;    /* index of the owning function in module->funcs */
    uint32_t line, col; /* source position of the opcode token (1-based) */
    uint32_t src_file, src_line; /* the last .loc before it: .file number and
                                    CUDA source line; src_line 0 = none */
};

/* Operand conventions (dst = destinations, src = sources, in order):
 *   arithmetic / bit / setp etc.: as written in PTX (setp: dst p[, q]; src a, b[, c])
 *   ld/ldu:   dst = value (REG or VEC);  src = ADDR
 *   st:       dst = none;                src = ADDR, value (REG, IMM or VEC)
 *   atom:     dst = old value;           src = ADDR, b[, c (cas new value)]
 *   red:      dst = none;                src = ADDR, b
 *   cvta:     dst = d;                   src = a (REG or VAR)
 *   bra:      src = LABEL
 *   call:     dst = return params (VAR); src = FUNC, then args (VAR or REG)
 *   ret/exit: none
 *   bar:      src = barrier id (REG or IMM)[, thread count][, predicate for bar.red];
 *             bar.red: dst = result
 *   shfl.sync: dst = d[, p (PTX_F_PRED_OUT)]; src = a, b, c, membermask
 *   vote.sync: dst = d; src = a (pred or value), membermask
 *   activemask: dst = d
 *   prefetch: src = ADDR
 *   tex/tld4: dst = VEC of 4;            src = object (REG), coordinates (VEC of 1-4;
 *             a1d/a2d: the layer first); type = result type, type2 = coordinate type
 *   suld.b:   dst = VEC of 1, 2 or 4;    src = object, coordinates (x in bytes)
 *   sust.b:   dst = none;                src = object, coordinates, value (VEC)
 *   txq:      dst = d;                   src = object
 * A source given as "!%p" sets operand.neg. */

/* ---- Variables (symbols with storage) ------------------------------------- */

enum ptx_var_flag {
    PTX_VAR_EXTERN = 1u << 0,      /* .extern (extern .shared: dynamic shared memory) */
    PTX_VAR_VISIBLE = 1u << 1,
    PTX_VAR_KERNEL_PARAM = 1u << 2, /* formal parameter of an .entry */
    PTX_VAR_FUNC_PARAM = 1u << 3,   /* formal parameter of a .func */
    PTX_VAR_FUNC_RET = 1u << 4,     /* return parameter of a .func */
    PTX_VAR_CALL_PARAM = 1u << 5,   /* .param declared in a function body (call site) */
    PTX_VAR_PTR = 1u << 6,          /* .param .ptr attribute given */
    PTX_VAR_MANAGED = 1u << 7,      /* .global .attribute(.managed) (__managed__) */
};

struct ptx_var {
    char *name;
    uint8_t space;     /* enum ptx_space */
    uint8_t type;      /* element type */
    uint32_t flags;    /* enum ptx_var_flag */
    uint32_t align;    /* bytes (default: element size) */
    uint64_t size;     /* total bytes (element size x array count); 0 for "[]" */
    uint32_t func;     /* owning function index, PTX_NO_INDEX at module scope */
    uint8_t *init;     /* initializer bytes (size bytes) or NULL; addresses of
                          other variables in initializers are not supported */
    /* Layout, filled by ptx_layout() after parsing:
     *   SHARED (any scope): byte offset in the CTA's shared memory, the same
     *     in every kernel that uses the variable; extern (dynamic) shared
     *     variables sit past the static part of every kernel using one.
     *   LOCAL: byte offset in the owning function's local frame.
     *   PARAM, kernel formal: byte offset in the kernel parameter buffer.
     *   PARAM, other: byte offset in the owning function's param frame.
     *   GLOBAL/CONST: 0 until the loader places the variable; then addr. */
    uint64_t offset;
    uint64_t addr;     /* GLOBAL/CONST: device address, set by the loader */
};

/* ---- Registers and functions ---------------------------------------------- */

struct ptx_reg {
    char *name;   /* "%r12", "%SP", "%p3" */
    uint8_t type; /* enum ptx_type from its .reg declaration */
};

struct ptx_func {
    char *name;
    int is_entry;        /* .entry (kernel) vs .func */
    int is_extern;       /* declared only (.extern .func, e.g. vprintf): no body */
    uint32_t first_pc;   /* global PC of the first instruction */
    uint32_t ninsts;
    struct ptx_reg *regs;
    uint32_t nregs;
    uint32_t *params;    /* indexes into module->vars: formal parameters in order */
    uint32_t nparams;
    uint32_t *rets;      /* indexes into module->vars: return parameters in order */
    uint32_t nrets;
    /* Layout (ptx_layout): */
    uint64_t param_bytes;  /* entry: kernel parameter buffer size */
    uint64_t frame_param_bytes; /* per-thread bytes for .func formals/rets and
                                   call-site .param variables of this function */
    uint64_t local_bytes;  /* per-thread .local bytes of this function's frame */
    uint32_t ptxas_regs;   /* entry: registers per thread ptxas reports (0: unknown;
                              set by ws_module_set_regs) */
    uint64_t shared_bytes; /* entry: static shared bytes of a CTA (the variables it
                              reaches; up to the dynamic base if it uses an extern) */
    uint32_t line;         /* source line of the declaration */
    /* Performance-tuning directives, recorded but not enforced. */
    uint32_t maxntid[3], reqntid[3], minnctapersm;
};

/* ---- Module --------------------------------------------------------------- */

struct ptx_module {
    char *name;           /* file name or caller-given name, for messages */
    uint32_t version_major, version_minor; /* .version */
    char target[32];      /* .target first argument, e.g. "sm_75" */
    uint32_t address_size;/* 64 */

    struct ptx_func *funcs;
    uint32_t nfuncs;
    struct ptx_var *vars;
    uint32_t nvars;
    struct ptx_inst *insts;
    uint32_t ninsts;
    struct ptx_operand *opnds;
    uint32_t nopnds;
    struct ptx_src_file *files; /* .file directives (nvcc -lineinfo / -G) */
    uint32_t nfiles;
};

/* A ".file N \"path\"" directive: the source file that .loc N names. */
struct ptx_src_file {
    uint32_t id;
    char *path;
};

/* The CUDA source file of an instruction (its last .loc), NULL when the PTX
 * carries no line information for it or names an undeclared file. */
const char *ptx_inst_src_file(const struct ptx_module *m, const struct ptx_inst *in);

static inline const struct ptx_operand *ptx_dst(const struct ptx_module *m,
                                                const struct ptx_inst *in, unsigned i)
{
    return &m->opnds[in->opnd + i];
}

static inline const struct ptx_operand *ptx_src(const struct ptx_module *m,
                                                const struct ptx_inst *in, unsigned i)
{
    return &m->opnds[in->opnd + in->ndst + i];
}

/* Look-ups by name; return PTX_NO_INDEX when absent. */
uint32_t ptx_find_func(const struct ptx_module *m, const char *name);
uint32_t ptx_find_var(const struct ptx_module *m, const char *name);

/* Release the module and everything it owns. */
void ptx_module_free(struct ptx_module *m);

#endif
