// tex_kernels.cu: texture and surface kernels of the shapes nvcc emits for
// texture and surface objects, for test_tex.c (run there without nvcc on the
// committed tex_kernels.ptx): tex1Dfetch, tex2D (float4 result), the layered
// fetches, tex2Dgather, tex3D and a 2D surface read-modify-write.
extern "C" __global__ void fetch1d(cudaTextureObject_t t, const int *idx, float *o)
{
    int i = threadIdx.x;
    o[i] = tex1Dfetch<float>(t, idx[i]);
}

extern "C" __global__ void sample2d(cudaTextureObject_t t, const float2 *xy, float4 *o)
{
    int i = threadIdx.x;
    o[i] = tex2D<float4>(t, xy[i].x, xy[i].y);
}

extern "C" __global__ void layered(cudaTextureObject_t t1, cudaTextureObject_t t2,
                                   const float2 *xy, const int *layer, float *o)
{
    int i = threadIdx.x;
    o[2 * i] = tex1DLayered<float>(t1, xy[i].x, layer[i]);
    o[2 * i + 1] = tex2DLayered<float>(t2, xy[i].x, xy[i].y, layer[i]);
}

extern "C" __global__ void gather(cudaTextureObject_t t, const float2 *xy, float4 *o)
{
    int i = threadIdx.x;
    o[i] = tex2Dgather<float4>(t, xy[i].x, xy[i].y, 1);
}

extern "C" __global__ void sample3d(cudaTextureObject_t t, const float4 *p, float *o)
{
    int i = threadIdx.x;
    o[i] = tex3D<float>(t, p[i].x, p[i].y, p[i].z);
}

extern "C" __global__ void surf_rmw(cudaSurfaceObject_t s, int w)
{
    int x = threadIdx.x, y = blockIdx.x;
    if (x < w) {
        unsigned short v;
        surf2Dread(&v, s, x * 2, y, cudaBoundaryModeZero);
        surf2Dwrite((unsigned short)(v * 3 + y), s, x * 2, y, cudaBoundaryModeClamp);
    }
}
