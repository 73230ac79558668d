/* High Card's checks against a table without a sort: a hand's and a table's running
 * counts of cards by place in the check order, compared field by field.
 *
 * Shared by the batch kernel (_points.c) and Odds' fused chunk call (_odds/), so the
 * rule of a check is stated once.
 */
#ifndef HANDEVAL_KERNEL_CHECKS_H
#define HANDEVAL_KERNEL_CHECKS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define MAX_CHECKS 7  /* running counts up to 7 fit a 4-bit field with its borrow bit */
#define PLACES 16
#define NIBBLE_ONES 0x1111111111111111ull
#define NIBBLE_HIGHS 0x8888888888888888ull

/* Per card, 1 in the 4-bit field of its place in the check order. */
static inline uint64_t
order_counts(const uint64_t *keys, const uint8_t *cards, Py_ssize_t size)
{
    uint64_t counts = 0;
    for (Py_ssize_t j = 0; j < size; j++)
        counts += keys[cards[j]];
    return counts * NIBBLE_ONES; /* field r: the cards at places 0..r */
}

/* Sorted ascending, a hand first fails at check n, h[n] < t[n], exactly when n is the
 * table's count of cards up to the lowest place r where the hand has more cards up to r
 * than the table: so no sort, one subtraction of the two running counts, field by field. */
static inline uint8_t
survived(uint64_t mine, uint64_t theirs, Py_ssize_t size)
{
    uint64_t more = ~((theirs | NIBBLE_HIGHS) - mine) & NIBBLE_HIGHS;
    if (!more)
        return (uint8_t)size;
    return (uint8_t)(theirs >> (__builtin_ctzll(more) & ~3) & 15);
}

#endif
