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
 * chosen at run time, as _screen.c chooses its vector loops. The card rules are
 * _card_rules.h's, as the batch screen's are.
 *
 * The instruction-set paths (docs/kernels.md): ``screened`` takes the AVX2 loop
 * (``avx2_rows``: eight rows a step) where the CPU has AVX2 and BMI2, unless ``set_isa``
 * (``HANDEVAL_KERNEL_ISA``, read by evaluators/kernels/__init__.py) forced "scalar"; the
 * path is one per process, ``isa`` says which.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_buffers.h"
#include "_card_rules.h"
#include "_isa.h"
#include "_rows256.h"
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

/* Whether the tables' key layout is the one the vector kernels compute from the card
 * bytes rather than read (``avx2_rows``): for each of the 52 cards, rank counts
 * ``1 << 3 * rank`` in 39 bits and suit counts ``1 << 4 * suit`` from ``suit_shift`` (40),
 * nothing for any other byte, a flush at bit 3 of a suit's count, hashes of at most 32
 * bits. Another layout leaves the vector kernels unused, never wrong. */
static int vector_layout(const Tables *t, int bucket_bits, int slot_bits)
{
    if (t->rank_mask != ((uint64_t)1 << 39) - 1 || t->suit_shift != 40
        || t->flush_bits != (uint64_t)0x8888 << 40 || bucket_bits > 32 || slot_bits > 32)
        return 0;
    for (int card = 0; card < 256; card++) {
        uint64_t key = t->card_keys[card] & (((uint64_t)1 << 56) - 1); /* dots apart */
        uint64_t expected = card < 52 ? ((uint64_t)1 << 3 * (card >> 2))
                                            | ((uint64_t)1 << (40 + 4 * (card & 3)))
                                      : 0;
        if (key != expected)
            return 0;
    }
    return 1;
}

/* Whether the vector kernels may give the dots too: they sum byte 7 of the key by rank, so
 * the dots must lie there alone (from bit 56) and be the same for every suit of a rank. */
static int vector_dots(const Tables *t)
{
    if (t->dots_shift < 56 || (t->dots_mask << (t->dots_shift - 56)) > 0xff)
        return 0;
    for (int card = 0; card < 52; card++)
        if (t->card_keys[card] >> 56 != t->card_keys[card & ~3] >> 56)
            return 0;
    return 1;
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
    t->vector_layout = vector_layout(t, bucket_bits, slot_bits);
    t->vector_dots = t->vector_layout && vector_dots(t);
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
 * hand, 6% quicker in a C harness), strength and dots (``DOTS``: Grocery Store Dots' batch,
 * in the AVX2 loop) or whichever ``out`` holds, in 2- or 4-byte cells. */
enum { GIVEN = 0, CLASSES = 1, WIDE = 2, DOTS = 4 };

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

/* The instruction-set paths, the fastest first; ``isa`` is the one in use (the best this
 * CPU runs, unless ``set_isa`` chose another). */

#ifdef HAVE_X86_VECTORS
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

#ifdef HAVE_X86_VECTORS
/* ``score_rows`` for full rows on a shared table with the rules checked in the same pass
 * (_card_rules.h's ``problems_128``, the batch screen's rules: a byte refused, a card
 * repeated in its row, a table card), two rows to a 16-byte load, the problems OR-ed into
 * one register and tested at the end. The vector work hides beside the lookups'. 0 when
 * any row fails. */
__attribute__((target("ssse3"))) static inline __attribute__((always_inline)) int
checked_rows(const Tables *t, const Out *out, const Rows *r, const RowCheck *c,
             Py_ssize_t width, int outputs)
{
    Shared s = shared_part(t, r, r->table_width, 0);
    Rules128 rules;
    load_rules_128(&rules, c, width);
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
            bad = _mm_or_si128(bad, problems_128(&rules, x, width, table_cards));
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

/* The AVX2 path: eight rows a step. Each row's key is summed in its own qword: a table
 * lookup per card for each byte of the key (``planes``: bytes 0-4 by rank, the rank
 * counts; 5-6 by suit, the suit counts) and a sum of the row's bytes (``psadbw``), the
 * byte sums then shifted into place, so carries are exact. The perfect hash's two
 * multiplies and its two lookups (gathers) follow for the eight at once, while the card
 * rules run on the raw bytes (``problems_256``). The key layout is the one
 * ``vector_layout`` verified in the tables: rank counts 3 bits a rank from bit 0, suit
 * counts a nibble a suit from bit 40. A flush among the eight is scored again one hand at
 * a time (``flushed_rows``). */

/* Lane k of a step's vectors holds row LANE_ORDER[k]: the keys of rows 0-3 and 4-7 are
 * qwords of two registers, whose low (high) dwords interleave as rows 0, 1, 4, 5 in the low
 * half and 2, 3, 6, 7 in the high; a permutation by the same indexes puts them back in row
 * order (it is its own inverse). */
#define LANE_ORDER 0, 1, 4, 5, 2, 3, 6, 7

#define RANK_PLANES 5 /* bytes 0-4 of a key: the 39 bits of rank counts */
#define SUIT_PLANES 2 /* bytes 5-6: the suit counts' four nibbles */

typedef struct {
    __m256i start; /* the shared table's key (and SUM_START's), as a qword */
    __m256i bucket_low, bucket_high, slot_low, slot_high; /* multipliers' 32-bit halves */
    __m128i bucket_shift, slot_shift;                     /* 32 - bits */
    __m256i flush, base, order;
    __m256i rows, pad;                   /* a row to a qword (``placed``) */
    __m256i ranks[RANK_PLANES], suits[SUIT_PLANES]; /* by rank + 1, by suit: a key's byte */
    __m256i dots, dots_mask; /* by rank + 1: byte 7 of a key; the dots' bits in its dword */
    __m128i dots_shift;      /* dots_shift - 32 */
} Hash256;

/* The top 32 bits of the 64-bit product (counts * multiplier) mod 2^64, counts being
 * ``low`` | ``high`` << 32: hi32(low * m_low) + lo32(low * m_high) + lo32(high * m_low). */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i
top_product(__m256i low, __m256i high, __m256i m_low, __m256i m_high)
{
    __m256i even = _mm256_mul_epu32(low, m_low);                          /* lanes 0, 2, .. */
    __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(low, 32), m_low);    /* lanes 1, 3, .. */
    __m256i carry = _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xAA); /* hi32s */
    __m256i cross = _mm256_add_epi32(_mm256_mullo_epi32(low, m_high),
                                     _mm256_mullo_epi32(high, m_low));
    return _mm256_add_epi32(carry, cross);
}

/* A byte table's entries at ``index`` (a bucket): read as aligned dwords (never past the
 * table's end, whose length is a multiple of 4), the byte picked by shifting. */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i
gather_bytes(const uint8_t *table, __m256i index)
{
    const __m256i three = _mm256_set1_epi32(3);
    __m256i word = _mm256_i32gather_epi32((const int *)table,
                                          _mm256_andnot_si256(three, index), 1);
    return _mm256_and_si256(
        _mm256_srlv_epi32(word, _mm256_slli_epi32(_mm256_and_si256(index, three), 3)),
        _mm256_set1_epi32(0xff));
}

/* A uint16 table's entries at ``index``, read as the dwords holding them. */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i
gather_words(const uint16_t *table, __m256i index)
{
    __m256i word = _mm256_i32gather_epi32((const int *)table, _mm256_srli_epi32(index, 1), 4);
    return _mm256_and_si256(
        _mm256_srlv_epi32(word, _mm256_slli_epi32(_mm256_and_si256(index, _mm256_set1_epi32(1)), 4)),
        _mm256_set1_epi32(0xffff));
}

/* Each qword of ``index``'s per-byte lookups in ``table`` summed, shifted by ``shift``. */
#define PLANE(table, index, shift)                                                          \
    _mm256_slli_epi64(_mm256_sad_epu8(_mm256_shuffle_epi8(table, index),                    \
                                      _mm256_setzero_si256()), shift)

/* Four placed rows' keys (and ``start``), a qword each; byte 7 (the dots) only if ``dots``. */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i
keys_of(const Hash256 *h, __m256i x, int dots)
{
    /* The rank + 1 (the 16-bit shift's borrowed bits masked off), the suit (bit 7 kept). */
    __m256i rank = _mm256_add_epi8(
        _mm256_and_si256(_mm256_srli_epi16(x, 2), _mm256_set1_epi8(0x3f)), _mm256_set1_epi8(1));
    __m256i suit = _mm256_and_si256(x, _mm256_set1_epi8((char)0x83));
    __m256i key = _mm256_add_epi64(h->start, PLANE(h->ranks[0], rank, 0));
    for (int b = 1; b < RANK_PLANES; b++)
        key = _mm256_add_epi64(key, PLANE(h->ranks[b], rank, 8 * b));
    for (int b = 0; b < SUIT_PLANES; b++)
        key = _mm256_add_epi64(key, PLANE(h->suits[b], suit, 8 * (RANK_PLANES + b)));
    if (dots)
        key = _mm256_add_epi64(key, PLANE(h->dots, rank, 56));
    return key;
}

/* Eight rows from ``p``: their card rules' problems OR-ed into ``bad``, their perfect-hash
 * buckets and base slots, their suit counts and, with ``DOTS`` in ``outputs``, their dots. */
__attribute__((target("avx2,bmi2"))) static inline __attribute__((always_inline)) void
hash_step(const Hash256 *h, const Rules256 *rules, int table_cards, const uint8_t *p,
          Py_ssize_t width, int outputs, __m256i *bad, __m256i *bucket, __m256i *slot,
          __m256i *suits, __m256i *dots)
{
    __m256i a = four_rows(p, width), b = four_rows(p + 4 * width, width);
    *bad = _mm256_or_si256(*bad, _mm256_or_si256(problems_256(rules, a, width, table_cards),
                                                 problems_256(rules, b, width, table_cards)));
    const int dotted = outputs & DOTS;
    __m256 first = _mm256_castsi256_ps(keys_of(h, placed(a, h->rows, h->pad), dotted));  /* rows 0-3 */
    __m256 second = _mm256_castsi256_ps(keys_of(h, placed(b, h->rows, h->pad), dotted)); /* rows 4-7 */
    /* The keys' low and high dwords, in lane order: the 39-bit rank counts as two halves,
     * the suit counts above them. */
    __m256i counts_low = _mm256_castps_si256(_mm256_shuffle_ps(first, second, 0x88));
    __m256i high = _mm256_castps_si256(_mm256_shuffle_ps(first, second, 0xDD));
    __m256i counts_high = _mm256_and_si256(high, _mm256_set1_epi32(0x7f));
    *suits = _mm256_and_si256(_mm256_srli_epi32(high, 8), _mm256_set1_epi32(0xffff));
    if (dotted)
        *dots = _mm256_and_si256(_mm256_srl_epi32(high, h->dots_shift), h->dots_mask);
    *bucket = _mm256_srl_epi32(top_product(counts_low, counts_high, h->bucket_low, h->bucket_high),
                               h->bucket_shift);
    *slot = _mm256_srl_epi32(top_product(counts_low, counts_high, h->slot_low, h->slot_high),
                             h->slot_shift);
}

/* Step ``i``'s strength and classes or dots (in lane order) written out; its flushes are
 * scored again later (``flushed_rows``). */
__attribute__((target("avx2,bmi2"))) static inline __attribute__((always_inline)) void
put_step(const Out *out, const Hash256 *h, Py_ssize_t i, __m256i classes, __m256i dots,
         int outputs)
{
    classes = _mm256_permutevar8x32_epi32(classes, h->order); /* back to row order */
    __m256i strength = _mm256_sub_epi32(h->base, classes);
    if (outputs & DOTS) {
        dots = _mm256_permutevar8x32_epi32(dots, h->order);
        if (outputs & WIDE) {
            _mm256_storeu_si256((__m256i *)((uint32_t *)out->strength + i), strength);
            _mm256_storeu_si256((__m256i *)((int32_t *)out->dots + i), dots);
        } else {
            __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(strength, strength), 0xD8);
            _mm_storeu_si128((__m128i *)((uint16_t *)out->strength + i), _mm256_castsi256_si128(packed));
            int64_t *cells = (int64_t *)out->dots + i;
            _mm256_storeu_si256((__m256i *)cells, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(dots)));
            _mm256_storeu_si256((__m256i *)(cells + 4),
                                _mm256_cvtepi32_epi64(_mm256_extracti128_si256(dots, 1)));
        }
    } else if (outputs & WIDE) {
        _mm256_storeu_si256((__m256i *)((uint32_t *)out->strength + i), strength);
        _mm256_storeu_si256((__m256i *)((int32_t *)out->classes + i), classes);
    } else {
        /* 32 -> 16 bits: the pack works per 128-bit lane, the permute joins them. */
        __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(strength, classes), 0xD8);
        _mm_storeu_si128((__m128i *)((uint16_t *)out->strength + i), _mm256_castsi256_si128(packed));
        _mm_storeu_si128((__m128i *)((uint16_t *)out->classes + i),
                         _mm256_extracti128_si256(packed, 1));
    }
}

#define BLOCK_STEPS 6 /* steps of eight rows whose table reads are in flight together */
#define FLUSH_ROWS 64 /* rows with a flush noted before they are scored again */

/* By a step's flush lanes (bits), the rows those lanes hold (LANE_ORDER), packed from byte
 * 0: how a step appends its flushed rows to the list with no branch. Built at import. */
static uint64_t flush_lane_rows[256];

static void build_flush_lane_rows(void)
{
    static const int lane_row[8] = {LANE_ORDER};
    for (int lanes = 0; lanes < 256; lanes++) {
        uint64_t rows = 0;
        int n = 0;
        for (int k = 0; k < 8; k++)
            if (lanes >> k & 1)
                rows |= (uint64_t)lane_row[k] << 8 * n++;
        flush_lane_rows[lanes] = rows;
    }
}

/* Step ``i``'s rows with a flush (``suits``: its suit counts) appended to ``rows`` (room
 * for eight past ``count``); the new count. */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) int
note_flushes(const Hash256 *h, __m256i suits, Py_ssize_t i, int32_t *rows, int count)
{
    __m256i flush = _mm256_cmpgt_epi32(_mm256_and_si256(suits, h->flush), _mm256_setzero_si256());
    int lanes = _mm256_movemask_ps(_mm256_castsi256_ps(flush));
    __m128i lane_rows = _mm_loadl_epi64((const __m128i *)&flush_lane_rows[lanes]);
    _mm256_storeu_si256((__m256i *)(rows + count),
                        _mm256_add_epi32(_mm256_cvtepu8_epi32(lane_rows),
                                         _mm256_set1_epi32((int32_t)i)));
    return count + __builtin_popcount(lanes);
}

/* The noted rows with a flush, scored again one at a time (``score_one``) over what their
 * step wrote. Apart from the hot loop, which only notes them (branch-free), so that a
 * flush, in a fifth of 7-card steps but one hand of 33, costs no mispredicted branch
 * there. */
__attribute__((target("avx2,bmi2"))) static __attribute__((noinline)) void
flushed_rows(const Tables *t, const Out *out, const Rows *r, Shared s, const int32_t *rows,
             int count, int outputs)
{
    for (int n = 0; n < count; n++)
        score_one(t, out, r, s, rows[n], r->width, r->table_width, 0, outputs);
}

__attribute__((target("avx2,bmi2"))) static inline __attribute__((always_inline)) int
avx2_rows(const Tables *t, const Out *out, const Rows *r, const RowCheck *c,
          Py_ssize_t width, int outputs)
{
    Shared s = shared_part(t, r, r->table_width, 0);
    Rules256 rules;
    load_rules_256(&rules, c, width);
    const int table_cards = c->table_cards;
    Hash256 h;
    h.start = _mm256_set1_epi64x((long long)s.start); /* the dots in byte 7 */
    h.bucket_low = _mm256_set1_epi32((int)(uint32_t)t->bucket_multiplier);
    h.bucket_high = _mm256_set1_epi32((int)(uint32_t)(t->bucket_multiplier >> 32));
    h.slot_low = _mm256_set1_epi32((int)(uint32_t)t->slot_multiplier);
    h.slot_high = _mm256_set1_epi32((int)(uint32_t)(t->slot_multiplier >> 32));
    h.bucket_shift = _mm_cvtsi32_si128(t->bucket_shift - 32);
    h.slot_shift = _mm_cvtsi32_si128(t->slot_shift - 32);
    h.flush = _mm256_set1_epi32((int)((t->flush_bits >> t->suit_shift) & 0xffff));
    h.base = _mm256_set1_epi32(t->strength_base);
    h.order = _mm256_setr_epi32(LANE_ORDER);
    /* A row to a qword, 0xFC past the width: a byte whose rank index (``+ 1``) and suit
     * index (``& 0x83``) both read a 0. */
    row_patterns(width, 0xFC, &h.rows, &h.pad);
    /* By rank + 1 (0: no card), byte b of the rank's count unit 1 << 3 * rank; by suit
     * (bit 7: no card), byte 5 or 6 of its unit 1 << 40 + 4 * suit. */
    uint8_t planes[RANK_PLANES + SUIT_PLANES][16] = {{0}};
    for (int rank = 0; rank < 13; rank++)
        for (int b = 0; b < RANK_PLANES; b++)
            planes[b][rank + 1] = (uint8_t)(((uint64_t)1 << 3 * rank) >> 8 * b);
    for (int suit = 0; suit < 4; suit++)
        planes[RANK_PLANES + suit / 2][suit] = (uint8_t)(1 << 4 * (suit % 2));
    for (int b = 0; b < RANK_PLANES; b++)
        h.ranks[b] = lane_pattern(planes[b]);
    for (int b = 0; b < SUIT_PLANES; b++)
        h.suits[b] = lane_pattern(planes[RANK_PLANES + b]);
    uint8_t dots[16] = {0};
    for (int rank = 0; rank < 13 && t->dots_shift >= 56; rank++)
        dots[rank + 1] = (uint8_t)(t->card_keys[4 * rank] >> 56);
    h.dots = lane_pattern(dots);
    h.dots_shift = _mm_cvtsi32_si128(t->dots_shift - 32);
    h.dots_mask = _mm256_set1_epi32((int)t->dots_mask);
    const uint8_t *hands = r->hands;
    Py_ssize_t count = r->count, i = 0;
    Py_ssize_t steps = eight_row_steps(count, width);
    __m256i bad = _mm256_setzero_si256();
    /* A block's steps hashed, then all their displacement reads, then all their class
     * reads: the table reads of 32 rows in flight at once, not 8 waiting on 8. */
    int32_t flush_rows[FLUSH_ROWS];
    int flushes = 0;
    for (; i + 8 * (BLOCK_STEPS - 1) < steps; i += 8 * BLOCK_STEPS) {
        __m256i bucket[BLOCK_STEPS], slot[BLOCK_STEPS], suits[BLOCK_STEPS], dots[BLOCK_STEPS];
        for (int q = 0; q < BLOCK_STEPS; q++)
            hash_step(&h, &rules, table_cards, hands + (i + 8 * q) * width, width, outputs,
                      &bad, &bucket[q], &slot[q], &suits[q], &dots[q]);
        for (int q = 0; q < BLOCK_STEPS; q++)
            slot[q] = _mm256_xor_si256(slot[q], gather_bytes(t->displacements, bucket[q]));
        for (int q = 0; q < BLOCK_STEPS; q++)
            slot[q] = gather_words(t->unsuited, slot[q]);
        for (int q = 0; q < BLOCK_STEPS; q++) {
            put_step(out, &h, i + 8 * q, slot[q], dots[q], outputs);
            flushes = note_flushes(&h, suits[q], i + 8 * q, flush_rows, flushes);
        }
        if (flushes > FLUSH_ROWS - 8 * (BLOCK_STEPS + 1)) {
            flushed_rows(t, out, r, s, flush_rows, flushes, outputs);
            flushes = 0;
        }
    }
    for (; i < steps; i += 8) {
        __m256i bucket, slot, suits, dots;
        hash_step(&h, &rules, table_cards, hands + i * width, width, outputs, &bad, &bucket,
                  &slot, &suits, &dots);
        slot = _mm256_xor_si256(slot, gather_bytes(t->displacements, bucket));
        put_step(out, &h, i, gather_words(t->unsuited, slot), dots, outputs);
        flushes = note_flushes(&h, suits, i, flush_rows, flushes);
    }
    flushed_rows(t, out, r, s, flush_rows, flushes, outputs);
    int passed = _mm256_testz_si256(bad, bad);
    for (; i < count; i++) {
        passed &= row_passes(c, hands + i * width, width);
        score_one(t, out, r, s, i, width, r->table_width, 0, outputs);
    }
    return passed;
}

/* ``avx2_rows`` with 5-7 card rows' widths constant, for strength and classes or dots;
 * local copies as in ``by_shape``. */
__attribute__((target("avx2,bmi2"))) static int
checked_avx2(const Tables *given, const Out *outs, const Rows *r, const RowCheck *given_check)
{
    const Tables local = *given;
    const Out o = *outs;
    const RowCheck c = *given_check;
    const Tables *t = &local;
    const Out *out = &o;
    int outputs = (o.dots ? DOTS : CLASSES) | (o.wide ? WIDE : 0);
    switch (r->width * 8 + outputs) {
    case 5 * 8 + CLASSES: return avx2_rows(t, out, r, &c, 5, CLASSES);
    case 6 * 8 + CLASSES: return avx2_rows(t, out, r, &c, 6, CLASSES);
    case 7 * 8 + CLASSES: return avx2_rows(t, out, r, &c, 7, CLASSES);
    case 5 * 8 + (CLASSES | WIDE): return avx2_rows(t, out, r, &c, 5, CLASSES | WIDE);
    case 6 * 8 + (CLASSES | WIDE): return avx2_rows(t, out, r, &c, 6, CLASSES | WIDE);
    case 7 * 8 + (CLASSES | WIDE): return avx2_rows(t, out, r, &c, 7, CLASSES | WIDE);
    case 7 * 8 + DOTS: return avx2_rows(t, out, r, &c, 7, DOTS);
    case 7 * 8 + (DOTS | WIDE): return avx2_rows(t, out, r, &c, 7, DOTS | WIDE);
    default: return avx2_rows(t, out, r, &c, r->width, outputs);
    }
}
#endif

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
    if (get_rows(hands, &views[0], 64, "hands") < 0)
        return -1;
    if (get_rows(table_rows, &views[1], 64, "table_rows") < 0) {
        release_all(views, 1);
        return -1;
    }
    Py_ssize_t count = views[0].shape[0], table_count = views[1].shape[0];
    /* The strength's cells say which outputs these are: 2 bytes narrow, 4 wide. */
    if (get_out(strength, &views[2], ANY_WIDTH, count, "strength") < 0) {
        release_all(views, 2);
        return -1;
    }
    int wide = views[2].itemsize == 4;
    if (get_out(classes, &views[3], wide ? 4 : 2, count, "classes") < 0
        || get_out(dots, &views[4], wide ? 4 : 8, count, "dots") < 0) {
        release_all(views, 5);
        return -1;
    }
    if (strength == Py_None || (table_count != 1 && table_count != count)) {
        release_all(views, 5);
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
    release_all(call.views, 5);
    Py_RETURN_NONE;
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
        release_all(call.views, 5);
        PyErr_SetString(PyExc_ValueError, "table_row must be one row");
        return NULL;
    }
    RowCheck check;
    int passed = 0;
#ifdef HAVE_X86_VECTORS
    if (has_ssse3 && open_rules(&check, call.rows.width, call.rows.tables,
                                call.rows.table_width, first_refused)) {
        /* The vector path computes every byte's key as a card's: bytes from 52 up (the
         * jokers a first_refused above 52 lets through) add nothing only in the tables. */
        int vector = isa == ISA_AVX2 && call.tables->vector_layout
                     && (!call.out.dots || call.tables->vector_dots)
                     && first_refused <= 52 && call.rows.count <= INT32_MAX; /* flush_rows */
        Py_BEGIN_ALLOW_THREADS
        if (vector)
            passed = checked_avx2(call.tables, &call.out, &call.rows, &check);
        else
            passed = has_bmi2 ? checked_bmi2(call.tables, &call.out, &call.rows, &check)
                              : checked_plain(call.tables, &call.out, &call.rows, &check);
        Py_END_ALLOW_THREADS
    }
#else
    (void)check;
#endif
    release_all(call.views, 5);
    return PyBool_FromLong(passed);
}

static PyMethodDef methods[] = {
    ISA_METHODS,
    {"tables", tables, METH_VARARGS, tables_doc},
    {"evaluate", evaluate, METH_VARARGS, evaluate_doc},
    {"screened", screened, METH_VARARGS, screened_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "evaluators.kernels._poker",
    .m_doc = "Poker hands in a batch (evaluators/poker.py's lookups), GIL released.",
    .m_size = 0,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__poker(void)
{
#ifdef HAVE_X86_VECTORS
    __builtin_cpu_init();
    has_bmi2 = __builtin_cpu_supports("bmi2");
    has_ssse3 = __builtin_cpu_supports("ssse3");
    isa_runs[ISA_AVX2] = __builtin_cpu_supports("avx2") && has_bmi2;
    build_flush_lane_rows();
#endif
    isa_start();
    return PyModuleDef_Init(&module);
}
