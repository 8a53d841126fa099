/* analysis.h: static facts about every PC of a module, computed once at load.
 *
 * For every function with a body: basic blocks, control-flow graph,
 * immediate post-dominators (the reconvergence PC of each branch), natural
 * loops (header, latches, exits, nesting depth, first/last PC in program
 * order, as DAWS uses for its loop markers), the per-PC instruction class
 * and the program phases of the Phase-aware scheduler (phase.h: which PCs
 * form a phase; their lengths in cycles depend on a latency table and are
 * computed by phase_size()).
 * Policies and the timing model read these through struct pc_info; nothing
 * here changes after analysis_run(). */
#ifndef WS_ANALYSIS_ANALYSIS_H
#define WS_ANALYSIS_ANALYSIS_H

#include <stdint.h>

#include "base/err.h"
#include "analysis/power.h"
#include "ptx/ir.h"

/* Reconvergence PC meaning "at the function's exit" (the virtual exit node
 * post-dominates the branch and no real instruction does). */
#define PC_EXIT UINT32_MAX

enum inst_class {
    ICLASS_ALU,       /* integer / simple float on the SP pipeline */
    ICLASS_SFU,       /* transcendental / approximate: sin cos ex2 lg2 rcp sqrt rsqrt tanh, div.approx */
    ICLASS_DP,        /* f64 arithmetic */
    ICLASS_INT,       /* integer multiply/divide/remainder heavy ops (mul, mad, div, rem) */
    ICLASS_LOAD_GLOBAL, /* ld/ldu in global (or generic) space */
    ICLASS_LOAD_LOCAL,
    ICLASS_LOAD_SHARED,
    ICLASS_LOAD_CONST,
    ICLASS_LOAD_PARAM,
    ICLASS_STORE_GLOBAL,/* st in global (or generic) space */
    ICLASS_STORE_LOCAL,
    ICLASS_STORE_SHARED,
    ICLASS_STORE_PARAM,
    ICLASS_ATOMIC,    /* atom / red */
    ICLASS_BRANCH,    /* bra */
    ICLASS_CALL,      /* call, ret */
    ICLASS_EXIT,      /* exit, ret from an entry, trap */
    ICLASS_BARRIER,   /* bar / barrier */
    ICLASS_MEMBAR,    /* membar / fence */
    ICLASS_WARP,      /* shfl, vote, activemask, match, redux */
    ICLASS_OTHER,     /* nanosleep, pmevent, prefetch */
    ICLASS_COUNT
};
const char *inst_class_name(enum inst_class c);

struct pc_info {
    uint32_t bb;        /* basic-block index (within the module) */
    uint32_t reconv;    /* bra: PC of the immediate post-dominator; PC_EXIT if the
                           function exit; for other instructions PC_EXIT */
    uint32_t loop;      /* innermost loop containing this PC, or PTX_NO_INDEX */
    uint8_t iclass;     /* enum inst_class */
    uint8_t is_cond_branch; /* guarded bra that is not .uni */
    struct power_facts power; /* register operands and unit operation (power.h) */
    uint32_t phase;     /* phase index (analysis.phases), PTX_NO_INDEX outside a body */
    uint32_t bb_len;    /* instructions of this PC's basic block (0 outside a body) */
};

/* A program phase (SPEC-policies 5.1, phase.h): consecutive PCs of one basic
 * block in which no instruction reads a register written by a long-latency
 * instruction of the same phase. */
struct phase_info {
    uint32_t first_pc, last_pc; /* inclusive, program order */
    uint32_t func;
};

struct basic_block {
    uint32_t first_pc, last_pc; /* inclusive range, program order */
    uint32_t func;
    uint32_t *succ;             /* successor block indexes (0, 1 or 2) */
    uint32_t nsucc;
    uint32_t ipdom;             /* immediate post-dominator block, PTX_NO_INDEX if exit */
};

struct loop_info {
    uint32_t header_bb;
    uint32_t header_pc;    /* first PC of the header block */
    uint32_t first_pc;     /* smallest PC of any block in the loop */
    uint32_t last_pc;      /* largest PC of any block in the loop */
    uint32_t *latches;     /* blocks with a back edge to the header */
    uint32_t nlatches;
    uint32_t *exits;       /* blocks outside the loop reached from inside */
    uint32_t nexits;
    uint32_t *blocks;      /* member blocks, ascending */
    uint32_t nblocks;
    uint32_t parent;       /* enclosing loop index or PTX_NO_INDEX */
    uint32_t depth;        /* 1 for outermost */
    uint32_t func;
};

struct analysis {
    struct pc_info *pc;       /* [module->ninsts] */
    struct basic_block *bbs;
    uint32_t nbbs;
    struct loop_info *loops;
    uint32_t nloops;
    /* Register pressure (regs.c; 0 for functions without a body): */
    uint32_t *func_max_live_regs32; /* [module->nfuncs] own peak of live virtual
                                       registers, 32-bit units */
    uint32_t *func_regs; /* [module->nfuncs] estimated registers per thread (32-bit
                            units), occupancy input */
    /* Where the functional core keeps each register (regs.c, regs_slots):
     * register r of function f is at slot reg_slot[func_reg_first[f] + r]
     * of func_slots[f] slots of the warp's register storage. */
    uint32_t *reg_slot;       /* [sum of the functions' nregs] */
    uint32_t *func_reg_first; /* [module->nfuncs] */
    uint32_t *func_slots;     /* [module->nfuncs] */
    struct phase_info *phases; /* in PC order; pc_info.phase indexes them */
    uint32_t nphases;
};

int analysis_run(const struct ptx_module *m, struct analysis **out, struct err *e);
void analysis_free(struct analysis *a);

#endif
