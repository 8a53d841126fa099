/* api.c: the public C API (include/warpsim.h): gpu lifetime, validated
 * options, module loading, device memory, launches and statistics. */
#include "warpsim.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/hoist.h"
#include "api/gpu.h"
#include "api/sample.h"
#include "base/alloc.h"
#include "base/file.h"
#include "func/racecheck.h"
#include "policy/registry.h"
#include "ptx/parser.h"
#include "stats/stats.h"
#include "timing/engine.h"

#define GPU_MAX_THREADS_PER_CTA 1024u
#define GPU_MAX_SHARED_PER_CTA (96u * 1024u)

/* ---- options -------------------------------------------------------------- */

/* Copy the options the functional core reads out of the configuration. */
static void sync_config(ws_gpu *gpu)
{
    snprintf(gpu->mode, sizeof gpu->mode, "%s", gpu->config.mode);
    gpu->device_memory = gpu->config.device_memory;
    gpu->mem.limit = gpu->config.device_memory;
    gpu->cfg.local_memory_per_thread = gpu->config.local_memory_per_thread;
    gpu->cfg.max_warp_insn = gpu->config.max_warp_insn;
    gpu->cfg.racecheck = gpu->config.racecheck;
    gpu->cfg.order = strcmp(gpu->config.func_order, "interleaved") == 0 ? FUNC_ORDER_INTERLEAVED
                                                                       : FUNC_ORDER_SERIAL;
    gpu->cfg.window = gpu->config.func_window;
    gpu->cfg.oob_read_zero = gpu->config.oob_read_zero;
}


/* Resolve every policy spec now, so a bad name fails at the option (listing
 * the known policies) rather than at the first launch. */
static int check_policies(ws_gpu *gpu, const struct gpu_config *c)
{
    const struct sched_ops *so;
    const struct cache_policy_ops *co;
    const struct dram_sched_ops *dop;
    struct param_set ps;
    struct err *e = &gpu->err;
    if (registry_sched(c->sched, &so, &ps, e) != WS_OK)
        return err_prefix(e, "option 'sm.sched': ");
    const struct cache_geometry *caches[] = {&c->l1d, &c->l1c, &c->l1i, &c->l1t, &c->l2};
    static const char *const keys[] = {"l1d.policy", "l1c.policy", "l1i.policy", "tex.policy",
                                       "l2.policy"};
    for (size_t i = 0; i < 5; i++)
        if (registry_cache(caches[i]->policy, &co, &ps, e) != WS_OK)
            return err_prefix(e, "option '%s': ", keys[i]);
    if (registry_dram(c->dram_sched, &dop, &ps, e) != WS_OK)
        return err_prefix(e, "option 'dram.sched': ");
    return WS_OK;
}

/* Validate a changed configuration against what is already allocated. */
static int config_commit(ws_gpu *gpu, const struct gpu_config *nc)
{
    if (strcmp(nc->sched, gpu->config.sched) != 0 || strcmp(nc->dram_sched, gpu->config.dram_sched) != 0 ||
        strcmp(nc->l1d.policy, gpu->config.l1d.policy) != 0 ||
        strcmp(nc->l1c.policy, gpu->config.l1c.policy) != 0 ||
        strcmp(nc->l1i.policy, gpu->config.l1i.policy) != 0 ||
        strcmp(nc->l1t.policy, gpu->config.l1t.policy) != 0 ||
        strcmp(nc->l2.policy, gpu->config.l2.policy) != 0) {
        int rc = check_policies(gpu, nc);
        if (rc != WS_OK)
            return rc;
    }
    if (nc->device_memory < gpu->mem.used)
        return err_set(&gpu->err, WS_ERR_INVALID,
                       "option 'device_memory': %" PRIu64 " bytes is less than the %" PRIu64
                       " bytes already allocated",
                       nc->device_memory, gpu->mem.used);
    gpu->config = *nc;
    sync_config(gpu);
    return WS_OK;
}

int ws_gpu_set(ws_gpu *gpu, const char *key, const char *value)
{
    if (!gpu)
        return WS_ERR_INVALID;
    if (!key || !value)
        return err_set(&gpu->err, WS_ERR_INVALID, "ws_gpu_set: NULL key or value");
    if (gpu->timing && !config_key_is_simulation(key))
        return err_set(&gpu->err, WS_ERR_INVALID,
                       "option '%s': the GPU configuration cannot change after the first "
                       "timing launch",
                       key);
    struct gpu_config nc = gpu->config;
    int rc = config_set(&nc, key, value, &gpu->err);
    if (rc != WS_OK)
        return rc;
    if (gpu->nmods && nc.hoist_loads != gpu->config.hoist_loads)
        return err_set(&gpu->err, WS_ERR_INVALID,
                       "option '%s': code is already loaded in its order; set it before "
                       "loading a module",
                       key);
    return config_commit(gpu, &nc);
}

int ws_gpu_load_config(ws_gpu *gpu, const char *preset_or_path)
{
    if (!gpu)
        return WS_ERR_INVALID;
    if (!preset_or_path)
        return err_set(&gpu->err, WS_ERR_INVALID, "ws_gpu_load_config: NULL name");
    if (gpu->timing)
        return err_set(&gpu->err, WS_ERR_INVALID,
                       "--config %s: the GPU configuration cannot change after the first "
                       "timing launch",
                       preset_or_path);
    struct gpu_config nc = gpu->config;
    char *ignored = NULL;
    int rc = config_load_ignored(&nc, preset_or_path, &ignored, &gpu->err);
    if (rc == WS_OK && gpu->nmods && nc.hoist_loads != gpu->config.hoist_loads)
        rc = err_set(&gpu->err, WS_ERR_INVALID,
                     "--config %s: it sets ptx.hoist_loads, but code is already loaded in its "
                     "order; load the configuration before the module",
                     preset_or_path);
    if (rc == WS_OK)
        rc = config_commit(gpu, &nc);
    if (rc == WS_OK && ignored && *ignored) {
        /* a GPGPU-Sim file: name every option warpsim does not model */
        fprintf(stderr, "warpsim: warning: %s: GPGPU-Sim options not modelled, ignored:\n",
                preset_or_path);
        for (char *l = ignored, *nl; *l; l = nl + 1) {
            nl = strchr(l, '\n');
            fprintf(stderr, "warpsim: warning:   %.*s\n", (int)(nl - l), l);
        }
    }
    free(ignored);
    return rc;
}

void ws_gpu_print_config(const ws_gpu *gpu, FILE *out)
{
    if (gpu && out)
        config_print_used(&gpu->config, out);
}

void ws_gpu_options(FILE *out)
{
    config_describe(out);
}

void ws_gpu_set_progress(ws_gpu *gpu, ws_progress_fn fn, void *ctx)
{
    if (!gpu)
        return;
    gpu->progress = fn;
    gpu->progress_ctx = ctx;
}

/* ---- gpu ------------------------------------------------------------------ */

static void register_func_stats(struct stats *s, const struct func_stats *f)
{
    stats_counter(s, "gpu_sim_insn",
                  "thread instructions executed (lanes whose guard was true, as GPGPU-Sim)",
                  &f->gpu_sim_insn, 1, 0);
    stats_counter(s, "gpu_tot_sim_insn", "thread instructions executed over every kernel",
                  &f->gpu_sim_insn, 1, 0);
    stats_counter(s, "simt_active_lanes",
                  "SIMT-active lanes summed over warp instructions, guard-false lanes included",
                  &f->simt_active_lanes, 1, 0);
    stats_counter(s, "warp_insn", "warp instructions", &f->warp_insn, 1, 0);
    stats_counter(s, "kernels_launched", "kernel launches", &f->kernels_launched, 1, 0);
    stats_counter(s, "ctas_launched", "CTAs launched", &f->ctas_launched, 1, 0);
    stats_counter(s, "warps_launched", "warps launched", &f->warps_launched, 1, 0);
    stats_counter(s, "oob_global_reads_zeroed",
                  "thread reads (each vector element) of global memory outside every "
                  "allocation that returned zero (option oob_read_zero)",
                  &f->oob_reads_zeroed, 1, 0);
    for (int c = 0; c < ICLASS_COUNT; c++) {
        char name[64];
        snprintf(name, sizeof name, "warp_insn_%s", inst_class_name((enum inst_class)c));
        stats_counter(s, name, "warp instructions of this class", &f->class_insn[c], 1, 0);
    }
    stats_counter(s, "rf_reads",
                  "register source operands of the warp instructions (a vector's registers "
                  "and an address's base register each count; the guard does not)",
                  &f->rf_reads, 1, 0);
    stats_counter(s, "rf_writes", "destination registers of the warp instructions",
                  &f->rf_writes, 1, 0);
    stats_counter(s, "non_rf_operands",
                  "source operands of the warp instructions that are not registers "
                  "(immediates, addresses, special registers, symbols)",
                  &f->non_rf_operands, 1, 0);
    static const char *const unit_acc[POWER_UNIT_COUNT][2] = {
        {"sp_acc", "integer-ALU accesses as GPGPU-Sim counts them for GPUWattch's SP_ACC "
                   "(every lane x latency weight, inactive lanes in part)"},
        {"fpu_acc", "FPU accesses (GPUWattch FPU_ACC: fp, fp mul/div, int mul/mul24, texture "
                    "fetch lanes)"},
        {"sfu_acc", "SFU accesses (GPUWattch SFU_ACC: int mul32/div, transcendentals)"},
    };
    for (int u = 0; u < POWER_UNIT_COUNT; u++)
        stats_counter(s, unit_acc[u][0], unit_acc[u][1], &f->unit_acc[u], 1, 0);
    stats_counter(s, "racecheck_hazards",
                  "thread accesses to shared memory in a hazard with another warp's access "
                  "since the last barrier (option racecheck)",
                  &f->racecheck_hazards, 1, 0);
    stats_timeline_column(s, "gpu_sim_insn", &f->gpu_sim_insn, 1, 0);
}

int ws_gpu_new(ws_gpu **out)
{
    if (!out)
        return WS_ERR_INVALID;
    ws_gpu *g = xcalloc(1, sizeof *g);
    err_clear(&g->err);
    config_defaults(&g->config);
    mem_init(&g->mem, g->config.device_memory);
    g->out = NULL;
    sync_config(g);
    g->st = stats_new();
    register_func_stats(g->st, &g->stats);
    *out = g;
    return WS_OK;
}

static void module_free(ws_module *m)
{
    if (!m)
        return;
    analysis_free(m->an);
    ptx_module_free(m->ptx);
    free(m);
}

void ws_gpu_free(ws_gpu *gpu)
{
    if (!gpu)
        return;
    for (size_t i = 0; i < gpu->nmods; i++)
        module_free(gpu->mods[i]);
    free(gpu->mods);
    timing_free(gpu->timing);
    sampler_free(gpu->sampler);
    stats_free(gpu->st);
    free(gpu->report);
    mem_fini(&gpu->mem);
    free(gpu);
}

void ws_gpu_set_output(ws_gpu *gpu, FILE *out)
{
    if (gpu)
        gpu->out = out;
}

const char *ws_last_error(const ws_gpu *gpu)
{
    return gpu ? gpu->err.msg : "no gpu (NULL handle)";
}

const char *ws_status_name(int status)
{
    static const char *const names[] = {
        "WS_OK",          "WS_ERR_INVALID", "WS_ERR_PARSE",    "WS_ERR_UNSUPPORTED",
        "WS_ERR_NOT_FOUND", "WS_ERR_NOMEM", "WS_ERR_FAULT",    "WS_ERR_LAUNCH",
        "WS_ERR_DEADLOCK", "WS_ERR_IO",     "WS_ERR_VERIFY",   "WS_ERR_INTERRUPTED",
        "WS_ERR_MISALIGNED",
    };
    if (status < 0 || (size_t)status >= sizeof names / sizeof names[0])
        return "WS_ERR_UNKNOWN";
    return names[status];
}

/* ---- modules -------------------------------------------------------------- */

int ws_module_load_string(ws_gpu *gpu, const char *ptx, const char *name, ws_module **out)
{
    if (!gpu)
        return WS_ERR_INVALID;
    if (!ptx || !out)
        return err_set(&gpu->err, WS_ERR_INVALID, "ws_module_load_string: NULL %s",
                       !ptx ? "ptx text" : "out pointer");
    if (!name)
        name = "<string>";
    struct ptx_module *pm = NULL;
    struct analysis *an = NULL;
    int rc = ptx_parse(ptx, strlen(ptx), name, &pm, &gpu->err);
    if (rc != WS_OK)
        return rc;
    if (gpu->config.hoist_loads)
        hoist_loads(pm);
    rc = analysis_run(pm, &an, &gpu->err);
    if (rc != WS_OK) {
        ptx_module_free(pm);
        return rc;
    }
    ws_module *m = xcalloc(1, sizeof *m);
    m->gpu = gpu;
    m->ptx = pm;
    m->an = an;
    /* place module-scope .global and .const variables in device memory */
    for (uint32_t i = 0; i < pm->nvars; i++) {
        struct ptx_var *v = &pm->vars[i];
        if (v->func != PTX_NO_INDEX ||
            (v->space != PTX_SPACE_GLOBAL && v->space != PTX_SPACE_CONST))
            continue;
        uint64_t addr;
        if (v->flags & PTX_VAR_MANAGED) {
            /* alone in WS_MANAGED_ALIGN-aligned pages, so that a runtime can
             * map them at the same address in the host process */
            uint64_t span = (v->size + WS_MANAGED_ALIGN - 1) / WS_MANAGED_ALIGN * WS_MANAGED_ALIGN;
            rc = mem_alloc(&gpu->mem, (span ? span : WS_MANAGED_ALIGN) + WS_MANAGED_ALIGN, &addr,
                           &gpu->err);
            addr = (addr + WS_MANAGED_ALIGN - 1) / WS_MANAGED_ALIGN * WS_MANAGED_ALIGN;
        } else {
            rc = mem_alloc(&gpu->mem, v->size, &addr, &gpu->err);
        }
        if (rc != WS_OK) {
            err_prefix(&gpu->err, "%s: placing variable '%s': ", name, v->name);
            module_free(m);
            return rc;
        }
        v->addr = addr;
        if (v->init && v->size) {
            uint8_t *p = mem_lookup(&gpu->mem, addr, v->size);
            memcpy(p, v->init, v->size);
        }
    }
    ARRAY_PUSH(gpu->mods, gpu->nmods, gpu->mods_cap)[0] = m;
    *out = m;
    return WS_OK;
}

int ws_module_load_file(ws_gpu *gpu, const char *path, ws_module **out)
{
    if (!gpu)
        return WS_ERR_INVALID;
    if (!path || !out)
        return err_set(&gpu->err, WS_ERR_INVALID, "ws_module_load_file: NULL %s",
                       !path ? "path" : "out pointer");
    char *buf = NULL;
    size_t len = 0;
    if (file_read_all(path, &buf, &len, &gpu->err) != WS_OK)
        return gpu->err.code;
    int rc = ws_module_load_string(gpu, buf, path, out);
    free(buf);
    return rc;
}

int ws_module_set_regs(ws_module *mod, const char *kernel, unsigned regs)
{
    if (!mod)
        return WS_ERR_INVALID;
    ws_gpu *gpu = mod->gpu;
    if (!kernel)
        return err_set(&gpu->err, WS_ERR_INVALID, "ws_module_set_regs: NULL kernel");
    uint32_t i = ptx_find_func(mod->ptx, kernel);
    if (i == PTX_NO_INDEX || !mod->ptx->funcs[i].is_entry)
        return err_set(&gpu->err, WS_ERR_NOT_FOUND, "%s: no kernel '%s'", mod->ptx->name,
                       kernel);
    if (regs < 1 || regs > 255)
        return err_set(&gpu->err, WS_ERR_INVALID,
                       "ws_module_set_regs '%s': %u registers per thread (expected 1 to 255)",
                       kernel, regs);
    mod->ptx->funcs[i].ptxas_regs = regs;
    return WS_OK;
}

int ws_module_symbol(ws_module *mod, const char *name, ws_devptr *addr, size_t *size)
{
    if (!mod)
        return WS_ERR_INVALID;
    ws_gpu *gpu = mod->gpu;
    if (!name)
        return err_set(&gpu->err, WS_ERR_INVALID, "ws_module_symbol: NULL name");
    uint32_t i = ptx_find_var(mod->ptx, name);
    if (i == PTX_NO_INDEX || mod->ptx->vars[i].func != PTX_NO_INDEX ||
        (mod->ptx->vars[i].space != PTX_SPACE_GLOBAL &&
         mod->ptx->vars[i].space != PTX_SPACE_CONST))
        return err_set(&gpu->err, WS_ERR_NOT_FOUND,
                       "%s: no module-level .global or .const variable '%s'", mod->ptx->name,
                       name);
    if (addr)
        *addr = mod->ptx->vars[i].addr;
    if (size)
        *size = (size_t)mod->ptx->vars[i].size;
    return WS_OK;
}

/* ---- memory --------------------------------------------------------------- */

int ws_malloc(ws_gpu *gpu, size_t bytes, ws_devptr *out)
{
    if (!gpu)
        return WS_ERR_INVALID;
    if (!out)
        return err_set(&gpu->err, WS_ERR_INVALID, "ws_malloc: NULL out pointer");
    return mem_alloc(&gpu->mem, bytes, out, &gpu->err);
}

int ws_free(ws_gpu *gpu, ws_devptr ptr)
{
    if (!gpu)
        return WS_ERR_INVALID;
    if (ptr == 0)
        return WS_OK; /* like cudaFree(NULL) */
    return mem_free(&gpu->mem, ptr, &gpu->err);
}

static uint8_t *dev_range(ws_gpu *gpu, const char *fn, ws_devptr p, size_t n, int *rc)
{
    uint8_t *h = mem_lookup(&gpu->mem, p, n);
    if (!h) {
        char why[256];
        mem_describe(&gpu->mem, p, n, why, sizeof why);
        *rc = err_set(&gpu->err, WS_ERR_INVALID, "%s: %zu bytes at 0x%" PRIx64 ": %s", fn, n,
                      p, why);
    }
    return h;
}

static int timing_ensure(ws_gpu *gpu);

int ws_memcpy_htod(ws_gpu *gpu, ws_devptr dst, const void *src, size_t bytes)
{
    if (!gpu)
        return WS_ERR_INVALID;
    if (bytes == 0)
        return WS_OK;
    if (!src)
        return err_set(&gpu->err, WS_ERR_INVALID, "ws_memcpy_htod: NULL source");
    int rc = WS_OK;
    uint8_t *d = dev_range(gpu, "ws_memcpy_htod", dst, bytes, &rc);
    if (d)
        memcpy(d, src, bytes);
    /* l2.memcpy_fill: the copy leaves its lines in the L2, so the timing
     * model is built now (the configuration is fixed from here on) */
    if (d && gpu->config.l2_memcpy_fill && strcmp(gpu->config.mode, "timing") == 0 &&
        (rc = timing_ensure(gpu)) == WS_OK)
        timing_memcpy(gpu->timing, dst, bytes);
    return rc;
}

int ws_memcpy_dtoh(ws_gpu *gpu, void *dst, ws_devptr src, size_t bytes)
{
    if (!gpu)
        return WS_ERR_INVALID;
    if (bytes == 0)
        return WS_OK;
    if (!dst)
        return err_set(&gpu->err, WS_ERR_INVALID, "ws_memcpy_dtoh: NULL destination");
    int rc = WS_OK;
    uint8_t *s = dev_range(gpu, "ws_memcpy_dtoh", src, bytes, &rc);
    if (s)
        memcpy(dst, s, bytes);
    return rc;
}

int ws_memcpy_dtod(ws_gpu *gpu, ws_devptr dst, ws_devptr src, size_t bytes)
{
    if (!gpu)
        return WS_ERR_INVALID;
    if (bytes == 0)
        return WS_OK;
    int rc = WS_OK;
    uint8_t *s = dev_range(gpu, "ws_memcpy_dtod", src, bytes, &rc);
    if (!s)
        return rc;
    uint8_t *d = dev_range(gpu, "ws_memcpy_dtod", dst, bytes, &rc);
    if (d)
        memmove(d, s, bytes);
    return rc;
}

int ws_memset(ws_gpu *gpu, ws_devptr dst, int value, size_t bytes)
{
    if (!gpu)
        return WS_ERR_INVALID;
    if (bytes == 0)
        return WS_OK;
    int rc = WS_OK;
    uint8_t *d = dev_range(gpu, "ws_memset", dst, bytes, &rc);
    if (d)
        memset(d, value, bytes);
    return rc;
}

void ws_gpu_set_interrupt(ws_gpu *gpu, const volatile sig_atomic_t *flag)
{
    if (gpu)
        gpu->interrupt = flag;
}

int ws_gpu_check(ws_gpu *gpu)
{
    if (!gpu)
        return WS_ERR_INVALID;
    int rc = config_validate(&gpu->config, &gpu->err);
    if (rc != WS_OK || gpu->timing || strcmp(gpu->config.mode, "timing") != 0)
        return rc;
    /* a throwaway model on its own statistics registry, so the gpu's
     * statistics (and their order) stay as the first launch makes them */
    struct stats *st = stats_new();
    register_func_stats(st, &gpu->stats);
    struct timing *t = NULL;
    rc = timing_new(&gpu->config, &gpu->mem, st, &t, &gpu->err);
    if (t)
        timing_free(t);
    stats_free(st);
    return rc;
}

/* ---- launch --------------------------------------------------------------- */

static void progress_bridge(void *ctx, uint64_t cycle, uint64_t insn)
{
    ws_gpu *gpu = ctx;
    if (gpu->progress)
        gpu->progress(gpu->progress_ctx, cycle, insn, gpu->launches);
}

/* The timing model, built at the first timing launch (or copy, with
 * l2.memcpy_fill); from then on the machine configuration is fixed. */
static int timing_ensure(ws_gpu *gpu)
{
    if (gpu->timing)
        return WS_OK;
    int rc = config_validate(&gpu->config, &gpu->err);
    if (rc != WS_OK)
        return rc;
    rc = timing_new(&gpu->config, &gpu->mem, gpu->st, &gpu->timing, &gpu->err);
    if (rc != WS_OK)
        return rc;
    timing_set_progress(gpu->timing, progress_bridge, gpu);
    gpu->sampler = sampler_new();
    sampler_register(gpu->sampler, gpu->st);
    return WS_OK;
}

/* The observer of the work that sampled simulation runs functionally from
 * CTA `first` on: functional warming of the caches (sample.warm,
 * timing_warm), then the gpu's own observer. */
struct warm_ctx {
    ws_gpu *gpu;
    uint64_t first;
};

static void warm_trace(void *ctx, const struct func_kernel *k, const struct func_cta *c,
                       const struct func_warp *w, const struct func_trace *t)
{
    const struct warm_ctx *x = ctx;
    timing_warm(x->gpu->timing, c->linear - x->first, t);
    if (x->gpu->trace_fn)
        x->gpu->trace_fn(x->gpu->trace_ctx, k, c, w, t);
}

/* Run CTAs first.. of k functionally for sampled simulation (all of a skipped
 * launch: first = 0), warming the caches with sample.warm. */
static int fast_forward(ws_gpu *gpu, struct func_kernel *k, uint64_t first)
{
    struct warm_ctx x = {gpu, first};
    if (gpu->config.sample_warm) {
        k->env->trace_fn = warm_trace;
        k->env->trace_ctx = &x;
    }
    int rc = first ? func_run_ctas(k, first, &gpu->err) : func_run_kernel(k, &gpu->err);
    k->env->trace_fn = gpu->trace_fn;
    k->env->trace_ctx = gpu->trace_ctx;
    return rc;
}

static int launch_timing(ws_gpu *gpu, struct func_kernel *k)
{
    int rc0 = timing_ensure(gpu);
    if (rc0 != WS_OK)
        return rc0;
    timing_set_interrupt(gpu->timing, gpu->interrupt);
    const uint64_t insn0 = gpu->stats.gpu_sim_insn;
    if (!sampler_detail(gpu->sampler, &gpu->config, k)) {
        int rc = fast_forward(gpu, k, 0);
        if (rc == WS_OK) {
            sampler_skipped(gpu->sampler, k, gpu->stats.gpu_sim_insn - insn0);
            timing_skip(gpu->timing, k);
        }
        return rc;
    }
    uint64_t nctas = (uint64_t)k->grid[0] * k->grid[1] * k->grid[2];
    uint64_t detailed = gpu->config.sample_ctas && gpu->config.sample_ctas < nctas
                            ? gpu->config.sample_ctas
                            : nctas;
    timing_set_cta_limit(gpu->timing, detailed);
    int rc = timing_run(gpu->timing, k, &gpu->err);
    if (rc == WS_OK && detailed < nctas)
        rc = fast_forward(gpu, k, detailed);
    if (rc == WS_OK)
        sampler_detailed(gpu->sampler, k, timing_window(gpu->timing),
                         gpu->stats.gpu_sim_insn - insn0, nctas, detailed);
    if (rc == WS_ERR_DEADLOCK || rc == WS_ERR_INTERRUPTED) {
        free(gpu->report);
        gpu->report = xstrdup(timing_report(gpu->timing));
    }
    return rc;
}

int ws_launch(ws_module *mod, const char *kernel, ws_dim3 grid, ws_dim3 block,
              uint32_t dynamic_shared_bytes, void **args)
{
    if (!mod)
        return WS_ERR_INVALID;
    ws_gpu *gpu = mod->gpu;
    const struct ptx_module *pm = mod->ptx;
    if (!kernel)
        return err_set(&gpu->err, WS_ERR_INVALID, "ws_launch: NULL kernel name");
    uint32_t fi = ptx_find_func(pm, kernel);
    if (fi == PTX_NO_INDEX)
        return err_set(&gpu->err, WS_ERR_NOT_FOUND, "ws_launch: no kernel '%s' in module %s",
                       kernel, pm->name);
    const struct ptx_func *f = &pm->funcs[fi];
    if (!f->is_entry)
        return err_set(&gpu->err, WS_ERR_LAUNCH,
                       "ws_launch: '%s' is a .func, not a kernel (.entry)", kernel);
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    if (block.x == 0 || block.y == 0 || block.z == 0 || block.x > 1024 || block.y > 1024 ||
        block.z > 64 || threads > GPU_MAX_THREADS_PER_CTA)
        return err_set(&gpu->err, WS_ERR_LAUNCH,
                       "ws_launch '%s': block (%u,%u,%u) invalid: each dimension must be "
                       "nonzero (x,y <= 1024, z <= 64) and at most %u threads per block",
                       kernel, block.x, block.y, block.z, GPU_MAX_THREADS_PER_CTA);
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.x > 0x7fffffffu ||
        grid.y > 65535 || grid.z > 65535)
        return err_set(&gpu->err, WS_ERR_LAUNCH,
                       "ws_launch '%s': grid (%u,%u,%u) invalid: each dimension must be "
                       "nonzero (x < 2^31, y,z <= 65535)",
                       kernel, grid.x, grid.y, grid.z);
    uint64_t smem = f->shared_bytes + dynamic_shared_bytes;
    if (smem > GPU_MAX_SHARED_PER_CTA)
        return err_set(&gpu->err, WS_ERR_LAUNCH,
                       "ws_launch '%s': %" PRIu64 " bytes of shared memory (%" PRIu64
                       " static + %u dynamic) exceed the limit of %u per block",
                       kernel, smem, f->shared_bytes, dynamic_shared_bytes,
                       GPU_MAX_SHARED_PER_CTA);
    uint64_t local_limit = gpu->cfg.local_memory_per_thread;
    if (local_limit && f->local_bytes > local_limit)
        return err_set(&gpu->err, WS_ERR_LAUNCH,
                       "ws_launch '%s': the kernel's .local frame takes %" PRIu64
                       " bytes per thread, more than the limit of %" PRIu64
                       " (option local_memory_per_thread)",
                       kernel, f->local_bytes, local_limit);
    if (f->nparams > 0 && !args)
        return err_set(&gpu->err, WS_ERR_INVALID,
                       "ws_launch '%s': the kernel takes %u parameters but args is NULL",
                       kernel, f->nparams);
    uint8_t *pbuf = xcalloc(1, f->param_bytes ? f->param_bytes : 1);
    for (uint32_t i = 0; i < f->nparams; i++) {
        const struct ptx_var *v = &pm->vars[f->params[i]];
        if (!args[i]) {
            free(pbuf);
            return err_set(&gpu->err, WS_ERR_INVALID,
                           "ws_launch '%s': args[%u] (parameter '%s') is NULL", kernel, i,
                           v->name);
        }
        if (v->offset + v->size <= f->param_bytes)
            memcpy(pbuf + v->offset, args[i], v->size);
    }
    struct func_env env = {&gpu->mem,     gpu->out ? gpu->out : stdout,
                           gpu->cfg,      &gpu->stats,
                           gpu->trace_fn, gpu->trace_ctx,
                           gpu->interrupt};
    struct func_kernel k;
    uint32_t g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
    func_kernel_init(&k, &env, pm, mod->an, fi, g, b, dynamic_shared_bytes, pbuf,
                     f->param_bytes);
    free(pbuf);
    int rc;
    gpu->launches++;
    if (strcmp(gpu->config.mode, "timing") == 0)
        rc = launch_timing(gpu, &k);
    else
        rc = func_run_kernel(&k, &gpu->err);
    stats_kernel_end(gpu->st, kernel);
    race_report(&k, stderr);
    func_kernel_fini(&k);
    if (env.out)
        fflush(env.out);
    return rc;
}

int ws_synchronize(ws_gpu *gpu)
{
    return gpu ? WS_OK : WS_ERR_INVALID;
}

/* ---- statistics ----------------------------------------------------------- */

int ws_stat(const ws_gpu *gpu, const char *name, uint64_t *value)
{
    if (!gpu || !name || !value)
        return WS_ERR_INVALID;
    double d;
    if (stats_get(gpu->st, name, &d) != 0)
        return WS_ERR_NOT_FOUND;
    if (stats_get_u64(gpu->st, name, value) != 0)
        *value = d > 0 ? (uint64_t)d : 0;
    return WS_OK;
}

int ws_stat_double(const ws_gpu *gpu, const char *name, double *value)
{
    if (!gpu || !name || !value)
        return WS_ERR_INVALID;
    return stats_get(gpu->st, name, value) == 0 ? WS_OK : WS_ERR_NOT_FOUND;
}

void ws_stats_print(const ws_gpu *gpu, FILE *out)
{
    if (!gpu || !out)
        return;
    stats_print_text(gpu->st, out);
}

/* A JSON string literal of s. */
static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

int ws_stats_write_json(const ws_gpu *gpu, FILE *out)
{
    return ws_stats_write_json_status(gpu, out, "complete", NULL);
}

int ws_stats_write_json_status(const ws_gpu *gpu, FILE *out, const char *status,
                               const char *reason)
{
    if (!gpu || !out || !status)
        return WS_ERR_INVALID;
    fputs("{\n  \"status\": ", out);
    json_string(out, status);
    if (reason) {
        fputs(",\n  \"status_reason\": ", out);
        json_string(out, reason);
    }
    fputs(",\n  \"config\": ", out);
    config_print_json(&gpu->config, out, 2);
    fputs(",\n  \"totals\": ", out);
    stats_print_json(gpu->st, out, 2);
    fputs(",\n  \"kernels\": ", out);
    stats_print_kernels_json(gpu->st, out, 2);
    fputs("\n}\n", out);
    return ferror(out) ? WS_ERR_IO : WS_OK;
}

int ws_timeline_write_csv(const ws_gpu *gpu, FILE *out)
{
    if (!gpu || !out)
        return WS_ERR_INVALID;
    stats_timeline_write_csv(gpu->st, out);
    return ferror(out) ? WS_ERR_IO : WS_OK;
}

const char *ws_deadlock_report(const ws_gpu *gpu)
{
    return gpu && gpu->report ? gpu->report : "";
}
