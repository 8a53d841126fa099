// ss.cu: Similarity Score, the map stage of the Mars MapReduce suite's
// SimilarityScore application (He et al., PACT 2008; the "SS" workload of
// MeDiC, HPCA 2016).  Our own kernel; what it does follows the published
// sample's map function and host code:
//
// - n documents, each a vector of dim float features, stored row-major in one
//   array: document d's features are m[d * dim .. d * dim + dim).
// - One map task per unordered pair of documents (doc1 < doc2), enumerated
//   row by row on the host: (0, 1), (0, 2), .., (0, n - 1), (1, 2), ...;
//   n (n - 1) / 2 tasks.  Task p's input record is records[p], Mars's 16-byte
//   value record {doc1, doc2, dim, unused}; one task per thread (Mars's
//   default of one record per map task), 256-thread blocks.
// - A task walks both feature vectors with 16-byte (float4) loads and sums,
//   in the same loop, the dot product and the two squared norms (no norm is
//   precomputed); the score is dot / (sqrt(|a|^2) * sqrt(|b|^2)).
// - No reduce stage: each task writes its score to scores[p].
//
// [CHOICE] What we leave out of Mars's framework: its per-task offset table
// and key record (the key holds the matrix pointer, a kernel parameter here),
// the emitted value (the pair's two document ids, which the host knows from
// p) and the bookkeeping of the intermediate buffers, and the group stage
// that sorts the scores after the map.  Mars's map also has a scalar loop for
// dim % 4 trailing features; here dim must be a multiple of 4 (the rows must
// be 16-byte aligned for the float4 loads) and the loop is left out.
//
// Each step's arithmetic is written out as nvcc contracts Mars's expression
// (a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w, added to the running sum):
// the x product rounded alone, then three fmaf, then one addition.  The CPU
// reference in host.c does the same operations in the same order.

#define SS_BLOCK 256

struct ss_record {
    int doc1, doc2, dim;
    float unused; // Mars's record holds the result field, never read by the map
};

__device__ __forceinline__ float ss_dot4(float4 a, float4 b)
{
    return fmaf(a.w, b.w, fmaf(a.z, b.z, fmaf(a.y, b.y, __fmul_rn(a.x, b.x))));
}

extern "C" __global__ void ss_map(const float *m, const struct ss_record *records, int ntasks,
                                  float *scores)
{
    int p = blockIdx.x * SS_BLOCK + threadIdx.x;
    if (p >= ntasks)
        return;
    struct ss_record r = records[p];
    const float4 *a = (const float4 *)(m + (size_t)r.doc1 * r.dim);
    const float4 *b = (const float4 *)(m + (size_t)r.doc2 * r.dim);
    float dot = 0.0f, na = 0.0f, nb = 0.0f;
    int n4 = r.dim >> 2;
    for (int k = 0; k < n4; k++) {
        float4 av = a[k], bv = b[k];
        dot = __fadd_rn(dot, ss_dot4(av, bv));
        na = __fadd_rn(na, ss_dot4(av, av));
        nb = __fadd_rn(nb, ss_dot4(bv, bv));
    }
    scores[p] = dot / (sqrtf(na) * sqrtf(nb));
}
