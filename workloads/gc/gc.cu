// gc.cu: the mark phase of a tracing garbage collector, frontier by frontier.
// The heap is an array of 32-bit words; an object is referred to by the word
// index of its header, and 0 is null.  The header holds the object's class in
// its low 8 bits and, for reference arrays, the array length above them.  A
// class descriptor (GC_CLASS_WORDS words) gives the class kind, the number of
// reference fields and their word offsets inside the object, like the
// reference maps of a managed runtime.  Mark bits live in a side bitmap, one
// bit per heap word.  gc_mark_roots marks the root set; then gc_mark_frontier
// runs once per frontier: each thread scans one grey object's references and
// claims every unmarked target with atomicOr, pushing the objects it claimed
// onto the next frontier.  The host swaps the frontiers until one is empty.

#define GC_CLASS_WORDS 16
#define GC_KIND_PLAIN 0
#define GC_KIND_REF_ARRAY 1

__device__ __forceinline__ void gc_shade(unsigned ref, unsigned *marks,
                                         unsigned *next_frontier, unsigned *next_count)
{
    unsigned bit = 1u << (ref & 31);
    unsigned old = atomicOr(&marks[ref >> 5], bit);
    if (!(old & bit)) {
        unsigned slot = atomicAdd(next_count, 1u);
        next_frontier[slot] = ref;
    }
}

extern "C" __global__ void gc_mark_roots(const unsigned *roots, unsigned num_roots,
                                         unsigned *marks, unsigned *next_frontier,
                                         unsigned *next_count)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < num_roots) {
        unsigned ref = roots[t];
        if (ref != 0)
            gc_shade(ref, marks, next_frontier, next_count);
    }
}

extern "C" __global__ void gc_mark_frontier(const unsigned *heap, const unsigned *classes,
                                            const unsigned *frontier, unsigned num_frontier,
                                            unsigned *marks, unsigned *next_frontier,
                                            unsigned *next_count)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= num_frontier)
        return;
    unsigned obj = frontier[t];
    unsigned header = heap[obj];
    const unsigned *cls = classes + (header & 0xffu) * GC_CLASS_WORDS;
    if (cls[0] == GC_KIND_REF_ARRAY) {
        unsigned len = header >> 8;
        for (unsigned i = 0; i < len; i++) {
            unsigned ref = heap[obj + 1 + i];
            if (ref != 0)
                gc_shade(ref, marks, next_frontier, next_count);
        }
    } else {
        unsigned nrefs = cls[1];
        for (unsigned i = 0; i < nrefs; i++) {
            unsigned ref = heap[obj + cls[2 + i]];
            if (ref != 0)
                gc_shade(ref, marks, next_frontier, next_count);
        }
    }
}
