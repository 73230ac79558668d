/* Poker hands in a batch: the best five of 5-7 cards, by the lookups of evaluators/poker.py.
 *
 * The same arithmetic as ``poker.batch_key_sums`` + ``poker.batch_rank_classes``, hand by
 * hand: the hand's card keys summed (rank counts, suit counts, dots), then the flush table
 * by the flush suit's rank mask, or the unsuited table through the perfect hash. Every
 * table and every constant of the key layout comes from Python once (``tables``), so
 * nothing is defined twice; ``evaluate`` writes into arrays the caller allocated, with the
 * GIL released, in 2-byte cells or 4-byte ones (a columns reply's own: service/wire).
 * Any byte reads some entry inside the tables (255 and the other non-cards add nothing):
 * rows that were not screened give meaningless figures, never a fault.
 *
 * ``screened`` is ``evaluate`` for full hands on one shared table with the batch screen's
 * card rules checked in the same pass over the bytes (``checked_rows``): the batch path's
 * one read of a request's hands where the game allows it (``batch.evaluate_batch``).
 * Rows go four at a time (``score_four``), and the loops are compiled again for BMI2 and
 * chosen at run time, as _screen.c chooses its vector loops.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_poker_tables.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

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
    if (bucket_bits < 1 || bucket_bits > 30 || slot_bits < 8 || slot_bits > 30) {
        PyErr_SetString(PyExc_ValueError, "bucket_bits must be 1..30, slot_bits 8..30");
        return NULL;
    }
    if (dots_mask > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "dots_mask must fit an int32 cell");
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

/* The outputs: narrow (strength and classes 2 bytes a hand, dots 8) or ``wide`` (each 4
 * bytes: uint32 strength, int32 classes or dots, a columns reply's own cells). */
typedef struct {
    void *strength;
    void *classes; /* or NULL */
    void *dots;    /* or NULL */
    int wide;
} Out;

/* Which outputs a loop writes: strength and classes (Poker high's batch: no test per
 * hand, 6% quicker in a C harness) or whichever ``out`` holds, in 2- or 4-byte cells. */
enum { GIVEN = 0, CLASSES = 1, WIDE = 2 };

static inline void put(const Tables *t, const Out *out, Py_ssize_t i, uint64_t key,
                       uint16_t rank_class, int outputs)
{
    uint16_t strength = (uint16_t)(t->strength_base - rank_class);
    if (outputs & WIDE)
        ((uint32_t *)out->strength)[i] = strength;
    else
        ((uint16_t *)out->strength)[i] = strength;
    if (outputs & CLASSES || out->classes) {
        if (outputs & WIDE)
            ((int32_t *)out->classes)[i] = rank_class;
        else
            ((uint16_t *)out->classes)[i] = rank_class;
    }
    if (!(outputs & CLASSES) && out->dots) {
        int64_t dots = (int64_t)((key >> t->dots_shift) & t->dots_mask); /* fits int32 */
        if (outputs & WIDE)
            ((int32_t *)out->dots)[i] = (int32_t)dots;
        else
            ((int64_t *)out->dots)[i] = dots;
    }
}

/* A batch's rows: hands of ``width`` bytes, and their tables of ``table_width`` bytes, one
 * shared (``table_step`` 0) or one per hand (``table_step`` = ``table_width``). */
typedef struct {
    const uint8_t *hands, *tables;
    Py_ssize_t count, width, table_width, table_step;
} Rows;

/* The share of every row's key sum and flush rank bits that a shared table gives. */
typedef struct {
    uint64_t start, flush_ranks;
} Shared;

static inline Shared shared_part(const Tables *t, const Rows *r, Py_ssize_t table_width,
                                 int own_tables)
{
    Shared s = {t->sum_start, 0};
    if (!own_tables) {
        s.start += key_sum(t, r->tables, table_width);
        s.flush_ranks = flush_rank_sum(t, r->tables, table_width);
    }
    return s;
}

/* Row ``i``, alone: the last rows, which do not make four. */
static inline __attribute__((always_inline)) void
score_one(const Tables *t, const Out *out, const Rows *r, Shared s, Py_ssize_t i,
          Py_ssize_t width, Py_ssize_t table_width, int own_tables, int outputs)
{
    const uint8_t *row = r->hands + i * width, *table = r->tables + i * table_width;
    uint64_t key = s.start + key_sum(t, row, width), flush_ranks = s.flush_ranks;
    if (own_tables) {
        key += key_sum(t, table, table_width);
        flush_ranks = (key & t->flush_bits) ? flush_rank_sum(t, table, table_width) : 0;
    }
    put(t, out, i, key, class_of(t, key, row, width, flush_ranks), outputs);
}

/* The rows with a flush of the four from row ``i``, scored again by ``class_of`` (the
 * unsuited lookup gave them some meaningless class): off the hot loop. */
static __attribute__((noinline)) void
flushed(const Tables *t, const Out *out, const Rows *r, Py_ssize_t i, const uint64_t *keys,
        uint64_t table_flush_ranks)
{
    for (Py_ssize_t q = i; q < i + 4; q++) {
        uint64_t key = keys[q - i], flush_ranks = table_flush_ranks;
        if (!(key & t->flush_bits))
            continue;
        if (r->table_step)
            flush_ranks = flush_rank_sum(t, r->tables + q * r->table_step, r->table_width);
        put(t, out, q, key, class_of(t, key, r->hands + q * r->width, r->width, flush_ranks),
            out->wide ? WIDE : GIVEN);
    }
}

/* Rows ``i`` to ``i + 3``: their key sums, then their slots, then their classes, so that
 * four hands' table reads are in flight together (one at a time: 7% slower in a C harness);
 * a flush among them is scored again by ``flushed``. */
static inline __attribute__((always_inline)) void
score_four(const Tables *t, const Out *out, const Rows *r, Shared s, Py_ssize_t i,
           Py_ssize_t width, Py_ssize_t table_width, int own_tables, int outputs)
{
    const uint8_t *row = r->hands + i * width;
    uint64_t keys[4], any = 0;
    for (Py_ssize_t q = 0; q < 4; q++) {
        keys[q] = s.start + key_sum(t, row + q * width, width);
        if (own_tables)
            keys[q] += key_sum(t, r->tables + (i + q) * table_width, table_width);
        any |= keys[q];
    }
    uint64_t slots[4];
    for (Py_ssize_t q = 0; q < 4; q++)
        slots[q] = slot_of(t, keys[q]);
    for (Py_ssize_t q = 0; q < 4; q++)
        put(t, out, i + q, keys[q], t->unsuited[slots[q]], outputs);
    if (__builtin_expect((any & t->flush_bits) != 0, 0))
        flushed(t, out, r, i, keys, s.flush_ranks);
}

/* Every row of ``r``; ``width``, ``table_width``, ``own_tables`` and ``outputs`` are
 * constants where the caller makes them so (the compiler then unrolls the card loops). */
static inline __attribute__((always_inline)) void
score_rows(const Tables *t, const Out *out, const Rows *r, Py_ssize_t width,
           Py_ssize_t table_width, int own_tables, int outputs)
{
    Shared s = shared_part(t, r, table_width, own_tables);
    Py_ssize_t i = 0;
    for (; i + 4 <= r->count; i += 4)
        score_four(t, out, r, s, i, width, table_width, own_tables, outputs);
    for (; i < r->count; i++)
        score_one(t, out, r, s, i, width, table_width, own_tables, outputs);
}

/* ``score_rows`` with the common shapes' widths made constant: whole hands of 5-7 cards
 * on a shared table (or none), two hole cards with a board each. */
static inline __attribute__((always_inline)) void
by_width(const Tables *t, const Out *out, const Rows *r, int outputs)
{
    Py_ssize_t width = r->width, table_width = r->table_width;
    if (!r->table_step) {
        switch (width) {
        case 5: score_rows(t, out, r, 5, table_width, 0, outputs); return;
        case 6: score_rows(t, out, r, 6, table_width, 0, outputs); return;
        case 7: score_rows(t, out, r, 7, table_width, 0, outputs); return;
        default: score_rows(t, out, r, width, table_width, 0, outputs); return;
        }
    }
    if (width == 2 && table_width == 5)
        score_rows(t, out, r, 2, 5, 1, outputs);
    else
        score_rows(t, out, r, width, table_width, 1, outputs);
}

/* ``by_width`` for the outputs asked for. Local copies of the tables and outputs: the
 * output stores could otherwise alias their fields, and the compiler would reload them
 * every hand (measured 25% slower). */
static inline __attribute__((always_inline)) void
by_shape(const Tables *given, const Out *outs, const Rows *r)
{
    const Tables t = *given;
    const Out out = *outs;
    int outputs = out.classes && !out.dots ? CLASSES : GIVEN;
    if (out.wide)
        by_width(&t, &out, r, outputs | WIDE);
    else
        by_width(&t, &out, r, outputs);
}

/* Compiled twice, chosen at run time: with BMI2 the shifts by the key layout's amounts
 * take any register (shrx), which spares registers: 7% quicker in a C harness. */
static void rows_plain(const Tables *t, const Out *out, const Rows *r)
{
    by_shape(t, out, r);
}

#if defined(__x86_64__) || defined(__i386__)
#define HAVE_X86_VECTORS 1
static int has_bmi2, has_ssse3;

__attribute__((target("bmi2"))) static void rows_bmi2(const Tables *t, const Out *out,
                                                       const Rows *r)
{
    by_shape(t, out, r);
}
#endif

static void score(const Tables *t, const Out *out, const Rows *r)
{
#ifdef HAVE_X86_VECTORS
    if (has_bmi2) {
        rows_bmi2(t, out, r);
        return;
    }
#endif
    rows_plain(t, out, r);
}

/* ``screened``'s card rules for full rows sharing one table: every byte below
 * ``first_refused`` (at most 64), no card twice in a row, none of the table's. */
#define MAX_CHECKED_WIDTH 8 /* two rows to a 16-byte load */
#define MAX_TABLE_CARDS 8

typedef struct {
    uint8_t turns[MAX_CHECKED_WIDTH / 2][16]; /* byte j of two rows -> the byte k + 1
                                                 places further round its row */
    uint8_t lanes[16];                        /* 0xff on the bytes of the two rows */
    uint8_t table[MAX_TABLE_CARDS];
    int table_cards, first_refused;
    uint64_t table_bits; /* 1 << card for the table's cards */
} RowCheck;

/* One row by those rules, a bit per card: for the last rows, which the 16-byte loads
 * would read past. */
static inline int row_passes(const RowCheck *c, const uint8_t *row, Py_ssize_t width)
{
    uint64_t any = c->table_bits, sum = c->table_bits;
    for (Py_ssize_t k = 0; k < width; k++) {
        if (row[k] >= c->first_refused)
            return 0;
        any |= (uint64_t)1 << row[k];
        sum += (uint64_t)1 << row[k];
    }
    return any == sum;
}

#ifdef HAVE_X86_VECTORS
/* ``score_rows`` for full rows on a shared table with the rules checked in the same pass,
 * as _screen.c's ``vector_rows`` checks them: two rows to a 16-byte load, a byte above
 * ``first_refused`` - 1 refused (a saturated subtraction leaves it nonzero), and a card
 * repeated exactly when some byte equals the one k places further round its row for some
 * k up to width / 2 (each pair of places is k or width - k apart) or a table card; the
 * problems OR-ed into one register, tested at the end. The vector work hides beside the
 * lookups' (in a C harness, 3.9 ns a 7-card hand against 5.0 for the screen then the
 * kernel). 0 when any row fails. */
__attribute__((target("ssse3"))) static inline __attribute__((always_inline)) int
checked_rows(const Tables *t, const Out *out, const Rows *r, const RowCheck *c,
             Py_ssize_t width, int outputs)
{
    Shared s = shared_part(t, r, r->table_width, 0);
    __m128i turn[MAX_CHECKED_WIDTH / 2], table[MAX_TABLE_CARDS];
    for (Py_ssize_t k = 0; k < width / 2; k++)
        turn[k] = _mm_loadu_si128((const __m128i *)c->turns[k]);
    for (int k = 0; k < c->table_cards; k++)
        table[k] = _mm_set1_epi8((char)c->table[k]);
    const __m128i lanes = _mm_loadu_si128((const __m128i *)c->lanes);
    const __m128i highest = _mm_set1_epi8((char)(c->first_refused - 1));
    const int table_cards = c->table_cards;
    const uint8_t *hands = r->hands;
    Py_ssize_t count = r->count, i = 0;
    /* Four rows a step while row i + 2's load stays inside the batch. */
    Py_ssize_t steps = count * width < 16 ? 0 : (count * width - 16) / width - 1;
    if (steps > count - 3)
        steps = count - 3;
    __m128i bad = _mm_setzero_si128();
    for (; i < steps; i += 4) {
        for (Py_ssize_t half = 0; half < 4; half += 2) {
            __m128i x = _mm_loadu_si128((const __m128i *)(hands + (i + half) * width));
            __m128i problems = _mm_subs_epu8(x, highest);
            for (Py_ssize_t k = 0; k < width / 2; k++)
                problems = _mm_or_si128(problems,
                                        _mm_cmpeq_epi8(x, _mm_shuffle_epi8(x, turn[k])));
            for (int k = 0; k < table_cards; k++)
                problems = _mm_or_si128(problems, _mm_cmpeq_epi8(x, table[k]));
            bad = _mm_or_si128(bad, _mm_and_si128(problems, lanes));
        }
        score_four(t, out, r, s, i, width, r->table_width, 0, outputs);
    }
    int passed = _mm_movemask_epi8(_mm_cmpeq_epi8(bad, _mm_setzero_si128())) == 0xffff;
    for (; i < count; i++) {
        passed &= row_passes(c, hands + i * width, width);
        score_one(t, out, r, s, i, width, r->table_width, 0, outputs);
    }
    return passed;
}

/* ``checked_rows`` with 5-7 card rows' widths constant, for the outputs asked for (local
 * copies as in ``by_shape``). */
__attribute__((target("ssse3"))) static inline __attribute__((always_inline)) int
checked_by_shape(const Tables *given, const Out *outs, const Rows *r, const RowCheck *given_check)
{
    const Tables local = *given;
    const Out o = *outs;
    const RowCheck c = *given_check;
    const Tables *t = &local;
    const Out *out = &o;
    int outputs = (o.classes && !o.dots ? CLASSES : GIVEN) | (o.wide ? WIDE : 0);
    switch (r->width * 4 + outputs) {
    case 5 * 4 + CLASSES: return checked_rows(t, out, r, &c, 5, CLASSES);
    case 6 * 4 + CLASSES: return checked_rows(t, out, r, &c, 6, CLASSES);
    case 7 * 4 + CLASSES: return checked_rows(t, out, r, &c, 7, CLASSES);
    case 5 * 4 + (CLASSES | WIDE): return checked_rows(t, out, r, &c, 5, CLASSES | WIDE);
    case 6 * 4 + (CLASSES | WIDE): return checked_rows(t, out, r, &c, 6, CLASSES | WIDE);
    case 7 * 4 + (CLASSES | WIDE): return checked_rows(t, out, r, &c, 7, CLASSES | WIDE);
    default: return checked_rows(t, out, r, &c, r->width, outputs & WIDE);
    }
}

__attribute__((target("ssse3"))) static int
checked_plain(const Tables *t, const Out *out, const Rows *r, const RowCheck *c)
{
    return checked_by_shape(t, out, r, c);
}

__attribute__((target("ssse3,bmi2"))) static int
checked_bmi2(const Tables *t, const Out *out, const Rows *r, const RowCheck *c)
{
    return checked_by_shape(t, out, r, c);
}
#endif

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

#define ANY_WIDTH 0 /* get_out: cells of 2 or 4 bytes */

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
    if (itemsize == ANY_WIDTH)
        itemsize = view->itemsize == 4 ? 4 : 2;
    if (view->itemsize != itemsize || view->len != itemsize * count || !strchr("hHiIlLqQ", kind)) {
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

/* A call's buffers (hands, table rows, strength, classes, dots) and what they hold. */
typedef struct {
    Py_buffer views[5];
    const Tables *tables;
    Rows rows;
    Out out;
} Call;

static int open_call(Call *call, PyObject *capsule, PyObject *hands, PyObject *table_rows,
                     PyObject *strength, PyObject *classes, PyObject *dots)
{
    memset(call, 0, sizeof *call);
    Py_buffer *views = call->views;
    call->tables = PyCapsule_GetPointer(capsule, CAPSULE);
    if (call->tables == NULL)
        return -1;
    if (get_rows(hands, &views[0], "hands") < 0)
        return -1;
    if (get_rows(table_rows, &views[1], "table_rows") < 0) {
        release(views, 1);
        return -1;
    }
    Py_ssize_t count = views[0].shape[0], table_count = views[1].shape[0];
    /* The strength's cells say which outputs these are: 2 bytes narrow, 4 wide. */
    if (get_out(strength, &views[2], ANY_WIDTH, count, "strength") < 0) {
        release(views, 2);
        return -1;
    }
    int wide = views[2].itemsize == 4;
    if (get_out(classes, &views[3], wide ? 4 : 2, count, "classes") < 0
        || get_out(dots, &views[4], wide ? 4 : 8, count, "dots") < 0) {
        release(views, 5);
        return -1;
    }
    if (strength == Py_None || (table_count != 1 && table_count != count)) {
        release(views, 5);
        PyErr_SetString(PyExc_ValueError, "strength is required; table_rows: 1 row or N");
        return -1;
    }
    Py_ssize_t table_width = views[1].shape[1];
    /* No table bytes at all is nothing per hand: one empty table shared. */
    Py_ssize_t table_step = table_count == 1 || table_width == 0 ? 0 : table_width;
    call->rows = (Rows){views[0].buf, views[1].buf, count, views[0].shape[1], table_width,
                        table_step};
    call->out = (Out){views[2].buf, views[3].buf, views[4].buf, wide};
    return 0;
}

PyDoc_STRVAR(evaluate_doc,
"evaluate(tables, hands, table_rows, strength, classes, dots) -> None\n\n"
"For each row of ``hands`` (N, w uint8) with its table (a row of ``table_rows``, 1 or N\n"
"rows, 255-padded): ``strength`` (N uint16) = strength_base - class, ``classes`` (N x 2\n"
"bytes) the Cactus-Kev class, ``dots`` (N int64) the dots; ``classes`` and ``dots`` may be\n"
"None. Or every output in 4-byte cells (``strength`` N uint32, ``classes`` or ``dots`` N\n"
"int32): a strength of 4-byte cells asks for them. Rows must be screened (5-7 distinct\n"
"cards in all) for the figures to mean anything.");

static PyObject *evaluate(PyObject *module, PyObject *args)
{
    PyObject *capsule, *hands, *table_rows, *strength, *classes, *dots;
    if (!PyArg_ParseTuple(args, "OOOOOO", &capsule, &hands, &table_rows, &strength, &classes,
                          &dots))
        return NULL;
    Call call;
    if (open_call(&call, capsule, hands, table_rows, strength, classes, dots) < 0)
        return NULL;
    Py_BEGIN_ALLOW_THREADS
    score(call.tables, &call.out, &call.rows);
    Py_END_ALLOW_THREADS
    release(call.views, 5);
    Py_RETURN_NONE;
}

/* ``check`` for ``rows``: 1, or 0 when this build or CPU cannot check them (no SSSE3, a
 * row wider than two to a vector, more table cards than MAX_TABLE_CARDS). */
static int open_check(RowCheck *check, const Rows *rows, int first_refused)
{
    memset(check, 0, sizeof *check);
#ifdef HAVE_X86_VECTORS
    Py_ssize_t width = rows->width;
    if (!has_ssse3 || width < 1 || width > MAX_CHECKED_WIDTH)
        return 0;
    check->first_refused = first_refused;
    for (Py_ssize_t k = 0; k < rows->table_width; k++) {
        uint8_t card = rows->tables[k];
        if (card >= first_refused)
            continue; /* the padding byte */
        if (check->table_cards == MAX_TABLE_CARDS)
            return 0;
        check->table_bits |= (uint64_t)1 << card;
        check->table[check->table_cards++] = card;
    }
    for (int j = 0; j < 16; j++) {
        int used = j < 2 * width, place = (int)(j % width);
        for (Py_ssize_t k = 0; k < width / 2; k++)
            check->turns[k][j] = (uint8_t)(used ? j - place + (place + k + 1) % width : j);
        check->lanes[j] = used ? 0xff : 0;
    }
    return 1;
#else
    (void)rows;
    (void)first_refused;
    return 0;
#endif
}

PyDoc_STRVAR(screened_doc,
"screened(tables, hands, table_row, first_refused, strength, classes, dots) -> bool\n\n"
"``evaluate`` for full rows sharing one table (``table_row``, 1 row, which the caller has\n"
"screened), each row's bytes checked in the same pass: all below ``first_refused`` (1-64:\n"
"every byte from it up is refused, the padding byte included), no card twice, none of the\n"
"table's. False when any row fails, or when this CPU or shape has no such pass (no SSSE3,\n"
"rows wider than 8, more than 8 table cards): the outputs then mean nothing, and the\n"
"caller screens the batch itself.");

static PyObject *screened(PyObject *module, PyObject *args)
{
    PyObject *capsule, *hands, *table_row, *strength, *classes, *dots;
    int first_refused;
    if (!PyArg_ParseTuple(args, "OOOiOOO", &capsule, &hands, &table_row, &first_refused,
                          &strength, &classes, &dots))
        return NULL;
    if (first_refused < 1 || first_refused > 64) {
        PyErr_SetString(PyExc_ValueError, "first_refused must be 1..64");
        return NULL;
    }
    Call call;
    if (open_call(&call, capsule, hands, table_row, strength, classes, dots) < 0)
        return NULL;
    if (call.rows.table_step) {
        release(call.views, 5);
        PyErr_SetString(PyExc_ValueError, "table_row must be one row");
        return NULL;
    }
    RowCheck check;
    int passed = 0;
    if (open_check(&check, &call.rows, first_refused)) {
        Py_BEGIN_ALLOW_THREADS
#ifdef HAVE_X86_VECTORS
        passed = has_bmi2 ? checked_bmi2(call.tables, &call.out, &call.rows, &check)
                          : checked_plain(call.tables, &call.out, &call.rows, &check);
#endif
        Py_END_ALLOW_THREADS
    }
    release(call.views, 5);
    return PyBool_FromLong(passed);
}

static PyMethodDef methods[] = {
    {"tables", tables, METH_VARARGS, tables_doc},
    {"evaluate", evaluate, METH_VARARGS, evaluate_doc},
    {"screened", screened, METH_VARARGS, screened_doc},
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
#ifdef HAVE_X86_VECTORS
    __builtin_cpu_init();
    has_bmi2 = __builtin_cpu_supports("bmi2");
    has_ssse3 = __builtin_cpu_supports("ssse3");
#endif
    return PyModule_Create(&module);
}
