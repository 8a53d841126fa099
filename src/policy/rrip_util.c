/* rrip_util.c: RRPV victim search and bimodal coin for the RRIP family. */
#include "policy/rrip_util.h"

#include "base/log.h"

int rrip_check_bits(const char *policy, int64_t m, struct err *e)
{
    if (m < 1 || m > 7)
        return err_set(e, WS_ERR_INVALID, "policy '%s': parameter 'bits' must be 1..7, got %lld",
                       policy, (long long)m);
    return WS_OK;
}

uint32_t rrip_victim(uint8_t *row, uint32_t ways, uint8_t max, uint64_t candidates)
{
    if (ways < 64)
        candidates &= (1ull << ways) - 1;
    ws_assert(candidates != 0);
    uint32_t best = (uint32_t)__builtin_ctzll(candidates);
    for (uint64_t c = candidates & (candidates - 1); c; c &= c - 1) {
        uint32_t w = (uint32_t)__builtin_ctzll(c);
        if (row[w] > row[best])
            best = w;
    }
    uint32_t delta = (uint32_t)max - row[best];
    if (delta)
        for (uint32_t w = 0; w < ways; w++)
            row[w] = (uint8_t)(row[w] + delta > max ? max : row[w] + delta);
    return best;
}

uint64_t rrip_coin_threshold(double eps)
{
    return (uint64_t)(eps * 9007199254740992.0); /* eps * 2^53 */
}

int rrip_coin(struct rng *r, uint64_t threshold)
{
    return (rng_next(r) >> 11) < threshold;
}
