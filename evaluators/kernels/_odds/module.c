/* The module: its methods (the chunks' calls of tally.c, discard.c, scored.c), their
 * docs, and the constants Python names the shapes and kinds by. */
#include "odds.h"

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

PyDoc_STRVAR(discard_doc,
"discard_seat(values, hand, hand_strides, table, table_strides, count, kept, out_after)\n"
"--\n\n"
"One seat's discard-game figures over `count` run-outs: values, uint16 per card id\n"
"(256); hand and table, uint8 card ids read at (run stride, card stride, cards) each\n"
"(a run stride of 0 repeats one row; the table at most 14 cards); kept (uint16) and\n"
"out_after (int64), one per run-out.");

PyDoc_STRVAR(discard_tally_doc,
"discard_tally(shape, pots, instant_pot, split_at, second, goes_high, goes_low, values,\n"
"              scores, hands, table, table_strides, count, weights, sums, squares)\n"
"--\n\n"
"A discard game's chunk of `count` run-outs from the cards to the tally, as\n"
"discard_seat for each seat, then tally: values, uint16 per card id (256); scores,\n"
"int64 (3, 65536): a kept sum's strength, low_strength and value; second, the row of\n"
"scores the pot's second half reads; hands, one (cards, (run, card, width)) a seat;\n"
"the rest as in tally.");

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

PyDoc_STRVAR(scored_sampled_doc,
"scored_sampled(kind, tables, shape, pots, split_at, seats, deal, count, sums, squares)\n"
"--\n\n"
"scored_tally of `count` run-outs dealt in the call, as discard_sampled deals them.");

static PyMethodDef methods[] = {
    {"tally", odds_tally_entry, METH_VARARGS, tally_doc},
    {"discard_seat", odds_discard_entry, METH_VARARGS, discard_doc},
    {"discard_tally", odds_discard_tally_entry, METH_VARARGS, discard_tally_doc},
    {"scored_tally", odds_scored_tally_entry, METH_VARARGS, scored_tally_doc},
    {"discard_sampled", odds_discard_sampled_entry, METH_VARARGS, discard_sampled_doc},
    {"scored_sampled", odds_scored_sampled_entry, METH_VARARGS, scored_sampled_doc},
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
