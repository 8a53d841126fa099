/* cudart_memory.c: memory in warpsim's replacement CUDA runtime: device,
 * host and managed allocations, copies and memsets, symbols (__device__ and
 * __constant__ variables) and pointer attributes. */
#include "runtime/cudart_internal.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "api/gpu.h"
#include "base/alloc.h"

/* ---- managed memory: host view authoritative outside device operations ---- */

/* The managed allocation holding addr, or NULL. */
static const struct rt_managed *find_managed(uint64_t addr)
{
    for (size_t i = 0; i < rt_g.nmanaged; i++)
        if (addr >= rt_g.managed[i].addr && addr < rt_g.managed[i].addr + rt_g.managed[i].size)
            return &rt_g.managed[i];
    return NULL;
}

static int is_managed(uint64_t addr)
{
    return find_managed(addr) != NULL;
}

void rt_managed_push(ws_gpu *gpu)
{
    for (size_t i = 0; i < rt_g.nmanaged; i++)
        ws_memcpy_htod(gpu, rt_g.managed[i].addr, (const void *)(uintptr_t)rt_g.managed[i].addr,
                       rt_g.managed[i].size);
}

void rt_managed_pull(ws_gpu *gpu)
{
    for (size_t i = 0; i < rt_g.nmanaged; i++)
        ws_memcpy_dtoh(gpu, (void *)(uintptr_t)rt_g.managed[i].addr, rt_g.managed[i].addr,
                       rt_g.managed[i].size);
}

cudaError_t rt_managed_vars_map(struct rt_fatbin *fb, const char *fn)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t ps = page > 0 ? (size_t)page : 4096;
    for (size_t i = 0; i < rt_g.nvars; i++) {
        struct rt_var *v = rt_g.vars[i];
        if (v->fb != fb || !v->managed)
            continue;
        ws_devptr a = 0;
        size_t sz = 0;
        if (ws_module_symbol(fb->mod, v->name, &a, &sz) != WS_OK)
            return rt_error(cudaErrorInvalidSymbol, fn, "__managed__ variable %s: %s", v->name,
                            ws_last_error(rt_g.gpu));
        /* the loader put it alone in WS_MANAGED_ALIGN-aligned pages */
        size_t map = ((sz ? sz : 1) + ps - 1) / ps * ps;
        void *h = MAP_FAILED;
        if (a % WS_MANAGED_ALIGN == 0 && ps <= WS_MANAGED_ALIGN)
            h = mmap((void *)(uintptr_t)a, map, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        if (h == MAP_FAILED || h != (void *)(uintptr_t)a) {
            if (h != MAP_FAILED)
                munmap(h, map);
            return rt_error(cudaErrorMemoryAllocation, fn,
                            "__managed__ variable %s: cannot map host memory at device "
                            "address 0x%llx",
                            v->name, (unsigned long long)a);
        }
        ws_memcpy_dtoh(rt_g.gpu, h, a, sz); /* its initial value */
        struct rt_managed *m = ARRAY_PUSH(rt_g.managed, rt_g.nmanaged, rt_g.managed_cap);
        m->base = 0;
        m->addr = a;
        m->size = sz;
        m->map_size = map;
        *(void **)v->host_var = h;
    }
    return cudaSuccess;
}

cudaError_t rt_mem_hint(const void *ptr, size_t count, const void *stream, const char *fn)
{
    if (stream) {
        cudaError_t rc = rt_check_stream(stream, fn);
        if (rc != cudaSuccess)
            return rc;
    }
    if (!rt_gpu(fn))
        return rt_gpu_status();
    uint64_t a = (uint64_t)(uintptr_t)ptr;
    const struct rt_managed *m = find_managed(a);
    if (!m || count == 0 || count > m->size - (a - m->addr))
        return rt_error(cudaErrorInvalidValue, fn,
                        "%zu bytes at %p are not inside one managed allocation", count, ptr);
    return cudaSuccess;
}

/* A device pointer: inside a device allocation and not managed (whose host
 * mapping is the one to use outside kernels). */
static int is_device(ws_gpu *gpu, const void *p)
{
    uint64_t a = (uint64_t)(uintptr_t)p;
    return mem_lookup(&gpu->mem, a, 1) != NULL && !is_managed(a);
}

/* ---- memory ---------------------------------------------------------------- */

RT_EXPORT cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    RT_LOCK();
    ws_gpu *gpu = rt_gpu("cudaMalloc");
    if (!gpu)
        return rt_gpu_status();
    if (!devPtr)
        return rt_error(cudaErrorInvalidValue, "cudaMalloc", "devPtr is NULL");
    ws_devptr p;
    int st = ws_malloc(gpu, size ? size : 1, &p);
    if (st != WS_OK)
        return rt_error(cudaErrorMemoryAllocation, "cudaMalloc", "%s", ws_last_error(gpu));
    *ARRAY_PUSH(rt_g.allocs, rt_g.nallocs, rt_g.allocs_cap) = p;
    *devPtr = (void *)(uintptr_t)p;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    RT_LOCK();
    if (!pitch)
        return rt_error(cudaErrorInvalidValue, "cudaMallocPitch", "pitch is NULL");
    size_t p = (width + 255) / 256 * 256;
    *pitch = p;
    return cudaMalloc(devPtr, p * (height ? height : 1));
}

static void forget_alloc(uint64_t a)
{
    for (size_t i = 0; i < rt_g.nallocs; i++)
        if (rt_g.allocs[i] == a) {
            rt_g.allocs[i] = rt_g.allocs[--rt_g.nallocs];
            return;
        }
}

RT_EXPORT cudaError_t cudaFree(void *devPtr)
{
    RT_LOCK();
    if (!devPtr)
        return cudaSuccess;
    ws_gpu *gpu = rt_gpu("cudaFree");
    if (!gpu)
        return rt_gpu_status();
    uint64_t a = (uint64_t)(uintptr_t)devPtr;
    const struct rt_managed *mv = find_managed(a);
    if (mv && !mv->base)
        return rt_error(cudaErrorInvalidDevicePointer, "cudaFree",
                        "%p is a __managed__ variable, not an allocation", devPtr);
    for (size_t i = 0; i < rt_g.nmanaged; i++)
        if (rt_g.managed[i].addr == a) {
            munmap(devPtr, rt_g.managed[i].map_size);
            a = rt_g.managed[i].base;
            rt_g.managed[i] = rt_g.managed[--rt_g.nmanaged];
            break;
        }
    if (ws_free(gpu, a) != WS_OK)
        return rt_error(cudaErrorInvalidDevicePointer, "cudaFree", "%s", ws_last_error(gpu));
    forget_alloc(a);
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned flags)
{
    RT_LOCK();
    (void)flags;
    ws_gpu *gpu = rt_gpu("cudaMallocManaged");
    if (!gpu)
        return rt_gpu_status();
    if (!devPtr)
        return rt_error(cudaErrorInvalidValue, "cudaMallocManaged", "devPtr is NULL");
    if (size == 0)
        size = 1;
    long page = sysconf(_SC_PAGESIZE);
    size_t ps = page > 0 ? (size_t)page : 4096;
    ws_devptr base;
    /* over-allocate so a page-aligned address inside the allocation can be
     * mapped on the host at the same address */
    if (ws_malloc(gpu, size + ps, &base) != WS_OK)
        return rt_error(cudaErrorMemoryAllocation, "cudaMallocManaged", "%s",
                        ws_last_error(gpu));
    uint64_t p = (base + ps - 1) / ps * ps;
    size_t map = (size + ps - 1) / ps * ps;
    void *h = mmap((void *)(uintptr_t)p, map, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (h == MAP_FAILED || h != (void *)(uintptr_t)p) {
        if (h != MAP_FAILED)
            munmap(h, map);
        ws_free(gpu, base);
        return rt_error(cudaErrorMemoryAllocation, "cudaMallocManaged",
                        "cannot map host memory at device address 0x%llx",
                        (unsigned long long)p);
    }
    struct rt_managed *m = ARRAY_PUSH(rt_g.managed, rt_g.nmanaged, rt_g.managed_cap);
    m->base = base;
    m->addr = p;
    m->size = size;
    m->map_size = map;
    *ARRAY_PUSH(rt_g.allocs, rt_g.nallocs, rt_g.allocs_cap) = base;
    *devPtr = h;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    RT_LOCK();
    if (!ptr)
        return rt_error(cudaErrorInvalidValue, "cudaMallocHost", "ptr is NULL");
    void *p = NULL;
    if (posix_memalign(&p, 4096, size ? size : 1) != 0)
        return rt_error(cudaErrorMemoryAllocation, "cudaMallocHost",
                        "cannot allocate %zu bytes of host memory", size);
    *ptr = p;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned flags)
{
    RT_LOCK();
    (void)flags;
    return cudaMallocHost(pHost, size);
}

RT_EXPORT cudaError_t cudaFreeHost(void *ptr)
{
    RT_LOCK();
    free(ptr);
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned flags)
{
    RT_LOCK();
    (void)ptr, (void)size, (void)flags;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaHostUnregister(void *ptr)
{
    RT_LOCK();
    (void)ptr;
    return cudaSuccess;
}

/* ---- copies: pointers checked against the copy's kind ------------------------ */

/* Which memory a pointer of a copy must be in, from cudaMemcpyKind. */
enum rt_side { RT_HOST, RT_DEVICE, RT_EITHER };

static const char *const rt_kind_names[] = {"cudaMemcpyHostToHost", "cudaMemcpyHostToDevice",
                                            "cudaMemcpyDeviceToHost",
                                            "cudaMemcpyDeviceToDevice", "cudaMemcpyDefault"};

static enum rt_side kind_dst(int kind)
{
    return kind == cudaMemcpyDefault ? RT_EITHER
           : (kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice) ? RT_DEVICE
                                                                                   : RT_HOST;
}

static enum rt_side kind_src(int kind)
{
    return kind == cudaMemcpyDefault ? RT_EITHER
           : (kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice) ? RT_DEVICE
                                                                                   : RT_HOST;
}

/* Whether [p, p + n) is mapped host memory, readable and (if `writable`)
 * writable.  A host pointer cannot be checked by dereferencing it: a bad one
 * would kill the program with SIGSEGV.  Instead one byte of every page of the
 * range goes through a pipe: write(2) from an unreadable address and read(2)
 * into an unwritable one fail with EFAULT rather than a signal.  The byte read
 * back is the byte that was there, so the probe changes nothing (a thread
 * writing the same range concurrently would race with the copy anyway).  A
 * pipe works in any process, where process_vm_readv may be refused by a
 * seccomp filter; the cost is two system calls per page. */
static int host_range_ok(const void *p, size_t n, int writable)
{
    if ((uintptr_t)p + n < (uintptr_t)p)
        return 0;
    int fd[2];
    if (pipe2(fd, O_CLOEXEC) != 0)
        return 1; /* cannot probe: trust the pointer, as CUDA does */
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t ps = page > 0 ? (uintptr_t)page : 4096;
    uintptr_t a = (uintptr_t)p, end = a + n;
    int ok = 1;
    while (ok && a < end) {
        unsigned char *b = (unsigned char *)a;
        ok = write(fd[1], b, 1) == 1;
        if (ok && writable)
            ok = read(fd[0], b, 1) == 1;
        else if (ok) {
            unsigned char sink;
            ok = read(fd[0], &sink, 1) == 1;
        }
        a = (a / ps + 1) * ps; /* the next page's first byte */
    }
    close(fd[0]);
    close(fd[1]);
    return ok;
}

/* Decides whether pointer p (the copy's "dst" or "src") is device memory,
 * checking it against what `side` requires: 1 device, 0 host, -1 invalid
 * (the error is set).  Managed memory counts as host memory (its host view is
 * the authoritative one between kernels) and is accepted on either side, as
 * CUDA accepts it. */
static int side_of(ws_gpu *gpu, const void *p, size_t n, enum rt_side side, int writable,
                   const char *what, int kind, const char *fn, cudaError_t *rc)
{
    uint64_t a = (uint64_t)(uintptr_t)p;
    if (is_managed(a))
        return 0;
    int dev = mem_lookup(&gpu->mem, a, 1) != NULL;
    if (side == RT_DEVICE && !dev) {
        *rc = rt_error(cudaErrorInvalidValue, fn,
                       "%s %p is not device memory (kind %s)", what, p, rt_kind_names[kind]);
        return -1;
    }
    if (side == RT_HOST && dev) {
        *rc = rt_error(cudaErrorInvalidValue, fn,
                       "%s %p is device memory but kind %s says host memory", what, p,
                       rt_kind_names[kind]);
        return -1;
    }
    if (!dev && !host_range_ok(p, n, writable)) {
        *rc = rt_error(cudaErrorInvalidValue, fn,
                       "%s %p..+%zu is neither device memory nor %s host memory", what, p, n,
                       writable ? "writable" : "readable");
        return -1;
    }
    return dev;
}

/* Copy n bytes as cudaMemcpyKind `kind` says: each pointer must be in the
 * memory the kind names (cudaMemcpyDefault: decided by address), device
 * ranges must lie inside one allocation and host ranges must be mapped;
 * anything else is cudaErrorInvalidValue, never a crash. */
cudaError_t rt_copy_kind(ws_gpu *gpu, void *dst, const void *src, size_t n, int kind,
                         const char *fn)
{
    if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
        return rt_error(cudaErrorInvalidMemcpyDirection, fn, "invalid kind %d", kind);
    if (n == 0)
        return cudaSuccess;
    if (!dst || !src)
        return rt_error(cudaErrorInvalidValue, fn, "NULL pointer");
    cudaError_t rc = cudaSuccess;
    int dd = side_of(gpu, dst, n, kind_dst(kind), 1, "destination", kind, fn, &rc);
    if (dd < 0)
        return rc;
    int sd = side_of(gpu, src, n, kind_src(kind), 0, "source", kind, fn, &rc);
    if (sd < 0)
        return rc;
    uint64_t da = (uint64_t)(uintptr_t)dst, sa = (uint64_t)(uintptr_t)src;
    int st = WS_OK;
    if (dd && sd)
        st = ws_memcpy_dtod(gpu, da, sa, n);
    else if (dd)
        st = ws_memcpy_htod(gpu, da, src, n);
    else if (sd)
        st = ws_memcpy_dtoh(gpu, dst, sa, n);
    else
        memmove(dst, src, n);
    if (st != WS_OK)
        return rt_error(cudaErrorInvalidValue, fn, "%s", ws_last_error(gpu));
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, int kind)
{
    RT_LOCK();
    ws_gpu *gpu = rt_gpu("cudaMemcpy");
    if (!gpu)
        return rt_gpu_status();
    return rt_copy_kind(gpu, dst, src, count, kind, "cudaMemcpy");
}

RT_EXPORT cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, int kind)
{
    RT_LOCK();
    return cudaMemcpy(dst, src, count, kind);
}

RT_EXPORT cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind,
                                      cudaStream_t stream)
{
    RT_LOCK();
    cudaError_t rc = rt_check_stream(stream, "cudaMemcpyAsync");
    return rc != cudaSuccess ? rc : cudaMemcpy(dst, src, count, kind);
}

RT_EXPORT cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, int kind,
                                           cudaStream_t stream)
{
    RT_LOCK();
    return cudaMemcpyAsync(dst, src, count, kind, stream);
}

RT_EXPORT cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                   size_t width, size_t height, int kind)
{
    RT_LOCK();
    ws_gpu *gpu = rt_gpu("cudaMemcpy2D");
    if (!gpu)
        return rt_gpu_status();
    if (width > dpitch || width > spitch)
        return rt_error(cudaErrorInvalidPitchValue, "cudaMemcpy2D",
                        "width %zu exceeds a pitch (dst %zu, src %zu)", width, dpitch, spitch);
    for (size_t r = 0; r < height; r++) {
        cudaError_t rc = rt_copy_kind(gpu, (char *)dst + r * dpitch,
                                   (const char *)src + r * spitch, width, kind, "cudaMemcpy2D");
        if (rc != cudaSuccess)
            return rc;
    }
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                                        size_t spitch, size_t width, size_t height, int kind,
                                        cudaStream_t stream)
{
    RT_LOCK();
    cudaError_t rc = rt_check_stream(stream, "cudaMemcpy2DAsync");
    return rc != cudaSuccess ? rc : cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

RT_EXPORT cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    RT_LOCK();
    ws_gpu *gpu = rt_gpu("cudaMemset");
    if (!gpu)
        return rt_gpu_status();
    if (count == 0)
        return cudaSuccess;
    if (!is_device(gpu, devPtr)) {
        const struct rt_managed *m = find_managed((uint64_t)(uintptr_t)devPtr);
        if (m) {
            uint64_t off = (uint64_t)(uintptr_t)devPtr - m->addr;
            if (count > m->size - off)
                return rt_error(cudaErrorInvalidValue, "cudaMemset",
                                "%zu bytes at %p run past the end of the %zu-byte managed "
                                "allocation at 0x%llx",
                                count, devPtr, m->size, (unsigned long long)m->addr);
            memset(devPtr, value, count);
            return cudaSuccess;
        }
        return rt_error(cudaErrorInvalidValue, "cudaMemset", "%p is not device memory",
                        devPtr);
    }
    if (ws_memset(gpu, (uint64_t)(uintptr_t)devPtr, value, count) != WS_OK)
        return rt_error(cudaErrorInvalidValue, "cudaMemset", "%s", ws_last_error(gpu));
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count)
{
    RT_LOCK();
    return cudaMemset(devPtr, value, count);
}

RT_EXPORT cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
                                      cudaStream_t stream)
{
    RT_LOCK();
    cudaError_t rc = rt_check_stream(stream, "cudaMemsetAsync");
    return rc != cudaSuccess ? rc : cudaMemset(devPtr, value, count);
}

RT_EXPORT cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count,
                                           cudaStream_t stream)
{
    RT_LOCK();
    cudaError_t rc = rt_check_stream(stream, "cudaMemsetAsync");
    return rc != cudaSuccess ? rc : cudaMemset(devPtr, value, count);
}

RT_EXPORT cudaError_t cudaMemGetInfo(size_t *freeMem, size_t *totalMem)
{
    RT_LOCK();
    ws_gpu *gpu = rt_gpu("cudaMemGetInfo");
    if (!gpu)
        return rt_gpu_status();
    uint64_t total = gpu->mem.limit, used = gpu->mem.used;
    if (freeMem)
        *freeMem = (size_t)(total > used ? total - used : 0);
    if (totalMem)
        *totalMem = (size_t)total;
    return cudaSuccess;
}

void rt_reset_memory(void)
{
    if (!rt_g.gpu)
        return;
    /* __managed__ variables stay, as their modules do */
    size_t keep = 0;
    for (size_t i = 0; i < rt_g.nmanaged; i++) {
        if (!rt_g.managed[i].base)
            rt_g.managed[keep++] = rt_g.managed[i];
        else
            munmap((void *)(uintptr_t)rt_g.managed[i].addr, rt_g.managed[i].map_size);
    }
    rt_g.nmanaged = keep;
    for (size_t i = 0; i < rt_g.nallocs; i++)
        ws_free(rt_g.gpu, rt_g.allocs[i]);
    rt_g.nallocs = 0;
    rt_t.ncfg = 0;
}

/* ---- symbols ----------------------------------------------------------------- */

static cudaError_t symbol_addr(const void *symbol, const char *fn, uint64_t *addr, size_t *size)
{
    struct rt_var *v = rt_find_var(symbol);
    if (!v)
        return rt_error(cudaErrorInvalidSymbol, fn,
                        "%p is not a registered __device__ or __constant__ variable", symbol);
    cudaError_t rc = rt_load_fatbin(v->fb, fn);
    if (rc != cudaSuccess)
        return rc;
    ws_devptr a = 0;
    size_t sz = 0;
    if (ws_module_symbol(v->fb->mod, v->name, &a, &sz) != WS_OK)
        return rt_error(cudaErrorInvalidSymbol, fn, "variable %s: %s", v->name,
                        ws_last_error(rt_g.gpu));
    *addr = a;
    *size = sz;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
    RT_LOCK();
    uint64_t a = 0;
    size_t sz = 0;
    cudaError_t rc = symbol_addr(symbol, "cudaGetSymbolAddress", &a, &sz);
    if (rc != cudaSuccess)
        return rc;
    if (!devPtr)
        return rt_error(cudaErrorInvalidValue, "cudaGetSymbolAddress", "devPtr is NULL");
    *devPtr = (void *)(uintptr_t)a;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    RT_LOCK();
    uint64_t a = 0;
    size_t sz = 0;
    cudaError_t rc = symbol_addr(symbol, "cudaGetSymbolSize", &a, &sz);
    if (rc != cudaSuccess)
        return rc;
    if (!size)
        return rt_error(cudaErrorInvalidValue, "cudaGetSymbolSize", "size is NULL");
    *size = sz;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                                         size_t offset, int kind)
{
    RT_LOCK();
    const char *fn = "cudaMemcpyToSymbol";
    uint64_t a = 0;
    size_t sz = 0;
    cudaError_t rc = symbol_addr(symbol, fn, &a, &sz);
    if (rc != cudaSuccess)
        return rc;
    if (offset > sz || count > sz - offset)
        return rt_error(cudaErrorInvalidValue, fn,
                        "%zu bytes at offset %zu exceed the %zu-byte variable", count, offset,
                        sz);
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        return rt_error(cudaErrorInvalidMemcpyDirection, fn, "invalid kind %d", kind);
    return rt_copy_kind(rt_g.gpu, (void *)(uintptr_t)(a + offset), src, count, kind, fn);
}

RT_EXPORT cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count,
                                              size_t offset, int kind)
{
    RT_LOCK();
    return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}

RT_EXPORT cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                              size_t offset, int kind, cudaStream_t stream)
{
    RT_LOCK();
    cudaError_t rc = rt_check_stream(stream, "cudaMemcpyToSymbolAsync");
    return rc != cudaSuccess ? rc : cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}

RT_EXPORT cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                           size_t offset, int kind)
{
    RT_LOCK();
    const char *fn = "cudaMemcpyFromSymbol";
    uint64_t a = 0;
    size_t sz = 0;
    cudaError_t rc = symbol_addr(symbol, fn, &a, &sz);
    if (rc != cudaSuccess)
        return rc;
    if (offset > sz || count > sz - offset)
        return rt_error(cudaErrorInvalidValue, fn,
                        "%zu bytes at offset %zu exceed the %zu-byte variable", count, offset,
                        sz);
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        return rt_error(cudaErrorInvalidMemcpyDirection, fn, "invalid kind %d", kind);
    return rt_copy_kind(rt_g.gpu, dst, (const void *)(uintptr_t)(a + offset), count, kind, fn);
}

RT_EXPORT cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count,
                                                size_t offset, int kind)
{
    RT_LOCK();
    return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}

RT_EXPORT cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count,
                                                size_t offset, int kind, cudaStream_t stream)
{
    RT_LOCK();
    cudaError_t rc = rt_check_stream(stream, "cudaMemcpyFromSymbolAsync");
    return rc != cudaSuccess ? rc : cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}

RT_EXPORT cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width,
                                   size_t height)
{
    RT_LOCK();
    if (width > pitch)
        return rt_error(cudaErrorInvalidPitchValue, "cudaMemset2D", "width %zu > pitch %zu",
                        width, pitch);
    for (size_t r = 0; r < height; r++) {
        cudaError_t rc = cudaMemset((char *)devPtr + r * pitch, value, width);
        if (rc != cudaSuccess)
            return rc;
    }
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
                                        size_t height, cudaStream_t stream)
{
    RT_LOCK();
    cudaError_t rc = rt_check_stream(stream, "cudaMemset2DAsync");
    return rc != cudaSuccess ? rc : cudaMemset2D(devPtr, pitch, value, width, height);
}

/* cudaPointerAttributes as CUDA 11+ lays it out. */
struct rt_pointer_attributes {
    int type;         /* 0 unregistered, 1 host, 2 device, 3 managed */
    int device;
    void *devicePointer;
    void *hostPointer;
    long reserved[8];
};

RT_EXPORT cudaError_t cudaPointerGetAttributes(struct rt_pointer_attributes *attr,
                                               const void *ptr)
{
    RT_LOCK();
    if (!attr)
        return rt_error(cudaErrorInvalidValue, "cudaPointerGetAttributes", "attr is NULL");
    ws_gpu *gpu = rt_gpu("cudaPointerGetAttributes");
    if (!gpu)
        return rt_gpu_status();
    uint64_t a = (uint64_t)(uintptr_t)ptr;
    /* only the fields CUDA 11-13 share: CUDA 13 added reserved[8] */
    attr->type = 0;
    attr->device = 0;
    attr->devicePointer = attr->hostPointer = NULL;
    if (is_managed(a)) {
        attr->type = 3;
        attr->devicePointer = attr->hostPointer = (void *)ptr;
    } else if (is_device(gpu, ptr)) {
        attr->type = 2;
        attr->devicePointer = (void *)ptr;
    }
    return cudaSuccess;
}
