// bh.cu: the force calculation and the time step of a Barnes-Hut N-body
// simulation, in the manner of the Lonestar GPU suite's BH (which MeDiC
// evaluates).  The octree is built on the host (host.c) and stored as flat
// arrays: node 0 is the root, every cell's children lie next to each other,
// cells and leaves (one body each) alike carry a position (a cell's centre of
// mass) and a mass; child[j] is first << 4 | (count - 1) for a cell and -1
// for a leaf, and size2[j] is a cell's squared side.  The bodies are numbered
// in the tree's depth-first order, so the threads of a warp hold nearby
// bodies and walk similar paths.
//
// bh_force: one thread per body; the threads of a warp walk the tree together,
// depth-first, as Lonestar's force kernel does: at each node every thread
// tests its body (a cell whose squared side is below theta^2 times the squared
// distance may be taken as a point mass) and the warp opens the cell unless
// all of them may (__all_sync), so the walk stays converged and every load of
// the tree is one address across the warp.  Each thread keeps the entry it is
// visiting, (node << 4 | siblings left), in a register and the entries of the
// levels above on its own stack (local memory; the lanes' stacks are equal,
// so each access is one line).  A leaf's own body adds nothing (its distance
// is zero).  The squared distance is written with explicit fmaf so that a CPU
// reference in float makes the same opening decisions.  The term of an opened
// cell is computed with a zero scale rather than branched around, and the loop
// has one exit, so the paths meet again every iteration.

#define BH_STACK 40 // host.c: the tree is at most BH_MAX_DEPTH (32) levels deep

extern "C" __global__ void bh_force(const float *posx, const float *posy, const float *posz,
                                    const float *mass, const int *child, const float *size2,
                                    const float *bx, const float *by, const float *bz,
                                    float *accx, float *accy, float *accz, int *visits,
                                    float theta2, float eps2, int nbodies)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool valid = i < nbodies; // the others vote "far" and store nothing
    int stack[BH_STACK];
    int sp = 0, e = 0, n = 0; // e: the root, no siblings
    float px = 0.0f, py = 0.0f, pz = 0.0f;
    if (valid) {
        px = bx[i];
        py = by[i];
        pz = bz[i];
    }
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    do {
        int j = e >> 4; // the same node in every lane
        float dx = posx[j] - px, dy = posy[j] - py, dz = posz[j] - pz;
        float d2 = fmaf(dz, dz, fmaf(dy, dy, dx * dx));
        int kids = child[j];
        float m = mass[j];
        bool far = !valid || kids < 0 || size2[j] < theta2 * d2;
        // the warp opens a cell unless every body in it may take it whole
        bool open = !__all_sync(0xffffffffu, far);
        // the term, without a branch: an opened cell's scale is zero
        float inv = rsqrtf(d2 + eps2);
        float s = open ? 0.0f : m * inv * inv * inv;
        ax = fmaf(dx, s, ax);
        ay = fmaf(dy, s, ay);
        az = fmaf(dz, s, az);
        n++;
        if (open) {
            if (e & 15)
                stack[sp++] = e + 15; // the next sibling, one fewer left
            e = kids;
        } else if (e & 15) {
            e += 15;
        } else if (sp > 0) {
            e = stack[--sp];
        } else {
            e = -1; // done: the loop's one exit
        }
    } while (e >= 0);
    if (valid) {
        accx[i] = ax;
        accy[i] = ay;
        accz[i] = az;
        visits[i] = n;
    }
}

// One step of semi-implicit Euler (kick, then drift): v += a dt, x += v dt.
extern "C" __global__ void bh_advance(float *bx, float *by, float *bz, float *vx, float *vy,
                                      float *vz, const float *accx, const float *accy,
                                      const float *accz, float dt, int nbodies)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nbodies)
        return;
    float ux = fmaf(accx[i], dt, vx[i]), uy = fmaf(accy[i], dt, vy[i]);
    float uz = fmaf(accz[i], dt, vz[i]);
    vx[i] = ux;
    vy[i] = uy;
    vz[i] = uz;
    bx[i] = fmaf(ux, dt, bx[i]);
    by[i] = fmaf(uy, dt, by[i]);
    bz[i] = fmaf(uz, dt, bz[i]);
}
