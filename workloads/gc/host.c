/* host.c: the gc workload: the mark phase of a tracing garbage collector over
 * a random heap graph (objects of many classes with different numbers of
 * reference fields, reference arrays, live and dead objects, a root set),
 * marked frontier by frontier on the device and checked against a CPU
 * traversal. */
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

#define GC_BLOCK 256u
#define GC_CLASS_WORDS 16u /* kind, nrefs, up to 14 field offsets */
#define GC_MAX_REFS 14u
#define GC_NUM_CLASSES 24u
#define GC_KIND_PLAIN 0u
#define GC_KIND_REF_ARRAY 1u
#define GC_ARRAY_CLASS 0u

struct gc_heap {
    uint32_t num_objects;
    uint32_t num_words;   /* heap[0] is the null word */
    uint32_t *words;
    uint32_t *obj_addr;   /* word index of each object's header */
    uint32_t classes[GC_NUM_CLASSES * GC_CLASS_WORDS];
    uint32_t num_roots;
    uint32_t *roots;
};

/* Class 0 is the reference array; classes 1.. are plain objects with 0-8
 * reference fields scattered among 0-6 payload words. */
static void gc_make_classes(struct gc_heap *h, struct rng *rng, uint32_t *size_of)
{
    memset(h->classes, 0, sizeof h->classes);
    h->classes[GC_ARRAY_CLASS * GC_CLASS_WORDS] = GC_KIND_REF_ARRAY;
    size_of[GC_ARRAY_CLASS] = 0; /* depends on the length */
    for (uint32_t c = 1; c < GC_NUM_CLASSES; c++) {
        uint32_t *cls = &h->classes[c * GC_CLASS_WORDS];
        uint32_t nrefs = rng_below(rng, 9);
        uint32_t fields = nrefs + rng_below(rng, 7);
        /* Choose which of the fields 1..fields hold references. */
        uint8_t is_ref[GC_MAX_REFS + 8] = {0};
        for (uint32_t k = 0; k < nrefs; k++) {
            uint32_t f;
            do
                f = 1 + rng_below(rng, fields);
            while (is_ref[f]);
            is_ref[f] = 1;
        }
        cls[0] = GC_KIND_PLAIN;
        cls[1] = nrefs;
        uint32_t k = 0;
        for (uint32_t f = 1; f <= fields; f++)
            if (is_ref[f])
                cls[2 + k++] = f;
        size_of[c] = 1 + fields;
    }
}

/* The heap: objects laid out in allocation order.  Seven in ten are meant to
 * be live: they refer only to other such objects; the dead ones refer to
 * anything.  A reference is null 15% of the time, else half the time to an
 * object allocated nearby (a list or tree built together) and otherwise
 * anywhere.  The roots are drawn from the live objects, with a few null
 * slots.  Which objects are reachable is left to the traversal. */
static void gc_make_heap(struct gc_heap *h, uint32_t n, uint64_t seed)
{
    struct rng rng;
    rng_seed(&rng, seed);
    uint32_t size_of[GC_NUM_CLASSES];
    gc_make_classes(h, &rng, size_of);

    h->num_objects = n;
    h->obj_addr = xmalloc((size_t)n * sizeof *h->obj_addr);
    uint32_t *cls_of = xmalloc((size_t)n * sizeof *cls_of);
    uint32_t *len_of = xmalloc((size_t)n * sizeof *len_of);
    uint32_t *live = xmalloc((size_t)n * sizeof *live);
    uint32_t num_live = 0;
    uint32_t addr = 1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t c, len = 0, size;
        if (rng_below(&rng, 10) == 0) {
            c = GC_ARRAY_CLASS; /* mostly short arrays, a few long ones */
            len = rng_below(&rng, 8) == 0 ? 16 + rng_below(&rng, 49) : rng_below(&rng, 8);
            size = 1 + len;
        } else {
            c = 1 + rng_below(&rng, GC_NUM_CLASSES - 1);
            size = size_of[c];
        }
        cls_of[i] = c;
        len_of[i] = len;
        h->obj_addr[i] = addr;
        addr += size;
        if (rng_below(&rng, 10) < 7)
            live[num_live++] = i;
    }
    if (num_live == 0)
        live[num_live++] = 0;
    h->num_words = addr;
    h->words = xcalloc(addr, sizeof *h->words);

    /* Index of each object in the live list (or where it would be) for the
     * "nearby" references of live objects. */
    uint32_t next_live = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t *obj = &h->words[h->obj_addr[i]];
        uint32_t c = cls_of[i];
        obj[0] = c | len_of[i] << 8;
        uint32_t size = c == GC_ARRAY_CLASS ? 1 + len_of[i] : size_of[c];
        for (uint32_t f = 1; f < size; f++) /* payload: anything */
            obj[f] = (uint32_t)rng_next(&rng);
        while (next_live < num_live && live[next_live] < i)
            next_live++;
        int is_live = next_live < num_live && live[next_live] == i;
        uint32_t nrefs = c == GC_ARRAY_CLASS ? len_of[i] : h->classes[c * GC_CLASS_WORDS + 1];
        for (uint32_t k = 0; k < nrefs; k++) {
            uint32_t f = c == GC_ARRAY_CLASS ? 1 + k : h->classes[c * GC_CLASS_WORDS + 2 + k];
            uint32_t target;
            if (rng_below(&rng, 100) < 15) {
                obj[f] = 0;
                continue;
            }
            int near = rng_below(&rng, 2) == 0;
            if (is_live) {
                uint32_t j = near ? (next_live + num_live + rng_below(&rng, 65) - 32) % num_live
                                  : rng_below(&rng, num_live);
                target = live[j];
            } else {
                target = near ? (i + n + rng_below(&rng, 65) - 32) % n : rng_below(&rng, n);
            }
            obj[f] = h->obj_addr[target];
        }
    }

    h->num_roots = n / 64 + 1;
    h->roots = xmalloc((size_t)h->num_roots * sizeof *h->roots);
    for (uint32_t r = 0; r < h->num_roots; r++)
        h->roots[r] = rng_below(&rng, 20) == 0 ? 0 : h->obj_addr[live[rng_below(&rng, num_live)]];
    free(live);
    free(len_of);
    free(cls_of);
}

/* CPU reference: level-synchronous marking from the roots.  Fills the bitmap
 * and returns the number of marked objects; *levels gets the number of
 * non-empty frontiers (the roots' included). */
static uint32_t gc_cpu(const struct gc_heap *h, uint32_t *marks, uint32_t *levels)
{
    uint32_t *queue = xmalloc((size_t)h->num_objects * sizeof *queue);
    uint32_t head = 0, tail = 0;
    *levels = 0;
    for (uint32_t r = 0; r < h->num_roots; r++) {
        uint32_t ref = h->roots[r];
        if (ref && !(marks[ref >> 5] & 1u << (ref & 31))) {
            marks[ref >> 5] |= 1u << (ref & 31);
            queue[tail++] = ref;
        }
    }
    while (head < tail) {
        uint32_t level_end = tail;
        ++*levels;
        for (; head < level_end; head++) {
            uint32_t obj = queue[head];
            uint32_t hdr = h->words[obj];
            const uint32_t *cls = &h->classes[(hdr & 0xFF) * GC_CLASS_WORDS];
            uint32_t nrefs = cls[0] == GC_KIND_REF_ARRAY ? hdr >> 8 : cls[1];
            for (uint32_t k = 0; k < nrefs; k++) {
                uint32_t ref = h->words[obj + (cls[0] == GC_KIND_REF_ARRAY ? 1 + k : cls[2 + k])];
                if (ref && !(marks[ref >> 5] & 1u << (ref & 31))) {
                    marks[ref >> 5] |= 1u << (ref & 31);
                    queue[tail++] = ref;
                }
            }
        }
    }
    free(queue);
    return tail;
}

static int gc_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                  size_t detail_len)
{
    static const uint32_t sizes[] = {16384, 131072, 2097152};
    struct gc_heap h;
    gc_make_heap(&h, sizes[a->size], a->seed);
    uint32_t n = h.num_objects;
    uint32_t mark_words = h.num_words / 32 + 1;
    uint32_t *marks = xmalloc((size_t)mark_words * sizeof *marks);
    uint32_t *want = xcalloc(mark_words, sizeof *want);

    ws_devptr d_heap = 0, d_classes = 0, d_roots = 0, d_marks = 0, d_front[2] = {0, 0},
              d_count = 0;
    int rc;
    uint32_t levels = 0, marked = 0;
    WL_TRY_OUT(ws_malloc(gpu, (size_t)h.num_words * sizeof(uint32_t), &d_heap));
    WL_TRY_OUT(ws_malloc(gpu, sizeof h.classes, &d_classes));
    WL_TRY_OUT(ws_malloc(gpu, (size_t)h.num_roots * sizeof(uint32_t), &d_roots));
    WL_TRY_OUT(ws_malloc(gpu, (size_t)mark_words * sizeof(uint32_t), &d_marks));
    WL_TRY_OUT(ws_malloc(gpu, (size_t)n * sizeof(uint32_t), &d_front[0]));
    WL_TRY_OUT(ws_malloc(gpu, (size_t)n * sizeof(uint32_t), &d_front[1]));
    WL_TRY_OUT(ws_malloc(gpu, sizeof(uint32_t), &d_count));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_heap, h.words, (size_t)h.num_words * sizeof(uint32_t)));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_classes, h.classes, sizeof h.classes));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_roots, h.roots, (size_t)h.num_roots * sizeof(uint32_t)));
    WL_TRY_OUT(ws_memset(gpu, d_marks, 0, (size_t)mark_words * sizeof(uint32_t)));
    WL_TRY_OUT(ws_memset(gpu, d_count, 0, sizeof(uint32_t)));

    ws_dim3 block = ws_dim(GC_BLOCK, 1, 1);
    void *root_args[] = {&d_roots, &h.num_roots, &d_marks, &d_front[0], &d_count};
    WL_TRY_OUT(ws_launch(mod, "gc_mark_roots",
                         ws_dim((h.num_roots + GC_BLOCK - 1) / GC_BLOCK, 1, 1), block, 0,
                         root_args));
    for (unsigned cur = 0;; cur ^= 1) {
        uint32_t num_frontier;
        WL_TRY_OUT(ws_memcpy_dtoh(gpu, &num_frontier, d_count, sizeof num_frontier));
        if (num_frontier == 0)
            break;
        if (num_frontier > n - marked) {
            rc = WS_ERR_VERIFY;
            snprintf(detail, detail_len, "gc: frontier %u holds %u objects, only %u unmarked",
                     levels, num_frontier, n - marked);
            goto out;
        }
        marked += num_frontier;
        levels++;
        WL_TRY_OUT(ws_memset(gpu, d_count, 0, sizeof(uint32_t)));
        void *args[] = {&d_heap, &d_classes, &d_front[cur], &num_frontier,
                        &d_marks, &d_front[cur ^ 1], &d_count};
        WL_TRY_OUT(ws_launch(mod, "gc_mark_frontier",
                             ws_dim((num_frontier + GC_BLOCK - 1) / GC_BLOCK, 1, 1), block,
                             0, args));
    }
    WL_TRY_OUT(ws_memcpy_dtoh(gpu, marks, d_marks, (size_t)mark_words * sizeof(uint32_t)));

    uint32_t want_levels;
    uint32_t want_marked = gc_cpu(&h, want, &want_levels);
    char check[192];
    rc = wl_check_u32("marks", want, marks, mark_words, check, sizeof check);
    if (rc == WS_OK && (marked != want_marked || levels != want_levels)) {
        rc = WS_ERR_VERIFY;
        snprintf(check, sizeof check,
                 "frontiers: expected %u objects in %u levels, got %u in %u", want_marked,
                 want_levels, marked, levels);
    }
    snprintf(detail, detail_len, "gc: %u objects (%u heap words), %u roots, %u marked in %u "
             "levels: %s", n, h.num_words, h.num_roots, marked, levels, check);

out:
    if (d_count)
        ws_free(gpu, d_count);
    if (d_front[1])
        ws_free(gpu, d_front[1]);
    if (d_front[0])
        ws_free(gpu, d_front[0]);
    if (d_marks)
        ws_free(gpu, d_marks);
    if (d_roots)
        ws_free(gpu, d_roots);
    if (d_classes)
        ws_free(gpu, d_classes);
    if (d_heap)
        ws_free(gpu, d_heap);
    free(want);
    free(marks);
    free(h.roots);
    free(h.obj_addr);
    free(h.words);
    return rc;
}

const struct workload workload_gc = {
    .name = "gc",
    .desc = "garbage-collector mark phase: frontier-based heap-graph marking with atomicOr "
            "on a mark bitmap",
    .run = gc_run,
};
