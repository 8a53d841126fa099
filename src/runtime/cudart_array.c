/* cudart_array.c: CUDA arrays in warpsim's replacement CUDA runtime:
 * cudaCreateChannelDesc, cudaMallocArray, cudaMalloc3DArray, cudaFreeArray,
 * cudaGetChannelDesc, cudaArrayGetInfo and the copies to and from arrays
 * (cudaMemcpy2DToArray, cudaMemcpyToArray, cudaMemcpy2DFromArray,
 * cudaMemcpyFromArray, cudaMemcpy3D).  An array is a device allocation laid
 * out row-major without padding (cudart_internal.h); handles are checked
 * against the arrays alive, so a stale or garbage handle is an error, never a
 * crash. */
#include "runtime/cudart_internal.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

static struct cudaArray **rt_arrays;
static size_t rt_narrays, rt_arrays_cap;

struct cudaArray *rt_array_find(const void *a, const char *fn)
{
    for (size_t i = 0; i < rt_narrays; i++)
        if (rt_arrays[i] == a)
            return rt_arrays[i];
    rt_error(cudaErrorInvalidResourceHandle, fn, "%p is not a CUDA array (freed, or never allocated)",
             a);
    return NULL;
}

void rt_array_reset(void)
{
    for (size_t i = 0; i < rt_narrays; i++)
        free(rt_arrays[i]);
    rt_narrays = 0;
}

RT_EXPORT struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, int f)
{
    RT_LOCK();
    struct cudaChannelFormatDesc d = {x, y, z, w, f};
    return d;
}

unsigned rt_channel_bytes(const struct cudaChannelFormatDesc *d, const char *fn)
{
    const int b[4] = {d->x, d->y, d->z, d->w};
    unsigned n = 0;
    while (n < 4 && b[n] != 0)
        n++;
    int ok = (n == 1 || n == 2 || n == 4) && (b[0] == 8 || b[0] == 16 || b[0] == 32);
    for (unsigned i = 0; i < 4; i++)
        ok = ok && (i < n ? b[i] == b[0] : b[i] == 0);
    int kind_ok = d->f == cudaChannelFormatKindSigned || d->f == cudaChannelFormatKindUnsigned ||
                  (d->f == cudaChannelFormatKindFloat && b[0] != 8) ||
                  (d->f >= cudaChannelFormatKindUnsignedNormalized8X1 &&
                   d->f <= cudaChannelFormatKindSignedNormalized16X4 && b[0] != 32);
    if (!ok || !kind_ok) {
        rt_error(cudaErrorInvalidChannelDescriptor, fn,
                 "channel format {%d, %d, %d, %d, kind %d} is not supported (1, 2 or 4 channels "
                 "of 8, 16 or 32 bits, all the same size; signed, unsigned, float or "
                 "normalized 8/16-bit kinds)",
                 d->x, d->y, d->z, d->w, d->f);
        return 0;
    }
    return n * (unsigned)b[0] / 8;
}

static cudaError_t array_new(cudaArray_t *out, const struct cudaChannelFormatDesc *desc,
                             size_t w, size_t h, size_t d, unsigned flags, const char *fn)
{
    ws_gpu *gpu = rt_gpu(fn);
    if (!gpu)
        return rt_gpu_status();
    if (!out || !desc)
        return rt_error(cudaErrorInvalidValue, fn, "NULL argument");
    unsigned elem = rt_channel_bytes(desc, fn);
    if (!elem)
        return cudaErrorInvalidChannelDescriptor;
    if (flags & ~(unsigned)(cudaArrayLayered | cudaArraySurfaceLoadStore | 8u /* gather */))
        return rt_error(cudaErrorNotSupported, fn, "array flags 0x%x are not supported", flags);
    const size_t lim = (size_t)1 << 20;
    if (w == 0 || w > lim || h > lim || d > lim || (d && !h && !(flags & cudaArrayLayered)))
        return rt_error(cudaErrorInvalidValue, fn, "bad extent %zu x %zu x %zu", w, h, d);
    size_t rows = h ? h : 1, planes = d ? d : 1;
    size_t pitch = w * elem, slice = pitch * rows;
    if (planes > (SIZE_MAX / 2) / slice)
        return rt_error(cudaErrorMemoryAllocation, fn, "array too large");
    void *p;
    cudaError_t rc = cudaMalloc(&p, slice * planes);
    if (rc != cudaSuccess)
        return rc;
    struct cudaArray *a = xcalloc(1, sizeof *a);
    a->desc = *desc;
    a->width = w;
    a->height = h;
    a->depth = d;
    a->flags = flags;
    a->elem = elem;
    a->dev = (uint64_t)(uintptr_t)p;
    a->pitch = pitch;
    a->slice = slice;
    *ARRAY_PUSH(rt_arrays, rt_narrays, rt_arrays_cap) = a;
    *out = a;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                      size_t width, size_t height, unsigned flags)
{
    RT_LOCK();
    return array_new(array, desc, width, height, 0, flags, "cudaMallocArray");
}

RT_EXPORT cudaError_t cudaMalloc3DArray(cudaArray_t *array,
                                        const struct cudaChannelFormatDesc *desc,
                                        struct cudaExtent extent, unsigned flags)
{
    RT_LOCK();
    return array_new(array, desc, extent.width, extent.height, extent.depth, flags,
                     "cudaMalloc3DArray");
}

RT_EXPORT cudaError_t cudaFreeArray(cudaArray_t array)
{
    RT_LOCK();
    if (!array)
        return cudaSuccess;
    struct cudaArray *a = rt_array_find(array, "cudaFreeArray");
    if (!a)
        return cudaErrorInvalidResourceHandle;
    for (size_t i = 0; i < rt_narrays; i++)
        if (rt_arrays[i] == a)
            rt_arrays[i] = rt_arrays[--rt_narrays];
    cudaError_t rc = cudaFree((void *)(uintptr_t)a->dev);
    free(a);
    return rc;
}

RT_EXPORT cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc,
                                         cudaArray_const_t array)
{
    RT_LOCK();
    struct cudaArray *a = rt_array_find(array, "cudaGetChannelDesc");
    if (!a)
        return cudaErrorInvalidResourceHandle;
    if (!desc)
        return rt_error(cudaErrorInvalidValue, "cudaGetChannelDesc", "desc is NULL");
    *desc = a->desc;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc,
                                       struct cudaExtent *extent, unsigned *flags,
                                       cudaArray_t array)
{
    RT_LOCK();
    struct cudaArray *a = rt_array_find(array, "cudaArrayGetInfo");
    if (!a)
        return cudaErrorInvalidResourceHandle;
    if (desc)
        *desc = a->desc;
    if (extent)
        *extent = (struct cudaExtent){a->width, a->height, a->depth};
    if (flags)
        *flags = a->flags;
    return cudaSuccess;
}

/* ---- copies ---------------------------------------------------------------- */

/* One side of a 3D copy: a base pointer and its row and slice strides. */
struct side {
    char *p;
    size_t pitch, slice;
};

/* The array side at byte column x, row y, slice z for a box of wbytes x h x
 * d; cudaErrorInvalidValue when the box does not fit. */
static cudaError_t array_side(const struct cudaArray *a, size_t x, size_t y, size_t z,
                              size_t wbytes, size_t h, size_t d, struct side *s, const char *fn)
{
    size_t rows = a->height ? a->height : 1, planes = a->depth ? a->depth : 1;
    size_t rowb = a->width * a->elem;
    if (x > rowb || wbytes > rowb - x || y > rows || h > rows - y || z > planes ||
        d > planes - z)
        return rt_error(cudaErrorInvalidValue, fn,
                        "copy of %zu bytes x %zu rows x %zu slices at byte %zu, row %zu, slice "
                        "%zu does not fit the %zu x %zu x %zu array of %u-byte elements",
                        wbytes, h, d, x, y, z, a->width, rows, planes, a->elem);
    s->p = (char *)(uintptr_t)(a->dev + z * a->slice + y * a->pitch + x);
    s->pitch = a->pitch;
    s->slice = a->slice;
    return cudaSuccess;
}

static cudaError_t copy_box(const struct side *dst, const struct side *src, size_t wbytes,
                            size_t h, size_t d, int kind, const char *fn)
{
    ws_gpu *gpu = rt_gpu(fn);
    if (!gpu)
        return rt_gpu_status();
    for (size_t z = 0; z < d; z++)
        for (size_t y = 0; y < h; y++) {
            cudaError_t rc = rt_copy_kind(gpu, dst->p + z * dst->slice + y * dst->pitch,
                                          src->p + z * src->slice + y * src->pitch, wbytes,
                                          kind, fn);
            if (rc != cudaSuccess)
                return rc;
        }
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                          const void *src, size_t spitch, size_t width,
                                          size_t height, int kind)
{
    RT_LOCK();
    const char *fn = "cudaMemcpy2DToArray";
    struct cudaArray *a = rt_array_find(dst, fn);
    if (!a)
        return cudaErrorInvalidResourceHandle;
    if (width > spitch)
        return rt_error(cudaErrorInvalidPitchValue, fn, "width %zu exceeds the pitch %zu", width,
                        spitch);
    struct side d, s = {(char *)(uintptr_t)src, spitch, 0};
    cudaError_t rc = array_side(a, wOffset, hOffset, 0, width, height, 1, &d, fn);
    return rc != cudaSuccess ? rc : copy_box(&d, &s, width, height, 1, kind, fn);
}

RT_EXPORT cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                               const void *src, size_t spitch, size_t width,
                                               size_t height, int kind, cudaStream_t stream)
{
    RT_LOCK();
    cudaError_t rc = rt_check_stream(stream, "cudaMemcpy2DToArrayAsync");
    return rc != cudaSuccess
               ? rc
               : cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}

RT_EXPORT cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src,
                                            size_t wOffset, size_t hOffset, size_t width,
                                            size_t height, int kind)
{
    RT_LOCK();
    const char *fn = "cudaMemcpy2DFromArray";
    struct cudaArray *a = rt_array_find(src, fn);
    if (!a)
        return cudaErrorInvalidResourceHandle;
    if (width > dpitch)
        return rt_error(cudaErrorInvalidPitchValue, fn, "width %zu exceeds the pitch %zu", width,
                        dpitch);
    struct side s, d = {(char *)dst, dpitch, 0};
    cudaError_t rc = array_side(a, wOffset, hOffset, 0, width, height, 1, &s, fn);
    return rc != cudaSuccess ? rc : copy_box(&d, &s, width, height, 1, kind, fn);
}

RT_EXPORT cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src,
                                                 size_t wOffset, size_t hOffset, size_t width,
                                                 size_t height, int kind, cudaStream_t stream)
{
    RT_LOCK();
    cudaError_t rc = rt_check_stream(stream, "cudaMemcpy2DFromArrayAsync");
    return rc != cudaSuccess
               ? rc
               : cudaMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
}

/* The linear range [row hOffset, byte wOffset] + count of an array. */
static cudaError_t array_linear(const struct cudaArray *a, size_t wOffset, size_t hOffset,
                                size_t count, char **p, const char *fn)
{
    size_t rows = a->height ? a->height : 1, planes = a->depth ? a->depth : 1;
    size_t total = a->slice * planes;
    if (hOffset >= rows || wOffset >= a->pitch || hOffset * a->pitch + wOffset > total ||
        count > total - (hOffset * a->pitch + wOffset))
        return rt_error(cudaErrorInvalidValue, fn,
                        "%zu bytes at byte %zu of row %zu do not fit the array", count, wOffset,
                        hOffset);
    *p = (char *)(uintptr_t)(a->dev + hOffset * a->pitch + wOffset);
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                        const void *src, size_t count, int kind)
{
    RT_LOCK();
    const char *fn = "cudaMemcpyToArray";
    struct cudaArray *a = rt_array_find(dst, fn);
    char *p = NULL;
    if (!a)
        return cudaErrorInvalidResourceHandle;
    cudaError_t rc = array_linear(a, wOffset, hOffset, count, &p, fn);
    ws_gpu *gpu = rt_gpu(fn);
    if (rc == cudaSuccess && !gpu)
        return rt_gpu_status();
    return rc != cudaSuccess ? rc : rt_copy_kind(gpu, p, src, count, kind, fn);
}

RT_EXPORT cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset,
                                          size_t hOffset, size_t count, int kind)
{
    RT_LOCK();
    const char *fn = "cudaMemcpyFromArray";
    struct cudaArray *a = rt_array_find(src, fn);
    char *p = NULL;
    if (!a)
        return cudaErrorInvalidResourceHandle;
    cudaError_t rc = array_linear(a, wOffset, hOffset, count, &p, fn);
    ws_gpu *gpu = rt_gpu(fn);
    if (rc == cudaSuccess && !gpu)
        return rt_gpu_status();
    return rc != cudaSuccess ? rc : rt_copy_kind(gpu, dst, p, count, kind, fn);
}

/* One side of cudaMemcpy3D: an array (position in elements) or a pitched
 * pointer (x in bytes). */
static cudaError_t side3d(cudaArray_t arr, struct cudaPos pos, struct cudaPitchedPtr ptr,
                          const struct cudaExtent *e, size_t wbytes, struct side *s,
                          const char *fn)
{
    if (arr) {
        struct cudaArray *a = rt_array_find(arr, fn);
        if (!a)
            return cudaErrorInvalidResourceHandle;
        return array_side(a, pos.x * a->elem, pos.y, pos.z, wbytes, e->height, e->depth, s, fn);
    }
    if (!ptr.ptr || ptr.pitch < wbytes)
        return rt_error(cudaErrorInvalidValue, fn, "bad pitched pointer (%p, pitch %zu)",
                        ptr.ptr, ptr.pitch);
    size_t ysize = ptr.ysize ? ptr.ysize : e->height;
    s->pitch = ptr.pitch;
    s->slice = ptr.pitch * ysize;
    s->p = (char *)ptr.ptr + pos.z * s->slice + pos.y * ptr.pitch + pos.x;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
    RT_LOCK();
    const char *fn = "cudaMemcpy3D";
    if (!p)
        return rt_error(cudaErrorInvalidValue, fn, "NULL parameters");
    if ((p->srcArray != NULL) == (p->srcPtr.ptr != NULL) ||
        (p->dstArray != NULL) == (p->dstPtr.ptr != NULL))
        return rt_error(cudaErrorInvalidValue, fn,
                        "give exactly one of an array and a pointer for each side");
    /* the extent's width is in elements when an array is involved, else bytes */
    const struct cudaArray *ea = p->srcArray ? p->srcArray : p->dstArray;
    size_t elem = 1;
    if (ea) {
        const struct cudaArray *a = rt_array_find(ea, fn);
        if (!a)
            return cudaErrorInvalidResourceHandle;
        elem = a->elem;
    }
    size_t wbytes = p->extent.width * elem;
    struct side s, d;
    cudaError_t rc = side3d(p->srcArray, p->srcPos, p->srcPtr, &p->extent, wbytes, &s, fn);
    if (rc == cudaSuccess)
        rc = side3d(p->dstArray, p->dstPos, p->dstPtr, &p->extent, wbytes, &d, fn);
    if (rc != cudaSuccess)
        return rc;
    return copy_box(&d, &s, wbytes, p->extent.height, p->extent.depth, p->kind, fn);
}

RT_EXPORT cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
    RT_LOCK();
    cudaError_t rc = rt_check_stream(stream, "cudaMemcpy3DAsync");
    return rc != cudaSuccess ? rc : cudaMemcpy3D(p);
}
