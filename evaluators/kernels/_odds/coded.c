/* The coded-outcome tally: counted run-outs of up to CODED_SEATS seats reduced to one
 * code each (the winners as seat bit masks and the outcome's kind), each code's run-outs
 * counted (coded_runs), its awards then added once times its count (coded_end). */
#include "odds.h"

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

void
odds_coded_runs(const Rule *rule, const int64_t *key, const int64_t *second,
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
void
odds_coded_end(const Rule *rule, const Layout *at, Tally *t, const int64_t *outcomes,
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
