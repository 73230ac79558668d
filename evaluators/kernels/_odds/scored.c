/* The poker family's chunks (Poker high, Grocery Store Dots, High Card): each seat's
 * figures by the batch kernels' own arithmetic (_poker_tables.h, _checks.h), tallied a
 * block at a time (scored_tally, scored_sampled). */
#include "odds.h"

#define MAX_SCORED 8 /* cards a hand and its table hold together, at most */

typedef struct {
    int kind;
    const Tables *poker;
    uint64_t places[256]; /* CHECKS: 1 in the 4-bit field of the card's place */
    Cards hands[MAX_SEATS];
    Cards table;
} Scored;

/* A run-out's cards in order, read at their strides. */
INLINE void
gather(Cards m, Py_ssize_t r, uint8_t *out)
{
    const uint8_t *at = m.cards + r * m.run;
    for (Py_ssize_t k = 0; k < m.width; k++)
        out[k] = at[k * m.card];
}

/* One seat's figures over n run-outs from `first` into key (and second: the dots), as
 * the batch kernels make them (_poker.c's class_of, _points.c's survived), given the
 * table's share of each run-out's key and flush rank sums (poker) or its check counts
 * (checks) in `table_key`/`table_flush`. The hand's cards are summed a position at a time
 * over the block, as discard_block reads them. */
INLINE void
score_seat(const Scored *g, const int kind, Cards hand, Py_ssize_t first, int n,
           const uint64_t *table_key, const uint64_t *table_flush, int64_t *restrict key,
           int64_t *restrict second)
{
    const Tables *t = g->poker;
    const uint64_t *keys = kind == CHECKS ? g->places : t->card_keys;
    uint64_t sum[BLOCK];
    const uint8_t *held = hand.cards + first * hand.run;
    for (int i = 0; i < n; i++)
        sum[i] = kind == CHECKS ? 0 : table_key[i];
    for (Py_ssize_t k = 0; k < hand.width; k++) {
        const uint8_t *column = held + k * hand.card;
        for (int i = 0; i < n; i++)
            sum[i] += keys[column[i * hand.run]];
    }
    if (kind == CHECKS) {
        for (int i = 0; i < n; i++)
            key[i] = survived(sum[i] * NIBBLE_ONES, table_key[i], hand.width);
        return;
    }
    uint8_t row[MAX_SCORED];
    for (int i = 0; i < n; i++) {
        uint16_t rank_class;
        if (__builtin_expect((sum[i] & t->flush_bits) != 0, 0)) {
            gather(hand, first + i, row);
            rank_class = class_of(t, sum[i], row, hand.width, table_flush[i]);
        } else {
            rank_class = t->unsuited[slot_of(t, sum[i])];
        }
        key[i] = (int64_t)(uint16_t)(t->strength_base - rank_class);
        if (kind == DOTS)
            second[i] = (int64_t)((sum[i] >> t->dots_shift) & t->dots_mask);
    }
}

/* The table's share of each run-out's figures, a position at a time: its key sum from
 * sum_start and its flush rank bits (poker), or its check counts (checks). */
static void
table_sums(const Scored *g, Py_ssize_t first, int n, uint64_t *restrict table_key,
           uint64_t *restrict table_flush)
{
    Cards table = g->table;
    const uint8_t *turned = table.cards + first * table.run;
    int checks = g->kind == CHECKS;
    for (int i = 0; i < n; i++) {
        table_key[i] = checks ? 0 : g->poker->sum_start;
        table_flush[i] = 0;
    }
    for (Py_ssize_t k = 0; k < table.width; k++) {
        const uint8_t *column = turned + k * table.card;
        if (checks) {
            for (int i = 0; i < n; i++)
                table_key[i] += g->places[column[i * table.run]];
        } else {
            for (int i = 0; i < n; i++) {
                table_key[i] += g->poker->card_keys[column[i * table.run]];
                table_flush[i] += g->poker->flush_rank_bits[column[i * table.run]];
            }
        }
    }
    if (checks)
        for (int i = 0; i < n; i++)
            table_key[i] *= NIBBLE_ONES;
}

/* A poker-family chunk, dealt cards to tally in one pass: per block of run-outs, the
 * table's sums once, each seat's figures, then the pot rule and the tally. */
static int
scored_tally(const Scored *g, Sampled *sampled, Rule rule, Layout at, Tally t, Py_ssize_t count,
             Sums out, Sums squares)
{
    int64_t *figures = PyMem_RawMalloc(2 * sizeof(int64_t) * at.seats * BLOCK);
    if (!figures)
        return -1;
    const int coded = !t.weights && at.seats <= CODED_SEATS;
    int64_t *outcomes = coded ? PyMem_RawCalloc((size_t)4 << 2 * at.seats, sizeof(int64_t)) : NULL;
    Blocks b;
    if ((coded && !outcomes) || odds_blocks_start(&b, at.seats)) {
        PyMem_RawFree(outcomes);
        PyMem_RawFree(figures);
        return -1;
    }
    uint64_t table_key[BLOCK], table_flush[BLOCK];
    double squared[MAX_SEATS] = {0};
    const int weighted = t.weights != NULL;
    const double *weights = t.weights;
    odds_set_inverses(&t, at.seats);
    at.count = BLOCK;
    rule.key = figures;
    rule.second = figures + at.seats * BLOCK;
    for (Py_ssize_t first = 0; first < count; first += BLOCK) {
        int n = count - first < BLOCK ? (int)(count - first) : BLOCK;
        Py_ssize_t at_first;
        if (odds_block_from(sampled, first, n, &at_first)) {
            odds_blocks_end(&b, &at, &t, squared);
            PyMem_RawFree(outcomes);
            PyMem_RawFree(figures);
            return -2;
        }
        table_sums(g, at_first, n, table_key, table_flush);
        for (int s = 0; s < at.seats; s++) {
            int64_t *key = figures + s * BLOCK, *second = figures + (at.seats + s) * BLOCK;
            switch (g->kind) {
            case POKER: score_seat(g, POKER, g->hands[s], at_first, n, table_key, table_flush, key, second); break;
            case DOTS: score_seat(g, DOTS, g->hands[s], at_first, n, table_key, table_flush, key, second); break;
            default: score_seat(g, CHECKS, g->hands[s], at_first, n, table_key, table_flush, key, second);
            }
        }
        if (weighted) {
            t.weights = weights + first;
            odds_tally_runs(&rule, &at, &t, squared, n, 1);
        } else if (coded) {
            odds_coded_runs(&rule, rule.key, rule.second, NULL, BLOCK, n, at.seats, outcomes);
            t.counts[at.items - 1] += n;
        } else {
            odds_block_tally(&rule, rule.key, rule.second, NULL, BLOCK, n, &at, &t, &b);
        }
    }
    odds_blocks_end(&b, &at, &t, squared);
    if (coded)
        odds_coded_end(&rule, &at, &t, outcomes, squared);
    PyMem_RawFree(outcomes);
    odds_fold(&at, &t, squared, out, squares, weighted);
    PyMem_RawFree(figures);
    return 0;
}

/* scored_tally (cards read in place) and scored_sampled (dealt in the call). */
static PyObject *
scored_call(PyObject *args, int dealt)
{
    Py_buffer v[4] = {{0}};
    Py_buffer held[MAX_SEATS] = {{0}};
    int kind, shape, pots, seats = 0;
    long long split_at;
    Py_ssize_t count;
    PyObject *tables, *hands = NULL, *deal = NULL, *result = NULL;
    Sampled sampled = {.tile = NULL};
    Scored *game = PyMem_RawCalloc(1, sizeof(Scored));
    if (!game)
        return PyErr_NoMemory();
    if (dealt ? !PyArg_ParseTuple(args, "iOiiLiO!nw*w*", &kind, &tables, &shape, &pots,
                                  &split_at, &seats, &PyTuple_Type, &deal, &count, &v[2], &v[3])
              : !PyArg_ParseTuple(args, "iOiiLO!y*(nnn)ny*w*w*", &kind, &tables, &shape, &pots,
                                  &split_at, &PyTuple_Type, &hands, &v[0], &game->table.run,
                                  &game->table.card, &game->table.width, &count, &v[1], &v[2],
                                  &v[3]))
        goto fail;
    if (hands)
        seats = (int)PyTuple_GET_SIZE(hands);
    if (kind < 0 || kind >= KINDS || shape < 0 || shape >= DECLARED || seats < 1 ||
        seats > MAX_SEATS || pots < 1 || pots > MAX_POTS || (shape == HALVES) != (pots == 2) ||
        (kind == DOTS) != (shape == HALVES) || count < 0) {
        PyErr_Format(PyExc_ValueError,
                     "kind %d, shape %d, %d pots, %d seats: need a kind below %d, BEST, "
                     "HALVES (DOTS alone, 2 pots) or UNIQUE_BEST, 1-%d seats",
                     kind, shape, pots, seats, KINDS, MAX_SEATS);
        goto fail;
    }
    game->kind = kind;
    if (kind == CHECKS) {
        Py_buffer order;
        if (PyObject_GetBuffer(tables, &order, PyBUF_SIMPLE) < 0)
            goto fail;
        int bad = expect_items(&order, 256, 1, "order");
        for (int card = 0; !bad && card < 256; card++) {
            uint8_t place = ((const uint8_t *)order.buf)[card];
            if (place >= PLACES) {
                PyErr_Format(PyExc_ValueError, "order[%d] is %d; places are 0-%d", card, place,
                             PLACES - 1);
                bad = 1;
            }
            game->places[card] = 1ull << (4 * (place & (PLACES - 1)));
        }
        PyBuffer_Release(&order);
        if (bad)
            goto fail;
    } else if (!(game->poker = PyCapsule_GetPointer(tables, CAPSULE))) {
        goto fail;
    }
    if (dealt ? odds_open_sampled(deal, seats, &sampled, game->hands, &game->table)
              : odds_check_cards(&v[0], &game->table, count, "table"))
        goto fail;
    for (int s = 0; s < seats; s++) {
        Cards *hand = &game->hands[s];
        if (!dealt && (!PyArg_ParseTuple(PyTuple_GET_ITEM(hands, s), "y*(nnn)", &held[s],
                                         &hand->run, &hand->card, &hand->width) ||
                       odds_check_cards(&held[s], hand, count, "hand")))
            goto fail;
        Py_ssize_t together = hand->width + game->table.width;
        if (kind == CHECKS ? hand->width != game->table.width || hand->width > MAX_CHECKS
                           : together < 5 || together > MAX_SCORED) {
            PyErr_Format(PyExc_ValueError,
                         "hand %d: %zd cards with %zd on the table; need 5-%d in all (as many "
                         "in each, at most %d, for checks)",
                         s, hand->width, game->table.width, MAX_SCORED, MAX_CHECKS);
            goto fail;
        }
    }
    Layout at = odds_layout_of(seats, pots, count);
    Rule rule = {shape, -1, split_at, NULL, NULL, NULL, NULL, NULL};
    Tally t;
    Sums out, squares;
    if (odds_open_tally(&at, &v[1], &v[2], &v[3], &t, &out, &squares))
        goto fail;
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = scored_tally(game, dealt ? &sampled : NULL, rule, at, t, count, out, squares);
    Py_END_ALLOW_THREADS
    PyMem_RawFree(t.counts);
    if (!odds_chunk_failed(failed))
        result = Py_NewRef(Py_None);
fail:
    PyMem_RawFree(sampled.tile);
    release_all(v, 4);
    release_all(held, MAX_SEATS);
    PyMem_RawFree(game);
    return result;
}

PyObject *
odds_scored_tally_entry(PyObject *module, PyObject *args)
{
    return scored_call(args, 0);
}

PyObject *
odds_scored_sampled_entry(PyObject *module, PyObject *args)
{
    return scored_call(args, 1);
}
