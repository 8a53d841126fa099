/* launch.c: the functional driver, in one of two orders (func.h): serial
 * (CTAs one after another, each warp until its barrier) or interleaved (a
 * window of CTAs, one instruction per warp in turn).  Detects barrier
 * deadlocks and runaway kernels, and stops at the interrupt flag (Ctrl-C),
 * naming where it stopped. */
#include "func/func.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/demangle.h"

static int deadlock(const struct func_kernel *k, const struct func_cta *c, struct err *e)
{
    const struct ptx_module *m = k->m;
    char buf[ERR_MSG_MAX], nb[256];
    int n = snprintf(buf, sizeof buf,
                     "deadlock in kernel '%s' CTA (%u,%u,%u): no warp can progress;",
                     demangle(m->funcs[k->func].name, nb, sizeof nb), c->ctaid[0], c->ctaid[1],
                     c->ctaid[2]);
    for (uint32_t i = 0; i < c->nwarps && n > 0 && (size_t)n < sizeof buf - 80; i++) {
        const struct func_warp *w = &c->warps[i];
        if (w->state == FUNC_WARP_AT_BARRIER)
            n += snprintf(buf + n, sizeof buf - (size_t)n,
                          " warp %u waits at barrier %u (PC %u, line %u);", i, w->bar_id,
                          w->bar_pc, m->insts[w->bar_pc].line);
        else if (w->state == FUNC_WARP_DONE)
            n += snprintf(buf + n, sizeof buf - (size_t)n, " warp %u exited;", i);
    }
    return err_set(e, WS_ERR_DEADLOCK, "%s", buf);
}

/* Run one instruction of warp i of c, then the launch's checks (observer,
 * interrupt, instruction limit). */
static int step_one(struct func_kernel *k, struct func_cta *c, uint32_t i, struct func_trace *t,
                    struct err *e)
{
    int rc = func_warp_step(c, &c->warps[i], t, e);
    if (rc != WS_OK)
        return rc;
    if (k->env->trace_fn)
        k->env->trace_fn(k->env->trace_ctx, k, c, &c->warps[i], t);
    uint64_t limit = k->env->cfg.max_warp_insn;
    uint64_t nctas = (uint64_t)k->grid[0] * k->grid[1] * k->grid[2];
    char nb[256]; /* the kernel's demangled name, for messages */
    if (k->env->interrupt && *k->env->interrupt && (k->warp_insn & 1023) == 0)
        return err_set(e, WS_ERR_INTERRUPTED,
                       "kernel '%s' interrupted after %" PRIu64
                       " warp instructions: CTA (%u,%u,%u) of %" PRIu64
                       ", warp %u at PC %u (line %u)",
                       demangle(k->m->funcs[k->func].name, nb, sizeof nb), k->warp_insn,
                       c->ctaid[0], c->ctaid[1], c->ctaid[2], nctas, i, t->pc,
                       k->m->insts[t->pc].line);
    if (limit && k->warp_insn > limit)
        return err_set(e, WS_ERR_DEADLOCK,
                       "kernel '%s' exceeded the limit of %" PRIu64
                       " warp instructions (option max_warp_insn): infinite "
                       "loop? CTA (%u,%u,%u) warp %u at PC %u",
                       demangle(k->m->funcs[k->func].name, nb, sizeof nb), limit, c->ctaid[0],
                       c->ctaid[1], c->ctaid[2], i, t->pc);
    return WS_OK;
}

static void cta_start(struct func_kernel *k, struct func_cta *c, uint64_t linear)
{
    struct func_stats *st = k->env->stats;
    func_cta_init(c, k, (uint32_t)linear);
    st->ctas_launched++;
    st->warps_launched += c->nwarps;
}

int func_run_ctas(struct func_kernel *k, uint64_t first, struct err *e)
{
    struct func_cta c;
    struct func_trace t;
    memset(&c, 0, sizeof c);
    uint64_t nctas = (uint64_t)k->grid[0] * k->grid[1] * k->grid[2];
    int rc = WS_OK;
    for (uint64_t cta = first; cta < nctas && rc == WS_OK; cta++) {
        cta_start(k, &c, cta);
        while (c.live_warps > 0 && rc == WS_OK) {
            int progress = 0;
            for (uint32_t i = 0; i < c.nwarps && rc == WS_OK; i++)
                while (c.warps[i].state == FUNC_WARP_READY && rc == WS_OK) {
                    rc = step_one(k, &c, i, &t, e);
                    progress = 1;
                }
            if (rc == WS_OK && c.live_warps > 0 && !progress)
                rc = deadlock(k, &c, e);
        }
    }
    func_cta_fini(&c);
    return rc;
}

/* Interleaved order: cfg.window CTAs resident, one instruction per ready
 * warp in turn. */
static int run_interleaved(struct func_kernel *k, uint64_t nctas, struct err *e)
{
    uint64_t win = k->env->cfg.window ? k->env->cfg.window : 1;
    if (win > nctas)
        win = nctas;
    struct func_cta *cs = xcalloc(win, sizeof *cs);
    struct func_trace t;
    uint64_t next = 0, live = 0;
    for (; next < win; next++, live++)
        cta_start(k, &cs[next], next);
    int rc = WS_OK;
    while (live > 0 && rc == WS_OK) {
        for (uint64_t j = 0; j < win && rc == WS_OK; j++) {
            struct func_cta *c = &cs[j];
            if (c->live_warps == 0)
                continue;
            int progress = 0;
            for (uint32_t i = 0; i < c->nwarps && rc == WS_OK; i++)
                if (c->warps[i].state == FUNC_WARP_READY) {
                    rc = step_one(k, c, i, &t, e);
                    progress = 1;
                }
            if (rc != WS_OK)
                break;
            if (c->live_warps > 0 && !progress)
                rc = deadlock(k, c, e);
            else if (c->live_warps == 0 && next < nctas)
                cta_start(k, c, next++);
            else if (c->live_warps == 0)
                live--;
        }
    }
    for (uint64_t j = 0; j < win; j++)
        func_cta_fini(&cs[j]);
    free(cs);
    return rc;
}

int func_run_kernel(struct func_kernel *k, struct err *e)
{
    uint64_t nctas = (uint64_t)k->grid[0] * k->grid[1] * k->grid[2];
    k->env->stats->kernels_launched++;
    return k->env->cfg.order == FUNC_ORDER_INTERLEAVED ? run_interleaved(k, nctas, e)
                                                       : func_run_ctas(k, 0, e);
}
