/* The card rules of a screen, written once: every byte below ``first_refused``, no card
 * twice in a row, none of its table's. One form per way a kernel reads rows:
 *
 * - ``row_passes``: one row, a bit per card (a repeated card makes the sum of the bits
 *   differ from their OR), for rows a vector load would read past;
 * - ``problems_128`` (SSSE3) and ``problems_256`` (AVX2): two full rows of ``width``
 *   bytes to each 16-byte lane, compared with themselves turned round their rows.
 *
 * ``open_rules`` states a check's constants once for all three; kernels that screen a
 * batch with one shared table (_poker.c's ``screened``) use them.
 */
#ifndef HANDEVAL_KERNEL_CARD_RULES_H
#define HANDEVAL_KERNEL_CARD_RULES_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define HAVE_X86_VECTORS 1
#endif

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
    for (int j = 0; j < 16; j++) {
        int used = j < 2 * width, place = (int)(j % width);
        for (Py_ssize_t k = 0; k < width / 2; k++) /* j's row start, then k + 1 further */
            check->turns[k][j] = (uint8_t)(used ? j - place + (place + k + 1) % width : j);
        check->lanes[j] = used ? 0xff : 0;
    }
    return 1;
}

/* One row by the rules, a bit per card: 1 when it passes. */
static inline int row_passes(const RowCheck *c, const uint8_t *row, Py_ssize_t width)
{
    uint64_t any = c->table_bits, sum = c->table_bits;
    for (Py_ssize_t k = 0; k < width; k++) {
        if (row[k] >= c->first_refused)
            return 0;
        any |= (uint64_t)1 << row[k];
        sum += (uint64_t)1 << row[k]; /* a card twice carries into another bit */
    }
    return any == sum;
}

#ifdef HAVE_X86_VECTORS
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
 * a byte above ``first_refused`` - 1 (the saturated subtraction leaves it nonzero); a card
 * repeated exactly when some byte equals the one k places further round its row for some
 * k up to width / 2 (each pair of places is k or width - k apart); a table card. */
__attribute__((target("ssse3"))) static inline __attribute__((always_inline)) __m128i
problems_128(const Rules128 *v, __m128i x, Py_ssize_t width, int table_cards)
{
    __m128i problems = _mm_subs_epu8(x, v->highest);
    for (Py_ssize_t k = 0; k < width / 2; k++)
        problems = _mm_or_si128(problems, _mm_cmpeq_epi8(x, _mm_shuffle_epi8(x, v->turn[k])));
    for (int k = 0; k < table_cards; k++)
        problems = _mm_or_si128(problems, _mm_cmpeq_epi8(x, v->table[k]));
    return _mm_and_si128(problems, v->lanes);
}

__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void
load_rules_256(Rules256 *v, const RowCheck *c, Py_ssize_t width)
{
    /* Each 16-byte pattern twice: the shuffles stay inside their 128-bit lane. */
    for (Py_ssize_t k = 0; k < width / 2; k++)
        v->turn[k] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)c->turns[k]));
    for (int k = 0; k < c->table_cards; k++)
        v->table[k] = _mm256_set1_epi8((char)c->table[k]);
    v->lanes = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)c->lanes));
    v->highest = _mm256_set1_epi8((char)(c->first_refused - 1));
}

/* ``problems_128`` on four rows, two to each 128-bit lane. */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i
problems_256(const Rules256 *v, __m256i x, Py_ssize_t width, int table_cards)
{
    __m256i problems = _mm256_subs_epu8(x, v->highest);
    for (Py_ssize_t k = 0; k < width / 2; k++)
        problems = _mm256_or_si256(problems,
                                   _mm256_cmpeq_epi8(x, _mm256_shuffle_epi8(x, v->turn[k])));
    for (int k = 0; k < table_cards; k++)
        problems = _mm256_or_si256(problems, _mm256_cmpeq_epi8(x, v->table[k]));
    return _mm256_and_si256(problems, v->lanes);
}
#endif

#endif
