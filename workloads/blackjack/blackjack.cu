// blackjack.cu: Monte Carlo blackjack, one thread per player with its own
// 52-card deck (bj_game.h): every thread plays `hands` hands and writes its
// net result in half bets.  Card draws, hits and the dealer's play branch
// on each thread's own cards, so the threads of a warp diverge all the time
// (the large-warp slides' "blackjack").
#include "bj_game.h"

extern "C" __global__ void blackjack(const unsigned *seeds, int *net, unsigned hands, unsigned n)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n)
        net[t] = bj_session(seeds[t], hands);
}
