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
 * A chunk counts in int64 (every weight 1) or sums its weights Neumaier-compensated
 * (the exact enumeration's probabilities: within an ulp or so of the true sum); either is
 * added once to the running tally, float64 sums with their compensations, whole numbers
 * exact below 2^53. The seats' squared shares (for the standard error) are plain sums.
 * Counted run-outs of up to CODED_SEATS seats are tallied by outcome (coded_runs: the
 * winners as seat bit masks, each outcome's run-outs counted, its awards added once times
 * its count); past that a block at a time (block_tally), or one at a time (resolve).
 *
 * The discard games' chunks come here as cards (discard_tally): each seat's figures by
 * the discard rule, a block of run-outs at a time, then the same pot rule and tally; the
 * poker family's likewise (scored_tally: Poker high, Grocery Store Dots, High Card), their
 * figures by the batch kernels' own arithmetic (_poker_tables.h, _checks.h). A chunk's
 * cards are read a position at a time over a block. A sampled chunk is dealt in the
 * same call (discard_sampled, scored_sampled: _deal.h's deal, a block at a time into a
 * tile the block is then scored from), so its cards are never written out.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_buffers.h"
#include "_checks.h"
#include "_deal.h"
#include "_poker_tables.h"

#define MAX_SEATS 52
#define MAX_POTS 3

#define INLINE static inline __attribute__((always_inline))
/* The per-run-out steps, inlined into each loop so that the loop's copies of the rule and
 * the layout stay in registers (a call would let the counts' stores alias them). */

#define LANES 4
/* Counts kept in this many copies, run-out r adding to copy r % LANES: one bucket (a seat
 * winning alone) takes most run-outs' adds, and each add would otherwise wait for the one
 * before it to be stored. */

#define BLOCK 256
/* Run-outs taken a step at a time across every seat (a block's rows stay in the core's
 * first-level cache), and whose figures the discard rule makes at once. */

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
static void
fold(const Layout *at, const Tally *t, const double *squared, Sums out, Sums squares,
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

static void
set_inverses(Tally *t, int seats)
{
    for (int d = 1; d <= 2 * seats; d++)
        t->inverse[d] = 1.0 / d;
}

/* What a run of counted blocks (block_tally) carries from one block to the next. */
typedef struct {
    double *share; /* seats x BLOCK: each seat's share of the whole pot in the block */
    double lanes[LANES][MAX_SEATS];
    int64_t redeals;
    Py_ssize_t runs;
} Blocks;

static int
blocks_start(Blocks *b, int seats)
{
    memset(b, 0, sizeof *b);
    b->share = PyMem_RawMalloc(sizeof(double) * seats * BLOCK);
    return b->share ? 0 : -1;
}

/* The blocks' redeals, run-outs and squared shares into the chunk's tally. */
static void
blocks_end(Blocks *b, const Layout *at, Tally *t, double *squared)
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

#define CODED_SEATS 5
/* Up to this many seats, counted run-outs are tallied by outcome (coded_runs). */

enum { BOTH_HALVES = 0, WHOLE = 1, REDEAL = 2, INSTANT = 3 };
/* An outcome's kind, bits 2S and up of its code: both halves awarded (the high half's
 * winners in bits 0..S-1, the second's in bits S..2S-1: HALVES, DECLARED); one pot whole
 * to the seats in bits 0..S-1 (pot 0: BEST, UNIQUE_BEST; pot 2 when DECLARED has one half
 * unclaimed); a redeal; an instant win (the first out, in bits 0..S-1, take the instant
 * pot whole). */

/* The seats with run-out i's largest figure (rows `stride` apart) as a bit mask; the
 * figure in `top`. */
INLINE uint32_t
winners_of(const int64_t *key, Py_ssize_t stride, Py_ssize_t i, int seats, int64_t *top)
{
    int64_t best = key[i];
    for (int s = 1; s < seats; s++)
        best = key[s * stride + i] > best ? key[s * stride + i] : best;
    uint32_t winners = 0;
    for (int s = 0; s < seats; s++)
        winners |= (uint32_t)(key[s * stride + i] == best) << s;
    *top = best;
    return winners;
}

/* The outcome of counted DECLARED run-out i (figures rows `stride` apart), as resolve
 * decides it, with the seats as bit masks: the seats going both ways that do not win both
 * halves (ties count) removed at once, and the halves decided again. */
INLINE uint32_t
declared_code(const int64_t *key, const int64_t *second, Py_ssize_t stride, Py_ssize_t i,
              int seats, uint32_t goes_high, uint32_t goes_low)
{
    uint32_t in = (1u << seats) - 1, high, low;
    for (;;) {
        uint32_t high_ok = in & goes_high, low_ok = in & goes_low;
        int64_t top_high = -1, top_low = -1;
        for (int s = 0; s < seats; s++) {
            int64_t k = key[s * stride + i], v = second[s * stride + i];
            top_high = (high_ok >> s & 1) && k > top_high ? k : top_high;
            top_low = (low_ok >> s & 1) && v > top_low ? v : top_low;
        }
        high = low = 0;
        for (int s = 0; s < seats; s++) {
            high |= (uint32_t)(key[s * stride + i] == top_high) << s;
            low |= (uint32_t)(second[s * stride + i] == top_low) << s;
        }
        high &= high_ok;
        low &= low_ok;
        uint32_t failing = high_ok & low_ok & ~(high & low);
        if (!failing)
            break;
        in &= ~failing;
    }
    if (high && low)
        return high | low << seats | (uint32_t)BOTH_HALVES << 2 * seats;
    if (high || low)
        return (high | low) | (uint32_t)WHOLE << 2 * seats;
    return (uint32_t)REDEAL << 2 * seats;
}

/* Counted run-outs 0..n-1 of one shape (figures rows `stride` apart, out_after NULL
 * without instant wins), each outcome's run-outs counted in `outcomes` (4 << 2 x seats
 * codes): a few bit operations a run-out where resolve keeps per-seat flags and counts
 * every seat's buckets; coded_end then adds each outcome's awards once, times its count. */
INLINE void
coded_shape(const Rule *rule, const int shape, const int64_t *key, const int64_t *second,
            const int64_t *out_after, Py_ssize_t stride, Py_ssize_t n, int seats,
            int64_t *restrict outcomes)
{
    uint32_t goes_high = 0, goes_low = 0;
    if (shape == DECLARED)
        for (int s = 0; s < seats; s++) {
            goes_high |= (uint32_t)(rule->goes_high[s] != 0) << s;
            goes_low |= (uint32_t)(rule->goes_low[s] != 0) << s;
        }
    const uint32_t whole = (uint32_t)WHOLE << 2 * seats;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (out_after) {
            uint64_t earliest = UINT64_MAX;
            for (int s = 0; s < seats; s++) {
                uint64_t v = (uint64_t)out_after[s * stride + i] - 1;
                earliest = v < earliest ? v : earliest;
            }
            if (earliest != UINT64_MAX) {
                uint32_t first = 0;
                for (int s = 0; s < seats; s++)
                    first |= (uint32_t)((uint64_t)out_after[s * stride + i] - 1 == earliest) << s;
                outcomes[first | (uint32_t)INSTANT << 2 * seats]++;
                continue;
            }
        }
        int64_t top;
        uint32_t code;
        switch (shape) {
        case BEST:
            code = winners_of(key, stride, i, seats, &top) | whole;
            break;
        case HALVES:
            code = winners_of(key, stride, i, seats, &top) |
                   winners_of(second, stride, i, seats, &top) << seats;
            break;
        case UNIQUE_BEST: {
            uint32_t winners = winners_of(key, stride, i, seats, &top);
            code = (winners & (winners - 1)) && top != rule->split_at
                       ? (uint32_t)REDEAL << 2 * seats
                       : winners | whole;
            break;
        }
        default:
            code = declared_code(key, second, stride, i, seats, goes_high, goes_low);
        }
        outcomes[code]++;
    }
}

static void
coded_runs(const Rule *rule, const int64_t *key, const int64_t *second,
           const int64_t *out_after, Py_ssize_t stride, Py_ssize_t n, int seats,
           int64_t *restrict outcomes)
{
    switch (rule->shape) {
    case BEST: coded_shape(rule, BEST, key, second, out_after, stride, n, seats, outcomes); break;
    case HALVES: coded_shape(rule, HALVES, key, second, out_after, stride, n, seats, outcomes); break;
    case UNIQUE_BEST: coded_shape(rule, UNIQUE_BEST, key, second, out_after, stride, n, seats, outcomes); break;
    default: coded_shape(rule, DECLARED, key, second, out_after, stride, n, seats, outcomes);
    }
}

/* `times` run-outs' award of pot `pot` (whole when `halves` is 1, half when 2) split among
 * the seats of `winners`, and each one's share of the whole pot into `share`. */
static void
award_times(Tally *t, const Layout *at, int pot, int halves, uint32_t winners, int64_t times,
            double *share)
{
    int d = halves * __builtin_popcount(winners);
    for (int s = 0; s < at->seats; s++)
        if (winners >> s & 1) {
            t->counts[((Py_ssize_t)s * at->pots + pot) * at->buckets + d] += times;
            share[s] += t->inverse[d];
        }
}

/* The outcomes coded_runs counted, into the chunk's tally and squared shares: what
 * resolve adds for one run-out of each, times its count. */
static void
coded_end(const Rule *rule, const Layout *at, Tally *t, const int64_t *outcomes,
          double *squared)
{
    const int seats = at->seats;
    const uint32_t mask = (1u << seats) - 1;
    for (uint32_t code = 0; code < 4u << 2 * seats; code++) {
        int64_t times = outcomes[code];
        if (!times)
            continue;
        uint32_t first = code & mask, second = code >> seats & mask;
        double share[MAX_SEATS] = {0};
        switch (code >> 2 * seats) {
        case BOTH_HALVES:
            award_times(t, at, 0, 2, first, times, share);
            award_times(t, at, 1, 2, second, times, share);
            break;
        case WHOLE:
            award_times(t, at, rule->shape == DECLARED ? 2 : 0, 1, first, times, share);
            break;
        case REDEAL:
            t->counts[at->shares + seats] += times;
            break;
        default: /* INSTANT */
            award_times(t, at, rule->instant_pot, 1, first, times, share);
            for (int s = 0; s < seats; s++)
                t->counts[at->shares + s] += (first >> s & 1) * times;
        }
        for (int s = 0; s < seats; s++)
            squared[s] += (double)times * (share[s] * share[s]);
    }
}

/* block_tally over a whole chunk's figures (rows at->count apart). */
static int
tally_blocks(const Rule *rule, const Layout *at, Tally *t, double *squared)
{
    Blocks b;
    if (blocks_start(&b, at->seats))
        return -1;
    for (Py_ssize_t first = 0; first < at->count; first += BLOCK) {
        int n = at->count - first < BLOCK ? (int)(at->count - first) : BLOCK;
        block_tally(rule, rule->key + first, rule->shape == HALVES ? rule->second + first : NULL,
                    rule->instant_pot >= 0 ? rule->out_after + first : NULL, at->count, n, at,
                    t, &b);
    }
    blocks_end(&b, at, t, squared);
    return 0;
}

static int
tally(const Rule *rule, const Layout *at, Tally *t, Sums out, Sums squares)
{
    double squared[MAX_SEATS] = {0};
    set_inverses(t, at->seats);
    if (t->weights)
        tally_runs(rule, at, t, squared, at->count, 1);
    else if (at->seats <= CODED_SEATS) {
        int64_t *outcomes = PyMem_RawCalloc((size_t)4 << 2 * at->seats, sizeof(int64_t));
        if (!outcomes)
            return -1;
        coded_runs(rule, rule->key, rule->second, rule->instant_pot >= 0 ? rule->out_after : NULL,
                   at->count, at->count, at->seats, outcomes);
        coded_end(rule, at, t, outcomes, squared);
        t->counts[at->items - 1] += at->count;
        PyMem_RawFree(outcomes);
    } else if (rule->shape != DECLARED) {
        if (tally_blocks(rule, at, t, squared))
            return -1;
    } else
        tally_runs(rule, at, t, squared, at->count, 0);
    fold(at, t, squared, out, squares, t->weights != NULL);
    return 0;
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

/* The tally's layout for `seats` seats and `pots` pots over `count` run-outs. */
static Layout
layout_of(int seats, int pots, Py_ssize_t count)
{
    Layout at = {seats, pots, 2 * seats + 1, count, 0, 0};
    at.shares = (Py_ssize_t)seats * pots * at.buckets;
    at.items = at.shares + seats + 2;
    return at;
}

/* A chunk call's tally: its weights (empty: every run-out counts once), the call's running
 * sums and squares checked against the layout, and the chunk's own zeroed counts and sums,
 * freed with PyMem_RawFree(t->counts). -1 with a Python error when a buffer does not fit. */
static int
open_tally(const Layout *at, const Py_buffer *weights, const Py_buffer *sums,
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
    Layout at = layout_of(seats, pots, v[0].len / 8 / seats);
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
    if (open_tally(&at, &v[5], &v[6], &v[7], &t, &out, &squares))
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

/* A sampled chunk's cards, dealt a block at a time (_deal.h) into a tile of rows BLOCK
 * apart that holds each seat's hand, its known cards then its dealt ones, then the
 * table's: the cards are never written out, and the block's stay in the first-level
 * cache while they are scored. */
typedef struct {
    Dealer dealer;
    uint8_t *tile;     /* rows x BLOCK, freed with PyMem_RawFree */
    uint8_t *to[DECK]; /* the tile row of each dealt position */
} Sampled;

#define DEALT 0x80 /* a layout byte 0x80 | p: the row of dealt position p */

/* The sampled deal `deal` = (unseen, in_turn, table_ranks, seed, widths, layout) opened
 * for `seats` hands (`widths`: one byte a seat, its cards; `layout`: a byte a tile row,
 * a known card id or DEALT | position, the seats' rows then the table's): the hands and
 * the table as Cards in the tile. -1 with ValueError (or MemoryError) when it does not fit. */
static int
open_sampled(PyObject *deal, int seats, Sampled *out, Cards *hands, Cards *table)
{
    Py_buffer v[3] = {{0}};
    Py_ssize_t in_turn;
    unsigned int table_ranks;
    unsigned long long seed;
    int failed = -1;
    out->tile = NULL;
    if (!PyArg_ParseTuple(deal, "y*nIKy*y*;deal: (unseen, in_turn, table_ranks, seed, widths, layout)",
                          &v[0], &in_turn, &table_ranks, &seed, &v[1], &v[2]))
        goto done;
    const uint8_t *widths = v[1].buf, *layout = v[2].buf;
    Py_ssize_t rows = v[2].len, held = 0, width = 0;
    if (expect_items(&v[1], seats, 1, "widths"))
        goto done;
    for (int s = 0; s < seats; s++)
        held += widths[s];
    uint64_t positions = 0;
    int bad = 0;
    for (Py_ssize_t row = 0; row < rows; row++) {
        uint8_t cell = layout[row];
        bad |= cell & DEALT ? (cell & ~DEALT) >= DECK : cell >= DECK;
        if (cell & DEALT) {
            width++;
            positions |= 1ull << ((cell & ~DEALT) & 63);
        }
    }
    if (bad || rows > 2 * DECK || held > rows || rows - held > DECK || width > DECK ||
        positions != (1ull << width) - 1) {
        PyErr_Format(PyExc_ValueError,
                     "layout: %zd rows for hands of %zd cards; need card ids 0-%d and each "
                     "dealt position 0x80 | p once, p below the dealt cards",
                     rows, held, DECK - 1);
        goto done;
    }
    if (dealer_open(&out->dealer, &v[0], in_turn, width, table_ranks, seed))
        goto done;
    out->tile = PyMem_RawMalloc((size_t)(rows ? rows : 1) * BLOCK);
    if (!out->tile) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t row = 0; row < rows; row++) {
        uint8_t *at = out->tile + row * BLOCK;
        if (layout[row] & DEALT)
            out->to[layout[row] & ~DEALT] = at;
        else
            memset(at, layout[row], BLOCK);
    }
    Py_ssize_t row = 0;
    for (int s = 0; s < seats; s++) {
        hands[s] = (Cards){out->tile + row * BLOCK, 1, BLOCK, widths[s]};
        row += widths[s];
    }
    *table = (Cards){out->tile + row * BLOCK, 1, BLOCK, rows - row};
    failed = 0;
done:
    release_all(v, 3);
    return failed;
}

/* The cards of the block of `n` run-outs from `first`: dealt into the tile (the offset
 * into the cards is then 0), or read in place (`first`). -1 when a table card had no
 * candidate. */
static int
block_from(Sampled *sampled, Py_ssize_t first, int n, Py_ssize_t *offset)
{
    *offset = first;
    if (!sampled)
        return 0;
    *offset = 0;
    return deal_block(&sampled->dealer, sampled->to, n);
}

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

PyDoc_STRVAR(discard_doc,
"discard_seat(values, hand, hand_strides, table, table_strides, count, kept, out_after)\n"
"--\n\n"
"One seat's discard-game figures over `count` run-outs: values, uint16 per card id\n"
"(256); hand and table, uint8 card ids read at (run stride, card stride, cards) each\n"
"(a run stride of 0 repeats one row; the table at most 14 cards); kept (uint16) and\n"
"out_after (int64), one per run-out.");

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
    set_inverses(&t, at.seats);
    at.count = BLOCK;
    rule.key = figures;
    rule.second = figures + at.seats * BLOCK;
    rule.out_after = figures + 2 * at.seats * BLOCK;
    const int64_t *strength = game->scores, *second = game->scores + game->second * KEPT_SUMS;
    const int coded = !weighted && at.seats <= CODED_SEATS;
    const int blocked = !weighted && !coded && rule.shape != DECLARED;
    int64_t *outcomes = coded ? PyMem_RawCalloc((size_t)4 << 2 * at.seats, sizeof(int64_t)) : NULL;
    Blocks b;
    if ((coded && !outcomes) || (blocked && blocks_start(&b, at.seats))) {
        PyMem_RawFree(outcomes);
        PyMem_RawFree(figures);
        PyMem_RawFree(kept);
        return -1;
    }
    Cards hands[MAX_SEATS];
    for (Py_ssize_t first = 0; first < count; first += BLOCK) {
        int n = count - first < BLOCK ? (int)(count - first) : BLOCK;
        Py_ssize_t offset;
        if (block_from(sampled, first, n, &offset)) {
            if (blocked)
                blocks_end(&b, &at, &t, squared);
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
            tally_runs(&rule, &at, &t, squared, n, 1);
        } else if (blocked) {
            block_tally(&rule, rule.key, rule.shape == HALVES ? rule.second : NULL,
                        rule.instant_pot >= 0 ? rule.out_after : NULL, BLOCK, n, &at, &t, &b);
        } else if (coded) {
            coded_runs(&rule, rule.key, rule.second,
                       rule.instant_pot >= 0 ? rule.out_after : NULL, BLOCK, n, at.seats,
                       outcomes);
            t.counts[at.items - 1] += n;
        } else {
            tally_runs(&rule, &at, &t, squared, n, 0);
        }
    }
    if (blocked)
        blocks_end(&b, &at, &t, squared);
    if (coded)
        coded_end(&rule, &at, &t, outcomes, squared);
    PyMem_RawFree(outcomes);
    fold(&at, &t, squared, out, squares, weighted);
    PyMem_RawFree(figures);
    PyMem_RawFree(kept);
    return 0;
}

PyDoc_STRVAR(discard_tally_doc,
"discard_tally(shape, pots, instant_pot, split_at, second, goes_high, goes_low, values,\n"
"              scores, hands, table, table_strides, count, weights, sums, squares)\n"
"--\n\n"
"A discard game's chunk of `count` run-outs from the cards to the tally, as\n"
"discard_seat for each seat, then tally: values, uint16 per card id (256); scores,\n"
"int64 (3, 65536): a kept sum's strength, low_strength and value; second, the row of\n"
"scores the pot's second half reads; hands, one (cards, (run, card, width)) a seat;\n"
"the rest as in tally.");

/* A chunk call's answer from its compiled step's code: 0, -1 out of memory, -2 a sampled
 * table card found no candidate (a plan odds_violations refuses). */
static int
chunk_failed(int failed)
{
    if (failed == -2)
        PyErr_SetString(PyExc_ValueError, "a table card has no candidate left");
    else if (failed)
        PyErr_NoMemory();
    return failed;
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
        if (open_sampled(deal, seats, &sampled, game.hands, &game.table))
            goto fail;
    } else {
        for (int s = 0; s < seats; s++) {
            Cards *hand = &game.hands[s];
            if (!PyArg_ParseTuple(PyTuple_GET_ITEM(hands, s), "y*(nnn)", &held[s], &hand->run,
                                  &hand->card, &hand->width) ||
                check_cards(&held[s], hand, count, "hand"))
                goto fail;
        }
        if (check_cards(&v[4], &game.table, count, "table"))
            goto fail;
    }
    if (check_turns(&game.table))
        goto fail;
    Layout at = layout_of(seats, pots, count);
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
    if (open_tally(&at, &v[5], &v[6], &v[7], &t, &out, &squares))
        goto fail;
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = discard_tally(&game, dealt ? &sampled : NULL, rule, at, t, count, out, squares);
    Py_END_ALLOW_THREADS
    PyMem_RawFree(t.counts);
    if (!chunk_failed(failed))
        result = Py_NewRef(Py_None);
fail:
    PyMem_RawFree(sampled.tile);
    release_all(v, 8);
    release_all(held, MAX_SEATS);
    return result;
}

static PyObject *
discard_tally_entry(PyObject *module, PyObject *args)
{
    return discard_call(args, 0);
}

PyDoc_STRVAR(discard_sampled_doc,
"discard_sampled(shape, pots, instant_pot, split_at, second, goes_high, goes_low, values,\n"
"                scores, seats, deal, count, sums, squares)\n"
"--\n\n"
"discard_tally of `count` run-outs dealt in the call, a block at a time, never written\n"
"out: deal = (unseen, in_turn, table_ranks, seed, widths, layout), the first four as\n"
"_deal.sample reads them (its `width` the dealt positions of `layout`), so a seed deals\n"
"the cards _deal.sample deals; widths, one byte a seat: its cards; layout, one byte a\n"
"row of the seats' hands then the table's: a known card id, or 0x80 | p for the card of\n"
"dealt position p. Counted (no weights).");

static PyObject *
discard_sampled_entry(PyObject *module, PyObject *args)
{
    return discard_call(args, 1);
}

enum { POKER = 0, DOTS = 1, CHECKS = 2, KINDS };
/* The figures scored_tally makes from a seat's cards: POKER, the poker strength (Poker
 * high); DOTS, the poker strength and the dots (Grocery Store Dots); CHECKS, the checks
 * survived against the table (High Card). */

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
    if ((coded && !outcomes) || blocks_start(&b, at.seats)) {
        PyMem_RawFree(outcomes);
        PyMem_RawFree(figures);
        return -1;
    }
    uint64_t table_key[BLOCK], table_flush[BLOCK];
    double squared[MAX_SEATS] = {0};
    const int weighted = t.weights != NULL;
    const double *weights = t.weights;
    set_inverses(&t, at.seats);
    at.count = BLOCK;
    rule.key = figures;
    rule.second = figures + at.seats * BLOCK;
    for (Py_ssize_t first = 0; first < count; first += BLOCK) {
        int n = count - first < BLOCK ? (int)(count - first) : BLOCK;
        Py_ssize_t at_first;
        if (block_from(sampled, first, n, &at_first)) {
            blocks_end(&b, &at, &t, squared);
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
            tally_runs(&rule, &at, &t, squared, n, 1);
        } else if (coded) {
            coded_runs(&rule, rule.key, rule.second, NULL, BLOCK, n, at.seats, outcomes);
            t.counts[at.items - 1] += n;
        } else {
            block_tally(&rule, rule.key, rule.second, NULL, BLOCK, n, &at, &t, &b);
        }
    }
    blocks_end(&b, &at, &t, squared);
    if (coded)
        coded_end(&rule, &at, &t, outcomes, squared);
    PyMem_RawFree(outcomes);
    fold(&at, &t, squared, out, squares, weighted);
    PyMem_RawFree(figures);
    return 0;
}

PyDoc_STRVAR(scored_tally_doc,
"scored_tally(kind, tables, shape, pots, split_at, hands, table, table_strides, count,\n"
"             weights, sums, squares)\n"
"--\n\n"
"A poker-family chunk of `count` run-outs from the cards to the tally, with the GIL\n"
"released: each seat's figures as the batch kernels make them, then tally. kind: POKER\n"
"(strength), DOTS (strength, then the dots as the second figure) or CHECKS (checks\n"
"survived); tables: _poker.tables()'s capsule (POKER, DOTS) or the check order, uint8 per\n"
"card byte (256, places 0-15: CHECKS); hands, one (cards, (run, card, width)) a seat, and\n"
"the table, read in place as in discard_tally (hand and table together at most 8 cards;\n"
"CHECKS: as many in each); shape BEST, HALVES or UNIQUE_BEST, no instant wins; the rest\n"
"as in tally.");

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
    if (dealt ? open_sampled(deal, seats, &sampled, game->hands, &game->table)
              : check_cards(&v[0], &game->table, count, "table"))
        goto fail;
    for (int s = 0; s < seats; s++) {
        Cards *hand = &game->hands[s];
        if (!dealt && (!PyArg_ParseTuple(PyTuple_GET_ITEM(hands, s), "y*(nnn)", &held[s],
                                         &hand->run, &hand->card, &hand->width) ||
                       check_cards(&held[s], hand, count, "hand")))
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
    Layout at = layout_of(seats, pots, count);
    Rule rule = {shape, -1, split_at, NULL, NULL, NULL, NULL, NULL};
    Tally t;
    Sums out, squares;
    if (open_tally(&at, &v[1], &v[2], &v[3], &t, &out, &squares))
        goto fail;
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = scored_tally(game, dealt ? &sampled : NULL, rule, at, t, count, out, squares);
    Py_END_ALLOW_THREADS
    PyMem_RawFree(t.counts);
    if (!chunk_failed(failed))
        result = Py_NewRef(Py_None);
fail:
    PyMem_RawFree(sampled.tile);
    release_all(v, 4);
    release_all(held, MAX_SEATS);
    PyMem_RawFree(game);
    return result;
}

static PyObject *
scored_tally_entry(PyObject *module, PyObject *args)
{
    return scored_call(args, 0);
}

PyDoc_STRVAR(scored_sampled_doc,
"scored_sampled(kind, tables, shape, pots, split_at, seats, deal, count, sums, squares)\n"
"--\n\n"
"scored_tally of `count` run-outs dealt in the call, as discard_sampled deals them.");

static PyObject *
scored_sampled_entry(PyObject *module, PyObject *args)
{
    return scored_call(args, 1);
}

static PyMethodDef methods[] = {
    {"tally", tally_entry, METH_VARARGS, tally_doc},
    {"discard_seat", discard_entry, METH_VARARGS, discard_doc},
    {"discard_tally", discard_tally_entry, METH_VARARGS, discard_tally_doc},
    {"scored_tally", scored_tally_entry, METH_VARARGS, scored_tally_doc},
    {"discard_sampled", discard_sampled_entry, METH_VARARGS, discard_sampled_doc},
    {"scored_sampled", scored_sampled_entry, METH_VARARGS, scored_sampled_doc},
    {NULL, NULL, 0, NULL},
};

/* The shapes' numbers, so Python names them from here rather than restating them. */
static int
exec_module(PyObject *m)
{
    if (PyModule_AddIntConstant(m, "BEST", BEST) || PyModule_AddIntConstant(m, "HALVES", HALVES) ||
        PyModule_AddIntConstant(m, "UNIQUE_BEST", UNIQUE_BEST) ||
        PyModule_AddIntConstant(m, "DECLARED", DECLARED) ||
        PyModule_AddIntConstant(m, "MAX_SEATS", MAX_SEATS) ||
        PyModule_AddIntConstant(m, "POKER", POKER) || PyModule_AddIntConstant(m, "DOTS", DOTS) ||
        PyModule_AddIntConstant(m, "CHECKS", CHECKS))
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
