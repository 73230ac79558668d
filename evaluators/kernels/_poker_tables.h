/* The poker lookup tables as the kernels read them: the capsule _poker.tables() builds
 * (the tables held, not copied, and the key layout), and one hand's class from its key sum.
 *
 * Shared by the batch kernel (_poker.c) and Odds' fused chunk call (_odds/), so the
 * arithmetic of a hand's class is stated once.
 */
#ifndef HANDEVAL_KERNEL_POKER_TABLES_H
#define HANDEVAL_KERNEL_POKER_TABLES_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define CAPSULE "evaluators.kernels._poker.tables"

typedef struct {
    Py_buffer views[5];
    const uint64_t *card_keys;       /* byte -> additive key */
    const uint64_t *flush_rank_bits; /* byte -> 1 << (suit spacing * suit + rank) */
    const uint8_t *displacements;    /* per perfect-hash bucket (all below 256) */
    const uint16_t *unsuited;        /* per perfect-hash slot: Cactus-Kev class */
    const uint16_t *flushes;         /* per 13-bit rank mask: Cactus-Kev class */
    uint64_t bucket_multiplier, slot_multiplier;
    int bucket_shift, slot_shift;
    uint64_t sum_start, flush_bits, rank_mask;
    int suit_shift, suit_mask_shift;
    uint64_t flush_rank_mask;
    uint16_t strength_base;
    int dots_shift;
    uint64_t dots_mask;
    int vector_layout; /* the key layout the vector kernels compute (``vector_layout``) */
    int vector_dots;   /* ... and the dots too (``vector_dots``) */
} Tables;

static inline uint64_t key_sum(const Tables *t, const uint8_t *row, Py_ssize_t width)
{
    uint64_t sum = 0;
    for (Py_ssize_t k = 0; k < width; k++)
        sum += t->card_keys[row[k]];
    return sum;
}

static inline uint64_t flush_rank_sum(const Tables *t, const uint8_t *row, Py_ssize_t width)
{
    uint64_t sum = 0;
    for (Py_ssize_t k = 0; k < width; k++)
        sum += t->flush_rank_bits[row[k]];
    return sum;
}

/* The unsuited table's slot of a key sum, by the perfect hash: below 2^slot_bits with no
 * mask, since ``tables`` takes slot_bits >= 8 and displacements are bytes. */
static inline uint64_t slot_of(const Tables *t, uint64_t key)
{
    uint64_t counts = key & t->rank_mask;
    uint64_t bucket = (counts * t->bucket_multiplier) >> t->bucket_shift;
    uint64_t base = (counts * t->slot_multiplier) >> t->slot_shift;
    return t->displacements[bucket] ^ base;
}

/* The class of one hand whose key sum (``key``, table included) is known; ``flush_ranks``
 * is the table's share of the flush rank bits. */
static inline uint16_t class_of(const Tables *t, uint64_t key, const uint8_t *row,
                                Py_ssize_t width, uint64_t table_flush_ranks)
{
    uint64_t flush = key & t->flush_bits;
    if (__builtin_expect(flush != 0, 0)) {
        int suit = (__builtin_ctzll(flush) - t->suit_shift - 3) >> 2;
        uint64_t ranks = table_flush_ranks + flush_rank_sum(t, row, width);
        return t->flushes[(ranks >> (t->suit_mask_shift * suit)) & t->flush_rank_mask];
    }
    return t->unsuited[slot_of(t, key)];
}

#endif
