/* The card rules of a screen, written once: every byte below ``first_refused``, no card
 * twice in a row, none of its table's. One form per way a kernel reads rows:
 *
 * - ``row_passes``: one row, a bit per card (a repeated card makes the sum of the bits
 *   differ from their OR), for rows a vector load would read past;
 * - ``problems_128`` (SSSE3) and ``problems_256`` (AVX2): two full rows of ``width``
 *   bytes to each 16-byte lane, compared with themselves turned round their rows.
 *
 * ``open_rules`` states a check's constants once for all three (the poker kernel's
 * ``screened``). The parts each form is made of (``add_bit``/``repeated``, ``turn_masks``,
 * ``refused_*``, ``repeats_*``, ``ranks_256``) are the batch screen's too (_screen.c),
 * so a rule is written once in its scalar and once in its vector form.
 */
#ifndef HANDEVAL_KERNEL_CARD_RULES_H
#define HANDEVAL_KERNEL_CARD_RULES_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_rows256.h" /* HAVE_X86_VECTORS, lane_pattern */

#define MAX_CHECKED_WIDTH 8 /* two rows to a 16-byte lane */
#define MAX_TABLE_CARDS 8

typedef struct {
    uint8_t turns[MAX_CHECKED_WIDTH / 2][16]; /* byte j of two rows -> the byte k + 1
                                                 places further round its row */
    uint8_t lanes[16];                        /* 0xff on the bytes of the two rows */
    uint8_t table[MAX_TABLE_CARDS];
    int table_cards, first_refused;
    uint64_t table_bits; /* 1 << card for the table's cards */
} RowCheck;

/* The shuffles that turn each row of a 16-byte lane round by k places, k = 1..width / 2
 * (``turns[k - 1]``): ``rows`` rows of ``width`` bytes, the first at byte ``offset`` and
 * each ``stride`` bytes after the last (``stride`` >= ``width``), every other byte left in
 * place; ``lanes`` is 0xff on the rows' bytes. A row repeats a value exactly when some
 * byte equals its turn by some such k (each pair of places is k or width - k apart round
 * the row): ``repeats_128`` / ``repeats_256``. */
static inline void
turn_masks(uint8_t turns[][16], uint8_t lanes[16], int offset, int width, int rows, int stride)
{
    for (int j = 0; j < 16; j++) {
        int from = j - offset;
        int inside = from >= 0 && from < rows * stride && from % stride < width;
        int place = inside ? from % stride : 0, start = j - place;
        for (int k = 1; k <= width / 2; k++)
            turns[k - 1][j] = (uint8_t)(inside ? start + (place + k) % width : j);
        if (lanes)
            lanes[j] = inside ? 0xff : 0;
    }
}

/* The check of rows of ``width`` bytes against a screened table of ``table_width`` bytes
 * (``first_refused`` and up there is padding): 1, or 0 when the vector forms cannot take
 * this shape (rows wider than MAX_CHECKED_WIDTH, more table cards than MAX_TABLE_CARDS). */
static inline int
open_rules(RowCheck *check, Py_ssize_t width, const uint8_t *table, Py_ssize_t table_width,
           int first_refused)
{
    memset(check, 0, sizeof *check);
    if (width < 1 || width > MAX_CHECKED_WIDTH)
        return 0;
    check->first_refused = first_refused;
    for (Py_ssize_t k = 0; k < table_width; k++) {
        uint8_t card = table[k];
        if (card >= first_refused)
            continue; /* the padding byte */
        if (check->table_cards == MAX_TABLE_CARDS)
            return 0;
        check->table_bits |= (uint64_t)1 << card;
        check->table[check->table_cards++] = card;
    }
    turn_masks(check->turns, check->lanes, 0, (int)width, 2, (int)width);
    return 1;
}

/* The scalar form of the repeat rule: each byte's bit (``1 << card``, or a bits table's
 * entry) added and OR-ed along the row; a repeated card carries into another bit, so the
 * sum differs from the OR exactly then (no carry reaches past bit 63 for rows of at most
 * 64 bytes of bits below 2^57). */
static inline void add_bit(uint64_t bit, uint64_t *any, uint64_t *sum)
{
    *any |= bit;
    *sum += bit;
}

/* Nonzero when the bits added by ``add_bit`` show a repeat. */
static inline uint64_t repeated(uint64_t any, uint64_t sum)
{
    return any ^ sum;
}

/* One row by the rules, a bit per card: 1 when it passes. */
static inline int row_passes(const RowCheck *c, const uint8_t *row, Py_ssize_t width)
{
    uint64_t any = c->table_bits, sum = c->table_bits;
    for (Py_ssize_t k = 0; k < width; k++) {
        if (row[k] >= c->first_refused)
            return 0;
        add_bit((uint64_t)1 << row[k], &any, &sum);
    }
    return !repeated(any, sum);
}

#ifdef HAVE_X86_VECTORS
/* The vector forms of the rules, byte by byte: nonzero bytes where a byte is at or above
 * ``first_refused`` (``highest`` = first_refused - 1: the saturated subtraction leaves
 * only those nonzero), where a byte repeats round its row (``turn``: ``turn_masks``),
 * where a byte is a rank twice (the same on the bytes' ranks: ``ranks_*``). */
__attribute__((target("ssse3"))) static inline __attribute__((always_inline)) __m128i
refused_128(__m128i x, __m128i highest)
{
    return _mm_subs_epu8(x, highest);
}

__attribute__((target("ssse3"))) static inline __attribute__((always_inline)) __m128i
repeats_128(__m128i x, const __m128i *turn, int turns)
{
    __m128i same = _mm_setzero_si128();
    for (int k = 0; k < turns; k++)
        same = _mm_or_si128(same, _mm_cmpeq_epi8(x, _mm_shuffle_epi8(x, turn[k])));
    return same;
}

__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i
refused_256(__m256i x, __m256i highest)
{
    return _mm256_subs_epu8(x, highest);
}

__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i
repeats_256(__m256i x, const __m256i *turn, int turns)
{
    __m256i same = _mm256_setzero_si256();
    for (int k = 0; k < turns; k++)
        same = _mm256_or_si256(same, _mm256_cmpeq_epi8(x, _mm256_shuffle_epi8(x, turn[k])));
    return same;
}

/* Each card byte's rank (byte >> 2, for bytes below 64). */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i
ranks_256(__m256i x)
{
    return _mm256_and_si256(_mm256_srli_epi16(x, 2), _mm256_set1_epi8(0x3f));
}

/* The vector forms' constants, loaded once a call (``load_rules_128/256``). */
typedef struct {
    __m128i turn[MAX_CHECKED_WIDTH / 2], table[MAX_TABLE_CARDS], lanes, highest;
} Rules128;

typedef struct {
    __m256i turn[MAX_CHECKED_WIDTH / 2], table[MAX_TABLE_CARDS], lanes, highest;
} Rules256;

__attribute__((target("ssse3"))) static inline __attribute__((always_inline)) void
load_rules_128(Rules128 *v, const RowCheck *c, Py_ssize_t width)
{
    for (Py_ssize_t k = 0; k < width / 2; k++)
        v->turn[k] = _mm_loadu_si128((const __m128i *)c->turns[k]);
    for (int k = 0; k < c->table_cards; k++)
        v->table[k] = _mm_set1_epi8((char)c->table[k]);
    v->lanes = _mm_loadu_si128((const __m128i *)c->lanes);
    v->highest = _mm_set1_epi8((char)(c->first_refused - 1));
}

/* Nonzero bytes where two rows (``x``: rows of ``width`` bytes from byte 0) break a rule:
 * a byte refused, a card repeated in its row, a table card. */
__attribute__((target("ssse3"))) static inline __attribute__((always_inline)) __m128i
problems_128(const Rules128 *v, __m128i x, Py_ssize_t width, int table_cards)
{
    __m128i problems = _mm_or_si128(refused_128(x, v->highest),
                                    repeats_128(x, v->turn, (int)width / 2));
    for (int k = 0; k < table_cards; k++)
        problems = _mm_or_si128(problems, _mm_cmpeq_epi8(x, v->table[k]));
    return _mm_and_si128(problems, v->lanes);
}

__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void
load_rules_256(Rules256 *v, const RowCheck *c, Py_ssize_t width)
{
    /* Each 16-byte pattern twice: the shuffles stay inside their 128-bit lane. */
    for (Py_ssize_t k = 0; k < width / 2; k++)
        v->turn[k] = lane_pattern(c->turns[k]);
    for (int k = 0; k < c->table_cards; k++)
        v->table[k] = _mm256_set1_epi8((char)c->table[k]);
    v->lanes = lane_pattern(c->lanes);
    v->highest = _mm256_set1_epi8((char)(c->first_refused - 1));
}

/* ``problems_128`` on four rows, two to each 128-bit lane. */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i
problems_256(const Rules256 *v, __m256i x, Py_ssize_t width, int table_cards)
{
    __m256i problems = _mm256_or_si256(refused_256(x, v->highest),
                                       repeats_256(x, v->turn, (int)width / 2));
    for (int k = 0; k < table_cards; k++)
        problems = _mm256_or_si256(problems, _mm256_cmpeq_epi8(x, v->table[k]));
    return _mm256_and_si256(problems, v->lanes);
}
#endif

#endif
