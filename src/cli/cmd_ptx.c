/* cmd_ptx.c: `warpsim ptx <file.ptx>`: parse and analyse a PTX file and print
 * what the simulator sees: every function with its parameters, registers,
 * basic blocks (with successors and the reconvergence PC of each branch),
 * natural loops and program phases (sized at the SM latencies of --config).
 * A malformed file prints file:line:column and exits 1. */
#include "cli/cli.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/hoist.h"
#include "analysis/phase.h"
#include "base/alloc.h"
#include "base/file.h"
#include "config/config.h"
#include "ptx/parser.h"
#include "timing/sm.h"

static void ptx_usage(FILE *out)
{
    fprintf(out, "usage: warpsim ptx <file.ptx> [--config preset|file] [--set key=value]... "
                 "[--quiet]\n\n"
                 "Parses and analyses a PTX file and prints its kernels and functions with\n"
                 "their parameters, registers, basic blocks, loops, reconvergence points and\n"
                 "program phases (Phase-aware scheduling: count, shortest, longest, and each\n"
                 "phase's PCs and length in cycles).\n"
                 "  --config X  size phases with the SM latencies of preset or file X\n"
                 "              (default gtx480)\n"
                 "  --set K=V   change one option after --config (e.g. ptx.hoist_loads=1:\n"
                 "              analyse the code in the order the timing model runs it)\n"
                 "  --quiet     only report whether the file parses (exit status 0 or 1)\n");
}

/* The largest static shared footprint of the module's kernels. */
static uint64_t ptx_max_kernel_shared(const struct ptx_module *m)
{
    uint64_t most = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].is_entry && m->funcs[i].shared_bytes > most)
            most = m->funcs[i].shared_bytes;
    return most;
}

static void print_pc(uint32_t pc)
{
    if (pc == PC_EXIT)
        printf("exit");
    else
        printf("%" PRIu32, pc);
}

/* Phases of function fi: count, shortest and longest (the Phase-aware
 * paper's Table II columns), then one line per phase. */
static void print_phases(const struct analysis *a, const uint32_t *len, uint32_t fi)
{
    uint32_t n = 0, lo = UINT32_MAX, hi = 0;
    for (uint32_t p = 0; p < a->nphases; p++)
        if (a->phases[p].func == fi) {
            n++;
            lo = len[p] < lo ? len[p] : lo;
            hi = len[p] > hi ? len[p] : hi;
        }
    if (!n) {
        printf("  phases: none\n");
        return;
    }
    printf("  phases: %" PRIu32 ", shortest %" PRIu32 ", longest %" PRIu32 " cycles\n", n, lo,
           hi);
    for (uint32_t p = 0; p < a->nphases; p++) {
        const struct phase_info *ph = &a->phases[p];
        if (ph->func == fi)
            printf("    P%-4" PRIu32 " PCs %5" PRIu32 "-%-5" PRIu32 " (B%" PRIu32
                   "), length %" PRIu32 "\n",
                   p, ph->first_pc, ph->last_pc, a->pc[ph->first_pc].bb, len[p]);
    }
}

static void print_func(const struct ptx_module *m, const struct analysis *a, const uint32_t *len,
                       uint32_t fi)
{
    const struct ptx_func *f = &m->funcs[fi];
    printf("%s %s", f->is_entry ? ".entry" : ".func", f->name);
    if (f->is_extern) {
        printf("  (extern, no body)\n\n");
        return;
    }
    printf("  (line %" PRIu32 ", PCs %" PRIu32 "-%" PRIu32 ")\n", f->line, f->first_pc,
           f->first_pc + f->ninsts - (f->ninsts ? 1 : 0));
    for (uint32_t i = 0; i < f->nrets; i++) {
        const struct ptx_var *v = &m->vars[f->rets[i]];
        printf("  return  %-28s .%s %" PRIu64 " bytes\n", v->name, ptx_type_name(v->type),
               v->size);
    }
    for (uint32_t i = 0; i < f->nparams; i++) {
        const struct ptx_var *v = &m->vars[f->params[i]];
        printf("  param   %-28s .%s %" PRIu64 " bytes at offset %" PRIu64 "\n", v->name,
               ptx_type_name(v->type), v->size, v->offset);
    }
    /* Registers, grouped by type. */
    unsigned count[PTX_T_COUNT] = {0};
    for (uint32_t r = 0; r < f->nregs; r++)
        count[f->regs[r].type]++;
    printf("  registers %" PRIu32 " declared:", f->nregs);
    for (int t = 0; t < PTX_T_COUNT; t++)
        if (count[t])
            printf(" %u x .%s", count[t], ptx_type_name(t));
    printf("; about %" PRIu32 " per thread (peak live, 32-bit units%s)\n", a->func_regs[fi],
           f->is_entry ? ", with callees: the occupancy estimate" : "");
    printf("  storage: %" PRIu32 " slots of 8 bytes per thread (registers that are never live at "
           "once share one)\n",
           a->func_slots[fi]);
    printf("  local %" PRIu64 " bytes/thread, param frame %" PRIu64 " bytes/thread\n",
           f->local_bytes, f->frame_param_bytes);

    printf("  basic blocks:\n");
    for (uint32_t b = 0; b < a->nbbs; b++) {
        const struct basic_block *bb = &a->bbs[b];
        if (bb->func != fi)
            continue;
        printf("    B%-4" PRIu32 " PCs %5" PRIu32 "-%-5" PRIu32 " (%" PRIu32 " insts) -> ", b,
               bb->first_pc, bb->last_pc, bb->last_pc - bb->first_pc + 1);
        if (!bb->nsucc)
            printf("exit");
        for (uint32_t s = 0; s < bb->nsucc; s++)
            printf("%sB%" PRIu32, s ? ", " : "", bb->succ[s]);
        const struct pc_info *last = &a->pc[bb->last_pc];
        if (last->is_cond_branch) {
            printf("   branch at line %" PRIu32 " reconverges at PC ", m->insts[bb->last_pc].line);
            print_pc(last->reconv);
        }
        printf("\n");
    }
    int any = 0;
    for (uint32_t l = 0; l < a->nloops; l++) {
        const struct loop_info *lp = &a->loops[l];
        if (lp->func != fi)
            continue;
        if (!any++)
            printf("  loops:\n");
        printf("    L%-3" PRIu32 " header B%" PRIu32 " (PC %" PRIu32 "), PCs %" PRIu32 "-%" PRIu32
               ", depth %" PRIu32 ", %" PRIu32 " blocks, %" PRIu32 " latch(es), %" PRIu32
               " exit(s)",
               l, lp->header_bb, lp->header_pc, lp->first_pc, lp->last_pc, lp->depth,
               lp->nblocks, lp->nlatches, lp->nexits);
        if (lp->parent != PTX_NO_INDEX)
            printf(", inside L%" PRIu32, lp->parent);
        printf("\n");
    }
    if (!any)
        printf("  loops: none\n");
    print_phases(a, len, fi);
    printf("\n");
}

int cmd_ptx(int argc, char **argv)
{
    const char *path = NULL, *config = NULL;
    const char *sets[64];
    int quiet = 0, nsets = 0;
    for (int i = 0; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            ptx_usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--config") == 0) {
            if (!(config = cli_value(argc, argv, &i)))
                return 2;
        } else if (strcmp(argv[i], "--set") == 0) {
            if (nsets == (int)(sizeof sets / sizeof sets[0])) {
                fprintf(stderr, "warpsim ptx: more than %d --set options\n", nsets);
                return 2;
            }
            if (!(sets[nsets++] = cli_value(argc, argv, &i)))
                return 2;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            quiet = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "warpsim ptx: unknown option '%s'\n", argv[i]);
            return 2;
        } else if (path) {
            fprintf(stderr, "warpsim ptx: more than one file given\n");
            return 2;
        } else {
            path = argv[i];
        }
    }
    if (!path) {
        ptx_usage(stderr);
        return 2;
    }
    struct err e;
    err_clear(&e);
    struct gpu_config cfg;
    config_defaults(&cfg);
    if (config && config_load(&cfg, config, &e) != WS_OK) {
        fprintf(stderr, "warpsim ptx: %s\n", e.msg);
        return 2;
    }
    for (int k = 0; k < nsets; k++) {
        char key[128];
        const char *eq = strchr(sets[k], '=');
        if (!eq || eq == sets[k] || (size_t)(eq - sets[k]) >= sizeof key) {
            fprintf(stderr, "warpsim ptx: --set %s: expected KEY=VALUE\n", sets[k]);
            return 2;
        }
        memcpy(key, sets[k], (size_t)(eq - sets[k]));
        key[eq - sets[k]] = 0;
        if (config_set(&cfg, key, eq + 1, &e) != WS_OK) {
            fprintf(stderr, "warpsim ptx: --set %s: %s\n", sets[k], e.msg);
            return 2;
        }
    }
    if (config_validate(&cfg, &e) != WS_OK) {
        fprintf(stderr, "warpsim ptx: %s\n", e.msg);
        return 2;
    }
    char *text;
    size_t len;
    struct ptx_module *m = NULL;
    struct analysis *a = NULL;
    if (file_read_all(path, &text, &len, &e) != WS_OK) {
        fprintf(stderr, "warpsim ptx: %s\n", e.msg);
        return 1;
    }
    int rc = ptx_parse(text, len, path, &m, &e);
    free(text);
    if (rc == WS_OK && cfg.hoist_loads)
        hoist_loads(m);
    if (rc == WS_OK)
        rc = analysis_run(m, &a, &e);
    if (rc != WS_OK) {
        fprintf(stderr, "%s\n", e.msg);
        ptx_module_free(m);
        return 1;
    }
    if (!quiet) {
        printf("%s: PTX %" PRIu32 ".%" PRIu32 ", target %s, %" PRIu32 " function(s), %" PRIu32
               " instructions, %" PRIu64 " bytes static shared (largest kernel)\n\n",
               path, m->version_major, m->version_minor, m->target, m->nfuncs, m->ninsts,
               ptx_max_kernel_shared(m));
        int any = 0;
        for (uint32_t i = 0; i < m->nvars; i++) {
            const struct ptx_var *v = &m->vars[i];
            if (v->func == PTX_NO_INDEX) {
                printf(".%s %s: %" PRIu64 " bytes%s\n", ptx_space_name(v->space), v->name,
                       v->size, v->init ? " (initialized)" : "");
                any = 1;
            }
        }
        if (any)
            printf("\n");
        uint32_t lat[ICLASS_COUNT];
        sm_class_latency(&cfg, lat);
        struct pc_phase *pcph = xcalloc(m->ninsts ? m->ninsts : 1, sizeof *pcph);
        uint32_t *len = xcalloc(a->nphases ? a->nphases : 1, sizeof *len);
        phase_size(m, a, lat, cfg.issue_interval ? cfg.issue_interval : 1, pcph, len);
        for (uint32_t f = 0; f < m->nfuncs; f++)
            print_func(m, a, len, f);
        free(len);
        free(pcph);
    }
    analysis_free(a);
    ptx_module_free(m);
    return 0;
}
