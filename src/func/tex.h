/* tex.h: texture and surface objects — the descriptor the runtime writes and
 * the sampling rules the executor applies (tex, tld4, txq, suld.b, sust.b).
 *
 * A texture or surface object handle (cudaTextureObject_t,
 * cudaSurfaceObject_t: the 64-bit register of PTX's unified texture mode) is
 * the device address of a struct tex_desc that the runtime placed in device
 * memory (src/runtime/cudart_texture.c), the way a GPU's descriptor heap
 * works.  The executor reads the descriptor through the handle, checks its
 * magic number (a stale or garbage handle is a fault, never a crash) and
 * reads the texels of the resource it names: a CUDA array (row-major, rows
 * `pitch` bytes apart, slices `slice` bytes apart, layers of a layered array
 * stored as slices), linear memory (tex1Dfetch) or pitched 2D memory.
 *
 * Sampling follows the CUDA C++ Programming Guide's appendix "Texture
 * Fetching": normalized coordinates are scaled by the size; point sampling
 * reads texel floor(x); linear filtering reads texels i = floor(x - 0.5) and
 * i + 1 with weight alpha = frac(x - 0.5) held in 9-bit fixed point with 8
 * fractional bits; the addressing mode maps an out-of-range index (clamp to
 * the edge, wrap, mirror, or the border colour).  The helpers in this file
 * are pure functions of the descriptor and the resource's bytes, so the unit
 * tests (tests/unit/test_tex.c) check them without a kernel. */
#ifndef WS_FUNC_TEX_H
#define WS_FUNC_TEX_H

#include <stddef.h>
#include <stdint.h>

#include "ptx/ir.h"

#define TEX_DESC_MAGIC 0x58455457u  /* texture object */
#define SURF_DESC_MAGIC 0x46525357u /* surface object */

/* Values as cudaResourceType, cudaChannelFormatKind, cudaTextureAddressMode. */
enum tex_res { TEX_RES_ARRAY = 0, TEX_RES_LINEAR = 2, TEX_RES_PITCH2D = 3 };
enum tex_kind { TEX_KIND_SIGNED = 0, TEX_KIND_UNSIGNED = 1, TEX_KIND_FLOAT = 2 };
enum tex_addr { TEX_ADDR_WRAP = 0, TEX_ADDR_CLAMP = 1, TEX_ADDR_MIRROR = 2, TEX_ADDR_BORDER = 3 };

struct tex_desc {
    uint32_t magic;         /* TEX_DESC_MAGIC or SURF_DESC_MAGIC */
    uint8_t res;            /* enum tex_res */
    uint8_t dims;           /* 1, 2 or 3 (a layered array: 1 or 2, plus layers) */
    uint8_t layered;
    uint8_t nchan;          /* channels per texel: 1, 2 or 4 */
    uint8_t chan_bits;      /* bits per channel: 8, 16 or 32 */
    uint8_t kind;           /* enum tex_kind */
    uint8_t filter_linear;  /* cudaFilterModeLinear */
    uint8_t read_normalized;/* cudaReadModeNormalizedFloat (8/16-bit integers) */
    uint8_t norm_coords;    /* normalizedCoords */
    uint8_t addr[3];        /* enum tex_addr per dimension */
    float border[4];
    uint64_t base;          /* device address of texel (0, 0, 0) */
    uint64_t width, height, depth, layers; /* texels (unused dimensions: 1) */
    uint64_t pitch;         /* bytes from one row to the next */
    uint64_t slice;         /* bytes from one slice (or layer) to the next */
};

/* Bytes of one texel. */
static inline unsigned tex_texel_bytes(const struct tex_desc *d)
{
    return (unsigned)d->nchan * d->chan_bits / 8;
}

/* Bytes from base to the end of the last texel; 0 if the descriptor is
 * malformed (see tex_desc_check). */
uint64_t tex_extent(const struct tex_desc *d);

/* NULL if the descriptor is well formed for its magic, else why not. */
const char *tex_desc_check(const struct tex_desc *d);

/* Whether fetches return floats (float channels, or 8/16-bit integers read
 * as normalized floats) rather than integers. */
int tex_returns_float(const struct tex_desc *d);

/* A texture fetch.  `data` holds the resource's tex_extent(d) bytes.
 * Coordinates: fc (float) or ic (integer, no filtering) for x, y, z as the
 * dimensions need; layer for a layered texture.  out: the four 32-bit result
 * components (float bits when tex_returns_float, else integers).  *first:
 * byte offset from base of the first texel read (for the timing model). */
void tex_fetch(const struct tex_desc *d, const uint8_t *data, int int_coords, const float fc[3],
               const int32_t ic[3], int32_t layer, uint32_t out[4], uint64_t *first);

/* tld4 (tex2Dgather): component comp of the four texels of the bilinear
 * footprint, in the order (i, j+1), (i+1, j+1), (i+1, j), (i, j). */
void tex_gather(const struct tex_desc *d, const uint8_t *data, const float fc[2], int32_t layer,
                unsigned comp, uint32_t out[4], uint64_t *first);

/* Byte offset of a surface access of `bytes` at byte x, row y, slice z
 * (layer: the layer of a layered surface).  Returns 1 when in range (or
 * clamped into range), 0 when out of range (trap: fault; zero: load zeros,
 * drop the store).  x must be a multiple of `bytes` in range. */
int surf_offset(const struct tex_desc *d, int32_t x, int32_t y, int32_t z, int32_t layer,
                unsigned bytes, enum ptx_surf_mode mode, uint64_t *off);

#endif
