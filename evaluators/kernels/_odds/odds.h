/* The odds kernel's shared declarations: one extension module, evaluators.kernels._odds,
 * built from every .c file of this folder (setup.py).
 *
 * Odds' pot rules and tally: a chunk of run-outs resolved and counted with the GIL released.
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
 *
 * The files: tally.c, the pot shapes and the tally (resolve, block_tally, the `tally`
 * call); coded.c, the tally by outcome (coded_runs); sampled.c, the cards of a chunk, read
 * in place or dealt into the sampled tile; discard.c, the discard rule's chunks; scored.c,
 * the poker family's chunks; module.c, the module's methods, docs and constants. What
 * they share is declared here, prefixed odds_ and hidden (ODDS_SHARED): the module's one
 * exported symbol is PyInit__odds.
 */
#ifndef HANDEVAL_KERNEL_ODDS_H
#define HANDEVAL_KERNEL_ODDS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* The kernels' shared headers, written for one file a module: a file of this one uses
 * some of their static functions, not all. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "../_buffers.h"
#include "../_checks.h"
#include "../_deal.h"
#include "../_poker_tables.h"
#pragma GCC diagnostic pop

#define ODDS_SHARED __attribute__((visibility("hidden")))
/* What one file of the module shares with another: kept out of the .so's exports. */

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

/* What a run of counted blocks (block_tally) carries from one block to the next. */
typedef struct {
    double *share; /* seats x BLOCK: each seat's share of the whole pot in the block */
    double lanes[LANES][MAX_SEATS];
    int64_t redeals;
    Py_ssize_t runs;
} Blocks;

#define CODED_SEATS 5
/* Up to this many seats, counted run-outs are tallied by outcome (coded_runs). */

/* A matrix of card ids read in place: card k of run-out r at r * run + k * card (a run
 * stride of 0 repeats one row, as a fully known hand or table). */
typedef struct {
    const uint8_t *cards;
    Py_ssize_t run;
    Py_ssize_t card;
    Py_ssize_t width;
} Cards;

/* A sampled chunk's cards, dealt a block at a time (_deal.h) into a tile of rows BLOCK
 * apart that holds each seat's hand, its known cards then its dealt ones, then the
 * table's: the cards are never written out, and the block's stay in the first-level
 * cache while they are scored. */
typedef struct {
    Dealer dealer;
    uint8_t *tile;     /* rows x BLOCK, freed with PyMem_RawFree */
    uint8_t *to[DECK]; /* the tile row of each dealt position */
} Sampled;

enum { POKER = 0, DOTS = 1, CHECKS = 2, KINDS };
/* The figures scored_tally makes from a seat's cards: POKER, the poker strength (Poker
 * high); DOTS, the poker strength and the dots (Grocery Store Dots); CHECKS, the checks
 * survived against the table (High Card). */

/* tally.c */
ODDS_SHARED void odds_tally_runs(const Rule *rule, const Layout *at, Tally *t, double *squared,
                                 Py_ssize_t count, int weighted);
ODDS_SHARED void odds_block_tally(const Rule *rule, const int64_t *first_key,
                                  const int64_t *first_second, const int64_t *first_outs,
                                  Py_ssize_t stride, int n, const Layout *at, Tally *t,
                                  Blocks *b);
ODDS_SHARED void odds_fold(const Layout *at, const Tally *t, const double *squared, Sums out,
                           Sums squares, int weighted);
ODDS_SHARED void odds_set_inverses(Tally *t, int seats);
ODDS_SHARED int odds_blocks_start(Blocks *b, int seats);
ODDS_SHARED void odds_blocks_end(Blocks *b, const Layout *at, Tally *t, double *squared);
ODDS_SHARED Layout odds_layout_of(int seats, int pots, Py_ssize_t count);
ODDS_SHARED int odds_open_tally(const Layout *at, const Py_buffer *weights,
                                const Py_buffer *sums, const Py_buffer *squares, Tally *t,
                                Sums *out, Sums *added_squares);

/* coded.c */
ODDS_SHARED void odds_coded_runs(const Rule *rule, const int64_t *key, const int64_t *second,
                                 const int64_t *out_after, Py_ssize_t stride, Py_ssize_t n,
                                 int seats, int64_t *restrict outcomes);
ODDS_SHARED void odds_coded_end(const Rule *rule, const Layout *at, Tally *t,
                                const int64_t *outcomes, double *squared);

/* sampled.c */
ODDS_SHARED int odds_check_cards(const Py_buffer *view, Cards *m, Py_ssize_t count,
                                 const char *name);
ODDS_SHARED int odds_open_sampled(PyObject *deal, int seats, Sampled *out, Cards *hands,
                                  Cards *table);
ODDS_SHARED int odds_block_from(Sampled *sampled, Py_ssize_t first, int n, Py_ssize_t *offset);
ODDS_SHARED int odds_chunk_failed(int failed);

/* The module's methods (module.c): tally.c, discard.c, scored.c. */
ODDS_SHARED PyObject *odds_tally_entry(PyObject *module, PyObject *args);
ODDS_SHARED PyObject *odds_discard_entry(PyObject *module, PyObject *args);
ODDS_SHARED PyObject *odds_discard_tally_entry(PyObject *module, PyObject *args);
ODDS_SHARED PyObject *odds_discard_sampled_entry(PyObject *module, PyObject *args);
ODDS_SHARED PyObject *odds_scored_tally_entry(PyObject *module, PyObject *args);
ODDS_SHARED PyObject *odds_scored_sampled_entry(PyObject *module, PyObject *args);

#endif
