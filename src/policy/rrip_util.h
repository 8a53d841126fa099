/* rrip_util.h: the pieces the RRIP family (srrip, brrip, drrip, ship) shares:
 * an M-bit re-reference prediction value (RRPV) per line, the victim search
 * of Jaleel et al. (ISCA 2010), and the deterministic coin of bimodal
 * insertion.  Each policy keeps its own RRPV array; these helpers only
 * operate on a set's row. */
#ifndef WS_POLICY_RRIP_UTIL_H
#define WS_POLICY_RRIP_UTIL_H

#include <stdint.h>

#include "base/err.h"
#include "base/rng.h"

/* Validate the RRPV width M (1..7) of `policy`; WS_OK or WS_ERR_INVALID. */
int rrip_check_bits(const char *policy, int64_t m, struct err *e);

/* Victim among `candidates` (bitmask of ways) of one set's RRPV row: the
 * lowest-numbered way with the largest RRPV; when that is below `max`, every
 * RRPV of the row is aged by the difference, as repeated increments until a
 * line reaches `max` would do. */
uint32_t rrip_victim(uint8_t *row, uint32_t ways, uint8_t max, uint64_t candidates);

/* Bimodal insertion coin: rrip_coin_threshold(eps) once, then
 * rrip_coin(&rng, threshold) is 1 with probability eps (draws from a
 * caller-seeded generator: deterministic). */
uint64_t rrip_coin_threshold(double eps);
int rrip_coin(struct rng *r, uint64_t threshold);

#endif
