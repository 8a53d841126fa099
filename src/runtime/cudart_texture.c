/* cudart_texture.c: texture and surface objects in warpsim's replacement
 * CUDA runtime: cudaCreateTextureObject, cudaDestroyTextureObject,
 * cudaGetTextureObjectResourceDesc, cudaGetTextureObjectTextureDesc,
 * cudaCreateSurfaceObject, cudaDestroySurfaceObject,
 * cudaGetSurfaceObjectResourceDesc.
 *
 * An object is a struct tex_desc (func/tex.h) in device memory; its handle is
 * the descriptor's device address, which the kernel's tex/suld/sust
 * instructions read.  The runtime keeps the descriptions it was given, so
 * destroy and the getters check the handle.  Resources: CUDA arrays
 * (textures and surfaces), linear memory and pitched 2D memory (textures).
 * Not supported (cudaErrorNotSupported and a message): mipmapped arrays,
 * resource views, sRGB. */
#include "runtime/cudart_internal.h"

#include <stdlib.h>
#include <string.h>

#include "api/gpu.h"
#include "base/alloc.h"
#include "func/tex.h"

struct rt_obj {
    uint64_t handle;
    int surface;
    struct cudaResourceDesc res;
    struct cudaTextureDesc tex;
};

static struct rt_obj *rt_objs;
static size_t rt_nobjs, rt_objs_cap;

void rt_texture_reset(void)
{
    rt_nobjs = 0;
}

/* Channel format -> descriptor fields. */
static cudaError_t set_format(struct tex_desc *d, const struct cudaChannelFormatDesc *c,
                              const char *fn)
{
    unsigned bytes = rt_channel_bytes(c, fn);
    if (!bytes)
        return cudaErrorInvalidChannelDescriptor;
    d->chan_bits = (uint8_t)c->x;
    d->nchan = (uint8_t)(bytes * 8 / (unsigned)c->x);
    if (c->f >= cudaChannelFormatKindUnsignedNormalized8X1) {
        /* the normalized kinds: 5-10 unsigned, 11-16 signed */
        d->kind = c->f <= cudaChannelFormatKindUnsignedNormalized8X1 + 5 ? TEX_KIND_UNSIGNED
                                                                         : TEX_KIND_SIGNED;
        d->read_normalized = 1;
    } else {
        d->kind = (uint8_t)c->f;
    }
    return cudaSuccess;
}

/* Device memory [p, p + n) inside one allocation? */
static int dev_range(const void *p, uint64_t n)
{
    return rt_g.gpu && mem_lookup(&rt_g.gpu->mem, (uint64_t)(uintptr_t)p, n) != NULL;
}

static cudaError_t set_resource(struct tex_desc *d, const struct cudaResourceDesc *r, int surface,
                                const char *fn)
{
    if (!r)
        return rt_error(cudaErrorInvalidValue, fn, "pResDesc is NULL");
    d->height = d->depth = d->layers = 1;
    d->dims = 1;
    cudaError_t rc;
    switch (r->resType) {
    case cudaResourceTypeArray: {
        const struct cudaArray *a = rt_array_find(r->res.array.array, fn);
        if (!a)
            return cudaErrorInvalidResourceHandle;
        if (surface && !(a->flags & cudaArraySurfaceLoadStore))
            return rt_error(cudaErrorInvalidValue, fn,
                            "the array was not allocated with cudaArraySurfaceLoadStore");
        if ((rc = set_format(d, &a->desc, fn)) != cudaSuccess)
            return rc;
        d->res = TEX_RES_ARRAY;
        d->layered = (a->flags & cudaArrayLayered) != 0;
        d->dims = a->depth && !d->layered ? 3 : a->height ? 2 : 1;
        d->width = a->width;
        d->height = a->height ? a->height : 1;
        if (d->layered)
            d->layers = a->depth ? a->depth : 1;
        else
            d->depth = a->depth ? a->depth : 1;
        d->base = a->dev;
        d->pitch = a->pitch;
        d->slice = a->slice;
        return cudaSuccess;
    }
    case cudaResourceTypeLinear: {
        if (surface)
            break;
        if ((rc = set_format(d, &r->res.linear.desc, fn)) != cudaSuccess)
            return rc;
        size_t n = r->res.linear.sizeInBytes;
        if (n < tex_texel_bytes(d) || !dev_range(r->res.linear.devPtr, n))
            return rt_error(cudaErrorInvalidValue, fn,
                            "linear resource %p..+%zu is not inside one device allocation",
                            r->res.linear.devPtr, n);
        d->res = TEX_RES_LINEAR;
        d->width = n / tex_texel_bytes(d);
        d->pitch = d->slice = d->width * tex_texel_bytes(d);
        d->base = (uint64_t)(uintptr_t)r->res.linear.devPtr;
        return cudaSuccess;
    }
    case cudaResourceTypePitch2D: {
        if (surface)
            break;
        if ((rc = set_format(d, &r->res.pitch2D.desc, fn)) != cudaSuccess)
            return rc;
        size_t w = r->res.pitch2D.width, h = r->res.pitch2D.height;
        size_t pitch = r->res.pitch2D.pitchInBytes;
        size_t lim = (size_t)1 << 30;
        if (w == 0 || h == 0 || w > lim || h > lim || pitch < w * tex_texel_bytes(d) ||
            pitch > lim || !dev_range(r->res.pitch2D.devPtr, (h - 1) * pitch + w * tex_texel_bytes(d)))
            return rt_error(cudaErrorInvalidValue, fn,
                            "pitched resource %p (%zu x %zu, pitch %zu) is not inside one "
                            "device allocation",
                            r->res.pitch2D.devPtr, w, h, pitch);
        d->res = TEX_RES_PITCH2D;
        d->dims = 2;
        d->width = w;
        d->height = h;
        d->pitch = pitch;
        d->slice = pitch * h;
        d->base = (uint64_t)(uintptr_t)r->res.pitch2D.devPtr;
        return cudaSuccess;
    }
    case cudaResourceTypeMipmappedArray:
        return rt_error(cudaErrorNotSupported, fn, "mipmapped arrays are not supported");
    default:
        break;
    }
    return rt_error(cudaErrorInvalidValue, fn,
                    "resource type %d is not valid for a %s object", r->resType,
                    surface ? "surface" : "texture");
}

static cudaError_t set_sampler(struct tex_desc *d, const struct cudaTextureDesc *t, const char *fn)
{
    if (!t)
        return rt_error(cudaErrorInvalidValue, fn, "pTexDesc is NULL");
    for (int k = 0; k < 3; k++) {
        if (t->addressMode[k] < TEX_ADDR_WRAP || t->addressMode[k] > TEX_ADDR_BORDER)
            return rt_error(cudaErrorInvalidValue, fn, "bad addressMode[%d] %d", k,
                            t->addressMode[k]);
        d->addr[k] = (uint8_t)t->addressMode[k];
    }
    if ((t->filterMode != cudaFilterModePoint && t->filterMode != cudaFilterModeLinear) ||
        (t->readMode != cudaReadModeElementType && t->readMode != cudaReadModeNormalizedFloat))
        return rt_error(cudaErrorInvalidValue, fn, "bad filterMode %d or readMode %d",
                        t->filterMode, t->readMode);
    if (t->sRGB)
        return rt_error(cudaErrorNotSupported, fn, "sRGB textures are not supported");
    if (t->readMode == cudaReadModeNormalizedFloat && d->kind != TEX_KIND_FLOAT) {
        if (d->chan_bits == 32)
            return rt_error(cudaErrorInvalidValue, fn,
                            "cudaReadModeNormalizedFloat needs 8- or 16-bit integer channels");
        d->read_normalized = 1;
    }
    d->filter_linear = t->filterMode == cudaFilterModeLinear;
    d->norm_coords = t->normalizedCoords != 0;
    memcpy(d->border, t->borderColor, sizeof d->border);
    if (d->filter_linear && !tex_returns_float(d))
        return rt_error(cudaErrorInvalidValue, fn,
                        "linear filtering needs float results (a float format, or "
                        "cudaReadModeNormalizedFloat on 8/16-bit integers)");
    return cudaSuccess;
}

/* Place descriptor d in device memory and record the object. */
static cudaError_t obj_new(const struct tex_desc *d, const struct cudaResourceDesc *r,
                           const struct cudaTextureDesc *t, uint64_t *handle, const char *fn)
{
    if (tex_desc_check(d))
        return rt_error(cudaErrorInvalidValue, fn, "%s", tex_desc_check(d));
    void *p;
    cudaError_t rc = cudaMalloc(&p, sizeof *d);
    if (rc != cudaSuccess)
        return rc;
    if (ws_memcpy_htod(rt_g.gpu, (uint64_t)(uintptr_t)p, d, sizeof *d) != WS_OK) {
        cudaFree(p);
        return rt_error(cudaErrorUnknown, fn, "%s", ws_last_error(rt_g.gpu));
    }
    struct rt_obj *o = ARRAY_PUSH(rt_objs, rt_nobjs, rt_objs_cap);
    memset(o, 0, sizeof *o);
    o->handle = (uint64_t)(uintptr_t)p;
    o->surface = d->magic == SURF_DESC_MAGIC;
    o->res = *r;
    if (t)
        o->tex = *t;
    *handle = o->handle;
    return cudaSuccess;
}

static struct rt_obj *obj_find(uint64_t h, int surface, const char *fn)
{
    for (size_t i = 0; i < rt_nobjs; i++)
        if (rt_objs[i].handle == h && rt_objs[i].surface == surface)
            return &rt_objs[i];
    rt_error(cudaErrorInvalidValue, fn, "0x%llx is not a live %s object", (unsigned long long)h,
             surface ? "surface" : "texture");
    return NULL;
}

static cudaError_t obj_destroy(uint64_t h, int surface, const char *fn)
{
    if (h == 0)
        return cudaSuccess;
    struct rt_obj *o = obj_find(h, surface, fn);
    if (!o)
        return cudaErrorInvalidValue;
    *o = rt_objs[--rt_nobjs];
    return cudaFree((void *)(uintptr_t)h);
}

RT_EXPORT cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                              const struct cudaResourceDesc *pResDesc,
                                              const struct cudaTextureDesc *pTexDesc,
                                              const void *pResViewDesc)
{
    RT_LOCK();
    const char *fn = "cudaCreateTextureObject";
    if (!rt_gpu(fn))
        return rt_gpu_status();
    if (!pTexObject)
        return rt_error(cudaErrorInvalidValue, fn, "pTexObject is NULL");
    if (pResViewDesc)
        return rt_error(cudaErrorNotSupported, fn, "resource views are not supported");
    struct tex_desc d;
    memset(&d, 0, sizeof d);
    d.magic = TEX_DESC_MAGIC;
    cudaError_t rc = set_resource(&d, pResDesc, 0, fn);
    if (rc == cudaSuccess)
        rc = set_sampler(&d, pTexDesc, fn);
    if (rc == cudaSuccess) {
        uint64_t h;
        rc = obj_new(&d, pResDesc, pTexDesc, &h, fn);
        if (rc == cudaSuccess)
            *pTexObject = h;
    }
    return rc;
}

RT_EXPORT cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
    RT_LOCK();
    return obj_destroy(texObject, 0, "cudaDestroyTextureObject");
}

RT_EXPORT cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                       cudaTextureObject_t texObject)
{
    RT_LOCK();
    struct rt_obj *o = obj_find(texObject, 0, "cudaGetTextureObjectResourceDesc");
    if (!o || !pResDesc)
        return rt_error(cudaErrorInvalidValue, "cudaGetTextureObjectResourceDesc", NULL);
    *pResDesc = o->res;
    return cudaSuccess;
}

/* Only the fields CUDA 11-13 share are written (struct cudaTextureDesc). */
RT_EXPORT cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
                                                      cudaTextureObject_t texObject)
{
    RT_LOCK();
    struct rt_obj *o = obj_find(texObject, 0, "cudaGetTextureObjectTextureDesc");
    if (!o || !pTexDesc)
        return rt_error(cudaErrorInvalidValue, "cudaGetTextureObjectTextureDesc", NULL);
    *pTexDesc = o->tex;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                              const struct cudaResourceDesc *pResDesc)
{
    RT_LOCK();
    const char *fn = "cudaCreateSurfaceObject";
    if (!rt_gpu(fn))
        return rt_gpu_status();
    if (!pSurfObject)
        return rt_error(cudaErrorInvalidValue, fn, "pSurfObject is NULL");
    struct tex_desc d;
    memset(&d, 0, sizeof d);
    d.magic = SURF_DESC_MAGIC;
    d.addr[0] = d.addr[1] = d.addr[2] = TEX_ADDR_CLAMP;
    cudaError_t rc = set_resource(&d, pResDesc, 1, fn);
    if (rc == cudaSuccess) {
        uint64_t h;
        rc = obj_new(&d, pResDesc, NULL, &h, fn);
        if (rc == cudaSuccess)
            *pSurfObject = h;
    }
    return rc;
}

RT_EXPORT cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject)
{
    RT_LOCK();
    return obj_destroy(surfObject, 1, "cudaDestroySurfaceObject");
}

RT_EXPORT cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                       cudaSurfaceObject_t surfObject)
{
    RT_LOCK();
    struct rt_obj *o = obj_find(surfObject, 1, "cudaGetSurfaceObjectResourceDesc");
    if (!o || !pResDesc)
        return rt_error(cudaErrorInvalidValue, "cudaGetSurfaceObjectResourceDesc", NULL);
    *pResDesc = o->res;
    return cudaSuccess;
}
