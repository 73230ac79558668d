/* Odds' sampled deal, one run-out at a time: what _deal.c (the deal alone) and _odds/ (a
 * chunk dealt and tallied in one call) share, so both deal the same cards from one seed.
 *
 * A run-out deals its first cards (the seats' unknown cards in seat order, then a table
 * that may pair) by a partial Fisher-Yates shuffle of the unseen cards: card k is
 * uniform over the cards not dealt yet. The deck is not restored between run-outs: a
 * partial shuffle of any arrangement gives every ordered draw the same chance. A
 * discard game's table cards then come one by one, each uniform over the cards left
 * whose rank is not on the table yet (docs/rules.md "Odds"): a uniform draw of the cards
 * left, redrawn while its rank is on the table, is uniform over those. Bounded draws are Lemire's
 * multiply-shift on 32-bit halves of 64-bit words, rejecting the biased few, from xoshiro256** seeded by
 * splitmix64: exact uniform draws, and one seed gives one sequence on every machine.
 */
#ifndef HANDEVAL_KERNEL_DEAL_H
#define HANDEVAL_KERNEL_DEAL_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define DECK 52

typedef struct {
    uint64_t s[4];
    uint32_t spare;
    int halves;
} Rng;

static inline uint64_t
splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline uint64_t
rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t
next_word(Rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* A 32-bit word: each 64-bit word serves two draws. */
static inline uint32_t
next_half(Rng *rng)
{
    if (rng->halves) {
        rng->halves = 0;
        return rng->spare;
    }
    uint64_t word = next_word(rng);
    rng->spare = (uint32_t)(word >> 32);
    rng->halves = 1;
    return (uint32_t)word;
}

/* Uniform in [0, bound), 1 <= bound <= 52: Lemire's multiply-shift on 32 bits, the draw
 * whose low half falls under 2^32 mod bound redrawn, so no value is favoured. */
static inline uint32_t
below(Rng *rng, uint32_t bound)
{
    uint64_t product = (uint64_t)next_half(rng) * bound;
    uint32_t low = (uint32_t)product;
    if (low < bound) {
        uint32_t threshold = (0 - bound) % bound;
        while (low < threshold) {
            product = (uint64_t)next_half(rng) * bound;
            low = (uint32_t)product;
        }
    }
    return (uint32_t)(product >> 32);
}

#define PATIENCE 64
/* Redraws of a table card before checking that some card left may be drawn at all. */

/* Whether a card of deck[k..n) has a rank not in `blocked` (bits by card). */
static int
has_candidate(const uint8_t *deck, Py_ssize_t k, Py_ssize_t n, uint64_t blocked)
{
    for (Py_ssize_t p = k; p < n; p++)
        if (!(blocked >> deck[p] & 1))
            return 1;
    return 0;
}

/* A chunk's deal under way: the generator, the unseen cards in their current order, and
 * the plan's counts. */
typedef struct {
    Rng rng;
    uint8_t deck[DECK];
    Py_ssize_t n;       /* unseen cards */
    Py_ssize_t in_turn; /* positions dealt by the partial shuffle */
    Py_ssize_t width;   /* positions in all */
    uint64_t table_blocked; /* the cards of the ranks on the table before the deal */
} Dealer;

/* A dealer of `width` positions of the `unseen` card ids, seeded; -1 with ValueError when
 * the plan is not one a deal can follow (the arguments named as the Python callers name
 * them). */
static int
dealer_open(Dealer *d, const Py_buffer *unseen, Py_ssize_t in_turn, Py_ssize_t width,
            unsigned int table_ranks, uint64_t seed)
{
    Py_ssize_t n = unseen->len;
    if (n > DECK || in_turn < 0 || in_turn > width || width > n) {
        PyErr_Format(PyExc_ValueError,
                     "unseen has %zd cards (at most %d), in_turn %zd, width %zd: need "
                     "0 <= in_turn <= width <= unseen",
                     n, DECK, in_turn, width);
        return -1;
    }
    uint64_t seen = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        d->deck[i] = ((const uint8_t *)unseen->buf)[i];
        if (d->deck[i] >= DECK || seen >> d->deck[i] & 1) {
            PyErr_Format(PyExc_ValueError, "unseen[%zd] is %d: cards are distinct ids 0-%d",
                         i, d->deck[i], DECK - 1);
            return -1;
        }
        seen |= 1ull << d->deck[i];
    }
    d->n = n;
    d->in_turn = in_turn;
    d->width = width;
    d->table_blocked = 0;
    for (int rank = 0; rank < DECK / 4; rank++)
        if (table_ranks >> rank & 1)
            d->table_blocked |= 0xFull << (4 * rank);
    d->rng = (Rng){.halves = 0};
    for (int i = 0; i < 4; i++)
        d->rng.s[i] = splitmix64(&seed);
    return 0;
}

/* Run-outs 0..count-1: card k of run-out r into to[k][r]. 0, or -1 when a discard table
 * card found no candidate (a plan odds_violations refuses). The generator and the deal's
 * counts are worked on in locals, as a byte stored through `to` could otherwise be any
 * of them and make the compiler reload them all after every card. */
static inline int
deal_block(Dealer *d, uint8_t *const *to, Py_ssize_t count)
{
    Rng rng = d->rng;
    uint8_t *deck = d->deck;
    const Py_ssize_t n = d->n, in_turn = d->in_turn, width = d->width;
    const uint64_t table_blocked = d->table_blocked;
    int failed = 0;
    for (Py_ssize_t r = 0; r < count && !failed; r++) {
        for (Py_ssize_t k = 0; k < in_turn; k++) {
            Py_ssize_t j = k + below(&rng, (uint32_t)(n - k));
            uint8_t card = deck[j];
            deck[j] = deck[k];
            deck[k] = card;
            to[k][r] = card;
        }
        uint64_t blocked = table_blocked;
        for (Py_ssize_t k = in_turn; k < width; k++) {
            Py_ssize_t j;
            int redrawn = 0;
            do {
                j = k + below(&rng, (uint32_t)(n - k));
                if (++redrawn == PATIENCE && !has_candidate(deck, k, n, blocked)) {
                    failed = -1;
                    break;
                }
            } while (blocked >> deck[j] & 1);
            if (failed)
                break;
            uint8_t card = deck[j];
            deck[j] = deck[k];
            deck[k] = card;
            to[k][r] = card;
            blocked |= 0xFull << (card & ~3);
        }
    }
    d->rng = rng;
    return failed;
}

#endif
