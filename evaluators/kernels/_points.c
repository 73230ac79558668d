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

typedef struct {
    const uint16_t *values, *strengths, *lows;
    const int16_t *heads;
    const uint8_t *instants, *hands, *tables;
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
    const uint16_t *restrict values = t.values, *restrict strengths = t.strengths;
    const uint16_t *restrict lows = t.lows;
    const int16_t *restrict heads = t.heads;
    const uint8_t *restrict instants = t.instants, *restrict hands = t.hands;
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
        out_strength[i] = strengths[sum];
        out_low[i] = lows[sum];
        out_head[i] = heads[sum];
        out_instant[i] = instants[sum];
    }
}

#define TOTALS_WITH_TABLE(t, count, per_hand, hand)                                     \
    switch (per_hand ? table_size : -1) {                                                \
    case 4: kept_totals(t, count, 1, hand, 4); break;                                    \
    case 5: kept_totals(t, count, 1, hand, 5); break;                                    \
    case 7: kept_totals(t, count, 1, hand, 7); break;                                    \
    case -1: kept_totals(t, count, 0, hand, table_size); break;                          \
    default: kept_totals(t, count, 1, hand, table_size);                                 \
    }

PyDoc_STRVAR(discard_totals_doc,
"discard_totals(values, strengths, lows, heads, instants, hands, hand_size, tables,\n"
"               table_size, out_strength, out_low, out_head, out_instant)\n"
"--\n\n"
"Per hand, the uint16 sum of values[card] over the cards the discard rule keeps (a hand\n"
"card is dropped when its rank shows among its table's cards), then that sum's figures:\n"
"out_strength[i] = strengths[sum], and so on for lows, heads and instants.\n\n"
"values: uint16[256] by card byte; strengths, lows: uint16[65536]; heads: int16[65536];\n"
"instants: bool[65536]; hands: uint8 rows of hand_size; tables: uint8 rows of\n"
"table_size, one row for every hand or one per hand; outputs: one item per hand\n"
"(uint16, uint16, int16, bool).");

static PyObject *
discard_totals(PyObject *module, PyObject *args)
{
    Py_buffer v[11] = {{0}};
    Py_ssize_t hand_size, table_size;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*ny*nw*w*w*w*", &v[0], &v[1], &v[2], &v[3], &v[4],
                          &v[5], &hand_size, &v[6], &table_size, &v[7], &v[8], &v[9], &v[10]))
        goto fail;
    Py_ssize_t count = matrix_rows(&v[5], hand_size, 0, "hands");
    if (count < 0)
        goto fail;
    Py_ssize_t tables = table_rows(&v[6], table_size, count);
    if (tables < 0)
        goto fail;
    if (expect_items(&v[0], CARD_BYTES, 2, "values") ||
        expect_items(&v[1], SUMS, 2, "strengths") || expect_items(&v[2], SUMS, 2, "lows") ||
        expect_items(&v[3], SUMS, 2, "heads") || expect_items(&v[4], SUMS, 1, "instants") ||
        expect_items(&v[7], count, 2, "out_strength") ||
        expect_items(&v[8], count, 2, "out_low") || expect_items(&v[9], count, 2, "out_head") ||
        expect_items(&v[10], count, 1, "out_instant"))
        goto fail;
    const uint16_t *values = v[0].buf, *strengths = v[1].buf, *lows = v[2].buf;
    const int16_t *heads = v[3].buf;
    const uint8_t *instants = v[4].buf, *hands = v[5].buf, *table = v[6].buf;
    uint16_t *out_strength = v[7].buf, *out_low = v[8].buf;
    int16_t *out_head = v[9].buf;
    uint8_t *out_instant = v[10].buf;

    Totals totals = {values, strengths, lows, heads, instants, hands, table,
                     out_strength, out_low, out_head, out_instant};
    Py_BEGIN_ALLOW_THREADS
    int per_hand = tables != 1;
    switch (hand_size) {
    case 3: TOTALS_WITH_TABLE(totals, count, per_hand, 3); break;
    case 5: TOTALS_WITH_TABLE(totals, count, per_hand, 5); break;
    default: TOTALS_WITH_TABLE(totals, count, per_hand, hand_size);
    }
    Py_END_ALLOW_THREADS
    release_all(v, 11);
    Py_RETURN_NONE;
fail:
    release_all(v, 11);
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
    return PyModuleDef_Init(&module);
}
