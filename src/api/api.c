/* api.c: the public C API (include/warpsim.h): gpu lifetime, validated
 * options, module loading, device memory, launches and statistics. */
#include "warpsim.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "api/gpu.h"
#include "base/alloc.h"
#include "ptx/parser.h"

#define GPU_MAX_THREADS_PER_CTA 1024u
#define GPU_MAX_SHARED_PER_CTA (96u * 1024u)

/* ---- options -------------------------------------------------------------- */

struct gpu_option {
    const char *key;
    const char *allowed; /* for messages */
    const char *doc;
    int (*apply)(ws_gpu *gpu, const struct gpu_option *o, const char *value);
};

static int bad_value(ws_gpu *gpu, const struct gpu_option *o, const char *value)
{
    return err_set(&gpu->err, WS_ERR_INVALID, "option '%s': invalid value '%s' (allowed: %s)",
                   o->key, value, o->allowed);
}

/* "123", "64K", "4G" (binary multiples); 0 on success. */
static int parse_size(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s)
        return -1;
    unsigned shift = 0;
    if (*end) {
        switch (*end) {
        case 'k': case 'K': shift = 10; break;
        case 'm': case 'M': shift = 20; break;
        case 'g': case 'G': shift = 30; break;
        default: return -1;
        }
        end++;
        if (*end == 'i')
            end++;
        if (*end == 'B' || *end == 'b')
            end++;
        if (*end)
            return -1;
    }
    if (shift && v > (UINT64_MAX >> shift))
        return -1;
    *out = (uint64_t)v << shift;
    return 0;
}

static int opt_mode(ws_gpu *gpu, const struct gpu_option *o, const char *value)
{
    if (strcmp(value, "functional") != 0)
        return bad_value(gpu, o, value);
    snprintf(gpu->mode, sizeof gpu->mode, "%s", value);
    return WS_OK;
}

static int opt_device_memory(ws_gpu *gpu, const struct gpu_option *o, const char *value)
{
    uint64_t v;
    if (parse_size(value, &v) != 0 || v == 0)
        return bad_value(gpu, o, value);
    if (v < gpu->mem.used)
        return err_set(&gpu->err, WS_ERR_INVALID,
                       "option '%s': %" PRIu64 " bytes is less than the %" PRIu64
                       " bytes already allocated",
                       o->key, v, gpu->mem.used);
    gpu->device_memory = v;
    gpu->mem.limit = v;
    return WS_OK;
}

static int opt_local(ws_gpu *gpu, const struct gpu_option *o, const char *value)
{
    uint64_t v;
    if (parse_size(value, &v) != 0 || v == 0)
        return bad_value(gpu, o, value);
    gpu->cfg.local_memory_per_thread = v;
    return WS_OK;
}

static int opt_max_warp_insn(ws_gpu *gpu, const struct gpu_option *o, const char *value)
{
    uint64_t v;
    if (parse_size(value, &v) != 0)
        return bad_value(gpu, o, value);
    gpu->cfg.max_warp_insn = v;
    return WS_OK;
}

static const struct gpu_option gpu_options[] = {
    {"mode", "functional", "simulation mode (functional: execute without timing)", opt_mode},
    {"device_memory", "a byte count > 0 with optional K, M or G suffix",
     "simulated device memory size in bytes (default 4G)", opt_device_memory},
    {"local_memory_per_thread", "a byte count > 0 with optional K, M or G suffix",
     "local (stack) memory limit per thread (default 1M)", opt_local},
    {"max_warp_insn", "a count (0 = unlimited) with optional K, M or G suffix",
     "warp instructions one launch may execute before it is stopped (default 100G)",
     opt_max_warp_insn},
};
#define GPU_NOPTIONS (sizeof gpu_options / sizeof gpu_options[0])

int ws_gpu_set(ws_gpu *gpu, const char *key, const char *value)
{
    if (!gpu)
        return WS_ERR_INVALID;
    if (!key || !value)
        return err_set(&gpu->err, WS_ERR_INVALID, "ws_gpu_set: NULL key or value");
    for (size_t i = 0; i < GPU_NOPTIONS; i++)
        if (strcmp(gpu_options[i].key, key) == 0)
            return gpu_options[i].apply(gpu, &gpu_options[i], value);
    char keys[512];
    size_t n = 0;
    keys[0] = '\0';
    for (size_t i = 0; i < GPU_NOPTIONS && n < sizeof keys; i++)
        n += (size_t)snprintf(keys + n, sizeof keys - n, "%s%s", i ? ", " : "",
                              gpu_options[i].key);
    return err_set(&gpu->err, WS_ERR_INVALID, "unknown option '%s' (valid keys: %s)", key, keys);
}

void ws_gpu_options(FILE *out)
{
    for (size_t i = 0; i < GPU_NOPTIONS; i++)
        fprintf(out, "%-26s %s\n%-26s allowed: %s\n", gpu_options[i].key, gpu_options[i].doc,
                "", gpu_options[i].allowed);
}

/* ---- gpu ------------------------------------------------------------------ */

int ws_gpu_new(ws_gpu **out)
{
    if (!out)
        return WS_ERR_INVALID;
    ws_gpu *g = xcalloc(1, sizeof *g);
    err_clear(&g->err);
    g->device_memory = 4ull << 30;
    mem_init(&g->mem, g->device_memory);
    g->out = NULL;
    snprintf(g->mode, sizeof g->mode, "functional");
    g->cfg.local_memory_per_thread = 1u << 20;
    g->cfg.max_warp_insn = 100000000000ull;
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
        "WS_ERR_DEADLOCK", "WS_ERR_IO",     "WS_ERR_VERIFY",
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
        rc = mem_alloc(&gpu->mem, v->size, &addr, &gpu->err);
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
    FILE *f = fopen(path, "rb");
    if (!f)
        return err_set(&gpu->err, WS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        array_reserve((void **)&buf, &cap, len + 65536 + 1, 1);
        size_t n = fread(buf + len, 1, cap - len - 1, f);
        len += n;
        if (n == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return err_set(&gpu->err, WS_ERR_IO, "%s: read error", path);
    }
    buf[len] = '\0';
    int rc = ws_module_load_string(gpu, buf, path, out);
    free(buf);
    return rc;
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

/* ---- launch --------------------------------------------------------------- */

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
    uint64_t smem = pm->shared_static_size + dynamic_shared_bytes;
    if (smem > GPU_MAX_SHARED_PER_CTA)
        return err_set(&gpu->err, WS_ERR_LAUNCH,
                       "ws_launch '%s': %" PRIu64 " bytes of shared memory (%" PRIu64
                       " static + %u dynamic) exceed the limit of %u per block",
                       kernel, smem, pm->shared_static_size, dynamic_shared_bytes,
                       GPU_MAX_SHARED_PER_CTA);
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
    struct func_env env = {&gpu->mem, gpu->out ? gpu->out : stdout, gpu->cfg, &gpu->stats};
    struct func_kernel k;
    uint32_t g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
    func_kernel_init(&k, &env, pm, mod->an, fi, g, b, dynamic_shared_bytes, pbuf,
                     f->param_bytes);
    free(pbuf);
    int rc = func_run_kernel(&k, &gpu->err);
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

struct stat_row {
    const char *name;
    size_t offset;
};

static const struct stat_row stat_rows[] = {
    {"gpu_sim_insn", offsetof(struct func_stats, gpu_sim_insn)},
    {"warp_insn", offsetof(struct func_stats, warp_insn)},
    {"thread_insn", offsetof(struct func_stats, thread_insn)},
    {"kernels_launched", offsetof(struct func_stats, kernels_launched)},
    {"ctas_launched", offsetof(struct func_stats, ctas_launched)},
    {"warps_launched", offsetof(struct func_stats, warps_launched)},
};
#define NSTAT_ROWS (sizeof stat_rows / sizeof stat_rows[0])

static uint64_t stat_at(const struct func_stats *s, size_t off)
{
    uint64_t v;
    memcpy(&v, (const char *)s + off, sizeof v);
    return v;
}

int ws_stat(const ws_gpu *gpu, const char *name, uint64_t *value)
{
    if (!gpu || !name || !value)
        return WS_ERR_INVALID;
    for (size_t i = 0; i < NSTAT_ROWS; i++)
        if (strcmp(stat_rows[i].name, name) == 0) {
            *value = stat_at(&gpu->stats, stat_rows[i].offset);
            return WS_OK;
        }
    if (strncmp(name, "warp_insn_", 10) == 0)
        for (int c = 0; c < ICLASS_COUNT; c++)
            if (strcmp(name + 10, inst_class_name((enum inst_class)c)) == 0) {
                *value = gpu->stats.class_insn[c];
                return WS_OK;
            }
    return WS_ERR_NOT_FOUND;
}

void ws_stats_print(const ws_gpu *gpu, FILE *out)
{
    if (!gpu || !out)
        return;
    for (size_t i = 0; i < NSTAT_ROWS; i++)
        fprintf(out, "%s = %" PRIu64 "\n", stat_rows[i].name,
                stat_at(&gpu->stats, stat_rows[i].offset));
    for (int c = 0; c < ICLASS_COUNT; c++)
        fprintf(out, "warp_insn_%s = %" PRIu64 "\n", inst_class_name((enum inst_class)c),
                gpu->stats.class_insn[c]);
}
