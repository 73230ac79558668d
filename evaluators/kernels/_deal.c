/* Odds' sampled deal: run-outs drawn from the unseen cards, seeded, with the GIL released.
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
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_buffers.h"

#define DECK 52
#define TILE 64
/* Run-outs dealt into a local tile before their positions are copied out: the output's
 * rows lie a chunk apart, often a multiple of 4 KiB, so storing a byte per row per
 * run-out would keep evicting the same cache set. */

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

/* 0, or -1 when a discard table card found no candidate (a plan odds_violations refuses). */
static int
deal(uint8_t *deck, Py_ssize_t n, Py_ssize_t in_turn, Py_ssize_t width, uint16_t table_ranks,
     uint64_t seed, uint8_t *restrict out, Py_ssize_t count)
{
    uint64_t table_blocked = 0;
    for (int rank = 0; rank < DECK / 4; rank++)
        if (table_ranks >> rank & 1)
            table_blocked |= 0xFull << (4 * rank);
    Rng rng = {.halves = 0};
    for (int i = 0; i < 4; i++)
        rng.s[i] = splitmix64(&seed);
    uint8_t tile[DECK][TILE];
    for (Py_ssize_t first = 0; first < count; first += TILE) {
        Py_ssize_t tiled = count - first < TILE ? count - first : TILE;
        for (Py_ssize_t r = 0; r < tiled; r++) {
            for (Py_ssize_t k = 0; k < in_turn; k++) {
                Py_ssize_t j = k + below(&rng, (uint32_t)(n - k));
                uint8_t card = deck[j];
                deck[j] = deck[k];
                deck[k] = card;
                tile[k][r] = card;
            }
            uint64_t blocked = table_blocked;
            for (Py_ssize_t k = in_turn; k < width; k++) {
                Py_ssize_t j;
                int redrawn = 0;
                do {
                    j = k + below(&rng, (uint32_t)(n - k));
                    if (++redrawn == PATIENCE && !has_candidate(deck, k, n, blocked))
                        return -1;
                } while (blocked >> deck[j] & 1);
                uint8_t card = deck[j];
                deck[j] = deck[k];
                deck[k] = card;
                tile[k][r] = card;
                blocked |= 0xFull << (card & ~3);
            }
        }
        for (Py_ssize_t k = 0; k < width; k++)
            memcpy(out + k * count + first, tile[k], (size_t)tiled);
    }
    return 0;
}

PyDoc_STRVAR(sample_doc,
"sample(unseen, in_turn, width, table_ranks, seed, out)\n"
"--\n\n"
"Fill out (uint8, width rows of count run-outs, row-major: each position's cards\n"
"contiguous) with run-outs of the unseen card ids (distinct, 0-51): positions below\n"
"in_turn by a partial Fisher-Yates shuffle, the rest each uniform over the cards left\n"
"whose rank (bit card >> 2) is neither in table_ranks nor dealt to the table before it.\n"
"seed (0 to 2^64 - 1) fixes every draw. ValueError when a table card has no candidate.");

static PyObject *
sample(PyObject *module, PyObject *args)
{
    Py_buffer v[2] = {{0}};
    Py_ssize_t in_turn, width;
    unsigned int table_ranks;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "y*nnIKw*", &v[0], &in_turn, &width, &table_ranks, &seed,
                          &v[1]))
        goto fail;
    Py_ssize_t n = v[0].len;
    if (n > DECK || in_turn < 0 || in_turn > width || width > n) {
        PyErr_Format(PyExc_ValueError,
                     "unseen has %zd cards (at most %d), in_turn %zd, width %zd: need "
                     "0 <= in_turn <= width <= unseen",
                     n, DECK, in_turn, width);
        goto fail;
    }
    uint8_t deck[DECK];
    uint64_t seen = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        deck[i] = ((const uint8_t *)v[0].buf)[i];
        if (deck[i] >= DECK || seen >> deck[i] & 1) {
            PyErr_Format(PyExc_ValueError, "unseen[%zd] is %d: cards are distinct ids 0-%d",
                         i, deck[i], DECK - 1);
            goto fail;
        }
        seen |= 1ull << deck[i];
    }
    Py_ssize_t count = width ? v[1].len / width : 0;
    if (width && v[1].len % width) {
        PyErr_Format(PyExc_ValueError, "out has %zd bytes, not %zd rows", v[1].len, width);
        goto fail;
    }
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = deal(deck, n, in_turn, width, (uint16_t)table_ranks, seed, v[1].buf, count);
    Py_END_ALLOW_THREADS
    if (failed) {
        PyErr_SetString(PyExc_ValueError, "a table card has no candidate left");
        goto fail;
    }
    release_all(v, 2);
    Py_RETURN_NONE;
fail:
    release_all(v, 2);
    return NULL;
}

static PyMethodDef methods[] = {
    {"sample", sample, METH_VARARGS, sample_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "evaluators.kernels._deal",
    .m_doc = "Odds' sampled deal: seeded run-outs of the unseen cards.",
    .m_size = 0,
    .m_methods = methods,
};

PyMODINIT_FUNC
PyInit__deal(void)
{
    return PyModuleDef_Init(&module);
}
