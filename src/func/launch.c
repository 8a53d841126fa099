/* launch.c: the functional driver — runs a launch's CTAs one after another;
 * inside a CTA the warps take turns, each running until it waits at a
 * barrier or finishes.  Detects barrier deadlocks and runaway kernels, and
 * stops at the interrupt flag (Ctrl-C), naming where it stopped. */
#include "func/func.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/demangle.h"

static int deadlock(const struct func_kernel *k, const struct func_cta *c, struct err *e)
{
    const struct ptx_module *m = k->m;
    char buf[ERR_MSG_MAX], nb[256];
    int n = snprintf(buf, sizeof buf,
                     "deadlock in kernel '%s' CTA (%u,%u,%u): no warp can progress;",
                     demangle(m->funcs[k->func].name, nb, sizeof nb), c->ctaid[0], c->ctaid[1], c->ctaid[2]);
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

int func_run_kernel(struct func_kernel *k, struct err *e)
{
    struct func_cta c;
    struct func_trace t;
    memset(&c, 0, sizeof c);
    uint64_t nctas = (uint64_t)k->grid[0] * k->grid[1] * k->grid[2];
    uint64_t limit = k->env->cfg.max_warp_insn;
    struct func_stats *st = k->env->stats;
    char nb[256]; /* the kernel's demangled name, for messages */
    int rc = WS_OK;
    st->kernels_launched++;
    for (uint64_t cta = 0; cta < nctas && rc == WS_OK; cta++) {
        func_cta_init(&c, k, (uint32_t)cta);
        st->ctas_launched++;
        st->warps_launched += c.nwarps;
        while (c.live_warps > 0 && rc == WS_OK) {
            int progress = 0;
            for (uint32_t i = 0; i < c.nwarps && rc == WS_OK; i++) {
                struct func_warp *w = &c.warps[i];
                while (w->state == FUNC_WARP_READY) {
                    rc = func_warp_step(&c, w, &t, e);
                    if (rc != WS_OK)
                        break;
                    if (k->env->trace_fn)
                        k->env->trace_fn(k->env->trace_ctx, k, &c, w, &t);
                    progress = 1;
                    if (k->env->interrupt && *k->env->interrupt && (k->warp_insn & 1023) == 0) {
                        rc = err_set(e, WS_ERR_INTERRUPTED,
                                     "kernel '%s' interrupted after %" PRIu64
                                     " warp instructions: CTA (%u,%u,%u) of %" PRIu64
                                     ", warp %u at PC %u (line %u)",
                                     demangle(k->m->funcs[k->func].name, nb, sizeof nb),
                                     k->warp_insn, c.ctaid[0],
                                     c.ctaid[1], c.ctaid[2], nctas, i, t.pc,
                                     k->m->insts[t.pc].line);
                        break;
                    }
                    if (limit && k->warp_insn > limit) {
                        rc = err_set(e, WS_ERR_DEADLOCK,
                                     "kernel '%s' exceeded the limit of %" PRIu64
                                     " warp instructions (option max_warp_insn): infinite "
                                     "loop? CTA (%u,%u,%u) warp %u at PC %u",
                                     demangle(k->m->funcs[k->func].name, nb, sizeof nb), limit,
                                     c.ctaid[0], c.ctaid[1],
                                     c.ctaid[2], i, t.pc);
                        break;
                    }
                }
            }
            if (rc == WS_OK && c.live_warps > 0 && !progress)
                rc = deadlock(k, &c, e);
        }
    }
    func_cta_fini(&c);
    return rc;
}
