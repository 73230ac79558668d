/* The pot shapes and the tally: each run-out resolved by its shape (resolve), a chunk
 * tallied one run-out at a time (tally_runs) or a block at a time (block_tally), added to
 * the running tally (fold), and the `tally` call over figures already scored. */
#include "odds.h"

/* The run-out's weight added at i, `times` (0 or 1) times: without a branch, as which
 * seats win is a coin toss a branch predictor cannot learn. */
INLINE void
count(Tally *t, Py_ssize_t i, double weight, int times, const int weighted)
{
    if (weighted)
        add(t->sums, i, weight * times);
    else
        t->counts[i] += times;
}

/* The seats with the largest `key` of run-out r among the `eligible` ones (all when NULL),
 * flagged in `chosen`; how many. */
INLINE int
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
INLINE void
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
INLINE int
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

/* Resolve run-out r into the tally; each seat's share of the whole pot into `seat_share`
 * (zero on entry). */
INLINE void
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

/* Run-outs 0..count-1 of the figures in `rule` (rows at->count apart) added to the tally
 * and to each seat's squared shares. */
static inline void
tally_runs(const Rule *shared_rule, const Layout *shared_at, Tally *shared_t, double *squared,
           Py_ssize_t count, const int weighted)
{
    /* Local copies: the counts' stores cannot then alias what the loop reads. */
    const Rule local_rule = *shared_rule;
    const Layout local_at = *shared_at;
    Tally local_t = *shared_t;
    const Rule *rule = &local_rule;
    const Layout *at = &local_at;
    Tally *t = &local_t;
    double seat_share[MAX_SEATS];
    double lanes[LANES][MAX_SEATS] = {{0}};
    int64_t *counts = t->counts;
    for (Py_ssize_t r = 0; r < count; r++) {
        double weight = weighted ? t->weights[r] : 1.0;
        t->counts = counts + (r % LANES) * at->items;
        for (int s = 0; s < at->seats; s++)
            seat_share[s] = 0.0;
        resolve(rule, at, t, r, weight, seat_share, weighted);
        for (int s = 0; s < at->seats; s++)
            lanes[r % LANES][s] += weight * seat_share[s] * seat_share[s];
        if (weighted)
            add(t->sums, at->items - 1, weight);
    }
    if (!weighted)
        counts[at->items - 1] += count;
    for (int lane = 0; lane < LANES; lane++)
        for (int s = 0; s < at->seats; s++)
            squared[s] += lanes[lane][s];
}

/* The chunk's own tally added to the running one in `out` and `squares`. */
void
odds_fold(const Layout *at, const Tally *t, const double *squared, Sums out, Sums squares,
          int weighted)
{
    for (Py_ssize_t i = 0; i < at->items; i++) {
        if (weighted) {
            add(out, i, t->sums.sum[i]);
            out.carry[i] += t->sums.carry[i];
        } else {
            int64_t total = 0;
            for (int lane = 0; lane < LANES; lane++)
                total += t->counts[lane * at->items + i];
            if (total)
                add(out, i, (double)total);
        }
    }
    for (int s = 0; s < at->seats; s++)
        add(squares, s, squared[s]);
}

void
odds_set_inverses(Tally *t, int seats)
{
    for (int d = 1; d <= 2 * seats; d++)
        t->inverse[d] = 1.0 / d;
}

int
odds_blocks_start(Blocks *b, int seats)
{
    memset(b, 0, sizeof *b);
    b->share = PyMem_RawMalloc(sizeof(double) * seats * BLOCK);
    return b->share ? 0 : -1;
}

/* The blocks' redeals, run-outs and squared shares into the chunk's tally. */
void
odds_blocks_end(Blocks *b, const Layout *at, Tally *t, double *squared)
{
    t->counts[at->shares + at->seats] += b->redeals;
    t->counts[at->items - 1] += b->runs;
    for (int lane = 0; lane < LANES; lane++)
        for (int s = 0; s < at->seats; s++)
            squared[s] += b->lanes[lane][s];
    PyMem_RawFree(b->share);
}

/* tally_runs for counted run-outs of the shapes without declarations (BEST, HALVES,
 * UNIQUE_BEST), for one block of n <= BLOCK run-outs whose figures start at `key`,
 * `second` and `out_after` (rows `stride` apart; out_after NULL without instant wins),
 * a seat at a time: the top figure and how many share it per run-out, then per seat its
 * wins alone summed in a register and its rarer shared wins counted by bucket. Straight
 * loops over contiguous rows, without the per-run-out branches and seat loops of the
 * general one; the run-outs an instant win decides are set aside first and resolved one
 * at a time, as the general one resolves them. */
INLINE void
block_tally(const Rule *rule, const int64_t *first_key, const int64_t *first_second,
            const int64_t *first_outs, Py_ssize_t stride, int n, const Layout *at, Tally *t,
            Blocks *b)
{
    const int seats = at->seats;
    const int halves = rule->shape == HALVES ? 2 : 1;
    int64_t top[BLOCK];
    uint8_t ties[BLOCK], alone[BLOCK], open[BLOCK];
    int tied[BLOCK], decided[BLOCK];
    double *share = b->share;
    memset(share, 0, sizeof(double) * seats * BLOCK);
    int instants = 0;
    if (first_outs) {
        uint64_t earliest[BLOCK];
        for (int i = 0; i < n; i++)
            earliest[i] = (uint64_t)first_outs[i] - 1;
        for (int s = 1; s < seats; s++) {
            const int64_t *row = first_outs + s * stride;
            for (int i = 0; i < n; i++) {
                uint64_t v = (uint64_t)row[i] - 1;
                earliest[i] = v < earliest[i] ? v : earliest[i];
            }
        }
        for (int i = 0; i < n; i++) {
            open[i] = earliest[i] == UINT64_MAX;
            decided[instants] = i;
            instants += !open[i];
        }
        Layout block_at = *at;
        block_at.count = stride;
        for (int j = 0; j < instants; j++) {
            int i = decided[j];
            uint8_t chosen[MAX_SEATS];
            double seat_share[MAX_SEATS] = {0};
            int first = first_out(first_outs, i, &block_at, chosen);
            award(t, at, rule->instant_pot, 1, chosen, first, 1.0, seat_share, 0);
            for (int s2 = 0; s2 < seats; s2++) {
                t->counts[at->shares + s2] += chosen[s2];
                share[s2 * BLOCK + i] = seat_share[s2];
            }
        }
    } else {
        memset(open, 1, sizeof open);
    }
    for (int pot = 0; pot < halves; pot++) {
        const int64_t *key = pot ? first_second : first_key;
        for (int i = 0; i < n; i++)
            top[i] = key[i];
        for (int s = 1; s < seats; s++) {
            const int64_t *row = key + s * stride;
            for (int i = 0; i < n; i++)
                top[i] = row[i] > top[i] ? row[i] : top[i];
        }
        memset(ties, 0, sizeof ties);
        for (int s = 0; s < seats; s++) {
            const int64_t *row = key + s * stride;
            for (int i = 0; i < n; i++)
                ties[i] += row[i] == top[i];
        }
        int shared = 0;
        for (int i = 0; i < n; i++) {
            int split = rule->shape != UNIQUE_BEST || top[i] == rule->split_at;
            b->redeals += ties[i] > 1 && !split && open[i];
            tied[shared] = i;
            shared += ties[i] > 1 && split && open[i];
            alone[i] = (ties[i] == 1) & open[i];
        }
        const double whole = t->inverse[halves];
        for (int s = 0; s < seats; s++) {
            const int64_t *row = key + s * stride;
            int64_t *bucket = t->counts + ((Py_ssize_t)s * at->pots + pot) * at->buckets;
            double *seat = share + s * BLOCK;
            int64_t wins = 0;
            for (int i = 0; i < n; i++) {
                int won = (row[i] == top[i]) & alone[i];
                wins += won;
                seat[i] += won * whole;
            }
            bucket[halves] += wins;
            for (int j = 0; j < shared; j++) {
                int i = tied[j];
                int won = row[i] == top[i];
                int d = halves * ties[i];
                bucket[(j % LANES) * at->items + d] += won;
                seat[i] += won * t->inverse[d];
            }
        }
    }
    for (int s = 0; s < seats; s++) {
        const double *seat = share + s * BLOCK;
        for (int i = 0; i < n; i++)
            b->lanes[i % LANES][s] += seat[i] * seat[i];
    }
    b->runs += n;
}

/* tally_runs and block_tally for the other files' chunks: each compiled here, once per
 * weighting, with its steps inlined. */
void
odds_tally_runs(const Rule *rule, const Layout *at, Tally *t, double *squared, Py_ssize_t count,
                int weighted)
{
    if (weighted)
        tally_runs(rule, at, t, squared, count, 1);
    else
        tally_runs(rule, at, t, squared, count, 0);
}

void
odds_block_tally(const Rule *rule, const int64_t *first_key, const int64_t *first_second,
                 const int64_t *first_outs, Py_ssize_t stride, int n, const Layout *at,
                 Tally *t, Blocks *b)
{
    block_tally(rule, first_key, first_second, first_outs, stride, n, at, t, b);
}

/* block_tally over a whole chunk's figures (rows at->count apart). */
static int
tally_blocks(const Rule *rule, const Layout *at, Tally *t, double *squared)
{
    Blocks b;
    if (odds_blocks_start(&b, at->seats))
        return -1;
    for (Py_ssize_t first = 0; first < at->count; first += BLOCK) {
        int n = at->count - first < BLOCK ? (int)(at->count - first) : BLOCK;
        block_tally(rule, rule->key + first, rule->shape == HALVES ? rule->second + first : NULL,
                    rule->instant_pot >= 0 ? rule->out_after + first : NULL, at->count, n, at,
                    t, &b);
    }
    odds_blocks_end(&b, at, t, squared);
    return 0;
}

static int
tally(const Rule *rule, const Layout *at, Tally *t, Sums out, Sums squares)
{
    double squared[MAX_SEATS] = {0};
    odds_set_inverses(t, at->seats);
    if (t->weights)
        tally_runs(rule, at, t, squared, at->count, 1);
    else if (at->seats <= CODED_SEATS) {
        int64_t *outcomes = PyMem_RawCalloc((size_t)4 << 2 * at->seats, sizeof(int64_t));
        if (!outcomes)
            return -1;
        odds_coded_runs(rule, rule->key, rule->second,
                        rule->instant_pot >= 0 ? rule->out_after : NULL, at->count, at->count,
                        at->seats, outcomes);
        odds_coded_end(rule, at, t, outcomes, squared);
        t->counts[at->items - 1] += at->count;
        PyMem_RawFree(outcomes);
    } else if (rule->shape != DECLARED) {
        if (tally_blocks(rule, at, t, squared))
            return -1;
    } else
        tally_runs(rule, at, t, squared, at->count, 0);
    odds_fold(at, t, squared, out, squares, t->weights != NULL);
    return 0;
}

/* The tally's layout for `seats` seats and `pots` pots over `count` run-outs. */
Layout
odds_layout_of(int seats, int pots, Py_ssize_t count)
{
    Layout at = {seats, pots, 2 * seats + 1, count, 0, 0};
    at.shares = (Py_ssize_t)seats * pots * at.buckets;
    at.items = at.shares + seats + 2;
    return at;
}

/* A chunk call's tally: its weights (empty: every run-out counts once), the call's running
 * sums and squares checked against the layout, and the chunk's own zeroed counts and sums,
 * freed with PyMem_RawFree(t->counts). -1 with a Python error when a buffer does not fit. */
int
odds_open_tally(const Layout *at, const Py_buffer *weights, const Py_buffer *sums,
                const Py_buffer *squares, Tally *t, Sums *out, Sums *added_squares)
{
    if ((weights->len && expect_items(weights, at->count, 8, "weights")) ||
        expect_items(sums, 2 * at->items, 8, "sums") ||
        expect_items(squares, 2 * at->seats, 8, "squares"))
        return -1;
    void *own = PyMem_RawCalloc((size_t)at->items, (LANES + 2) * sizeof(double));
    if (!own) {
        PyErr_NoMemory();
        return -1;
    }
    *t = (Tally){.weights = weights->len ? weights->buf : NULL, .counts = own};
    t->sums = (Sums){(double *)own + LANES * at->items, (double *)own + (LANES + 1) * at->items};
    *out = (Sums){sums->buf, (double *)sums->buf + at->items};
    *added_squares = (Sums){squares->buf, (double *)squares->buf + at->seats};
    return 0;
}

PyObject *
odds_tally_entry(PyObject *module, PyObject *args)
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
    Layout at = odds_layout_of(seats, pots, v[0].len / 8 / seats);
    int seconds = shape == HALVES || shape == DECLARED;
    int declared = shape == DECLARED;
    if (expect_items(&v[0], seats * at.count, 8, "key") ||
        expect_items(&v[1], seconds ? seats * at.count : 0, 8, "second") ||
        expect_items(&v[2], instant_pot >= 0 ? seats * at.count : 0, 8, "out_after") ||
        expect_items(&v[3], declared ? seats : 0, 1, "goes_high") ||
        expect_items(&v[4], declared ? seats : 0, 1, "goes_low"))
        goto fail;
    Rule rule = {shape, instant_pot, split_at, v[0].buf, v[1].buf, v[2].buf, v[3].buf, v[4].buf};
    Tally t;
    Sums out, squares;
    if (odds_open_tally(&at, &v[5], &v[6], &v[7], &t, &out, &squares))
        goto fail;
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = tally(&rule, &at, &t, out, squares);
    Py_END_ALLOW_THREADS
    PyMem_RawFree(t.counts);
    if (failed) {
        PyErr_NoMemory();
        goto fail;
    }
    release_all(v, 8);
    Py_RETURN_NONE;
fail:
    release_all(v, 8);
    return NULL;
}
