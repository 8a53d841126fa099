/* sink.h: deferred device-memory effects, for a timing model that runs the
 * warps of several SMs at once (timing/engine.c, docs/parallel.md).
 *
 * While the SMs run, device memory is not written: a CTA with a sink
 * (func_cta.sink) executes every instruction in place except the writes that
 * reach device memory (global and const space, generic addresses outside the
 * shared/local/param windows).  A store's or an atomic's address checks and
 * faults happen at once, but its data transfer (the store, the atomic's
 * read-modify-write and its returned old value) is logged, in execution
 * order, and performed later by func_sink_apply().  A load reads memory in
 * place, as it was at the start of the cycle, and is logged (its lanes'
 * host addresses and destination registers) so that it can be redone.
 *
 * Applying the sinks of the SMs in SM order after every SM has run its cycle
 * performs the writes in exactly the order of a run that steps SM 0, then
 * SM 1, ... with no sink; a logged load is read again, in its place in that
 * order, when a write applied before it (an earlier SM's, or an earlier one
 * of its own SM) touched a line it read (struct func_written, by host
 * address), so every register ends with the value of that serial run.  This
 * holds as long as nothing reads a load's register before the merge (the
 * timing model's scoreboard holds it until the memory system answers, a
 * later cycle).  The step counters go to the sink, not to the launch.
 *
 * Kernels whose results depend on the order of steps across SMs in other
 * ways (a %globaltimer read, which counts the launch's warp instructions; an
 * external call such as vprintf, which writes the program's output; texture
 * and surface instructions, which access device memory in place) must not
 * use a sink: func_module_sinkable() says so; nor may a launch under racecheck
 * (func/racecheck.h: it stamps accesses with the launch's instruction count). */
#ifndef WS_FUNC_SINK_H
#define WS_FUNC_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "base/alloc.h"

#include "func/func.h"

/* FUNC_DEF_LOAD: a vector element of a load whose lanes' elements are not
 * contiguous with element 0 (partly outside memory under oob_read_zero):
 * written again at the merge, in order. */
enum func_deferred_kind { FUNC_DEF_LOAD, FUNC_DEF_STORE, FUNC_DEF_ATOM };

struct func_deferred {
    uint8_t *p;          /* host address of the device bytes */
    struct func_warp *w; /* load/atomic: the warp whose register receives the value */
    size_t ri;           /* index of that register lane in w->regs; SIZE_MAX: none */
    uint64_t val;        /* store: the value; atomic: operand b */
    uint64_t c;          /* atomic: operand c (cas) */
    uint64_t wm;         /* register value mask */
    uint8_t kind;        /* enum func_deferred_kind */
    uint8_t n;           /* bytes */
    uint8_t sign;        /* load: sign-extend */
    uint8_t sub, type;   /* atomic: enum ptx_sub, enum ptx_type */
};

/* A load done in place, to read again at the merge if a write before it
 * touched its lines. */
struct func_sink_load {
    struct func_warp *w; /* the warp whose registers receive the values */
    size_t ri[4];        /* per vector element: its register's lane 0 in w->regs (an
                            index: a call may move the file); SIZE_MAX: none */
    uint64_t wm[4];      /* per element: register value mask */
    size_t nops;         /* writes its sink logged before it */
    size_t first;        /* its lanes' element-0 host addresses: ptrs[first ..] */
    uint32_t mask;       /* the lanes, in order */
    uint8_t esz, nel, sign;
};

/* The lines written so far in one merge (a hashed bit set: a false positive
 * only reads a load again). */
#define FUNC_WRITTEN_WORDS 4096
struct func_written {
    uint64_t bits[FUNC_WRITTEN_WORDS];
    uint32_t *used; /* the words set, to clear them */
    size_t nused, used_cap;
};

/* One warp step that completed, for locating the max_warp_insn limit (a step
 * that faults is counted in warp_insn but not recorded). */
struct func_sink_step {
    const struct func_warp *w;
    uint32_t pc;
};

/* The SM's thread writes st alone; the engine's serial merge reads the fields
 * after it (and clears the log): they live in different cache lines. */
struct func_sink {
    _Alignas(CACHE_LINE) struct func_stats st; /* counters of the steps since the last func_sink_flush */
    _Alignas(CACHE_LINE) uint64_t warp_insn; /* warp steps since the last func_sink_restart (func_kernel.warp_insn) */
    struct func_deferred *ops;
    size_t nops, ops_cap;
    struct func_sink_load *loads;
    size_t nloads, loads_cap;
    const uint8_t **ptrs;
    size_t nptrs, ptrs_cap;
    struct func_sink_step *steps; /* the completed steps since then, in order */
    size_t nsteps, steps_cap;
};

/* Perform the logged writes in order, reading again each logged load that
 * follows a write to one of its lines (those of earlier sinks of this merge
 * too: wr, which gains this sink's).  The log is kept until
 * func_sink_restart(). */
void func_sink_apply(struct func_sink *s, struct func_written *wr);
/* Forget the lines of the last merge. */
void func_written_clear(struct func_written *wr);
void func_written_free(struct func_written *wr);
/* Forget the step count and the steps, which the caller has added to the
 * launch's, and the applied log (every cycle, by the thread that runs the
 * sink's SM, before it steps again: the limit and %globaltimer-free kernels
 * need no more). */
void func_sink_restart(struct func_sink *s);
/* Add the sink's counters to st and clear them (before anyone reads st). */
void func_sink_flush(struct func_sink *s, struct func_stats *st);
void func_sink_free(struct func_sink *s);

/* 0 when a kernel of module m must run without sinks (see above). */
int func_module_sinkable(const struct ptx_module *m);

#endif
