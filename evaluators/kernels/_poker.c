/* Poker hands in a batch: the best five of 5-7 cards, by the lookups of evaluators/poker.py.
 *
 * The same arithmetic as ``poker.batch_key_sums`` + ``poker.batch_rank_classes``, one hand
 * at a time: the hand's card keys summed (rank counts, suit counts, dots), then the flush
 * table by the flush suit's rank mask, or the unsuited table through the perfect hash.
 * Every table and every constant of the key layout comes from Python once (``tables``), so
 * nothing is defined twice; ``evaluate`` writes into arrays the caller allocated, with the
 * GIL released. Any byte reads some entry inside the tables (255 and the other non-cards
 * add nothing): rows that were not screened give meaningless figures, never a fault.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_poker_tables.h"

static void tables_free(PyObject *capsule)
{
    Tables *t = PyCapsule_GetPointer(capsule, CAPSULE);
    if (t == NULL)
        return;
    for (int k = 0; k < 5; k++)
        PyBuffer_Release(&t->views[k]);
    PyMem_Free(t);
}

static int get_table(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, Py_ssize_t entries,
                     const char *what)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    if (view->itemsize != itemsize || view->len != itemsize * entries) {
        PyErr_Format(PyExc_ValueError, "%s must hold %zd items of %zd bytes", what, entries,
                     itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(tables_doc,
"tables(card_keys, flush_rank_bits, displacements, unsuited_classes, flush_classes,\n"
"       bucket_multiplier, slot_multiplier, bucket_bits, slot_bits, sum_start, flush_bits,\n"
"       rank_mask, suit_shift, suit_mask_shift, flush_rank_mask, strength_base, dots_shift,\n"
"       dots_mask) -> capsule\n\n"
"The lookup tables (held, not copied) and the key layout, for ``evaluate``: card keys and\n"
"flush rank bits 256 uint64 each, displacements uint8 per bucket, unsuited classes\n"
"uint16 per slot, flush classes 8192 uint16.");

static PyObject *tables(PyObject *module, PyObject *args)
{
    PyObject *objs[5];
    unsigned long long bucket_multiplier, slot_multiplier, sum_start, flush_bits, rank_mask;
    unsigned long long flush_rank_mask, dots_mask;
    int bucket_bits, slot_bits, suit_shift, suit_mask_shift, strength_base, dots_shift;
    if (!PyArg_ParseTuple(args, "OOOOOKKiiKKKiiKiiK", &objs[0], &objs[1], &objs[2], &objs[3],
                          &objs[4], &bucket_multiplier, &slot_multiplier, &bucket_bits,
                          &slot_bits, &sum_start, &flush_bits, &rank_mask, &suit_shift,
                          &suit_mask_shift, &flush_rank_mask, &strength_base, &dots_shift,
                          &dots_mask))
        return NULL;
    if (bucket_bits < 1 || bucket_bits > 30 || slot_bits < 1 || slot_bits > 30) {
        PyErr_SetString(PyExc_ValueError, "bucket_bits and slot_bits must be 1..30");
        return NULL;
    }
    Tables *t = PyMem_Calloc(1, sizeof(Tables));
    if (t == NULL)
        return PyErr_NoMemory();
    const Py_ssize_t itemsizes[5] = {8, 8, 1, 2, 2};
    const Py_ssize_t entries[5] = {256, 256, (Py_ssize_t)1 << bucket_bits,
                                   (Py_ssize_t)1 << slot_bits, flush_rank_mask + 1};
    const char *names[5] = {"card_keys", "flush_rank_bits", "displacements",
                            "unsuited_classes", "flush_classes"};
    for (int k = 0; k < 5; k++) {
        if (get_table(objs[k], &t->views[k], itemsizes[k], entries[k], names[k]) < 0) {
            while (k--)
                PyBuffer_Release(&t->views[k]);
            PyMem_Free(t);
            return NULL;
        }
    }
    t->card_keys = t->views[0].buf;
    t->flush_rank_bits = t->views[1].buf;
    t->displacements = t->views[2].buf;
    t->unsuited = t->views[3].buf;
    t->flushes = t->views[4].buf;
    t->bucket_multiplier = bucket_multiplier;
    t->slot_multiplier = slot_multiplier;
    t->slot_mask = ((uint64_t)1 << slot_bits) - 1;
    t->bucket_shift = 64 - bucket_bits;
    t->slot_shift = 64 - slot_bits;
    t->sum_start = sum_start;
    t->flush_bits = flush_bits;
    t->rank_mask = rank_mask;
    t->suit_shift = suit_shift;
    t->suit_mask_shift = suit_mask_shift;
    t->flush_rank_mask = flush_rank_mask;
    t->strength_base = (uint16_t)strength_base;
    t->dots_shift = dots_shift;
    t->dots_mask = dots_mask;
    PyObject *capsule = PyCapsule_New(t, CAPSULE, tables_free);
    if (capsule == NULL) {
        for (int k = 0; k < 5; k++)
            PyBuffer_Release(&t->views[k]);
        PyMem_Free(t);
    }
    return capsule;
}

typedef struct {
    uint16_t *strength;
    uint16_t *classes; /* or NULL */
    int64_t *dots;     /* or NULL */
} Out;

static inline void put(const Tables *t, const Out *out, Py_ssize_t i, uint64_t key,
                       uint16_t rank_class)
{
    out->strength[i] = (uint16_t)(t->strength_base - rank_class);
    if (out->classes)
        out->classes[i] = rank_class;
    if (out->dots)
        out->dots[i] = (int64_t)((key >> t->dots_shift) & t->dots_mask);
}

/* Hands sharing one table; a constant width lets the compiler unroll the card loops.
 * (Reading a block's keys, then its slots, then its classes, to have more table reads in
 * flight, measured 10-20% slower than this plain loop.) */
static inline void shared_rows(const Tables *t, const Out *out, const uint8_t *hands,
                               Py_ssize_t count, Py_ssize_t width, uint64_t start,
                               uint64_t table_flush_ranks)
{
    for (Py_ssize_t i = 0; i < count; i++) {
        const uint8_t *row = hands + i * width;
        uint64_t key = start + key_sum(t, row, width);
        put(t, out, i, key, class_of(t, key, row, width, table_flush_ranks));
    }
}

static void evaluate_shared(const Tables *given, const Out *outs, const uint8_t *hands,
                            Py_ssize_t count, Py_ssize_t width, const uint8_t *table,
                            Py_ssize_t table_width)
{
    /* Local copies: the output stores could otherwise alias the tables' fields, and the
     * compiler would reload them every hand (measured 25% slower). */
    const Tables local = *given;
    const Out o = *outs;
    const Tables *t = &local;
    const Out *out = &o;
    uint64_t start = t->sum_start + key_sum(t, table, table_width);
    uint64_t flush_ranks = flush_rank_sum(t, table, table_width);
    switch (width) {
    case 5: shared_rows(t, out, hands, count, 5, start, flush_ranks); break;
    case 6: shared_rows(t, out, hands, count, 6, start, flush_ranks); break;
    case 7: shared_rows(t, out, hands, count, 7, start, flush_ranks); break;
    default: shared_rows(t, out, hands, count, width, start, flush_ranks);
    }
}

/* Hands with a table each; constant widths (hole cards, whole hands) let the compiler
 * unroll the card loops. */
static inline void own_rows(const Tables *t, const Out *out, const uint8_t *hands,
                            Py_ssize_t count, Py_ssize_t width, const uint8_t *tables,
                            Py_ssize_t table_width)
{
    for (Py_ssize_t i = 0; i < count; i++) {
        const uint8_t *row = hands + i * width, *table = tables + i * table_width;
        uint64_t key = t->sum_start + key_sum(t, row, width) + key_sum(t, table, table_width);
        uint64_t table_flush_ranks =
            (key & t->flush_bits) ? flush_rank_sum(t, table, table_width) : 0;
        put(t, out, i, key, class_of(t, key, row, width, table_flush_ranks));
    }
}

static void evaluate_own(const Tables *given, const Out *outs, const uint8_t *hands,
                         Py_ssize_t count, Py_ssize_t width, const uint8_t *tables,
                         Py_ssize_t table_width)
{
    const Tables local = *given;
    const Out o = *outs;
    const Tables *t = &local;
    const Out *out = &o;
    if (width == 2 && table_width == 5)
        own_rows(t, out, hands, count, 2, tables, 5);
    else
        own_rows(t, out, hands, count, width, tables, table_width);
}

static int get_rows(PyObject *obj, Py_buffer *view, const char *what)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    if (view->ndim != 2 || view->itemsize != 1 || view->shape[1] > 64) {
        PyErr_Format(PyExc_ValueError, "%s must be a 2-d array of uint8, rows of at most 64",
                     what);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static int get_out(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, Py_ssize_t count,
                   const char *what)
{
    if (obj == Py_None) {
        view->obj = NULL;
        view->buf = NULL;
        return 0;
    }
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) < 0)
        return -1;
    size_t length = view->format ? strlen(view->format) : 0;
    char kind = length ? view->format[length - 1] : 'B';
    if (view->itemsize != itemsize || view->len != itemsize * count || !strchr("hHlLqQ", kind)) {
        PyErr_Format(PyExc_ValueError, "%s must hold %zd integers of %zd bytes", what, count,
                     itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static void release(Py_buffer *views, int count)
{
    for (int k = 0; k < count; k++)
        if (views[k].obj != NULL)
            PyBuffer_Release(&views[k]);
}

PyDoc_STRVAR(evaluate_doc,
"evaluate(tables, hands, table_rows, strength, classes, dots) -> None\n\n"
"For each row of ``hands`` (N, w uint8) with its table (a row of ``table_rows``, 1 or N\n"
"rows, 255-padded): ``strength`` (N uint16) = strength_base - class, ``classes`` (N x 2\n"
"bytes) the Cactus-Kev class, ``dots`` (N int64) the dots; ``classes`` and ``dots`` may be\n"
"None. Rows must be screened (5-7 distinct cards in all) for the figures to mean anything.");

static PyObject *evaluate(PyObject *module, PyObject *args)
{
    PyObject *capsule, *hands_obj, *tables_obj, *strength_obj, *classes_obj, *dots_obj;
    if (!PyArg_ParseTuple(args, "OOOOOO", &capsule, &hands_obj, &tables_obj, &strength_obj,
                          &classes_obj, &dots_obj))
        return NULL;
    const Tables *t = PyCapsule_GetPointer(capsule, CAPSULE);
    if (t == NULL)
        return NULL;
    Py_buffer views[5] = {{0}};
    if (get_rows(hands_obj, &views[0], "hands") < 0)
        return NULL;
    if (get_rows(tables_obj, &views[1], "table_rows") < 0) {
        release(views, 1);
        return NULL;
    }
    Py_ssize_t count = views[0].shape[0], width = views[0].shape[1];
    Py_ssize_t table_count = views[1].shape[0], table_width = views[1].shape[1];
    if (get_out(strength_obj, &views[2], 2, count, "strength") < 0
        || get_out(classes_obj, &views[3], 2, count, "classes") < 0
        || get_out(dots_obj, &views[4], 8, count, "dots") < 0) {
        release(views, 5);
        return NULL;
    }
    if (strength_obj == Py_None || (table_count != 1 && table_count != count)) {
        release(views, 5);
        PyErr_SetString(PyExc_ValueError, "strength is required; table_rows: 1 row or N");
        return NULL;
    }
    Out out = {views[2].buf, views[3].buf, views[4].buf};
    const uint8_t *hands = views[0].buf, *table_rows = views[1].buf;
    Py_BEGIN_ALLOW_THREADS
    if (table_count == 1 || table_width == 0) /* no table bytes: nothing per hand */
        evaluate_shared(t, &out, hands, count, width, table_rows, table_width);
    else
        evaluate_own(t, &out, hands, count, width, table_rows, table_width);
    Py_END_ALLOW_THREADS
    release(views, 5);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"tables", tables, METH_VARARGS, tables_doc},
    {"evaluate", evaluate, METH_VARARGS, evaluate_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "evaluators.kernels._poker",
    "Poker hands in a batch (evaluators/poker.py's lookups), GIL released.",
    -1,
    methods,
};

PyMODINIT_FUNC PyInit__poker(void)
{
    return PyModule_Create(&module);
}
