/* The kernel of games read from a hand's multiset of symbols (NotPoker): per hand, the
 * dense index of its sorted symbols in the combinatorial number system, then the figures
 * its game's reading table holds at that index.
 *
 * Nothing here knows the game: the symbol of each byte, the weights of each place and
 * the reading table come from its Python module, built there once; the loop runs with
 * the GIL released.
 *
 * Instruction-set paths (docs/kernels.md, ``_isa.h``): six places take the AVX2 loop
 * (``avx2_readings``: eight rows a step) where the CPU has AVX2 and the symbols are a
 * function of the byte's class, each below 16 (``symbols_by_class``), else the plain
 * loop, with the same answers. ``evaluators.kernels.set_isa`` sets this module's path with
 * the others'. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "_buffers.h"
#include "_isa.h"
#include "_rows256.h"
#include "_sort256.h"

#define CARD_BYTES 256
#define MAX_PLACES 16

typedef struct {
    const uint8_t *symbols;
    const int32_t *weights;
    Py_ssize_t symbol_count;
    const uint32_t *strengths;
    const int8_t *categories;
    const uint8_t *hands;
    uint32_t *out_strength;
    int8_t *out_category;
} Readings;

#define EXCHANGE(a, b)                          \
    do {                                        \
        uint8_t low_ = a < b ? a : b;           \
        b = a < b ? b : a;                      \
        a = low_;                               \
    } while (0)

/* Six symbols sorted by an optimal network (12 exchanges in 5 layers), weighed. */
static inline int32_t
index_of_six(const uint8_t *restrict symbol, const int32_t *restrict w, Py_ssize_t n,
             const uint8_t *hand)
{
    uint8_t s0 = symbol[hand[0]], s1 = symbol[hand[1]], s2 = symbol[hand[2]];
    uint8_t s3 = symbol[hand[3]], s4 = symbol[hand[4]], s5 = symbol[hand[5]];
    EXCHANGE(s0, s5); EXCHANGE(s1, s3); EXCHANGE(s2, s4);
    EXCHANGE(s1, s2); EXCHANGE(s3, s4);
    EXCHANGE(s0, s3); EXCHANGE(s2, s5);
    EXCHANGE(s0, s1); EXCHANGE(s2, s3); EXCHANGE(s4, s5);
    EXCHANGE(s1, s2); EXCHANGE(s3, s4);
    return w[s0] + w[n + s1] + w[2 * n + s2] + w[3 * n + s3] + w[4 * n + s4] + w[5 * n + s5];
}

/* Any number of places up to MAX_PLACES: insertion sort, then the same weighing. */
static inline int32_t
index_of(const uint8_t *restrict symbol, const int32_t *restrict w, Py_ssize_t n,
         const uint8_t *hand, Py_ssize_t places)
{
    uint8_t sorted[MAX_PLACES];
    for (Py_ssize_t j = 0; j < places; j++) {
        uint8_t s = symbol[hand[j]];
        Py_ssize_t k = j;
        for (; k > 0 && sorted[k - 1] > s; k--)
            sorted[k] = sorted[k - 1];
        sorted[k] = s;
    }
    int32_t index = 0;
    for (Py_ssize_t j = 0; j < places; j++)
        index += w[j * n + sorted[j]];
    return index;
}

/* The loop of multiset_readings over restrict locals (an int8 store could otherwise
 * alias every table), six places unrolled. */
static inline __attribute__((always_inline)) void
readings_rows(Readings r, Py_ssize_t count, Py_ssize_t places)
{
    const uint8_t *restrict symbols = r.symbols, *restrict hands = r.hands;
    const int32_t *restrict weights = r.weights;
    const uint32_t *restrict strengths = r.strengths;
    const int8_t *restrict categories = r.categories;
    uint32_t *restrict out_strength = r.out_strength;
    int8_t *restrict out_category = r.out_category;
    Py_ssize_t n = r.symbol_count;
    for (Py_ssize_t i = 0; i < count; i++) {
        int32_t index = places == 6
                            ? index_of_six(symbols, weights, n, hands + 6 * i)
                            : index_of(symbols, weights, n, hands + places * i, places);
        out_strength[i] = strengths[index];
        out_category[i] = categories[index];
    }
}

#ifdef HAVE_X86_VECTORS
/* The AVX2 loop reads a byte's symbol from a 16-entry byte table (``pshufb``) by the
 * byte's class: its rank (byte >> 2, 0-12) for the 52 cards, 13 for the jokers (52, 53),
 * 14 for every byte from 54 up (no card). It takes only a ``symbols`` table that is
 * exactly such a function of the byte, so every byte 0-255 reads the same symbol in both
 * loops, and whose symbols fit a nibble (below 16), so that two sorted places make one
 * byte-sized key of a table of their weights summed (``pair_weights``). */
#define NO_CARD 54
#define NO_CARD_CLASS 14
#define NIBBLE 16

static inline int symbol_class(int byte)
{
    return byte < NO_CARD ? byte >> 2 : NO_CARD_CLASS;
}

/* Whether ``symbols`` is a function of the byte's class, every symbol below 16; if so,
 * that function in ``by_class`` (the entries past NO_CARD_CLASS 0, never read). */
static int symbols_by_class(const uint8_t *symbols, uint8_t by_class[16])
{
    for (int k = 0; k < 16; k++)
        by_class[k] = 0;
    for (int byte = CARD_BYTES - 1; byte >= 0; byte--)
        by_class[symbol_class(byte)] = symbols[byte];
    for (int byte = 0; byte < CARD_BYTES; byte++)
        if (symbols[byte] != by_class[symbol_class(byte)] || symbols[byte] >= NIBBLE)
            return 0;
    return 1;
}

/* Places 2p and 2p + 1 weighed at once: pairs[p][a + 16 * b] is weights[2p, a] +
 * weights[2p + 1, b] for symbols a, b below the weights' n (0 past it: no symbol reaches
 * there). The index is then three reads where it was six, and the same sum. */
static void
pair_weights(int32_t pairs[3][NIBBLE * NIBBLE], const int32_t *weights, Py_ssize_t n)
{
    for (int p = 0; p < 3; p++)
        for (int b = 0; b < NIBBLE; b++)
            for (int a = 0; a < NIBBLE; a++)
                pairs[p][a + NIBBLE * b] = a < n && b < n ? weights[2 * p * n + a] +
                                                                weights[(2 * p + 1) * n + b]
                                                          : 0;
}

/* The six-place sorting network of ``index_of_six``, a layer at a time, as each place's
 * partner in the layer's exchanges (_sort256.h). */
#define SIX_LAYERS 5
static const uint8_t SIX_PLACES[SIX_LAYERS][MAX_NETWORK_WIDTH] = {
    {5, 3, 4, 1, 2, 0}, {0, 2, 1, 4, 3, 5}, {3, 1, 5, 0, 4, 2}, {1, 0, 3, 2, 5, 4},
    {0, 2, 1, 4, 3, 5},
};

/* The constants of a step: four rows of six bytes a qword each (``rows``, ``pad``; the
 * two bytes past a row read as byte 0, never sorted nor weighed), the symbol by class, and
 * the network. */
typedef struct {
    __m256i rows, pad, by_class;
    Network256 network;
} Readings256;

__attribute__((target("avx2"))) static void
load_readings(Readings256 *v, const uint8_t by_class[16])
{
    row_patterns(6, 0, &v->rows, &v->pad);
    v->by_class = lane_pattern(by_class);
    load_network(&v->network, SIX_PLACES, SIX_LAYERS, 6);
}

/* Four rows from ``p`` a qword each, as their six symbols (``symbol_class``, then the
 * table): every byte from 54 up is clamped to 54, whose shift gives 13, and the compare
 * adds the one that makes it 14; no class passes 14, so ``pshufb`` never zeroes one. */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i
four_symbols(const Readings256 *v, const uint8_t *p)
{
    __m256i x = _mm256_min_epu8(placed(four_rows(p, 6), v->rows, v->pad),
                                _mm256_set1_epi8(NO_CARD));
    __m256i rank = _mm256_and_si256(_mm256_srli_epi16(x, 2), _mm256_set1_epi8(0x3f));
    __m256i no_card = _mm256_cmpeq_epi8(x, _mm256_set1_epi8(NO_CARD)); /* 13 + 1 */
    return _mm256_shuffle_epi8(v->by_class, _mm256_sub_epi8(rank, no_card));
}

/* Each qword's sorted places as three pair keys, a 16-bit word each (place 2p + 16 x
 * place 2p + 1, by ``pmaddubsw``: at most 255, no saturation); the fourth word, of the
 * two bytes past the row, is never read. */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i
pair_keys(__m256i sorted)
{
    return _mm256_maddubs_epi16(sorted, _mm256_set1_epi16(1 + (NIBBLE << 8)));
}

/* ``readings_rows`` for six places, eight rows a step from row 0: the symbols looked up,
 * sorted and paired into keys in vector registers (a row to a qword), then weighed
 * (``pair_weights``) and read a row at a time. Returns the rows done: the plain loop
 * takes the rest (the last 1-8 rows, a whole batch of under 9, or every row where the
 * symbols are not by class). */
__attribute__((target("avx2"))) static Py_ssize_t
avx2_readings(Readings r, Py_ssize_t count)
{
    const uint8_t *restrict hands = r.hands;
    const uint32_t *restrict strengths = r.strengths;
    const int8_t *restrict categories = r.categories;
    uint32_t *restrict out_strength = r.out_strength;
    int8_t *restrict out_category = r.out_category;
    Py_ssize_t steps = eight_row_steps(count, 6);
    uint8_t by_class[16];
    if (steps <= 0 || !symbols_by_class(r.symbols, by_class))
        return 0;
    Readings256 v;
    load_readings(&v, by_class);
    int32_t pairs[3][NIBBLE * NIBBLE];
    pair_weights(pairs, r.weights, r.symbol_count);
    uint16_t keys[32];
    Py_ssize_t i = 0;
    for (; i < steps; i += 8) {
        const uint8_t *hand = hands + 6 * i;
        for (int half = 0; half < 2; half++) {
            __m256i symbols = four_symbols(&v, hand + 24 * half);
            _mm256_storeu_si256((__m256i *)(keys + 16 * half),
                                pair_keys(sorted_qwords(&v.network, symbols, SIX_LAYERS)));
        }
        for (int k = 0; k < 8; k++) {
            const uint16_t *key = keys + 4 * k;
            int32_t index = pairs[0][key[0]] + pairs[1][key[1]] + pairs[2][key[2]];
            out_strength[i + k] = strengths[index];
            out_category[i + k] = categories[index];
        }
    }
    return i;
}
#endif

PyDoc_STRVAR(multiset_readings_doc,
"multiset_readings(symbols, weights, strengths, categories, hands, places, out_strength,\n"
"                  out_category)\n"
"--\n\n"
"Per hand (a row of `places` bytes): its symbols symbols[byte] sorted ascending as\n"
"v0..v(places-1), index = sum of weights[i, v_i], then out_strength[i] = strengths[index]\n"
"and out_category[i] = categories[index].\n\n"
"symbols: uint8[256]; weights: int32 (places, S) with every symbol below S; strengths:\n"
"uint32[T] and categories: int8[T], where T exceeds the largest index the weights can\n"
"make; out_strength: uint32 and out_category: int8, one per hand.\n\n"
"On the 'avx2' path (isa()), six places whose symbols are a function of the byte's rank,\n"
"joker or no-card class, each below 16, are sorted eight hands a step in vector\n"
"registers; anything else one hand at a time. The figures are the same either way.");

static PyObject *
multiset_readings(PyObject *module, PyObject *args)
{
    Py_buffer v[7] = {{0}};
    Py_ssize_t places;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*nw*w*", &v[0], &v[1], &v[2], &v[3], &v[4],
                          &places, &v[5], &v[6]))
        goto fail;
    if (places < 1 || places > MAX_PLACES) {
        PyErr_Format(PyExc_ValueError, "places is %zd; 1-%d", places, MAX_PLACES);
        goto fail;
    }
    Py_ssize_t count = matrix_rows(&v[4], places, 0, "hands");
    if (count < 0)
        goto fail;
    Py_ssize_t entries = v[2].len / 4;
    if (v[1].len % (4 * places) || expect_items(&v[0], CARD_BYTES, 1, "symbols") ||
        expect_items(&v[2], entries, 4, "strengths") ||
        expect_items(&v[3], entries, 1, "categories") ||
        expect_items(&v[5], count, 4, "out_strength") ||
        expect_items(&v[6], count, 1, "out_category")) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "weights has %zd bytes, not %zd int32 rows",
                         v[1].len, places);
        goto fail;
    }
    Readings r = {v[0].buf, v[1].buf, v[1].len / (4 * places), v[2].buf, v[3].buf,
                  v[4].buf, v[5].buf, v[6].buf};
    for (int byte = 0; byte < CARD_BYTES; byte++)
        if (r.symbols[byte] >= r.symbol_count) {
            PyErr_Format(PyExc_ValueError, "symbols[%d] is %d; weights has %zd symbols", byte,
                         r.symbols[byte], r.symbol_count);
            goto fail;
        }
    int64_t largest = 0;
    for (Py_ssize_t j = 0; j < places; j++) {
        int32_t most = 0;
        for (Py_ssize_t s = 0; s < r.symbol_count; s++) {
            int32_t weight = r.weights[j * r.symbol_count + s];
            if (weight < 0) {
                PyErr_SetString(PyExc_ValueError, "weights must not be negative");
                goto fail;
            }
            most = weight > most ? weight : most;
        }
        largest += most;
    }
    if (largest >= entries) {
        PyErr_Format(PyExc_ValueError, "the weights reach index %lld; the tables have %zd",
                     (long long)largest, entries);
        goto fail;
    }

    Py_BEGIN_ALLOW_THREADS
#ifdef HAVE_X86_VECTORS
    if (isa == ISA_AVX2 && places == 6) {
        Py_ssize_t done = avx2_readings(r, count);
        r.hands += done * 6;
        r.out_strength += done;
        r.out_category += done;
        count -= done;
    }
#endif
    if (places == 6)
        readings_rows(r, count, 6);
    else
        readings_rows(r, count, places);
    Py_END_ALLOW_THREADS
    release_all(v, 7);
    Py_RETURN_NONE;
fail:
    release_all(v, 7);
    return NULL;
}

static PyMethodDef methods[] = {
    {"multiset_readings", multiset_readings, METH_VARARGS, multiset_readings_doc},
    ISA_METHODS,
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "evaluators.kernels._not_poker",
    .m_doc = "Readings of hands by their multiset of symbols (NotPoker's reading table).",
    .m_size = 0,
    .m_methods = methods,
};

PyMODINIT_FUNC
PyInit__not_poker(void)
{
#ifdef HAVE_X86_VECTORS
    __builtin_cpu_init();
    isa_runs[ISA_AVX2] = __builtin_cpu_supports("avx2");
#endif
    isa_start();
    return PyModuleDef_Init(&module);
}
