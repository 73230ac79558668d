/* A chunk's cards: a matrix read in place (check_cards), or the sampled deal's layout
 * opened into a tile (open_sampled) and dealt a block at a time (block_from); and a chunk
 * call's failure as its Python error (chunk_failed). */
#include "odds.h"

/* 0 when `view` holds every card of `count` run-outs of `m`; else -1, ValueError set. */
int
odds_check_cards(const Py_buffer *view, Cards *m, Py_ssize_t count, const char *name)
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

#define DEALT 0x80 /* a layout byte 0x80 | p: the row of dealt position p */

/* The sampled deal `deal` = (unseen, in_turn, table_ranks, seed, widths, layout) opened
 * for `seats` hands (`widths`: one byte a seat, its cards; `layout`: a byte a tile row,
 * a known card id or DEALT | position, the seats' rows then the table's): the hands and
 * the table as Cards in the tile. -1 with ValueError (or MemoryError) when it does not fit. */
int
odds_open_sampled(PyObject *deal, int seats, Sampled *out, Cards *hands, Cards *table)
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
int
odds_block_from(Sampled *sampled, Py_ssize_t first, int n, Py_ssize_t *offset)
{
    *offset = first;
    if (!sampled)
        return 0;
    *offset = 0;
    return deal_block(&sampled->dealer, sampled->to, n);
}

/* A chunk call's answer from its compiled step's code: 0, -1 out of memory, -2 a sampled
 * table card found no candidate (a plan odds_violations refuses). */
int
odds_chunk_failed(int failed)
{
    if (failed == -2)
        PyErr_SetString(PyExc_ValueError, "a table card has no candidate left");
    else if (failed)
        PyErr_NoMemory();
    return failed;
}
