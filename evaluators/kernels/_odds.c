/* Odds' pot rules and tally: a chunk of run-outs resolved and counted with the GIL released.
 *
 * A chunk's figures arrive as S seats x R run-outs of int64 (seat-major, as the batch
 * kernels score them). Each run-out is resolved by one of the pot shapes the games use
 * (docs/rules.md "Showdown" and "Odds"), and every award is counted by the seats it is
 * split among: a seat that takes a whole pot split d ways, or a half split d/2 ways, adds
 * the run-out's weight to its bucket d of that pot. A share is then the sum over d of
 * bucket / d, which the caller forms exactly (integers when every weight is 1), so no
 * rounding enters a counted tally, whatever the order of the run-outs.
 *
 * Shapes (an instant win, where the game has one, comes first and takes its pot whole):
 *   BEST         pot 0 whole to the highest `key`, ties split (Poker high, 333);
 *   HALVES       pot 0 half to the highest `key`, pot 1 half to the highest `second`
 *                (Grocery Store Dots: dots; Numbers, Florida Bingo: low strength);
 *   UNIQUE_BEST  pot 0 whole to the highest `key` alone, or split among those tied at
 *                `split_at`; any other tie at the top is a redeal (High Card);
 *   DECLARED     Flop-A's declarations: pot 0 half to the highest `key` among the seats
 *                going high, pot 1 half to the highest `second` among those going low,
 *                every seat going both ways that does not win (ties count) both halves
 *                removed at once and the halves decided again; with one half unclaimed
 *                the other's winners take pot 2 whole, with neither a redeal.
 *
 * Sums are Neumaier-compensated: exact for counts (weights 1) below 2^53, within an ulp
 * or so of the true sum for the exact enumeration's probabilities.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_buffers.h"

#define MAX_SEATS 52
#define DECK 52
#define MAX_POTS 3

enum { BEST = 0, HALVES = 1, UNIQUE_BEST = 2, DECLARED = 3, SHAPES };

typedef struct {
    double *sum;
    double *carry;
} Sums;

/* sum[i] += value, with the low-order bits lost kept in carry[i] (Neumaier). */
static inline void
add(Sums t, Py_ssize_t i, double value)
{
    double sum = t.sum[i];
    double total = sum + value;
    t.carry[i] += (sum >= value || sum <= -value) ? (sum - total) + value
                                                   : (value - total) + sum;
    t.sum[i] = total;
}

typedef struct {
    int seats;
    int pots;
    int buckets; /* 2 * seats + 1: a pot split d ways for d in 1..2S */
    Py_ssize_t count;
    Py_ssize_t shares; /* offset of the instant wins, after every bucket */
    Py_ssize_t items;  /* buckets, instant wins, redeals, total weight */
} Layout;

/* One chunk's tally: counts (every weight 1: whole numbers, added once at the end) or
 * compensated weighted sums, and each seat's squared shares. */
typedef struct {
    const double *weights; /* NULL: counted */
    int64_t *restrict counts;
    Sums sums;
    double *squares;
    double inverse[2 * MAX_SEATS + 1];
} Tally;

/* The run-out's weight added at i, `times` (0 or 1) times: without a branch, as which
 * seats win is a coin toss a branch predictor cannot learn. */
static inline void
count(Tally *t, Py_ssize_t i, double weight, int times, const int weighted)
{
    if (weighted)
        add(t->sums, i, weight * times);
    else
        t->counts[i] += times;
}

/* The seats with the largest `key` of run-out r among the `eligible` ones (all when NULL),
 * flagged in `chosen`; how many. */
static inline int
best(const int64_t *key, const uint8_t *eligible, Py_ssize_t r, const Layout *at,
     uint8_t *chosen)
{
    int64_t top = -1;
    for (int s = 0; s < at->seats; s++) {
        int64_t v = key[s * at->count + r];
        if (eligible && !eligible[s])
            v = -1;
        top = v > top ? v : top;
    }
    int winners = 0;
    for (int s = 0; s < at->seats; s++) {
        int64_t v = key[s * at->count + r];
        chosen[s] = (v == top) & (top >= 0) & (!eligible || eligible[s]);
        winners += chosen[s];
    }
    return winners;
}

/* Pot `pot` (its whole when `halves` is 1, half when 2) split among the `winners` flagged
 * in `chosen`: each adds the run-out's weight to its bucket d = halves x winners, and 1/d
 * to its share of the whole pot. */
static inline void
award(Tally *t, const Layout *at, int pot, int halves, const uint8_t *chosen, int winners,
      double weight, double *seat_share, const int weighted)
{
    int d = halves * winners;
    double share = t->inverse[d];
    for (int s = 0; s < at->seats; s++) {
        count(t, ((Py_ssize_t)s * at->pots + pot) * at->buckets + d, weight, chosen[s],
              weighted);
        seat_share[s] += chosen[s] * share;
    }
}

/* The seats with the run-out's smallest non-zero out_after (docs/rules.md: the first to
 * run out of cards); how many. */
static inline int
first_out(const int64_t *out, Py_ssize_t r, const Layout *at, uint8_t *chosen)
{
    uint64_t earliest = UINT64_MAX;
    for (int s = 0; s < at->seats; s++) {
        uint64_t v = (uint64_t)out[s * at->count + r] - 1; /* never ran out: the largest */
        if (v < earliest)
            earliest = v;
    }
    int winners = 0;
    for (int s = 0; s < at->seats; s++) {
        chosen[s] = (earliest != UINT64_MAX) & ((uint64_t)out[s * at->count + r] - 1 == earliest);
        winners += chosen[s];
    }
    return winners;
}

typedef struct {
    int shape;
    int instant_pot; /* -1: no instant wins */
    int64_t split_at;
    const int64_t *restrict key;
    const int64_t *restrict second;
    const int64_t *restrict out_after;
    const uint8_t *goes_high;
    const uint8_t *goes_low;
} Rule;

/* Resolve run-out r into the tally; each seat's share of the whole pot into `seat_share`
 * (zero on entry). */
static inline void
resolve(const Rule *rule, const Layout *at, Tally *t, Py_ssize_t r, double weight,
        double *seat_share, const int weighted)
{
    uint8_t high[MAX_SEATS], low[MAX_SEATS];
    Py_ssize_t redeal = at->shares + at->seats;
    if (rule->instant_pot >= 0) {
        int first = first_out(rule->out_after, r, at, high);
        if (first) {
            award(t, at, rule->instant_pot, 1, high, first, weight, seat_share, weighted);
            for (int s = 0; s < at->seats; s++)
                count(t, at->shares + s, weight, high[s], weighted);
            return;
        }
    }
    switch (rule->shape) {
    case BEST:
        award(t, at, 0, 1, high, best(rule->key, NULL, r, at, high), weight, seat_share, weighted);
        return;
    case HALVES:
        award(t, at, 0, 2, high, best(rule->key, NULL, r, at, high), weight, seat_share, weighted);
        award(t, at, 1, 2, low, best(rule->second, NULL, r, at, low), weight, seat_share, weighted);
        return;
    case UNIQUE_BEST: {
        int winners = best(rule->key, NULL, r, at, high);
        int64_t top = 0;
        for (int s = 0; s < at->seats; s++)
            if (high[s])
                top = rule->key[s * at->count + r];
        if (winners == 1 || top == rule->split_at)
            award(t, at, 0, 1, high, winners, weight, seat_share, weighted);
        else
            count(t, redeal, weight, 1, weighted);
        return;
    }
    default: { /* DECLARED */
        uint8_t in[MAX_SEATS], high_ok[MAX_SEATS], low_ok[MAX_SEATS];
        memset(in, 1, (size_t)at->seats);
        int highs, lows;
        for (;;) {
            for (int s = 0; s < at->seats; s++) {
                high_ok[s] = in[s] && rule->goes_high[s];
                low_ok[s] = in[s] && rule->goes_low[s];
            }
            highs = best(rule->key, high_ok, r, at, high);
            lows = best(rule->second, low_ok, r, at, low);
            int failing = 0;
            for (int s = 0; s < at->seats; s++)
                if (high_ok[s] && low_ok[s] && !(high[s] && low[s])) {
                    in[s] = 0;
                    failing = 1;
                }
            if (!failing)
                break;
        }
        if (highs && lows) {
            award(t, at, 0, 2, high, highs, weight, seat_share, weighted);
            award(t, at, 1, 2, low, lows, weight, seat_share, weighted);
        } else if (highs || lows) {
            award(t, at, 2, 1, highs ? high : low, highs ? highs : lows, weight, seat_share, weighted);
        } else {
            count(t, redeal, weight, 1, weighted);
        }
    }
    }
}

static inline void
tally(const Rule *shared_rule, const Layout *shared_at, Tally *shared_t, Sums out, Sums squares,
      const int weighted)
{
    /* Local copies: the counts' stores cannot then alias what the loop reads. */
    const Rule local_rule = *shared_rule;
    const Layout local_at = *shared_at;
    Tally local_t = *shared_t;
    const Rule *rule = &local_rule;
    const Layout *at = &local_at;
    Tally *t = &local_t;
    double seat_share[MAX_SEATS];
    double squared[MAX_SEATS] = {0};
    for (int d = 1; d <= 2 * at->seats; d++)
        t->inverse[d] = 1.0 / d;
    for (Py_ssize_t r = 0; r < at->count; r++) {
        double weight = weighted ? t->weights[r] : 1.0;
        for (int s = 0; s < at->seats; s++)
            seat_share[s] = 0.0;
        resolve(rule, at, t, r, weight, seat_share, weighted);
        for (int s = 0; s < at->seats; s++)
            squared[s] += weight * seat_share[s] * seat_share[s];
        if (weighted)
            add(t->sums, at->items - 1, weight);
    }
    if (!weighted)
        t->counts[at->items - 1] = at->count;
    for (Py_ssize_t i = 0; i < at->items; i++) {
        if (weighted) {
            add(out, i, t->sums.sum[i]);
            out.carry[i] += t->sums.carry[i];
        } else if (t->counts[i]) {
            add(out, i, (double)t->counts[i]);
        }
    }
    for (int s = 0; s < at->seats; s++)
        add(squares, s, squared[s]);
}

PyDoc_STRVAR(tally_doc,
"tally(shape, pots, instant_pot, split_at, seats, key, second, out_after, goes_high,\n"
"      goes_low, weights, sums, squares)\n"
"--\n\n"
"Resolve every run-out of a chunk and add it to the running tally in `sums`.\n\n"
"key, second, out_after: int64, seats rows of R run-outs each (second and out_after\n"
"empty when the shape or the game does not read them); goes_high, goes_low: one byte a\n"
"seat (DECLARED only, else empty); weights: float64 per run-out, or empty for 1 each.\n"
"sums: float64, 2 x N (the sums, then their compensations), N = seats x pots x\n"
"(2 x seats + 1) buckets (a seat's pot split d ways at index (seat x pots + pot) x\n"
"(2 x seats + 1) + d), then the instant wins per seat, the redeals, the run-outs' total\n"
"weight. squares: float64, 2 x seats: each seat's share of the whole pot squared,\n"
"weighted, summed (then the compensations). Adds, never overwrites.");

static PyObject *
tally_entry(PyObject *module, PyObject *args)
{
    Py_buffer v[8] = {{0}};
    int shape, pots, instant_pot, seats;
    long long split_at;
    if (!PyArg_ParseTuple(args, "iiiLiy*y*y*y*y*y*w*w*", &shape, &pots, &instant_pot,
                          &split_at, &seats, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
                          &v[7]))
        goto fail;
    if (shape < 0 || shape >= SHAPES || seats < 1 || seats > MAX_SEATS || pots < 1 ||
        pots > MAX_POTS || instant_pot >= pots || instant_pot < -1 ||
        (shape == HALVES && pots < 2) || (shape == DECLARED && pots < 3)) {
        PyErr_Format(PyExc_ValueError,
                     "shape %d, %d pots, instant pot %d, %d seats: need a shape below %d, "
                     "1-%d seats and the pots the shape awards",
                     shape, pots, instant_pot, seats, SHAPES, MAX_SEATS);
        goto fail;
    }
    Layout at = {seats, pots, 2 * seats + 1, 0, 0, 0};
    at.count = v[0].len / 8 / seats;
    at.shares = (Py_ssize_t)seats * pots * at.buckets;
    at.items = at.shares + seats + 2;
    int seconds = shape == HALVES || shape == DECLARED;
    int declared = shape == DECLARED;
    if (expect_items(&v[0], seats * at.count, 8, "key") ||
        expect_items(&v[1], seconds ? seats * at.count : 0, 8, "second") ||
        expect_items(&v[2], instant_pot >= 0 ? seats * at.count : 0, 8, "out_after") ||
        expect_items(&v[3], declared ? seats : 0, 1, "goes_high") ||
        expect_items(&v[4], declared ? seats : 0, 1, "goes_low") ||
        (v[5].len && expect_items(&v[5], at.count, 8, "weights")) ||
        expect_items(&v[6], 2 * at.items, 8, "sums") ||
        expect_items(&v[7], 2 * seats, 8, "squares"))
        goto fail;
    Rule rule = {shape, instant_pot, split_at, v[0].buf, v[1].buf, v[2].buf, v[3].buf, v[4].buf};
    Tally t = {.weights = v[5].len ? v[5].buf : NULL};
    /* The chunk's own counts or sums, zeroed: counts, then sums and carries. */
    void *own = PyMem_RawCalloc((size_t)at.items, 3 * sizeof(double));
    if (!own) {
        PyErr_NoMemory();
        goto fail;
    }
    t.counts = own;
    t.sums = (Sums){(double *)own + at.items, (double *)own + 2 * at.items};
    Sums out = {v[6].buf, (double *)v[6].buf + at.items};
    Sums squares = {v[7].buf, (double *)v[7].buf + seats};
    Py_BEGIN_ALLOW_THREADS
    if (t.weights)
        tally(&rule, &at, &t, out, squares, 1);
    else
        tally(&rule, &at, &t, out, squares, 0);
    Py_END_ALLOW_THREADS
    PyMem_RawFree(own);
    release_all(v, 8);
    Py_RETURN_NONE;
fail:
    release_all(v, 8);
    return NULL;
}

/* A matrix of card ids read in place: card k of run-out r at r * run + k * card (a run
 * stride of 0 repeats one row, as a fully known hand or table). */
typedef struct {
    const uint8_t *cards;
    Py_ssize_t run;
    Py_ssize_t card;
    Py_ssize_t width;
} Cards;

/* 0 when `view` holds every card of `count` run-outs of `m`; else -1, ValueError set. */
static int
check_cards(const Py_buffer *view, Cards *m, Py_ssize_t count, const char *name)
{
    m->cards = view->buf;
    if (m->width < 0 || m->width > DECK || m->run < 0 || m->card < 0 ||
        (count && m->width &&
         (count - 1) * m->run + (m->width - 1) * m->card >= view->len)) {
        PyErr_Format(PyExc_ValueError,
                     "%s: %zd cards a run-out at strides (%zd, %zd) overrun its %zd bytes",
                     name, m->width, m->run, m->card, view->len);
        return -1;
    }
    return 0;
}

#define ALL_RANKS 0x1FFF

/* The discard rule over one seat's run-outs (as discard.odds_figures): the packed values
 * of its cards whose rank the table never shows, and out_after, 1 + the turns after which
 * a rank of the hand is still unshown when every one shows by the last turn, else 0. */
static void
discard_seat(const uint16_t *values, Cards hand, Cards table, Py_ssize_t count,
             uint16_t *restrict kept, int64_t *restrict out_after)
{
    for (Py_ssize_t r = 0; r < count; r++) {
        const uint8_t *turned = table.cards + r * table.run;
        const uint8_t *held = hand.cards + r * hand.run;
        uint16_t waiting = 0;
        for (Py_ssize_t k = 0; k < hand.width; k++)
            waiting |= (uint16_t)(1u << (held[k * hand.card] >> 2));
        uint16_t shown = 0;
        int64_t turns = 1;
        for (Py_ssize_t k = 0; k < table.width; k++) {
            shown |= (uint16_t)(1u << (turned[k * table.card] >> 2));
            turns += (waiting & ~shown) != 0;
        }
        uint16_t total = 0;
        for (Py_ssize_t k = 0; k < hand.width; k++) {
            uint8_t card = held[k * hand.card];
            total += values[card] * !(shown >> (card >> 2) & 1);
        }
        kept[r] = total;
        out_after[r] = table.width && !(waiting & ~shown & ALL_RANKS) ? turns : 0;
    }
}

PyDoc_STRVAR(discard_doc,
"discard_seat(values, hand, hand_strides, table, table_strides, count, kept, out_after)\n"
"--\n\n"
"One seat's discard-game figures over `count` run-outs: values, uint16 per card id\n"
"(256); hand and table, uint8 card ids read at (run stride, card stride, cards) each\n"
"(a run stride of 0 repeats one row); kept (uint16) and out_after (int64), one per run-out.");

static PyObject *
discard_entry(PyObject *module, PyObject *args)
{
    Py_buffer v[5] = {{0}};
    Cards hand, table;
    Py_ssize_t count;
    if (!PyArg_ParseTuple(args, "y*y*(nnn)y*(nnn)nw*w*", &v[0], &v[1], &hand.run, &hand.card,
                          &hand.width, &v[2], &table.run, &table.card, &table.width, &count,
                          &v[3], &v[4]))
        goto fail;
    if (count < 0 || expect_items(&v[0], 256, 2, "values") ||
        check_cards(&v[1], &hand, count, "hand") || check_cards(&v[2], &table, count, "table") ||
        expect_items(&v[3], count, 2, "kept") || expect_items(&v[4], count, 8, "out_after"))
        goto fail;
    Py_BEGIN_ALLOW_THREADS
    discard_seat(v[0].buf, hand, table, count, v[3].buf, v[4].buf);
    Py_END_ALLOW_THREADS
    release_all(v, 5);
    Py_RETURN_NONE;
fail:
    release_all(v, 5);
    return NULL;
}

static PyMethodDef methods[] = {
    {"tally", tally_entry, METH_VARARGS, tally_doc},
    {"discard_seat", discard_entry, METH_VARARGS, discard_doc},
    {NULL, NULL, 0, NULL},
};

/* The shapes' numbers, so Python names them from here rather than restating them. */
static int
exec_module(PyObject *m)
{
    if (PyModule_AddIntConstant(m, "BEST", BEST) || PyModule_AddIntConstant(m, "HALVES", HALVES) ||
        PyModule_AddIntConstant(m, "UNIQUE_BEST", UNIQUE_BEST) ||
        PyModule_AddIntConstant(m, "DECLARED", DECLARED) ||
        PyModule_AddIntConstant(m, "MAX_SEATS", MAX_SEATS))
        return -1;
    return 0;
}

static PyModuleDef_Slot slots[] = {
    {Py_mod_exec, exec_module},
    {0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "evaluators.kernels._odds",
    .m_doc = "Odds' pot rules and tally: a chunk of run-outs resolved and counted.",
    .m_size = 0,
    .m_methods = methods,
    .m_slots = slots,
};

PyMODINIT_FUNC
PyInit__odds(void)
{
    return PyModuleDef_Init(&module);
}
