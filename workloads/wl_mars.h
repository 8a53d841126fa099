/* wl_mars.h: the host side of the Mars MapReduce runtime shared by the Mars
 * workloads (pvc, pvr, iix): buffers, launches, prefix sums, the sizing of an
 * emitting stage's output and the group stage (bitonic sort of the index,
 * scatter in sorted order, group boundaries).  The kernels are each
 * workload's copy of wl_mars_group.cuh, named <prefix>_scan and so on. */
#ifndef WS_WL_MARS_H
#define WS_WL_MARS_H

#include <string.h>

#include "workload.h"

#define MARS_BLOCK 256u  /* map, reduce, sort and scan blocks (wl_mars_group.cuh) */
#define MARS_SCAN 512u   /* elements per scan block */
#define MARS_WIDE 512u   /* blocks of the boundary and size kernels */
#define MARS_COPY 128u   /* blocks of the byte-copy scatter */
#define MARS_GLOBAL_SORT (256u * 1024u) /* Mars sorts up to this many records
                                           with global bitonic steps only */

/* One workload's run: its module, kernel prefix and every buffer it holds. */
struct mars_dev {
    ws_gpu *gpu;
    ws_module *mod;
    const char *prefix; /* kernel names are "<prefix>_<stage>" */
    ws_devptr *held;    /* every buffer, freed by mars_free */
    uint32_t nheld, cap;
    char *detail;
    size_t detail_len;
};

/* a set of MapReduce records: key and value bytes and the int4 index */
struct mars_set {
    ws_devptr keys, vals, idx;
    uint32_t n, key_bytes, val_bytes;
};

/* a grouped set: the sorted index (n records, keys and values scattered in
 * its order into keys/vals) and each group's int2 [start, end) */
struct mars_groups {
    struct mars_set set;
    ws_devptr ranges;
    uint32_t ngroups;
};

#define MARS_CHECK(call)                                                                 \
    do {                                                                                 \
        int mars_rc_ = (call);                                                           \
        if (mars_rc_ != WS_OK)                                                           \
            return mars_rc_;                                                             \
    } while (0)

#define MARS_API(d, call) WL_TRY((d)->gpu, call, (d)->detail, (d)->detail_len)

static inline uint32_t mars_ceil(uint32_t n, uint32_t m)
{
    return (n + m - 1) / m;
}

/* A device buffer of `bytes` (at least 4), freed by mars_free. */
int mars_alloc(struct mars_dev *d, size_t bytes, ws_devptr *out);
/* Launch <prefix>_<stage> on blocks x threads. */
int mars_launch(struct mars_dev *d, const char *stage, uint32_t blocks, uint32_t threads,
                void **args);
/* Exclusive prefix sum of n ints; *total: their sum (the last input plus the
 * last output, read back as Mars does). */
int mars_prefix_sum(struct mars_dev *d, ws_devptr in, ws_devptr out, uint32_t n,
                    uint32_t *total);
/* The per-task counts of an emitting stage (key bytes, value bytes, records:
 * sz[], zeroed) and their prefix sums (ps[]), `bytes` each. */
int mars_count_buffers(struct mars_dev *d, size_t bytes, ws_devptr sz[3], ws_devptr ps[3]);
/* The output buffers of an emitting stage (map or reduce): the exclusive
 * prefix sums ps[] of its tasks' key bytes, value bytes and record counts
 * sz[], then key, value and index buffers of those totals (an index record
 * is 16 bytes), filled with `fill`; total[] gets the three totals. */
int mars_emit_buffers(struct mars_dev *d, const ws_devptr sz[3], const ws_devptr ps[3],
                      uint32_t tasks, int fill, ws_devptr out[3], uint32_t total[3]);
/* Mars's input records: n keys of key_size bytes (host keys[]) and n values
 * of val_size bytes (vals[]), copied to new device buffers with their int4
 * index (key offset, key size, value offset, value size); *in gets them. */
int mars_input(struct mars_dev *d, const void *keys, const void *vals, uint32_t n,
               uint32_t key_size, uint32_t val_size, struct mars_set *in);
/* Mars's map stage over the input records `in`, its kernels with Mars's
 * uniform signatures:
 *   <prefix>_map_count(in_keys, in_vals, in_idx, n, key_bytes, val_bytes, count)
 *   <prefix>_map(in_keys, in_vals, in_idx, n, ps_key, ps_val, ps_count,
 *                keys, vals, idx, extra[0], ..., extra[nextra - 1])
 * one record per thread in MARS_BLOCK-thread blocks: the per-task counts,
 * their prefix sums, the output buffers (zeroed) and the map; *out gets the
 * intermediate records. */
#define MARS_MAP_EXTRA 4u /* extra map arguments at most */
int mars_map(struct mars_dev *d, const struct mars_set *in, void **extra, unsigned nextra,
             struct mars_set *out);
/* Mars's group stage on the map's output: sort the index (padded to a power
 * of two with records whose key offset is -1, which sort first), scatter the
 * values then the keys in sorted order, find the groups of equal keys. */
int mars_group(struct mars_dev *d, const struct mars_set *in, struct mars_groups *out);
/* Free every buffer mars_alloc gave. */
void mars_free(struct mars_dev *d);

/* Copy a device buffer of `bytes` to a new host buffer (*out, xmalloc'd even
 * when bytes is 0); on failure detail gets the error. */
int mars_read(struct mars_dev *d, ws_devptr src, size_t bytes, uint8_t **out);

/* ---- checking the output on the host ---- */

/* a set (and its groups' ranges) read back */
struct mars_host {
    uint8_t *idx, *keys, *vals, *ranges;
};

/* Read s's index, keys and values into h (h->ranges NULL). */
int mars_read_set(struct mars_dev *d, const struct mars_set *s, struct mars_host *h);
/* The same for g's set, and its ranges. */
int mars_read_groups(struct mars_dev *d, const struct mars_groups *g, struct mars_host *h);
void mars_host_free(struct mars_host *h);

/* Record i of s (read back into h): its index must name a key of key_size
 * and a value of val_size bytes inside the buffers; *key and *val point to
 * them.  Otherwise detail says so and WS_ERR_VERIFY returns. */
int mars_record(struct mars_dev *d, const struct mars_set *s, const struct mars_host *h,
                uint32_t i, uint32_t key_size, uint32_t val_size, const uint8_t **key,
                const uint8_t **val);

/* detail gets the message; returns WS_ERR_VERIFY */
int mars_fail(struct mars_dev *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static inline int32_t mars_i32(const uint8_t *p)
{
    int32_t v;
    memcpy(&v, p, 4);
    return v;
}

#endif
