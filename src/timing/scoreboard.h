/* scoreboard.h: per-warp register scoreboard of the SM core.
 *
 * Each warp slot has a bitset of registers with a result in flight (RAW and
 * WAW hazards) and a second bitset marking those written by long-latency
 * (global/local) loads.  Bitsets are sized by the module's largest register
 * count and allocated once per launch, never in the cycle loop.  Register
 * indexes are those of the PTX function (ptx_operand.reg); predicates are
 * registers too.  struct sb_inst_regs lists, once per PC, the registers an
 * instruction reads (sources, address bases, vector elements, guard) and
 * writes. */
#ifndef WS_TIMING_SCOREBOARD_H
#define WS_TIMING_SCOREBOARD_H

#include <stdint.h>

#include "ptx/ir.h"

#define SB_MAX_READ 20
#define SB_MAX_WRITE 8

struct sb_inst_regs {
    uint8_t nread, nwrite;
    uint32_t read[SB_MAX_READ];
    uint32_t write[SB_MAX_WRITE];
};

struct scoreboard {
    uint32_t nwarps, nregs, words; /* words of 64 bits per warp */
    uint64_t *pend;                /* [nwarps * words] */
    uint64_t *longop;              /* [nwarps * words] */
    uint32_t *npend;               /* [nwarps] registers pending */
    uint32_t *nlong;               /* [nwarps] long-op registers pending */
};

/* Register lists of instruction pc of module m. */
void scoreboard_inst_regs(const struct ptx_module *m, uint32_t pc, struct sb_inst_regs *out);

/* (Re)size for nwarps warps of nregs registers; everything clear. */
void scoreboard_init(struct scoreboard *sb, uint32_t nwarps, uint32_t nregs);
void scoreboard_fini(struct scoreboard *sb);
void scoreboard_clear_warp(struct scoreboard *sb, uint32_t warp);

/* 1 if any register of r (reads or writes) is pending for warp. */
int scoreboard_hazard(const struct scoreboard *sb, uint32_t warp, const struct sb_inst_regs *r);
/* 1 if r reads or writes a register a long-latency load has pending. */
int scoreboard_long_hazard(const struct scoreboard *sb, uint32_t warp,
                           const struct sb_inst_regs *r);
/* Mark r's destinations pending (long: written by a long-latency load). */
void scoreboard_reserve(struct scoreboard *sb, uint32_t warp, const struct sb_inst_regs *r,
                        int is_long);
/* Release r's destinations. */
void scoreboard_release(struct scoreboard *sb, uint32_t warp, const struct sb_inst_regs *r);
/* Pending registers of warp, up to max, into out; returns how many are pending. */
uint32_t scoreboard_pending(const struct scoreboard *sb, uint32_t warp, uint32_t *out,
                            uint32_t max);

static inline int scoreboard_has_long(const struct scoreboard *sb, uint32_t warp)
{
    return sb->nlong[warp] != 0;
}

#endif
