/* Kernels of the discard games (their kept cards' packed sums and the figures of each sum)
 * and of check-by-check comparisons against a table (High Card's checks survived).
 *
 * Nothing here knows a game: each takes the game's tables, built once by its Python
 * module, and loops over a batch of 255-padded rows with the GIL released. Card ids are
 * cards.py's (rank * 4 + suit, 0-51); any other byte has no rank and shows nothing.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "_buffers.h"
#include "_checks.h"
#include "_isa.h"
#include "_rows256.h"
#include "_sort256.h"

#define CARD_BYTES 256
#define SUMS 65536
#define DECK 52

/* Byte -> the bit of its rank (1 << (card >> 2)) for the 52 cards, 0 for any other. */
static uint16_t rank_bits[CARD_BYTES];

static inline uint16_t
shown_ranks(const uint8_t *table, Py_ssize_t size)
{
    uint16_t shown = 0;
    for (Py_ssize_t i = 0; i < size; i++)
        shown |= rank_bits[table[i]];
    return shown;
}

/* A sum's four figures in one entry of the figures table (discard.FIGURE_SHIFTS). */
#define STRENGTH_SHIFT 0
#define LOW_SHIFT 16
#define HEAD_SHIFT 32
#define INSTANT_SHIFT 48

typedef struct {
    const uint16_t *values;
    const uint64_t *figures;
    const uint8_t *hands, *tables;
    uint16_t *out_strength, *out_low;
    int16_t *out_head;
    uint8_t *out_instant;
} Totals;

/* The loop of discard_totals, inlined for the usual sizes (the full hands and tables
 * of the discard games: 3 or 5 cards, 4, 5 or 7 on the table) so that the compiler
 * unrolls their cards: 25-35% quicker per hand. Every pointer is a restrict local (a
 * bool store could otherwise alias them all). */
static inline __attribute__((always_inline)) void
kept_totals(Totals t, Py_ssize_t count, int per_hand, Py_ssize_t hand_size,
            Py_ssize_t table_size)
{
    const uint16_t *restrict values = t.values;
    const uint64_t *restrict figures = t.figures;
    const uint8_t *restrict hands = t.hands;
    const uint8_t *restrict tables = t.tables;
    uint16_t *restrict out_strength = t.out_strength, *restrict out_low = t.out_low;
    int16_t *restrict out_head = t.out_head;
    uint8_t *restrict out_instant = t.out_instant;
    uint16_t kept[CARD_BYTES];
    if (!per_hand) {
        uint16_t shown = shown_ranks(tables, table_size);
        for (int card = 0; card < CARD_BYTES; card++)
            kept[card] = rank_bits[card] & shown ? 0 : values[card];
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        const uint8_t *hand = hands + i * hand_size;
        uint16_t sum = 0;
        if (per_hand) {
            uint16_t shown = shown_ranks(tables + i * table_size, table_size);
            for (Py_ssize_t j = 0; j < hand_size; j++)
                sum += values[hand[j]] & (uint16_t)(((rank_bits[hand[j]] & shown) != 0) - 1);
        }
        else {
            for (Py_ssize_t j = 0; j < hand_size; j++)
                sum += kept[hand[j]];
        }
        uint64_t figure = figures[sum];
        out_strength[i] = (uint16_t)(figure >> STRENGTH_SHIFT);
        out_low[i] = (uint16_t)(figure >> LOW_SHIFT);
        out_head[i] = (int16_t)(uint16_t)(figure >> HEAD_SHIFT);
        out_instant[i] = (uint8_t)(figure >> INSTANT_SHIFT);
    }
}

/* The instruction-set paths (docs/kernels.md), chosen with the poker kernel's
 * (``evaluators.kernels.set_isa`` sets both): ``discard_totals`` takes the AVX2 loop
 * (``avx2_totals``: eight rows a step) where the CPU has AVX2 and the values are a rank's
 * (the same for every suit, 0 for every other byte), else the plain loop. */

#ifdef HAVE_X86_VECTORS
/* Whether ``values`` are a rank's: the same for the four cards of a rank, 0 past the deck
 * (the vector loop reads them by rank, every byte from 52 up as no card). */
static int values_by_rank(const uint16_t *values)
{
    for (int card = 0; card < CARD_BYTES; card++)
        if (values[card] != (card < DECK ? values[card & ~3] : 0))
            return 0;
    return 1;
}

/* The constants of a step: per 16-byte lane, two rows of ``width`` bytes a qword each
 * (``rows``), 0xFF past the width (``pad``); by rank + 1 (0 and 14-15: no card) the rank's
 * bit in ranks 0-7 or 8-12, and its value's low and high byte. */
typedef struct {
    __m256i hand_rows, hand_pad, table_rows, table_pad, bit_low, bit_high, value_low, value_high;
} Totals256;

__attribute__((target("avx2"))) static void
load_totals(Totals256 *v, const uint16_t *values, Py_ssize_t hand_size, Py_ssize_t table_size)
{
    uint8_t planes[4][16] = {{0}};
    row_patterns(hand_size, 0xFF, &v->hand_rows, &v->hand_pad);
    row_patterns(table_size, 0xFF, &v->table_rows, &v->table_pad);
    for (int rank = 0; rank < 13; rank++) {
        planes[0][rank + 1] = (uint8_t)(rank < 8 ? 1 << rank : 0);
        planes[1][rank + 1] = (uint8_t)(rank < 8 ? 0 : 1 << (rank - 8));
        planes[2][rank + 1] = (uint8_t)(values[4 * rank] & 0xff);
        planes[3][rank + 1] = (uint8_t)(values[4 * rank] >> 8);
    }
    v->bit_low = lane_pattern(planes[0]);
    v->bit_high = lane_pattern(planes[1]);
    v->value_low = lane_pattern(planes[2]);
    v->value_high = lane_pattern(planes[3]);
}

/* Four rows from ``p`` (two to each 128-bit lane) a qword each, as rank + 1 a byte: 0 past
 * the width, 14 for any byte from 52 up (no card). */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i
rank_bytes(const uint8_t *p, Py_ssize_t width, __m256i rows, __m256i pad)
{
    __m256i x = _mm256_min_epu8(placed(four_rows(p, width), rows, pad), _mm256_set1_epi8(52));
    x = _mm256_and_si256(_mm256_srli_epi16(x, 2), _mm256_set1_epi8(0x3f)); /* borrowed bits */
    return _mm256_add_epi8(x, _mm256_set1_epi8(1));
}

/* Each qword's bytes OR-ed, in every byte of it. */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i
any_of_row(__m256i x)
{
    x = _mm256_or_si256(x, _mm256_srli_epi64(x, 32));
    x = _mm256_or_si256(x, _mm256_srli_epi64(x, 16));
    x = _mm256_or_si256(x, _mm256_srli_epi64(x, 8));
    const __m256i first = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8, 8,
                                           0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8, 8);
    return _mm256_shuffle_epi8(x, first);
}

/* Eight rows' figures (``sums``: their kept sums, a qword each, rows 0-3 then 4-7) read
 * from the figures table by two gathers and written out a column at a time: each lane's two
 * entries are regrouped by figure (``pshufb``), the 32-bit pairs put in row order across
 * the lanes (``vpermd``) and the two registers' halves joined, so eight rows take four
 * stores, not thirty-two. */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void
eight_figures(const Totals *t, Py_ssize_t i, __m256i first_sums, __m256i second_sums)
{
    const __m256i by_figure = _mm256_setr_epi8(0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 14,
                                               -1, -1, 0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13,
                                               6, 14, -1, -1);
    const __m256i in_order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    const long long *table = (const long long *)t->figures;
    const __m256i wrapped = _mm256_set1_epi64x(SUMS - 1); /* sums add in uint16 */
    __m256i first = _mm256_i64gather_epi64(table, _mm256_and_si256(first_sums, wrapped), 8);
    __m256i second = _mm256_i64gather_epi64(table, _mm256_and_si256(second_sums, wrapped), 8);
    first = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(first, by_figure), in_order);
    second = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(second, by_figure), in_order);
    __m256i strength_head = _mm256_unpacklo_epi64(first, second);
    __m256i low_instant = _mm256_unpackhi_epi64(first, second);
    _mm_storeu_si128((__m128i *)(t->out_strength + i), _mm256_castsi256_si128(strength_head));
    _mm_storeu_si128((__m128i *)(t->out_head + i), _mm256_extracti128_si256(strength_head, 1));
    _mm_storeu_si128((__m128i *)(t->out_low + i), _mm256_castsi256_si128(low_instant));
    const __m128i instants = _mm_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1,
                                           -1, -1);
    _mm_storel_epi64((__m128i *)(t->out_instant + i),
                     _mm_shuffle_epi8(_mm256_extracti128_si256(low_instant, 1), instants));
}

/* Four rows' kept sums, a qword each: the values of the hand cards whose rank bit is not
 * in ``shown_low``/``shown_high`` (a row's shown ranks in every byte of its qword). */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i
kept_sums(const Totals256 *v, __m256i hand, __m256i shown_low, __m256i shown_high)
{
    __m256i shown = _mm256_or_si256(
        _mm256_and_si256(_mm256_shuffle_epi8(v->bit_low, hand), shown_low),
        _mm256_and_si256(_mm256_shuffle_epi8(v->bit_high, hand), shown_high));
    __m256i kept = _mm256_cmpeq_epi8(shown, _mm256_setzero_si256());
    __m256i low = _mm256_and_si256(_mm256_shuffle_epi8(v->value_low, hand), kept);
    __m256i high = _mm256_and_si256(_mm256_shuffle_epi8(v->value_high, hand), kept);
    return _mm256_add_epi64(_mm256_sad_epu8(low, _mm256_setzero_si256()),
                            _mm256_slli_epi64(_mm256_sad_epu8(high, _mm256_setzero_si256()), 8));
}

/* ``kept_totals`` eight rows a step from row 0, the sums in vector registers (a byte table
 * of each rank's bit and value, looked up by ``pshufb``; a row's shown ranks OR-ed across
 * its qword; its kept values summed by ``psadbw``), their figures by ``eight_figures``.
 * Returns the rows done: the plain loop takes the rest (at most the last 13). */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) Py_ssize_t
avx2_totals(Totals t, Py_ssize_t count, int per_hand, Py_ssize_t hand_size,
            Py_ssize_t table_size)
{
    Totals256 v;
    load_totals(&v, t.values, hand_size, table_size);
    __m256i shown_low = _mm256_setzero_si256(), shown_high = _mm256_setzero_si256();
    if (!per_hand) {
        uint16_t shown = shown_ranks(t.tables, table_size);
        shown_low = _mm256_set1_epi8((char)(shown & 0xff));
        shown_high = _mm256_set1_epi8((char)(shown >> 8));
    }
    Py_ssize_t steps = eight_row_steps(count, hand_size);
    if (per_hand && eight_row_steps(count, table_size) < steps)
        steps = eight_row_steps(count, table_size); /* the tables' loads stay in them too */
    Py_ssize_t i = 0;
    for (; i < steps; i += 8) {
        const uint8_t *hand = t.hands + i * hand_size;
        __m256i first = rank_bytes(hand, hand_size, v.hand_rows, v.hand_pad);
        __m256i second = rank_bytes(hand + 4 * hand_size, hand_size, v.hand_rows, v.hand_pad);
        if (per_hand) {
            const uint8_t *table = t.tables + i * table_size;
            __m256i low[2], high[2];
            for (int half = 0; half < 2; half++) {
                __m256i ranks = rank_bytes(table + 4 * half * table_size, table_size,
                                           v.table_rows, v.table_pad);
                low[half] = any_of_row(_mm256_shuffle_epi8(v.bit_low, ranks));
                high[half] = any_of_row(_mm256_shuffle_epi8(v.bit_high, ranks));
            }
            eight_figures(&t, i, kept_sums(&v, first, low[0], high[0]),
                          kept_sums(&v, second, low[1], high[1]));
        } else {
            eight_figures(&t, i, kept_sums(&v, first, shown_low, shown_high),
                          kept_sums(&v, second, shown_low, shown_high));
        }
    }
    return i;
}
#endif

#ifdef HAVE_X86_VECTORS
/* ``avx2_totals`` with the discard games' shapes constant (3 or 5 cards, 4, 5 or 7 on the
 * table); the rows it leaves for the plain loop. */
__attribute__((target("avx2"))) static Py_ssize_t
vector_totals(Totals t, Py_ssize_t count, int per_hand, Py_ssize_t hand, Py_ssize_t table)
{
    switch (hand * 16 + table) {
    case 3 * 16 + 4: return avx2_totals(t, count, per_hand, 3, 4);
    case 3 * 16 + 5: return avx2_totals(t, count, per_hand, 3, 5);
    case 5 * 16 + 7: return avx2_totals(t, count, per_hand, 5, 7);
    default: return avx2_totals(t, count, per_hand, hand, table);
    }
}
#endif

#define TOTALS_WITH_TABLE(t, count, per_hand, hand)                                     \
    switch (per_hand ? table_size : -1) {                                                \
    case 4: kept_totals(t, count, 1, hand, 4); break;                                    \
    case 5: kept_totals(t, count, 1, hand, 5); break;                                    \
    case 7: kept_totals(t, count, 1, hand, 7); break;                                    \
    case -1: kept_totals(t, count, 0, hand, table_size); break;                          \
    default: kept_totals(t, count, 1, hand, table_size);                                 \
    }

PyDoc_STRVAR(discard_totals_doc,
"discard_totals(values, figures, hands, hand_size, tables, table_size, out_strength,\n"
"               out_low, out_head, out_instant)\n"
"--\n\n"
"Per hand, the uint16 sum of values[card] over the cards the discard rule keeps (a hand\n"
"card is dropped when its rank shows among its table's cards), then that sum's figures\n"
"from figures[sum]: out_strength its bits 0-15, out_low 16-31, out_head 32-47 (int16),\n"
"out_instant 48-55.\n\n"
"values: uint16[256] by card byte; figures: uint64[65536]; hands: uint8 rows of\n"
"hand_size; tables: uint8 rows of table_size, one row for every hand or one per hand;\n"
"outputs: one item per hand (uint16, uint16, int16, bool).");

static PyObject *
discard_totals(PyObject *module, PyObject *args)
{
    Py_buffer v[8] = {{0}};
    Py_ssize_t hand_size, table_size;
    if (!PyArg_ParseTuple(args, "y*y*y*ny*nw*w*w*w*", &v[0], &v[1], &v[2], &hand_size, &v[3],
                          &table_size, &v[4], &v[5], &v[6], &v[7]))
        goto fail;
    Py_ssize_t count = matrix_rows(&v[2], hand_size, 0, "hands");
    if (count < 0)
        goto fail;
    Py_ssize_t tables = table_rows(&v[3], table_size, count);
    if (tables < 0)
        goto fail;
    if (expect_items(&v[0], CARD_BYTES, 2, "values") ||
        expect_items(&v[1], SUMS, 8, "figures") ||
        expect_items(&v[4], count, 2, "out_strength") ||
        expect_items(&v[5], count, 2, "out_low") || expect_items(&v[6], count, 2, "out_head") ||
        expect_items(&v[7], count, 1, "out_instant"))
        goto fail;
    Totals totals = {v[0].buf, v[1].buf, v[2].buf, v[3].buf, v[4].buf, v[5].buf, v[6].buf,
                     v[7].buf};
    Py_BEGIN_ALLOW_THREADS
    int per_hand = tables != 1;
#ifdef HAVE_X86_VECTORS
    if (isa == ISA_AVX2 && hand_size <= 8 && table_size <= 8 && values_by_rank(totals.values)) {
        Py_ssize_t done = vector_totals(totals, count, per_hand, hand_size, table_size);
        totals.hands += done * hand_size;
        if (per_hand)
            totals.tables += done * table_size;
        totals.out_strength += done;
        totals.out_low += done;
        totals.out_head += done;
        totals.out_instant += done;
        count -= done;
    }
#endif
    switch (hand_size) {
    case 3: TOTALS_WITH_TABLE(totals, count, per_hand, 3); break;
    case 5: TOTALS_WITH_TABLE(totals, count, per_hand, 5); break;
    default: TOTALS_WITH_TABLE(totals, count, per_hand, hand_size);
    }
    Py_END_ALLOW_THREADS
    release_all(v, 8);
    Py_RETURN_NONE;
fail:
    release_all(v, 8);
    return NULL;
}

/* The loop of checks_survived, inlined for five checks (High Card's) to unroll them. */
static inline __attribute__((always_inline)) void
survived_rows(const uint64_t *restrict keys, const uint8_t *restrict hands,
              const uint8_t *restrict table, int per_hand, Py_ssize_t count, Py_ssize_t size,
              uint8_t *restrict out)
{
    uint64_t theirs = order_counts(keys, table, size);
    for (Py_ssize_t i = 0; i < count; i++) {
        if (per_hand)
            theirs = order_counts(keys, table + i * size, size);
        out[i] = survived(order_counts(keys, hands + i * size, size), theirs, size);
    }
}

#ifdef HAVE_X86_VECTORS
/* Whether ``order`` is a rank's: the same for the four cards of a rank, and one place for
 * every byte from 52 up (the vector loop reads places by rank, those bytes as no card). */
static int order_by_rank(const uint8_t *order)
{
    for (int card = 0; card < CARD_BYTES; card++)
        if (order[card] != order[card < DECK ? card & ~3 : DECK])
            return 0;
    return 1;
}

#define FIVE_CHECKS 5 /* the vector loop takes five checks (High Card's) */
#define NETWORK_LAYERS 5

/* The 9-exchange network for five places (High Card's ``_SORT_NETWORK_5``) a layer at a time,
 * as each place's partner (_sort256.h). */
static const uint8_t FIVE_PLACES[NETWORK_LAYERS][MAX_NETWORK_WIDTH] = {
    {3, 4, 2, 0, 1}, {2, 3, 0, 1, 4}, {1, 0, 4, 3, 2}, {0, 2, 1, 4, 3}, {0, 1, 3, 2, 4},
};

/* The constants of ``avx2_survived``: five-card rows a qword each, by rank + 1 (14: no
 * card) the place in the check order, and the network. */
typedef struct {
    __m256i rows, pad, places;
    Network256 network;
} Checks256;

__attribute__((target("avx2"))) static void
load_checks(Checks256 *v, const uint8_t *order)
{
    uint8_t places[16] = {0};
    row_patterns(FIVE_CHECKS, 0xFF, &v->rows, &v->pad);
    for (int rank = 0; rank < 13; rank++)
        places[rank + 1] = order[4 * rank];
    places[14] = order[DECK];
    v->places = lane_pattern(places);
    load_network(&v->network, FIVE_PLACES, NETWORK_LAYERS, FIVE_CHECKS);
}

/* Four five-card rows from ``p``, a qword each, as their places sorted ascending in bytes
 * 0-4. */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i
sorted_places(const Checks256 *v, const uint8_t *p)
{
    __m256i places = _mm256_shuffle_epi8(v->places,
                                         rank_bytes(p, FIVE_CHECKS, v->rows, v->pad));
    return sorted_qwords(&v->network, places, NETWORK_LAYERS);
}

/* Four rows' checks survived into ``out``: a row folds at the first of its sorted places
 * below the table's (``movemask`` of the compare, a byte of bits a row), or survives all. */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void
four_survived(__m256i mine, __m256i theirs, uint8_t *out)
{
    uint32_t below = (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(theirs, mine));
    for (int k = 0; k < 4; k++)
        out[k] = (uint8_t)__builtin_ctz((below >> (8 * k) & 0x1f) | 1u << FIVE_CHECKS);
}

/* ``survived_rows`` for five checks eight rows a step from row 0, each row's and table's
 * places sorted in vector registers by a sorting network (a shared table's once). Returns
 * the rows done: the plain loop takes the rest (at most the last 13). */
__attribute__((target("avx2"))) static Py_ssize_t
avx2_survived(const uint8_t *order, const uint8_t *hands, const uint8_t *tables, int per_hand,
              Py_ssize_t count, uint8_t *out)
{
    Checks256 v;
    load_checks(&v, order);
    __m256i shared = _mm256_setzero_si256();
    if (!per_hand) {
        uint8_t copies[3 * FIVE_CHECKS + 16] = {0}; /* four_rows reads four tables */
        for (int k = 0; k < 4; k++)
            memcpy(copies + k * FIVE_CHECKS, tables, FIVE_CHECKS);
        shared = sorted_places(&v, copies);
    }
    Py_ssize_t steps = eight_row_steps(count, FIVE_CHECKS), i = 0;
    for (; i < steps; i += 8)
        for (int half = 0; half < 8; half += 4) {
            Py_ssize_t at = (i + half) * FIVE_CHECKS;
            __m256i theirs = per_hand ? sorted_places(&v, tables + at) : shared;
            four_survived(sorted_places(&v, hands + at), theirs, out + i + half);
        }
    return i;
}
#endif

PyDoc_STRVAR(checks_survived_doc,
"checks_survived(order, hands, tables, size, out)\n"
"--\n\n"
"Per hand, how many checks it survives before the first fold: its row and its table's\n"
"(each `size` cards) are read as places order[card] and sorted ascending, and at check n\n"
"the hand folds when its n-th place is below the table's.\n\n"
"order: uint8[256] by card byte, places 0-15; hands: uint8 rows of size; tables: one row\n"
"for every hand or one per hand; out: uint8, one per hand. size is at most 7.");

static PyObject *
checks_survived(PyObject *module, PyObject *args)
{
    Py_buffer v[4] = {{0}};
    Py_ssize_t size;
    if (!PyArg_ParseTuple(args, "y*y*y*nw*", &v[0], &v[1], &v[2], &size, &v[3]))
        goto fail;
    if (size < 0 || size > MAX_CHECKS) {
        PyErr_Format(PyExc_ValueError, "size is %zd; at most %d", size, MAX_CHECKS);
        goto fail;
    }
    Py_ssize_t count = matrix_rows(&v[1], size, 0, "hands");
    if (count < 0)
        goto fail;
    Py_ssize_t tables = table_rows(&v[2], size, count);
    if (tables < 0)
        goto fail;
    if (expect_items(&v[0], CARD_BYTES, 1, "order") || expect_items(&v[3], count, 1, "out"))
        goto fail;
    const uint8_t *order = v[0].buf, *hands = v[1].buf, *table = v[2].buf;
    uint8_t *out = v[3].buf;
    uint64_t keys[CARD_BYTES];
    for (int card = 0; card < CARD_BYTES; card++) {
        if (order[card] >= PLACES) {
            PyErr_Format(PyExc_ValueError, "order[%d] is %d; places are 0-%d", card,
                         order[card], PLACES - 1);
            goto fail;
        }
        keys[card] = 1ull << (4 * order[card]);
    }

    Py_BEGIN_ALLOW_THREADS
#ifdef HAVE_X86_VECTORS
    if (isa == ISA_AVX2 && size == FIVE_CHECKS && order_by_rank(order)) {
        Py_ssize_t done = avx2_survived(order, hands, table, tables != 1, count, out);
        hands += done * size;
        table += tables != 1 ? done * size : 0;
        out += done;
        count -= done;
    }
#endif
    switch (size) {
    case 5: survived_rows(keys, hands, table, tables != 1, count, 5, out); break;
    default: survived_rows(keys, hands, table, tables != 1, count, size, out);
    }
    Py_END_ALLOW_THREADS
    release_all(v, 4);
    Py_RETURN_NONE;
fail:
    release_all(v, 4);
    return NULL;
}

static PyMethodDef methods[] = {
    {"discard_totals", discard_totals, METH_VARARGS, discard_totals_doc},
    ISA_METHODS,
    {"checks_survived", checks_survived, METH_VARARGS, checks_survived_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "evaluators.kernels._points",
    .m_doc = "The discard games' kept sums and figures, and checks survived against a table.",
    .m_size = 0,
    .m_methods = methods,
};

PyMODINIT_FUNC
PyInit__points(void)
{
    for (int card = 0; card < DECK; card++)
        rank_bits[card] = (uint16_t)(1u << (card >> 2));
#ifdef HAVE_X86_VECTORS
    __builtin_cpu_init();
    isa_runs[ISA_AVX2] = __builtin_cpu_supports("avx2");
#endif
    isa_start();
    return PyModuleDef_Init(&module);
}
