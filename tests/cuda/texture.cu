// texture.cu: texture and surface objects through warpsim's CUDA runtime,
// checked against a CPU implementation of the CUDA programming guide's
// texture-fetching rules (texel centres at x - 0.5, 9-bit linear weights).
// Covers tex1Dfetch on linear memory, tex2D on a CUDA array (point and
// linear, clamp, border, wrap and mirror with normalized coordinates), 8-bit data read
// as normalized floats, a pitched 2D resource, tex2Dgather, cudaMalloc3DArray
// with cudaMemcpy3D and tex3D, and a surface written and read by a kernel.
// Prints PASS or FAIL lines; exits non-zero on failure.
#include <cmath>
#include <cstdio>
#include <cstring>

static int failures = 0;

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t e_ = (call);                                                         \
        if (e_ != cudaSuccess) {                                                         \
            printf("FAIL %s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            failures++;                                                                  \
        }                                                                                \
    } while (0)

static void expect(bool ok, const char *what, int i)
{
    if (!ok) {
        printf("FAIL %s (element %d)\n", what, i);
        failures++;
    }
}

// ---- CPU reference ---------------------------------------------------------

struct Sampler {
    int addr; // cudaTextureAddressMode (same for every dimension)
    bool linear, norm;
    float border;
};

// Texel index i of a dimension of n under the mode; false on the border.
static bool index_of(int i, int n, int addr, bool norm, int *out)
{
    if (addr == cudaAddressModeWrap && norm) {
        i %= n;
        if (i < 0)
            i += n;
    } else if (addr == cudaAddressModeBorder) {
        if (i < 0 || i >= n)
            return false;
    } else {
        i = i < 0 ? 0 : i >= n ? n - 1 : i;
    }
    *out = i;
    return true;
}

static float to_texels(float x, int n, const Sampler &s)
{
    if (!s.norm)
        return x;
    if (s.addr == cudaAddressModeWrap) {
        x -= floorf(x);
    } else if (s.addr == cudaAddressModeMirror) {
        float period = floorf(x);
        x -= period;
        if (((long)period & 1) != 0) // odd periods run backwards
            x = 1.0f - x;
    }
    return x * (float)n;
}

static float at(const float *img, int w, int h, int d, int x, int y, int z, const Sampler &s,
                bool ok)
{
    (void)h, (void)d;
    return ok ? img[(z * h + y) * w + x] : s.border;
}

// One channel of tex1D/2D/3D at (x, y, z) on a w x h x d float image.
static float ref_fetch(const float *img, int w, int h, int d, int dims, float x, float y, float z,
                       const Sampler &s)
{
    const int n[3] = {w, h, d};
    float c[3] = {x, y, z};
    if (!s.linear) {
        int idx[3] = {0, 0, 0};
        bool ok = true;
        for (int k = 0; k < dims; k++)
            ok = index_of((int)floorf(to_texels(c[k], n[k], s)), n[k], s.addr, s.norm,
                          &idx[k]) && ok;
        return at(img, w, h, d, idx[0], idx[1], idx[2], s, ok);
    }
    int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    bool blo[3] = {true, true, true}, bhi[3] = {true, true, true};
    float a[3] = {0, 0, 0};
    for (int k = 0; k < dims; k++) {
        float xb = to_texels(c[k], n[k], s) - 0.5f;
        float fl = floorf(xb);
        a[k] = nearbyintf((xb - fl) * 256.0f) / 256.0f; // 9-bit weight, 8 fraction bits
        blo[k] = index_of((int)fl, n[k], s.addr, s.norm, &lo[k]);
        bhi[k] = index_of((int)fl + 1, n[k], s.addr, s.norm, &hi[k]);
    }
    float acc = 0.0f;
    for (int corner = 0; corner < (1 << dims); corner++) {
        int idx[3];
        bool ok = true;
        float wgt = 1.0f;
        for (int k = 0; k < 3; k++) {
            bool up = k < dims && ((corner >> k) & 1);
            idx[k] = up ? hi[k] : lo[k];
            ok = ok && (up ? bhi[k] : blo[k]);
            if (k < dims)
                wgt *= up ? a[k] : 1.0f - a[k];
        }
        acc += wgt * at(img, w, h, d, idx[0], idx[1], idx[2], s, ok);
    }
    return acc;
}

// ---- kernels -----------------------------------------------------------------

__global__ void fetch1d(cudaTextureObject_t t, const int *idx, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<float>(t, idx[i]);
}

__global__ void sample2d(cudaTextureObject_t t, const float2 *xy, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2D<float>(t, xy[i].x, xy[i].y);
}

__global__ void sample2d4(cudaTextureObject_t t, const float2 *xy, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2D<float4>(t, xy[i].x, xy[i].y);
}

__global__ void gather2d(cudaTextureObject_t t, const float2 *xy, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2Dgather<float4>(t, xy[i].x, xy[i].y, 0);
}

__global__ void sample3d(cudaTextureObject_t t, const float4 *xyz, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex3D<float>(t, xyz[i].x, xyz[i].y, xyz[i].z);
}

// out(x, y) = 3 * in(x, y) + 1 on a surface, in place
__global__ void surf_scale(cudaSurfaceObject_t s, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < w && y < h) {
        int v;
        surf2Dread(&v, s, x * (int)sizeof(int), y);
        surf2Dwrite(3 * v + 1, s, x * (int)sizeof(int), y);
    }
}

// ---- host helpers --------------------------------------------------------------

template <class T> static T *to_dev(const T *h, int n)
{
    T *d = nullptr;
    CHECK(cudaMalloc(&d, n * sizeof(T)));
    CHECK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

static cudaTextureObject_t make_tex(const cudaResourceDesc &r, const Sampler &s, bool normread)
{
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    for (int k = 0; k < 3; k++)
        td.addressMode[k] = (cudaTextureAddressMode)s.addr;
    td.filterMode = s.linear ? cudaFilterModeLinear : cudaFilterModePoint;
    td.readMode = normread ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
    td.normalizedCoords = s.norm;
    td.borderColor[0] = s.border;
    cudaTextureObject_t t = 0;
    CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    return t;
}

enum { W = 16, H = 8, NQ = 64 };

// Query points: texel centres, in-between points, points outside the image.
static void queries(float2 *q, bool norm)
{
    for (int i = 0; i < NQ; i++) {
        float x = -2.0f + 0.37f * (float)i, y = -1.0f + 0.19f * (float)i;
        q[i] = norm ? make_float2(x / W, y / H) : make_float2(x, y);
    }
}

static void test_1dfetch()
{
    enum { N = 100 };
    float h[N];
    int idx[N + 4];
    for (int i = 0; i < N; i++)
        h[i] = 0.5f * (float)i - 7.0f;
    for (int i = 0; i < N + 4; i++)
        idx[i] = (i * 37) % (N + 4); // includes N .. N+3: outside, read as 0
    float *d = to_dev(h, N);
    int *di = to_dev(idx, N + 4);
    float *dout;
    CHECK(cudaMalloc(&dout, (N + 4) * sizeof(float)));
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeLinear;
    r.res.linear.devPtr = d;
    r.res.linear.desc = cudaCreateChannelDesc<float>();
    r.res.linear.sizeInBytes = N * sizeof(float);
    cudaTextureObject_t t = make_tex(r, Sampler{cudaAddressModeClamp, false, false, 0}, false);
    fetch1d<<<1, 128>>>(t, di, dout, N + 4);
    CHECK(cudaGetLastError());
    float out[N + 4];
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N + 4; i++)
        expect(out[i] == (idx[i] < N ? h[idx[i]] : 0.0f), "tex1Dfetch", i);
    cudaResourceDesc back;
    CHECK(cudaGetTextureObjectResourceDesc(&back, t));
    expect(back.res.linear.devPtr == d && back.res.linear.sizeInBytes == N * sizeof(float),
           "cudaGetTextureObjectResourceDesc", 0);
    CHECK(cudaDestroyTextureObject(t));
    printf("%s tex1Dfetch\n", failures ? "FAIL" : "PASS");
}

static void test_2d()
{
    float img[H * W];
    for (int i = 0; i < W * H; i++)
        img[i] = (float)((i * 7919) % 1000) * 0.25f;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    CHECK(cudaMallocArray(&arr, &cd, W, H));
    CHECK(cudaMemcpy2DToArray(arr, 0, 0, img, W * sizeof(float), W * sizeof(float), H,
                              cudaMemcpyHostToDevice));
    cudaChannelFormatDesc got;
    CHECK(cudaGetChannelDesc(&got, arr));
    expect(got.x == 32 && got.y == 0 && got.f == cudaChannelFormatKindFloat, "cudaGetChannelDesc", 0);
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = arr;
    const Sampler cases[] = {
        {cudaAddressModeClamp, false, false, 0},  {cudaAddressModeClamp, true, false, 0},
        {cudaAddressModeBorder, true, false, -5}, {cudaAddressModeWrap, true, true, 0},
        {cudaAddressModeWrap, false, true, 0},    {cudaAddressModeBorder, false, false, 9},
        {cudaAddressModeMirror, true, true, 0},   {cudaAddressModeMirror, false, true, 0}};
    const char *names[] = {"tex2D point clamp", "tex2D linear clamp", "tex2D linear border",
                           "tex2D linear wrap normalized", "tex2D point wrap normalized",
                           "tex2D point border", "tex2D linear mirror normalized",
                           "tex2D point mirror normalized"};
    float2 *dq;
    float *dout;
    CHECK(cudaMalloc(&dq, NQ * sizeof(float2)));
    CHECK(cudaMalloc(&dout, NQ * sizeof(float)));
    for (int c = 0; c < 8; c++) {
        int before = failures;
        float2 q[NQ];
        queries(q, cases[c].norm);
        CHECK(cudaMemcpy(dq, q, sizeof q, cudaMemcpyHostToDevice));
        cudaTextureObject_t t = make_tex(r, cases[c], false);
        sample2d<<<2, 32>>>(t, dq, dout, NQ);
        float out[NQ];
        CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
        for (int i = 0; i < NQ; i++) {
            float want = ref_fetch(img, W, H, 1, 2, q[i].x, q[i].y, 0, cases[c]);
            expect(out[i] == want, names[c], i);
            if (out[i] != want && failures - before < 3)
                printf("  (%g, %g): got %.9g want %.9g\n", q[i].x, q[i].y, out[i], want);
        }
        CHECK(cudaDestroyTextureObject(t));
        printf("%s %s\n", failures == before ? "PASS" : "FAIL", names[c]);
    }
    // gather: component 0 of the bilinear footprint, (i, j+1) (i+1, j+1) (i+1, j) (i, j)
    {
        int before = failures;
        float2 q[NQ];
        queries(q, false);
        CHECK(cudaMemcpy(dq, q, sizeof q, cudaMemcpyHostToDevice));
        Sampler s{cudaAddressModeClamp, false, false, 0};
        cudaTextureObject_t t = make_tex(r, s, false);
        float4 *d4;
        CHECK(cudaMalloc(&d4, NQ * sizeof(float4)));
        gather2d<<<2, 32>>>(t, dq, d4, NQ);
        float4 o4[NQ];
        CHECK(cudaMemcpy(o4, d4, sizeof o4, cudaMemcpyDeviceToHost));
        for (int i = 0; i < NQ; i++) {
            int x0 = (int)floorf(q[i].x - 0.5f), y0 = (int)floorf(q[i].y - 0.5f);
            float p[4];
            const int dx[4] = {0, 1, 1, 0}, dy[4] = {1, 1, 0, 0};
            for (int k = 0; k < 4; k++)
                p[k] = ref_fetch(img, W, H, 1, 2, (float)(x0 + dx[k]) + 0.5f,
                                 (float)(y0 + dy[k]) + 0.5f, 0, s);
            expect(o4[i].x == p[0] && o4[i].y == p[1] && o4[i].z == p[2] && o4[i].w == p[3],
                   "tex2Dgather", i);
        }
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaFree(d4));
        printf("%s tex2Dgather\n", failures == before ? "PASS" : "FAIL");
    }
    CHECK(cudaFreeArray(arr));
    CHECK(cudaFree(dq));
    CHECK(cudaFree(dout));
}

// uchar4 texels read as normalized floats, from a pitched 2D resource, linear filtering
static void test_uchar4_pitch2d()
{
    int before = failures;
    uchar4 img[H * W];
    for (int i = 0; i < W * H; i++)
        img[i] = make_uchar4(i * 3 % 256, 255 - i % 256, (i * 11) % 256, 128);
    uchar4 *d;
    size_t pitch;
    CHECK(cudaMallocPitch((void **)&d, &pitch, W * sizeof(uchar4), H));
    CHECK(cudaMemcpy2D(d, pitch, img, W * sizeof(uchar4), W * sizeof(uchar4), H,
                       cudaMemcpyHostToDevice));
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypePitch2D;
    r.res.pitch2D.devPtr = d;
    r.res.pitch2D.desc = cudaCreateChannelDesc<uchar4>();
    r.res.pitch2D.width = W;
    r.res.pitch2D.height = H;
    r.res.pitch2D.pitchInBytes = pitch;
    Sampler s{cudaAddressModeClamp, true, false, 0};
    cudaTextureObject_t t = make_tex(r, s, true);
    float2 q[NQ], *dq;
    queries(q, false);
    dq = to_dev(q, NQ);
    float4 *dout, out[NQ];
    CHECK(cudaMalloc(&dout, sizeof out));
    sample2d4<<<2, 32>>>(t, dq, dout, NQ);
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    float ch[4][H * W];
    for (int i = 0; i < W * H; i++) {
        ch[0][i] = (float)img[i].x / 255.0f;
        ch[1][i] = (float)img[i].y / 255.0f;
        ch[2][i] = (float)img[i].z / 255.0f;
        ch[3][i] = (float)img[i].w / 255.0f;
    }
    for (int i = 0; i < NQ; i++) {
        float got[4] = {out[i].x, out[i].y, out[i].z, out[i].w};
        for (int c = 0; c < 4; c++)
            expect(got[c] == ref_fetch(ch[c], W, H, 1, 2, q[i].x, q[i].y, 0, s),
                   "tex2D uchar4 normalized-float linear (pitch2D)", i);
    }
    CHECK(cudaDestroyTextureObject(t));
    printf("%s tex2D uchar4 cudaReadModeNormalizedFloat on pitch2D\n",
           failures == before ? "PASS" : "FAIL");
}

static void test_3d()
{
    int before = failures;
    enum { X = 5, Y = 4, Z = 3, NP = 48 };
    float vol[Z * Y * X];
    for (int i = 0; i < X * Y * Z; i++)
        vol[i] = (float)(i * i % 97) - 20.0f;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    CHECK(cudaMalloc3DArray(&arr, &cd, make_cudaExtent(X, Y, Z)));
    cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(vol, X * sizeof(float), X, Y);
    p.dstArray = arr;
    p.extent = make_cudaExtent(X, Y, Z);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = arr;
    float4 q[NP];
    for (int i = 0; i < NP; i++)
        q[i] = make_float4(-0.7f + 0.13f * (float)i, 0.1f * (float)i, 3.2f - 0.07f * (float)i, 0);
    float4 *dq = to_dev(q, NP);
    float *dout, out[NP];
    CHECK(cudaMalloc(&dout, sizeof out));
    for (int lin = 0; lin < 2; lin++) {
        Sampler s{cudaAddressModeClamp, lin != 0, false, 0};
        cudaTextureObject_t t = make_tex(r, s, false);
        sample3d<<<1, 64>>>(t, dq, dout, NP);
        CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
        for (int i = 0; i < NP; i++)
            expect(out[i] == ref_fetch(vol, X, Y, Z, 3, q[i].x, q[i].y, q[i].z, s),
                   lin ? "tex3D linear" : "tex3D point", i);
        CHECK(cudaDestroyTextureObject(t));
    }
    // and back out of the array with cudaMemcpy3D
    float back[Z * Y * X];
    memset(&p, 0, sizeof p);
    p.srcArray = arr;
    p.dstPtr = make_cudaPitchedPtr(back, X * sizeof(float), X, Y);
    p.extent = make_cudaExtent(X, Y, Z);
    p.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&p));
    expect(memcmp(back, vol, sizeof vol) == 0, "cudaMemcpy3D array -> host", 0);
    CHECK(cudaFreeArray(arr));
    printf("%s cudaMalloc3DArray + tex3D point/linear\n", failures == before ? "PASS" : "FAIL");
}

static void test_surface()
{
    int before = failures;
    int img[H * W], out[H * W];
    for (int i = 0; i < W * H; i++)
        img[i] = i * 5 - 40;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<int>();
    cudaArray_t arr;
    CHECK(cudaMallocArray(&arr, &cd, W, H, cudaArraySurfaceLoadStore));
    CHECK(cudaMemcpy2DToArray(arr, 0, 0, img, W * sizeof(int), W * sizeof(int), H,
                              cudaMemcpyHostToDevice));
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = arr;
    cudaSurfaceObject_t s = 0;
    CHECK(cudaCreateSurfaceObject(&s, &r));
    surf_scale<<<dim3(1, H), 32>>>(s, W, H);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy2DFromArray(out, W * sizeof(int), arr, 0, 0, W * sizeof(int), H,
                                cudaMemcpyDeviceToHost));
    for (int i = 0; i < W * H; i++)
        expect(out[i] == 3 * img[i] + 1, "surf2Dread/surf2Dwrite", i);
    CHECK(cudaDestroySurfaceObject(s));
    // a surface needs cudaArraySurfaceLoadStore
    cudaArray_t plain;
    CHECK(cudaMallocArray(&plain, &cd, W, H));
    r.res.array.array = plain;
    expect(cudaCreateSurfaceObject(&s, &r) == cudaErrorInvalidValue,
           "surface on an array without cudaArraySurfaceLoadStore refused", 0);
    cudaGetLastError();
    CHECK(cudaFreeArray(plain));
    CHECK(cudaFreeArray(arr));
    printf("%s surface objects\n", failures == before ? "PASS" : "FAIL");
}

// Bad handles and out-of-bounds copies are errors, never crashes.
static void test_refusals()
{
    int before = failures;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    CHECK(cudaMallocArray(&arr, &cd, 4, 4));
    float h[32] = {0};
    expect(cudaMemcpy2DToArray(arr, 0, 0, h, 32, 32, 1, cudaMemcpyHostToDevice) ==
               cudaErrorInvalidValue, "row wider than the array refused", 0);
    expect(cudaMemcpy2DToArray(arr, 0, 3, h, 16, 16, 2, cudaMemcpyHostToDevice) ==
               cudaErrorInvalidValue, "rows past the array refused", 0);
    expect(cudaFreeArray((cudaArray_t)h) == cudaErrorInvalidResourceHandle,
           "cudaFreeArray of a non-array refused", 0);
    expect(cudaDestroyTextureObject(12345) == cudaErrorInvalidValue,
           "cudaDestroyTextureObject of a non-object refused", 0);
    cudaChannelFormatDesc odd = cudaCreateChannelDesc(32, 32, 32, 0, cudaChannelFormatKindFloat);
    cudaArray_t a3;
    expect(cudaMallocArray(&a3, &odd, 4, 4) == cudaErrorInvalidChannelDescriptor,
           "3-channel format refused", 0);
    // linear filtering of integer results is refused
    cudaChannelFormatDesc ci = cudaCreateChannelDesc<int>();
    cudaArray_t ai;
    CHECK(cudaMallocArray(&ai, &ci, 4, 4));
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = ai;
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.filterMode = cudaFilterModeLinear;
    cudaTextureObject_t t;
    expect(cudaCreateTextureObject(&t, &r, &td, nullptr) == cudaErrorInvalidValue,
           "linear filtering of int texels refused", 0);
    cudaGetLastError();
    CHECK(cudaFreeArray(ai));
    CHECK(cudaFreeArray(arr));
    printf("%s refusals\n", failures == before ? "PASS" : "FAIL");
}

int main()
{
    test_1dfetch();
    test_2d();
    test_uchar4_pitch2d();
    test_3d();
    test_surface();
    test_refusals();
    CHECK(cudaDeviceSynchronize());
    if (failures) {
        printf("FAIL: %d check(s) failed\n", failures);
        return 1;
    }
    printf("PASS all texture and surface checks\n");
    return 0;
}
