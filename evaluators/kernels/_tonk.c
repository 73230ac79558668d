/* Kernels of the rummy family (Tonk): a hand's points and least deadwood by runs and sets,
 * and the highest of per-card values (Tonk spades).
 *
 * Nothing here knows the game's rules beyond its tables, built once by its Python module:
 * a card's key (its rank bit in its suit's 16-bit field), its points, the least deadwood
 * by runs alone of each suit's rank mask, and the set choices of each pattern of suits
 * one rank is held in. Each loop runs with the GIL released.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "_buffers.h"

#define CARD_BYTES 256
#define SUITS 4
#define FIELD_BITS 16
#define PATTERNS 16 /* the suits one rank is held in, a bit per suit */
#define CHOICES 6   /* per pattern: the suits a set lays, 0 for none, as Python lists them */
#define MAX_CARDS 16
#define MAX_CHOICE_RANKS 5 /* ranks held 3 or more times in MAX_CARDS cards */

typedef struct {
    const uint64_t *keys;
    const int64_t *points;
    const int16_t *runs_deadwood;
    uint64_t field;
    uint8_t choices[PATTERNS][CHOICES];
    uint8_t choice_count[PATTERNS];
    uint64_t spread[PATTERNS]; /* suits -> their rank-0 bits in the packed fields */
    uint8_t minterms[PATTERNS]; /* the patterns that give a choice */
    int minterm_count;
    int three_or_more; /* the minterms are exactly the patterns of 3 or 4 suits */
    int64_t strength_base;
} Deadwood;

static inline int
runs_left(const Deadwood *d, uint64_t packed)
{
    int cost = 0;
    for (int suit = 0; suit < SUITS; suit++)
        cost += d->runs_deadwood[packed >> (FIELD_BITS * suit) & d->field];
    return cost;
}

/* Ranks (bit r) whose pattern of suits offers a set choice: held in 3 or more suits when
 * those are the patterns that do (as in every rummy the tables describe so far), else an
 * OR over the patterns that do of each one's minterm of the four suit masks. */
static inline uint64_t
choice_ranks(const Deadwood *d, uint64_t packed)
{
    uint64_t suit[SUITS], ranks = 0;
    for (int s = 0; s < SUITS; s++)
        suit[s] = packed >> (FIELD_BITS * s) & d->field;
    if (d->three_or_more)
        return (suit[0] & suit[1] & (suit[2] | suit[3])) | (suit[2] & suit[3] & (suit[0] | suit[1]));
    for (int m = 0; m < d->minterm_count; m++) {
        uint64_t term = d->field;
        for (int s = 0; s < SUITS; s++)
            term &= d->minterms[m] >> s & 1 ? suit[s] : ~suit[s];
        ranks |= term;
    }
    return ranks;
}

/* The least deadwood over every set choice of the ranks in `ranks` (runs score the rest). */
static int
with_sets(const Deadwood *d, uint64_t packed, uint64_t ranks)
{
    int rank[MAX_CHOICE_RANKS], count[MAX_CHOICE_RANKS], pattern[MAX_CHOICE_RANKS];
    int place[MAX_CHOICE_RANKS] = {0};
    int held = 0;
    while (ranks) {
        int r = __builtin_ctzll(ranks);
        ranks &= ranks - 1;
        int p = 0;
        for (int s = 0; s < SUITS; s++)
            p |= (int)(packed >> (FIELD_BITS * s + r) & 1) << s;
        rank[held] = r;
        pattern[held] = p;
        count[held] = d->choice_count[p];
        held++;
    }
    int best = -1;
    for (;;) {
        uint64_t removed = 0;
        for (int k = 0; k < held; k++)
            removed |= d->spread[d->choices[pattern[k]][place[k]]] << rank[k];
        int cost = runs_left(d, packed & ~removed);
        if (best < 0 || cost < best)
            best = cost;
        int k = 0;
        while (k < held && ++place[k] == count[k])
            place[k++] = 0;
        if (k == held)
            return best;
    }
}

/* The loop of deadwood, inlined for the hand sizes Tonk deals (5, 7, 9 and 10 cards)
 * so that the compiler unrolls their cards. */
static inline __attribute__((always_inline)) void
deadwood_rows(const Deadwood *d, const uint8_t *restrict hands, Py_ssize_t count,
              Py_ssize_t hand_size, uint16_t *restrict out_strength,
              int16_t *restrict out_deadwood)
{
    const uint64_t *restrict keys = d->keys;
    const int64_t *restrict points_of = d->points;
    for (Py_ssize_t i = 0; i < count; i++) {
        const uint8_t *hand = hands + i * hand_size;
        uint64_t packed = 0;
        int64_t points = 0;
        for (Py_ssize_t j = 0; j < hand_size; j++) {
            packed += keys[hand[j]];
            points += points_of[hand[j]];
        }
        uint64_t ranks = choice_ranks(d, packed);
        out_deadwood[i] = (int16_t)(ranks ? with_sets(d, packed, ranks) : runs_left(d, packed));
        out_strength[i] = (uint16_t)(d->strength_base - points);
    }
}

PyDoc_STRVAR(deadwood_doc,
"deadwood(keys, points, runs_deadwood, set_choices, strength_base, hands, hand_size,\n"
"         out_strength, out_deadwood)\n"
"--\n\n"
"Per hand (a row of hand_size bytes, at most 16): packed = the sum of keys[card] (four\n"
"16-bit suit fields of rank bits), points = the sum of points[card];\n"
"out_strength[i] = strength_base - points, and out_deadwood[i] the least, over every set\n"
"choice of each rank whose suits pattern has one, of the sum over the four suits of\n"
"runs_deadwood[rank mask left].\n\n"
"keys: uint64[256]; points: int64[256]; runs_deadwood: int16[2**b] by b-bit rank mask\n"
"(b <= 16); set_choices: int64 (16, 6), per pattern of suits the suits a set may lay\n"
"(0: none; only patterns of 3 or more suits may offer one); outputs: uint16 and int16,\n"
"one per hand.");

static PyObject *
deadwood(PyObject *module, PyObject *args)
{
    Py_buffer v[7] = {{0}};
    Py_ssize_t hand_size;
    long long strength_base;
    if (!PyArg_ParseTuple(args, "y*y*y*y*Ly*nw*w*", &v[0], &v[1], &v[2], &v[3], &strength_base,
                          &v[4], &hand_size, &v[5], &v[6]))
        goto fail;
    if (hand_size < 0 || hand_size > MAX_CARDS) {
        PyErr_Format(PyExc_ValueError, "hand_size is %zd; at most %d", hand_size, MAX_CARDS);
        goto fail;
    }
    Py_ssize_t count = matrix_rows(&v[4], hand_size, 0, "hands");
    if (count < 0)
        goto fail;
    Py_ssize_t masks = v[2].len / 2;
    if (expect_items(&v[0], CARD_BYTES, 8, "keys") ||
        expect_items(&v[1], CARD_BYTES, 8, "points") ||
        expect_items(&v[3], PATTERNS * CHOICES, 8, "set_choices") ||
        expect_items(&v[5], count, 2, "out_strength") ||
        expect_items(&v[6], count, 2, "out_deadwood"))
        goto fail;
    if (masks < 2 || masks > (1 << FIELD_BITS) || (masks & (masks - 1)) || v[2].len % 2) {
        PyErr_Format(PyExc_ValueError, "runs_deadwood has %zd bytes, not 2**b int16", v[2].len);
        goto fail;
    }
    Deadwood d = {.keys = v[0].buf, .points = v[1].buf, .runs_deadwood = v[2].buf,
                  .field = (uint64_t)masks - 1, .strength_base = strength_base};
    const int64_t *choices = v[3].buf;
    for (int p = 0; p < PATTERNS; p++) {
        d.choices[p][0] = 0;
        d.choice_count[p] = 1;
        for (int c = 1; c < CHOICES; c++) {
            int64_t suits = choices[p * CHOICES + c];
            if (suits < 0 || suits >= PATTERNS || (suits & ~p)) {
                PyErr_Format(PyExc_ValueError, "set_choices[%d, %d] is %lld, not suits of %d",
                             p, c, (long long)suits, p);
                goto fail;
            }
            if (suits)
                d.choices[p][d.choice_count[p]++] = (uint8_t)suits;
        }
        if (d.choice_count[p] > 1) {
            if (__builtin_popcount(p) < 3) {
                PyErr_Format(PyExc_ValueError, "set_choices offers a set for suits %d: "
                             "only a rank held 3 or more times may have one", p);
                goto fail;
            }
            d.minterms[d.minterm_count++] = (uint8_t)p;
        }
        d.spread[p] = 0;
        for (int s = 0; s < SUITS; s++)
            if (p >> s & 1)
                d.spread[p] |= 1ull << (FIELD_BITS * s);
    }
    d.three_or_more = d.minterm_count == SUITS + 1;
    const uint8_t *hands = v[4].buf;
    uint16_t *out_strength = v[5].buf;
    int16_t *out_deadwood = v[6].buf;

    Py_BEGIN_ALLOW_THREADS
    switch (hand_size) {
    case 5: deadwood_rows(&d, hands, count, 5, out_strength, out_deadwood); break;
    case 7: deadwood_rows(&d, hands, count, 7, out_strength, out_deadwood); break;
    case 9: deadwood_rows(&d, hands, count, 9, out_strength, out_deadwood); break;
    case 10: deadwood_rows(&d, hands, count, 10, out_strength, out_deadwood); break;
    default: deadwood_rows(&d, hands, count, hand_size, out_strength, out_deadwood);
    }
    Py_END_ALLOW_THREADS
    release_all(v, 7);
    Py_RETURN_NONE;
fail:
    release_all(v, 7);
    return NULL;
}

PyDoc_STRVAR(highest_doc,
"highest(values, hands, hand_size, out)\n"
"--\n\n"
"Per hand (a row of hand_size bytes), the largest values[card] of its cards, 0 for an\n"
"empty row. values: int64[256], each 0-32767; out: int16, one per hand.");

static PyObject *
highest(PyObject *module, PyObject *args)
{
    Py_buffer v[3] = {{0}};
    Py_ssize_t hand_size;
    if (!PyArg_ParseTuple(args, "y*y*nw*", &v[0], &v[1], &hand_size, &v[2]))
        goto fail;
    Py_ssize_t count = matrix_rows(&v[1], hand_size, 0, "hands");
    if (count < 0 || expect_items(&v[0], CARD_BYTES, 8, "values") ||
        expect_items(&v[2], count, 2, "out"))
        goto fail;
    const int64_t *given = v[0].buf;
    int16_t values[CARD_BYTES];
    for (int card = 0; card < CARD_BYTES; card++) {
        if (given[card] < 0 || given[card] > INT16_MAX) {
            PyErr_Format(PyExc_ValueError, "values[%d] is %lld; 0-%d", card,
                         (long long)given[card], INT16_MAX);
            goto fail;
        }
        values[card] = (int16_t)given[card];
    }
    const uint8_t *hands = v[1].buf;
    int16_t *out = v[2].buf;

    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < count; i++) {
        const uint8_t *hand = hands + i * hand_size;
        int16_t best = 0;
        for (Py_ssize_t j = 0; j < hand_size; j++)
            best = values[hand[j]] > best ? values[hand[j]] : best;
        out[i] = best;
    }
    Py_END_ALLOW_THREADS
    release_all(v, 3);
    Py_RETURN_NONE;
fail:
    release_all(v, 3);
    return NULL;
}

static PyMethodDef methods[] = {
    {"deadwood", deadwood, METH_VARARGS, deadwood_doc},
    {"highest", highest, METH_VARARGS, highest_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "evaluators.kernels._tonk",
    .m_doc = "Rummy deadwood by runs and sets (Tonk), and the highest of per-card values.",
    .m_size = 0,
    .m_methods = methods,
};

PyMODINIT_FUNC
PyInit__tonk(void)
{
    return PyModuleDef_Init(&module);
}
