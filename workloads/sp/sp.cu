// sp.cu: survey propagation (Braunstein, Mezard and Zecchina) on a random
// 3-SAT formula, in the manner of the Lonestar GPU suite's sp (the "SP"
// workload of MeDiC, HPCA 2016).  The formula is a bipartite graph: edge
// e = 3a + k joins clause a to its k-th literal, and eta[e] is the survey (the
// warning) that clause a sends to that literal's variable.
//   lit[e] = v << 1 | negated: the clause side, clause a's literals at 3a .. 3a + 2;
//   var_start[v] .. var_start[v + 1]: the variable side, v's entries in var_edge[],
//   var_edge[q] = e << 1 | negated: the edge (so the clause e / 3) and v's sign there.
// One iteration is two data-parallel kernels (Jacobi: they read the old surveys
// and write new ones into a second array, so the result is deterministic):
//   sp_var:    one thread per variable v: over its edges, the products of
//              (1 - eta) over the clauses in which v appears unnegated and over
//              those in which it appears negated (prod[v]);
//   sp_clause: one thread per clause a: for each literal j, those products of
//              j's with a's own factor taken out give Pi_u, Pi_s and Pi_0 of the
//              edge and the ratio Pi_u / (Pi_u + Pi_s + Pi_0); the new
//              eta[a -> i] is the product of the ratios of a's other two literals.
// After the last iteration sp_var runs once more and sp_bias turns each
// variable's products into its biases W+ and W-.
//
// A factor (1 - eta) may be exactly zero.  The products therefore keep the
// factors that are not zero and count those that are: a product over a set
// is 0 when the count is non-zero; taking one factor f out divides by it when
// f is not zero and decrements the count when it is.  A ratio whose
// denominator is 0 (a variable warned both ways) is 0.  The host's CPU
// reference (host.c) does the same float operations in the same order; the
// sums of products are written as fmaf, so that neither compiler is free to
// contract (or not) a multiply and an add, and the results agree bit for bit.

struct __align__(16) sp_prod {
    float pos, neg; // products of the non-zero factors (1 - eta), by sign
    int zpos, zneg; // and how many factors are zero
};

extern "C" __global__ void sp_var(const int *var_start, const int *var_edge, const float *eta,
                                  sp_prod *prod, int num_vars)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= num_vars)
        return;
    sp_prod p = {1.0f, 1.0f, 0, 0};
    for (int q = var_start[v]; q < var_start[v + 1]; q++) {
        int x = var_edge[q];
        float f = 1.0f - eta[x >> 1];
        if (x & 1) {
            if (f == 0.0f)
                p.zneg++;
            else
                p.neg *= f;
        } else {
            if (f == 0.0f)
                p.zpos++;
            else
                p.pos *= f;
        }
    }
    prod[v] = p;
}

// num / den, 0 when den is 0
__device__ static float sp_div(float num, float den)
{
    return den > 0.0f ? num / den : 0.0f;
}

// Pi_u / (Pi_u + Pi_s + Pi_0) of an edge whose survey's factor is f = 1 - eta,
// from its variable's products p and its sign
__device__ static float sp_ratio(sp_prod p, float f, int neg)
{
    float same = neg ? p.neg : p.pos;
    int zsame = neg ? p.zneg : p.zpos, zopp = neg ? p.zpos : p.zneg;
    float opp = zopp ? 0.0f : (neg ? p.pos : p.neg); // over all clauses of the other sign
    // the product over the other clauses in which the variable has this sign
    float ps;
    if (f == 0.0f)
        ps = zsame > 1 ? 0.0f : same;
    else
        ps = zsame > 0 ? 0.0f : fminf(same / f, 1.0f);
    // Pi_u = (1 - opp) ps, Pi_s = (1 - ps) opp, Pi_0 = ps opp
    float pi_u = (1.0f - opp) * ps;
    float den = fmaf(ps, opp, fmaf(1.0f - ps, opp, pi_u));
    return sp_div(pi_u, den);
}

extern "C" __global__ void sp_clause(const int *lit, const sp_prod *prod, const float *eta,
                                     float *eta_out, int num_clauses)
{
    int a = blockIdx.x * blockDim.x + threadIdx.x;
    if (a >= num_clauses)
        return;
    float r[3];
    for (int k = 0; k < 3; k++) {
        int x = lit[3 * a + k];
        r[k] = sp_ratio(prod[x >> 1], 1.0f - eta[3 * a + k], x & 1);
    }
    eta_out[3 * a] = r[1] * r[2];
    eta_out[3 * a + 1] = r[0] * r[2];
    eta_out[3 * a + 2] = r[0] * r[1];
}

// W+ = Pi+ / (Pi+ + Pi- + Pi0) and W- likewise, over all of v's clauses:
// Pi+ = (1 - prod over unnegated) * prod over negated, Pi0 = both products.
extern "C" __global__ void sp_bias(const sp_prod *prod, float *w_pos, float *w_neg,
                                   int num_vars)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= num_vars)
        return;
    sp_prod p = prod[v];
    float all_pos = p.zpos ? 0.0f : p.pos, all_neg = p.zneg ? 0.0f : p.neg;
    float pi_p = (1.0f - all_pos) * all_neg;
    float pi_n = (1.0f - all_neg) * all_pos;
    float den = fmaf(all_pos, all_neg, fmaf(1.0f - all_neg, all_pos, pi_p));
    w_pos[v] = sp_div(pi_p, den);
    w_neg[v] = sp_div(pi_n, den);
}
