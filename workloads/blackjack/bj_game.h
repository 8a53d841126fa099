/* bj_game.h: one thread's blackjack session, shared by the kernel
 * (blackjack.cu) and its CPU reference (host.c) so both play the same
 * cards: a 52-card deck per thread held as a 52-bit mask of the cards left,
 * drawn uniformly from a xorshift32 stream, reshuffled when fewer than 15
 * cards remain; a simple fixed strategy for the player, the house rule for
 * the dealer (hit below 17, counting an ace as 11 when it fits).  Net
 * result in half bets: +3 for a natural, +2 a win, -2 a loss, 0 a push. */
#ifndef BJ_GAME_H
#define BJ_GAME_H

#ifdef __CUDACC__
#define BJ_FN __device__ static inline
#else
#define BJ_FN static inline
#endif

BJ_FN unsigned bj_rand(unsigned *s)
{
    unsigned x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *s = x;
    return x;
}

/* Draw one card (rank value 1..10, ace = 1) from the deck's cards left. */
BJ_FN int bj_draw(unsigned *s, unsigned *lo, unsigned *hi, int *left)
{
    if (*left < 15) { /* reshuffle */
        *lo = 0xffffffffu;
        *hi = 0xfffffu; /* 52 cards */
        *left = 52;
    }
    int k = (int)(bj_rand(s) % (unsigned)*left); /* the k-th card left */
    int c = 0;
    for (;; c++) {
        unsigned bit = c < 32 ? (*lo >> c) & 1u : (*hi >> (c - 32)) & 1u;
        if (bit && k-- == 0)
            break;
    }
    if (c < 32)
        *lo &= ~(1u << c);
    else
        *hi &= ~(1u << (c - 32));
    (*left)--;
    int rank = c % 13; /* 0 = ace, 9..12 = ten and faces */
    return rank >= 9 ? 10 : rank + 1;
}

/* Best total of a hand: hard total plus 10 for an ace when it fits. */
BJ_FN int bj_total(int hard, int aces)
{
    return aces && hard + 10 <= 21 ? hard + 10 : hard;
}

BJ_FN int bj_session(unsigned seed, unsigned hands)
{
    unsigned s = seed ? seed : 1u, lo = 0, hi = 0;
    int left = 0, net = 0;
    for (unsigned h = 0; h < hands; h++) {
        int p1 = bj_draw(&s, &lo, &hi, &left), d1 = bj_draw(&s, &lo, &hi, &left);
        int p2 = bj_draw(&s, &lo, &hi, &left), d2 = bj_draw(&s, &lo, &hi, &left);
        int ph = p1 + p2, pa = (p1 == 1) + (p2 == 1);
        int dh = d1 + d2, da = (d1 == 1) + (d2 == 1);
        int pnat = bj_total(ph, pa) == 21, dnat = bj_total(dh, da) == 21;
        if (pnat || dnat) {
            net += pnat && dnat ? 0 : pnat ? 3 : -2;
            continue;
        }
        /* player: hit to 12; on 12..16 hit when the dealer shows 7 or more
         * (or an ace); stand on 17 */
        for (;;) {
            int t = bj_total(ph, pa);
            if (t >= 17 || (t >= 12 && d1 >= 2 && d1 <= 6))
                break;
            int c = bj_draw(&s, &lo, &hi, &left);
            ph += c;
            pa += c == 1;
            if (ph > 21)
                break;
        }
        int pt = bj_total(ph, pa);
        if (pt > 21) {
            net -= 2;
            continue;
        }
        while (bj_total(dh, da) < 17) {
            int c = bj_draw(&s, &lo, &hi, &left);
            dh += c;
            da += c == 1;
        }
        int dt = bj_total(dh, da);
        net += dt > 21 || pt > dt ? 2 : pt < dt ? -2 : 0;
    }
    return net;
}

#endif
