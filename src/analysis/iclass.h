/* iclass.h: the execution-unit class (enum inst_class in analysis.h) of one
 * instruction, from its opcode, state space and types. */
#ifndef WS_ANALYSIS_ICLASS_H
#define WS_ANALYSIS_ICLASS_H

#include "analysis/analysis.h"
#include "ptx/ir.h"

/* in_entry: the instruction belongs to an .entry (a ret there ends the
 * thread, so it is ICLASS_EXIT; in a .func it is ICLASS_CALL). */
enum inst_class iclass_of(const struct ptx_inst *in, int in_entry);

/* 1 for the classes that run on an arithmetic unit (ALU, SFU, DP, INT and
 * the warp-wide shfl/vote/...): GPGPU-Sim's ALU_OP instructions. */
int iclass_is_compute(enum inst_class c);

#endif
