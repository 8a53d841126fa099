/* fatbin.h: reading the device code that nvcc embeds in a host program.
 *
 * nvcc places one fatbinary container per translation unit in the ELF
 * section .nv_fatbin and passes the host runtime a small wrapper
 * (__fatBinC_Wrapper_t: magic 0x466243b1, version, pointer to the container).
 * A container is a 16-byte header (magic 0xBA55ED50, version 1, header size
 * 16, bytes that follow) followed by entries, each an entry header (kind
 * PTX=1 or ELF=2, its own size, payload size, target arch, flags, ...) and its
 * payload, which may be compressed (zstd in CUDA 13, LZ4 in CUDA 11/12).
 * warpsim runs PTX, so the runtime picks a PTX entry and parses it.
 *
 * Nothing here trusts the input: every size is bounds-checked against the
 * buffer and malformed data yields WS_ERR_PARSE with a message. */
#ifndef WS_RUNTIME_FATBIN_H
#define WS_RUNTIME_FATBIN_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

#define FATBIN_WRAPPER_MAGIC 0x466243b1u
#define FATBIN_MAGIC 0xba55ed50u
#define FATBIN_HEADER_SIZE 16u
#define FATBIN_ENTRY_MIN_SIZE 64u

enum fatbin_kind {
    FATBIN_KIND_PTX = 1,
    FATBIN_KIND_ELF = 2,
};

#define FATBIN_FLAG_64BIT 0x1ull
#define FATBIN_FLAG_LZ4 0x2000ull   /* CUDA 11/12 compressed payload */
#define FATBIN_FLAG_ZSTD 0x8000ull  /* CUDA 13 compressed payload */

struct fatbin_entry {
    unsigned kind;            /* enum fatbin_kind, or another raw value */
    unsigned arch;            /* e.g. 75 for compute_75 / sm_75 */
    unsigned ptx_major, ptx_minor;
    uint64_t flags;
    const uint8_t *payload;   /* points into the caller's buffer */
    size_t payload_size;      /* stored (possibly compressed) bytes */
    uint64_t uncompressed_size; /* 0 when not given */
};

struct fatbin {
    struct fatbin_entry *entries;
    size_t nentries;
    size_t size;              /* bytes of the container, header included */
};

/* Parse one container at the start of buf[0..len).  out->entries point into
 * buf.  Free with fatbin_free. */
int fatbin_parse(const uint8_t *buf, size_t len, struct fatbin *out, struct err *e);
void fatbin_free(struct fatbin *fb);

/* The container a __fatBinC_Wrapper_t points to, and its size read from its
 * header (the wrapper carries no length). */
int fatbin_from_wrapper(const void *wrapper, const uint8_t **data, size_t *len, struct err *e);

/* The entry's payload, decompressed if needed, NUL-terminated; *len excludes
 * trailing NULs.  The caller frees *out. */
int fatbin_entry_data(const struct fatbin_entry *en, char **out, size_t *len, struct err *e);

/* Indexes of the PTX entries, highest arch first (ties: file order); returns
 * how many were written to idx (at most cap). */
size_t fatbin_ptx_order(const struct fatbin *fb, size_t *idx, size_t cap);

/* The PTX text of the best (highest-arch) PTX entry.  A container with only
 * ELF (SASS) entries gives WS_ERR_UNSUPPORTED with a message telling the user
 * to add -gencode arch=compute_XX,code=compute_XX. */
int fatbin_best_ptx(const struct fatbin *fb, char **ptx, size_t *len, unsigned *arch,
                    struct err *e);

/* Decode one raw LZ4 block into dst[0..dst_cap); the bytes written go to
 * *written.  WS_ERR_PARSE on malformed input. */
int fatbin_lz4_decode(const uint8_t *src, size_t n, uint8_t *dst, size_t dst_cap,
                      size_t *written, struct err *e);

#endif
