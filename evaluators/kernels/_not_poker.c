/* The kernel of games read from a hand's multiset of symbols (NotPoker): per hand, the
 * dense index of its sorted symbols in the combinatorial number system, then the figures
 * its game's reading table holds at that index.
 *
 * Nothing here knows the game: the symbol of each byte, the weights of each place and
 * the reading table come from its Python module, built there once; the loop runs with
 * the GIL released.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "_buffers.h"

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

PyDoc_STRVAR(multiset_readings_doc,
"multiset_readings(symbols, weights, strengths, categories, hands, places, out_strength,\n"
"                  out_category)\n"
"--\n\n"
"Per hand (a row of `places` bytes): its symbols symbols[byte] sorted ascending as\n"
"v0..v(places-1), index = sum of weights[i, v_i], then out_strength[i] = strengths[index]\n"
"and out_category[i] = categories[index].\n\n"
"symbols: uint8[256]; weights: int32 (places, S) with every symbol below S; strengths:\n"
"uint32[T] and categories: int8[T], where T exceeds the largest index the weights can\n"
"make; out_strength: uint32 and out_category: int8, one per hand.");

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
    return PyModuleDef_Init(&module);
}
