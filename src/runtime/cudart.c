/* cudart.c: warpsim's replacement CUDA runtime: process-wide state, error
 * reporting, initialisation and teardown, fatbinary loading and the
 * registration entry points nvcc's host code calls (__cudaRegister*), all on
 * top of the public warpsim API.  Kernel launch is in cudart_launch.c, memory
 * and symbols in cudart_memory.c, device and stream/event calls in
 * cudart_device.c, unsupported entry points in cudart_stubs.c. */
#include "runtime/rt.h"

#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "api/gpu.h"
#include "base/alloc.h"
#include "base/file.h"
#include "runtime/cudart_internal.h"
#include "runtime/fatbin.h"

/* ---- state ---------------------------------------------------------------- */

struct rt_state rt_g;
__thread struct rt_thread rt_t;

/* recursive: entry points call one another (cudaMallocPitch -> cudaMalloc,
 * stream callbacks may call the runtime) */
static pthread_mutex_t rt_mu = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

void rt_lock(void)
{
    pthread_mutex_lock(&rt_mu);
}

void rt_unlock(int *guard)
{
    (void)guard;
    pthread_mutex_unlock(&rt_mu);
}

/* ---- errors --------------------------------------------------------------- */

cudaError_t rt_error(cudaError_t code, const char *fn, const char *fmt, ...)
{
    if (code != cudaSuccess)
        rt_t.last_error = code;
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "warpsim: %s: ", fn);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
    return code;
}

cudaError_t rt_from_ws(int st)
{
    switch (st) {
    case WS_OK: return cudaSuccess;
    case WS_ERR_INVALID: return cudaErrorInvalidValue;
    case WS_ERR_PARSE: return cudaErrorInvalidPtx;
    case WS_ERR_UNSUPPORTED: return cudaErrorNotSupported;
    case WS_ERR_NOT_FOUND: return cudaErrorInvalidDeviceFunction;
    case WS_ERR_NOMEM: return cudaErrorMemoryAllocation;
    case WS_ERR_FAULT: return cudaErrorIllegalAddress;
    case WS_ERR_MISALIGNED: return cudaErrorMisalignedAddress;
    case WS_ERR_LAUNCH: return cudaErrorInvalidConfiguration;
    case WS_ERR_DEADLOCK: return cudaErrorLaunchTimeout;
    default: return cudaErrorLaunchFailure;
    }
}

/* ---- initialisation and teardown ------------------------------------------ */

static int apply_set_list(ws_gpu *gpu, const char *list)
{
    char *copy = xstrdup(list);
    int rc = WS_OK;
    for (char *save = NULL, *tok = strtok_r(copy, ";", &save); tok;
         tok = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq || eq == tok) {
            fprintf(stderr, "warpsim: WARPSIM_SET: expected key=value, got '%s'\n", tok);
            rc = WS_ERR_INVALID;
            break;
        }
        *eq = '\0';
        if ((rc = ws_gpu_set(gpu, tok, eq + 1)) != WS_OK) {
            fprintf(stderr, "warpsim: WARPSIM_SET %s=%s: %s\n", tok, eq + 1, ws_last_error(gpu));
            break;
        }
    }
    free(copy);
    return rc;
}

static int configure(ws_gpu *gpu)
{
    const char *v;
    if ((v = getenv("WARPSIM_CONFIG")) && *v && ws_gpu_load_config(gpu, v) != WS_OK) {
        fprintf(stderr, "warpsim: WARPSIM_CONFIG=%s: %s\n", v, ws_last_error(gpu));
        return WS_ERR_INVALID;
    }
    if ((v = getenv("WARPSIM_MODE")) && *v && ws_gpu_set(gpu, "mode", v) != WS_OK) {
        fprintf(stderr, "warpsim: WARPSIM_MODE=%s: %s\n", v, ws_last_error(gpu));
        return WS_ERR_INVALID;
    }
    if ((v = getenv("WARPSIM_SCHED")) && *v && ws_gpu_set(gpu, "sm.sched", v) != WS_OK) {
        fprintf(stderr, "warpsim: WARPSIM_SCHED=%s: %s\n", v, ws_last_error(gpu));
        return WS_ERR_INVALID;
    }
    if ((v = getenv("WARPSIM_SET")) && *v && apply_set_list(gpu, v) != WS_OK)
        return WS_ERR_INVALID;
    return WS_OK;
}

/* Ctrl-C while a kernel runs stops it where it is (the launch reports every
 * warp's position and the process exits 130 with partial statistics);
 * only when the program has not installed its own handler. */
static volatile sig_atomic_t rt_interrupt;

static void on_sigint(int sig)
{
    (void)sig;
    rt_interrupt = 1;
}

static void catch_sigint(ws_gpu *gpu)
{
    struct sigaction old;
    if (sigaction(SIGINT, NULL, &old) != 0 || old.sa_handler != SIG_DFL)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sa.sa_flags = SA_RESETHAND; /* a second Ctrl-C kills the process */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    ws_gpu_set_interrupt(gpu, &rt_interrupt);
}

cudaError_t rt_gpu_status(void)
{
    return rt_g.sticky ? rt_g.sticky : rt_g.init_rc;
}

ws_gpu *rt_gpu(const char *fn)
{
    if (!rt_g.inited) {
        rt_g.inited = 1;
        const char *v = getenv("WARPSIM_STATS_JSON");
        if (v && *v)
            rt_g.stats_json = xstrdup(v);
        v = getenv("WARPSIM_TIMELINE");
        if (v && *v)
            rt_g.timeline = xstrdup(v);
        v = getenv("WARPSIM_STATS");
        rt_g.stats_print = v && *v && strcmp(v, "0") != 0;
        v = getenv("WARPSIM_PROGRESS");
        int progress = v && *v ? strcmp(v, "0") != 0 : progress_wanted(0);
        if (ws_gpu_new(&rt_g.gpu) != WS_OK) {
            rt_g.gpu = NULL;
            rt_g.init_rc = cudaErrorInitializationError;
        } else if (configure(rt_g.gpu) != WS_OK) {
            ws_gpu_free(rt_g.gpu);
            rt_g.gpu = NULL;
            rt_g.init_rc = cudaErrorInitializationError;
        } else {
            if (progress) {
                progress_line_start(&rt_g.progress);
                ws_gpu_set_progress(rt_g.gpu, progress_line_report, &rt_g.progress);
            }
            catch_sigint(rt_g.gpu);
        }
    }
    if (!rt_g.gpu) {
        rt_error(rt_g.init_rc, fn, "the simulated GPU could not be initialised (see above)");
        return NULL;
    }
    if (rt_g.sticky) {
        /* counted, not printed: the summary at exit tells how many */
        rt_g.nrefused++;
        rt_error(rt_g.sticky, fn, NULL);
        return NULL;
    }
    return rt_g.gpu;
}

/* The statistics JSON (json) or the timeline CSV, written atomically so that
 * a failed write never leaves a truncated file. */
static void write_at_exit(const char *path, const char *what, int json)
{
    struct file_out o;
    struct err e;
    if (file_out_open(&o, path, &e) != WS_OK) {
        fprintf(stderr, "warpsim: %s: %s\n", what, e.msg);
        return;
    }
    int rc = json ? ws_stats_write_json_status(rt_g.gpu, o.f,
                                               rt_g.interrupted ? "partial"
                                               : rt_g.failure   ? "failed"
                                                                : "complete",
                                               rt_g.failure)
                  : ws_timeline_write_csv(rt_g.gpu, o.f);
    if (rc != WS_OK) {
        fprintf(stderr, "warpsim: error writing the %s to %s\n", what, path);
        file_out_abort(&o);
    } else if (file_out_commit(&o, &e) != WS_OK) {
        fprintf(stderr, "warpsim: %s: %s\n", what, e.msg);
    }
}

__attribute__((destructor)) static void rt_fini(void)
{
    RT_LOCK(); /* waits for another thread's call in progress */
    fflush(stdout);
    rt_ptx_dump_unloaded();
    rt_report_at_exit();
    if (rt_g.gpu) {
        if (rt_g.stats_json)
            write_at_exit(rt_g.stats_json, "statistics", 1);
        if (rt_g.timeline)
            write_at_exit(rt_g.timeline, "timeline", 0);
        if (rt_g.stats_print)
            ws_stats_print(rt_g.gpu, stderr);
        for (size_t i = 0; i < rt_g.nmanaged; i++)
            munmap((void *)(uintptr_t)rt_g.managed[i].addr, rt_g.managed[i].map_size);
        ws_gpu_free(rt_g.gpu);
        rt_g.gpu = NULL;
    }
    for (size_t i = 0; i < rt_g.nfuncs; i++) {
        free(rt_g.funcs[i]->name);
        free(rt_g.funcs[i]);
    }
    for (size_t i = 0; i < rt_g.nvars; i++) {
        free(rt_g.vars[i]->name);
        free(rt_g.vars[i]);
    }
    for (size_t i = 0; i < rt_g.nfbs; i++)
        free(rt_g.fbs[i]);
    for (size_t i = 0; i < rt_g.nstreams; i++)
        free(rt_g.streams[i]);
    for (size_t i = 0; i < rt_g.nevents; i++)
        free(rt_g.events[i]);
    free(rt_g.streams);
    free(rt_g.events);
    free(rt_g.funcs);
    free(rt_g.vars);
    free(rt_g.fbs);
    free(rt_g.managed);
    free(rt_g.allocs);
    free(rt_g.stats_json);
    free(rt_g.timeline);
    free(rt_g.failure);
    memset(&rt_g, 0, sizeof rt_g);
}

double rt_now_ms(void)
{
    ws_gpu *gpu = rt_g.gpu;
    if (!gpu)
        return 0.0;
    uint64_t cycles = 0;
    if (ws_stat(gpu, "gpu_sim_cycle", &cycles) != WS_OK || cycles == 0) {
        /* functional mode: one warp instruction per SM per cycle */
        uint64_t insn = 0;
        ws_stat(gpu, "warp_insn", &insn);
        uint32_t sms = gpu->config.n_sms ? gpu->config.n_sms : 1;
        cycles = insn / sms;
    }
    double mhz = gpu->config.core_mhz > 0 ? gpu->config.core_mhz : 1000.0;
    return (double)cycles / (mhz * 1000.0);
}

/* ---- module loading ------------------------------------------------------- */

cudaError_t rt_load_fatbin(struct rt_fatbin *fb, const char *fn)
{
    if (fb->tried)
        return fb->load_rc;
    ws_gpu *gpu = rt_gpu(fn);
    if (!gpu)
        return rt_gpu_status();
    fb->tried = 1;
    struct err e;
    err_clear(&e);
    const uint8_t *data;
    size_t len;
    struct fatbin f;
    if (fatbin_from_wrapper(fb->wrapper, &data, &len, &e) != WS_OK ||
        fatbin_parse(data, len, &f, &e) != WS_OK) {
        fb->load_rc = cudaErrorInvalidKernelImage;
        rt_error(fb->load_rc, fn, "device code of translation unit %u: %s", fb->index, e.msg);
        return fb->load_rc;
    }
    size_t idx[64];
    size_t n = fatbin_ptx_order(&f, idx, 64);
    if (n == 0) {
        fatbin_best_ptx(&f, NULL, NULL, NULL, &e); /* builds the message */
        fb->load_rc = cudaErrorNoKernelImageForDevice;
        rt_error(fb->load_rc, fn, "translation unit %u: %s", fb->index, e.msg);
        fatbin_free(&f);
        return fb->load_rc;
    }
    fb->load_rc = cudaErrorInvalidPtx;
    for (size_t k = 0; k < n; k++) {
        char *ptx;
        size_t plen;
        const struct fatbin_entry *en = &f.entries[idx[k]];
        if (fatbin_entry_data(en, &ptx, &plen, &e) != WS_OK) {
            fb->load_rc = cudaErrorInvalidKernelImage;
            continue;
        }
        char name[4096];
        rt_ptx_name(fb, en->arch, name, sizeof name);
        rt_ptx_dump(fb, ptx, plen, en->arch);
        int st = ws_module_load_string(gpu, ptx, name, &fb->mod);
        if (st == WS_OK && gpu->config.ptxas_regs &&
            rt_ptxas_regs(fb->mod, ptx, plen, en->arch, name, e.msg, sizeof e.msg) != 0) {
            free(ptx);
            fb->load_rc = cudaErrorInvalidPtx; /* asked for ptxas's counts: no fallback */
            break;
        }
        free(ptx);
        if (st == WS_OK) {
            fb->load_rc = cudaSuccess;
            break;
        }
        snprintf(e.msg, sizeof e.msg, "%s", ws_last_error(gpu));
        fb->load_rc =
            rt_from_ws(st) == cudaErrorNotSupported ? cudaErrorInvalidPtx : rt_from_ws(st);
    }
    fatbin_free(&f);
    if (fb->load_rc != cudaSuccess)
        rt_error(fb->load_rc, fn, "cannot load the PTX of translation unit %u: %s", fb->index,
                 e.msg);
    else
        fb->load_rc = rt_managed_vars_map(fb, fn);
    return fb->load_rc;
}

/* ---- registration ------------------------------------------------------- */

RT_EXPORT void **__cudaRegisterFatBinary(void *fatCubin)
{
    RT_LOCK();
    struct rt_fatbin *fb = xcalloc(1, sizeof *fb);
    fb->wrapper = fatCubin;
    fb->index = (unsigned)rt_g.nfbs;
    *ARRAY_PUSH(rt_g.fbs, rt_g.nfbs, rt_g.fbs_cap) = fb;
    return (void **)fb;
}

RT_EXPORT void __cudaRegisterFatBinaryEnd(void **fatCubinHandle)
{
    RT_LOCK();
    (void)fatCubinHandle;
}

RT_EXPORT void __cudaUnregisterFatBinary(void **fatCubinHandle)
{
    RT_LOCK();
    (void)fatCubinHandle; /* modules live until the library destructor */
}

/* nvcc's host code calls this before its first access to a __managed__
 * variable of the translation unit (through __nv_init_managed_rt): load the
 * module so that the variables' host pointers are set. */
RT_EXPORT char __cudaInitModule(void **fatCubinHandle)
{
    RT_LOCK();
    struct rt_fatbin *fb = (struct rt_fatbin *)fatCubinHandle;
    return fb && rt_load_fatbin(fb, "__cudaInitModule") == cudaSuccess;
}

RT_EXPORT void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun,
                                      char *deviceFun, const char *deviceName, int thread_limit,
                                      void *tid, void *bid, void *bDim, void *gDim, int *wSize)
{
    RT_LOCK();
    (void)deviceFun, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim,
        (void)wSize;
    struct rt_func *f = xcalloc(1, sizeof *f);
    f->host_fun = hostFun;
    f->name = xstrdup(deviceName);
    f->fb = (struct rt_fatbin *)fatCubinHandle;
    *ARRAY_PUSH(rt_g.funcs, rt_g.nfuncs, rt_g.funcs_cap) = f;
}

RT_EXPORT void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
                                 const char *deviceName, int ext, size_t size, int constant,
                                 int global)
{
    RT_LOCK();
    (void)deviceAddress, (void)ext, (void)global;
    struct rt_var *v = xcalloc(1, sizeof *v);
    v->host_var = hostVar;
    v->name = xstrdup(deviceName);
    v->fb = (struct rt_fatbin *)fatCubinHandle;
    v->size = size;
    v->constant = constant;
    *ARRAY_PUSH(rt_g.vars, rt_g.nvars, rt_g.vars_cap) = v;
}

RT_EXPORT void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress,
                                        char *deviceAddress, const char *deviceName, int ext,
                                        size_t size, int constant, int global)
{
    RT_LOCK();
    __cudaRegisterVar(fatCubinHandle, (char *)hostVarPtrAddress, deviceAddress, deviceName, ext,
                      size, constant, global);
    rt_g.vars[rt_g.nvars - 1]->managed = 1;
}

RT_EXPORT void __cudaRegisterTexture(void **h, const void *hostVar, const void **deviceAddress,
                                     const char *deviceName, int dim, int norm, int ext)
{
    RT_LOCK();
    (void)h, (void)hostVar, (void)deviceAddress, (void)dim, (void)norm, (void)ext;
    rt_error(cudaErrorNotSupported, "__cudaRegisterTexture",
             "texture reference '%s' is not supported by warpsim", deviceName);
}

RT_EXPORT void __cudaRegisterSurface(void **h, const void *hostVar, const void **deviceAddress,
                                     const char *deviceName, int dim, int ext)
{
    RT_LOCK();
    (void)h, (void)hostVar, (void)deviceAddress, (void)dim, (void)ext;
    rt_error(cudaErrorNotSupported, "__cudaRegisterSurface",
             "surface reference '%s' is not supported by warpsim", deviceName);
}

struct rt_func *rt_find_func(const void *host_fun)
{
    for (size_t i = 0; i < rt_g.nfuncs; i++)
        if (rt_g.funcs[i]->host_fun == host_fun)
            return rt_g.funcs[i];
    return NULL;
}

struct rt_var *rt_find_var(const void *host_var)
{
    for (size_t i = 0; i < rt_g.nvars; i++) {
        const struct rt_var *v = rt_g.vars[i];
        /* a __managed__ variable is named by its host address (what the
         * program's `&var` gives) once mapped */
        if (v->host_var == host_var ||
            (v->managed && host_var && *(void *const *)v->host_var == host_var))
            return rt_g.vars[i];
    }
    return NULL;
}

/* ---- last error ------------------------------------------------------------ */

RT_EXPORT cudaError_t cudaGetLastError(void)
{
    RT_LOCK();
    cudaError_t e = rt_t.last_error;
    rt_t.last_error = cudaSuccess;
    return e;
}

RT_EXPORT cudaError_t cudaPeekAtLastError(void)
{
    RT_LOCK();
    return rt_t.last_error;
}

