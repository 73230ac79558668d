/* The discard games' chunks: each seat's kept sum and out_after by the discard rule
 * (discard_block, the discard_seat call), looked up into figures and tallied a block at a
 * time (discard_tally, discard_sampled). */
#include "odds.h"

#define NEVER 15
#define MAX_TURNS 14
/* A run-out's table read once for every seat (discard_block): per rank, the first turn
 * that shows it, 1-MAX_TURNS, or NEVER, a nibble each of one word. */

/* The discard rule over a block of n <= BLOCK run-outs of `seats` hands against their
 * table (as discard.odds_figures), seat s's figures at s x `stride` in `kept` and
 * `out_after`: kept, the packed values of the hand's cards whose rank the table never
 * shows; out_after, the turn by which the table has shown every rank of the hand (at
 * least 1), else 0 (a rank never shown, or no table). The table (at most MAX_TURNS
 * cards) is read once per run-out, not once per seat; the cards a position at a time over
 * the block (a sampled chunk's positions lie a chunk apart: a run-out's cards read one
 * after another would each evict the last from the same cache set). */
static void
discard_block(const uint16_t *values, const Cards *hands, int seats, Cards table, int n,
              uint16_t *restrict kept, int64_t *restrict out_after, Py_ssize_t stride)
{
    uint64_t turns[BLOCK];
    uint16_t sum[BLOCK];
    uint8_t last[BLOCK];
    for (int i = 0; i < n; i++)
        turns[i] = ~0ull;
    for (Py_ssize_t k = 0; k < table.width; k++) {
        const uint8_t *column = table.cards + k * table.card;
        const uint64_t turn = (uint64_t)k + 1;
        for (int i = 0; i < n; i++) {
            int shift = column[i * table.run] & 0x3C; /* 4 x the rank's low 4 bits */
            uint64_t now = turns[i] >> shift & 15;
            turns[i] -= (now - (now < turn ? now : turn)) << shift;
        }
    }
    for (int s = 0; s < seats; s++) {
        const Cards hand = hands[s];
        for (int i = 0; i < n; i++) {
            sum[i] = 0;
            last[i] = 0;
        }
        for (Py_ssize_t k = 0; k < hand.width; k++) {
            const uint8_t *column = hand.cards + k * hand.card;
            for (int i = 0; i < n; i++) {
                uint8_t card = column[i * hand.run];
                uint8_t turn = turns[i] >> (card & 0x3C) & 15;
                last[i] = turn > last[i] ? turn : last[i];
                sum[i] += values[card] & -(uint16_t)(turn == NEVER);
            }
        }
        uint16_t *seat_kept = kept + s * stride;
        int64_t *seat_out = out_after + s * stride;
        for (int i = 0; i < n; i++) {
            seat_kept[i] = sum[i];
            seat_out[i] = table.width && last[i] != NEVER ? (last[i] ? last[i] : 1) : 0;
        }
    }
}

/* 0 when a discard table's cards fit the turns discard_block counts; else -1, ValueError. */
static int
check_turns(const Cards *table)
{
    if (table->width <= MAX_TURNS)
        return 0;
    PyErr_Format(PyExc_ValueError, "table: %zd cards; the discard rule reads at most %d",
                 table->width, MAX_TURNS);
    return -1;
}

PyObject *
odds_discard_entry(PyObject *module, PyObject *args)
{
    Py_buffer v[5] = {{0}};
    Cards hand, table;
    Py_ssize_t count;
    if (!PyArg_ParseTuple(args, "y*y*(nnn)y*(nnn)nw*w*", &v[0], &v[1], &hand.run, &hand.card,
                          &hand.width, &v[2], &table.run, &table.card, &table.width, &count,
                          &v[3], &v[4]))
        goto fail;
    if (count < 0 || expect_items(&v[0], 256, 2, "values") ||
        odds_check_cards(&v[1], &hand, count, "hand") || odds_check_cards(&v[2], &table, count, "table") ||
        expect_items(&v[3], count, 2, "kept") || expect_items(&v[4], count, 8, "out_after"))
        goto fail;
    if (check_turns(&table))
        goto fail;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t first = 0; first < count; first += BLOCK) {
        Cards block_hand = hand, block_table = table;
        block_hand.cards += first * hand.run;
        block_table.cards += first * table.run;
        discard_block(v[0].buf, &block_hand, 1, block_table,
                      count - first < BLOCK ? (int)(count - first) : BLOCK,
                      (uint16_t *)v[3].buf + first, (int64_t *)v[4].buf + first, 0);
    }
    Py_END_ALLOW_THREADS
    release_all(v, 5);
    Py_RETURN_NONE;
fail:
    release_all(v, 5);
    return NULL;
}

#define KEPT_SUMS 65536

typedef struct {
    const uint16_t *values;
    const int64_t *scores; /* strength, low_strength, value of every kept sum */
    int second;            /* the row of `scores` the pot's second half reads */
    Cards hands[MAX_SEATS];
    Cards table;
} Discard;

/* A discard game's chunk, dealt cards to tally in one pass: per block of run-outs, each
 * seat's kept sum and out_after by the discard rule, its figures looked up by kept sum,
 * then the pot rule and the tally. */
static int
discard_tally(const Discard *game, Sampled *sampled, Rule rule, Layout at, Tally t,
              Py_ssize_t count, Sums out, Sums squares)
{
    int64_t *figures = PyMem_RawMalloc(3 * sizeof(int64_t) * at.seats * BLOCK);
    uint16_t *kept = PyMem_RawMalloc(sizeof(uint16_t) * at.seats * BLOCK);
    if (!figures || !kept) {
        PyMem_RawFree(figures);
        PyMem_RawFree(kept);
        return -1;
    }
    double squared[MAX_SEATS] = {0};
    const int weighted = t.weights != NULL;
    const double *weights = t.weights;
    odds_set_inverses(&t, at.seats);
    at.count = BLOCK;
    rule.key = figures;
    rule.second = figures + at.seats * BLOCK;
    rule.out_after = figures + 2 * at.seats * BLOCK;
    const int64_t *strength = game->scores, *second = game->scores + game->second * KEPT_SUMS;
    const int coded = !weighted && at.seats <= CODED_SEATS;
    const int blocked = !weighted && !coded && rule.shape != DECLARED;
    int64_t *outcomes = coded ? PyMem_RawCalloc((size_t)4 << 2 * at.seats, sizeof(int64_t)) : NULL;
    Blocks b;
    if ((coded && !outcomes) || (blocked && odds_blocks_start(&b, at.seats))) {
        PyMem_RawFree(outcomes);
        PyMem_RawFree(figures);
        PyMem_RawFree(kept);
        return -1;
    }
    Cards hands[MAX_SEATS];
    for (Py_ssize_t first = 0; first < count; first += BLOCK) {
        int n = count - first < BLOCK ? (int)(count - first) : BLOCK;
        Py_ssize_t offset;
        if (odds_block_from(sampled, first, n, &offset)) {
            if (blocked)
                odds_blocks_end(&b, &at, &t, squared);
            PyMem_RawFree(outcomes);
            PyMem_RawFree(figures);
            PyMem_RawFree(kept);
            return -2;
        }
        Cards table = game->table;
        table.cards += offset * table.run;
        for (int s = 0; s < at.seats; s++) {
            hands[s] = game->hands[s];
            hands[s].cards += offset * hands[s].run;
        }
        discard_block(game->values, hands, at.seats, table, n, kept,
                      figures + 2 * at.seats * BLOCK, BLOCK);
        for (int s = 0; s < at.seats; s++) {
            const uint16_t *seat_kept = kept + s * BLOCK;
            for (int i = 0; i < n; i++) {
                figures[s * BLOCK + i] = strength[seat_kept[i]];
                figures[(at.seats + s) * BLOCK + i] = second[seat_kept[i]];
            }
        }
        if (weighted) {
            t.weights = weights + first;
            odds_tally_runs(&rule, &at, &t, squared, n, 1);
        } else if (blocked) {
            odds_block_tally(&rule, rule.key, rule.shape == HALVES ? rule.second : NULL,
                             rule.instant_pot >= 0 ? rule.out_after : NULL, BLOCK, n, &at, &t, &b);
        } else if (coded) {
            odds_coded_runs(&rule, rule.key, rule.second,
                            rule.instant_pot >= 0 ? rule.out_after : NULL, BLOCK, n, at.seats,
                            outcomes);
            t.counts[at.items - 1] += n;
        } else {
            odds_tally_runs(&rule, &at, &t, squared, n, 0);
        }
    }
    if (blocked)
        odds_blocks_end(&b, &at, &t, squared);
    if (coded)
        odds_coded_end(&rule, &at, &t, outcomes, squared);
    PyMem_RawFree(outcomes);
    odds_fold(&at, &t, squared, out, squares, weighted);
    PyMem_RawFree(figures);
    PyMem_RawFree(kept);
    return 0;
}

/* discard_tally (cards read in place) and discard_sampled (dealt in the call). */
static PyObject *
discard_call(PyObject *args, int dealt)
{
    Py_buffer v[8] = {{0}};
    Py_buffer held[MAX_SEATS] = {{0}};
    int shape, pots, instant_pot, second, seats = 0;
    long long split_at;
    Py_ssize_t count;
    PyObject *hands = NULL, *deal = NULL, *result = NULL;
    Discard game;
    Sampled sampled = {.tile = NULL};
    if (dealt ? !PyArg_ParseTuple(args, "iiiLiy*y*y*y*iO!nw*w*", &shape, &pots, &instant_pot,
                                  &split_at, &second, &v[0], &v[1], &v[2], &v[3], &seats,
                                  &PyTuple_Type, &deal, &count, &v[6], &v[7])
              : !PyArg_ParseTuple(args, "iiiLiy*y*y*y*O!y*(nnn)ny*w*w*", &shape, &pots,
                                  &instant_pot, &split_at, &second, &v[0], &v[1], &v[2], &v[3],
                                  &PyTuple_Type, &hands, &v[4], &game.table.run,
                                  &game.table.card, &game.table.width, &count, &v[5], &v[6],
                                  &v[7]))
        goto fail;
    if (hands)
        seats = (int)PyTuple_GET_SIZE(hands);
    if (shape < 0 || shape >= SHAPES || seats < 1 || seats > MAX_SEATS || pots < 1 ||
        pots > MAX_POTS || instant_pot >= pots || instant_pot < -1 ||
        (shape == HALVES && pots < 2) || (shape == DECLARED && pots < 3) || second < 0 ||
        second > 2 || count < 0) {
        PyErr_Format(PyExc_ValueError,
                     "shape %d, %d pots, instant pot %d, %d seats, second %d: need a shape "
                     "below %d, 1-%d seats, the pots the shape awards, a second row 0-2",
                     shape, pots, instant_pot, seats, second, SHAPES, MAX_SEATS);
        goto fail;
    }
    if (dealt) {
        if (odds_open_sampled(deal, seats, &sampled, game.hands, &game.table))
            goto fail;
    } else {
        for (int s = 0; s < seats; s++) {
            Cards *hand = &game.hands[s];
            if (!PyArg_ParseTuple(PyTuple_GET_ITEM(hands, s), "y*(nnn)", &held[s], &hand->run,
                                  &hand->card, &hand->width) ||
                odds_check_cards(&held[s], hand, count, "hand"))
                goto fail;
        }
        if (odds_check_cards(&v[4], &game.table, count, "table"))
            goto fail;
    }
    if (check_turns(&game.table))
        goto fail;
    Layout at = odds_layout_of(seats, pots, count);
    int declared = shape == DECLARED;
    if (expect_items(&v[0], declared ? seats : 0, 1, "goes_high") ||
        expect_items(&v[1], declared ? seats : 0, 1, "goes_low") ||
        expect_items(&v[2], 256, 2, "values") || expect_items(&v[3], 3 * KEPT_SUMS, 8, "scores"))
        goto fail;
    game.values = v[2].buf;
    game.scores = v[3].buf;
    game.second = second;
    Rule rule = {shape, instant_pot, split_at, NULL, NULL, NULL, v[0].buf, v[1].buf};
    Tally t;
    Sums out, squares;
    if (odds_open_tally(&at, &v[5], &v[6], &v[7], &t, &out, &squares))
        goto fail;
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = discard_tally(&game, dealt ? &sampled : NULL, rule, at, t, count, out, squares);
    Py_END_ALLOW_THREADS
    PyMem_RawFree(t.counts);
    if (!odds_chunk_failed(failed))
        result = Py_NewRef(Py_None);
fail:
    PyMem_RawFree(sampled.tile);
    release_all(v, 8);
    release_all(held, MAX_SEATS);
    return result;
}

PyObject *
odds_discard_tally_entry(PyObject *module, PyObject *args)
{
    return discard_call(args, 0);
}

PyObject *
odds_discard_sampled_entry(PyObject *module, PyObject *args)
{
    return discard_call(args, 1);
}
