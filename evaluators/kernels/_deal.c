/* Odds' sampled deal: run-outs drawn from the unseen cards, seeded, with the GIL released
 * (the deal itself, _deal.h, is shared with _odds.c's sampled chunk calls).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_buffers.h"
#include "_deal.h"

#define TILE 64
/* Run-outs dealt into a local tile before their positions are copied out: the output's
 * rows lie a chunk apart, often a multiple of 4 KiB, so storing a byte per row per
 * run-out would keep evicting the same cache set. */

/* 0, or -1 when a discard table card found no candidate (a plan odds_violations refuses). */
static int
deal(Dealer *d, uint8_t *restrict out, Py_ssize_t count)
{
    uint8_t tile[DECK][TILE];
    uint8_t *to[DECK];
    for (int k = 0; k < DECK; k++)
        to[k] = tile[k];
    for (Py_ssize_t first = 0; first < count; first += TILE) {
        Py_ssize_t tiled = count - first < TILE ? count - first : TILE;
        if (deal_block(d, to, tiled))
            return -1;
        for (Py_ssize_t k = 0; k < d->width; k++)
            memcpy(out + k * count + first, tile[k], (size_t)tiled);
    }
    return 0;
}

PyDoc_STRVAR(sample_doc,
"sample(unseen, in_turn, width, table_ranks, seed, out)\n"
"--\n\n"
"Fill out (uint8, width rows of count run-outs, row-major: each position's cards\n"
"contiguous) with run-outs of the unseen card ids (distinct, 0-51): positions below\n"
"in_turn by a partial Fisher-Yates shuffle, the rest each uniform over the cards left\n"
"whose rank (bit card >> 2) is neither in table_ranks nor dealt to the table before it.\n"
"seed (0 to 2^64 - 1) fixes every draw. ValueError when a table card has no candidate.");

static PyObject *
sample(PyObject *module, PyObject *args)
{
    Py_buffer v[2] = {{0}};
    Py_ssize_t in_turn, width;
    unsigned int table_ranks;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "y*nnIKw*", &v[0], &in_turn, &width, &table_ranks, &seed,
                          &v[1]))
        goto fail;
    Dealer dealer;
    if (dealer_open(&dealer, &v[0], in_turn, width, table_ranks, seed))
        goto fail;
    Py_ssize_t count = width ? v[1].len / width : 0;
    if (width && v[1].len % width) {
        PyErr_Format(PyExc_ValueError, "out has %zd bytes, not %zd rows", v[1].len, width);
        goto fail;
    }
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = deal(&dealer, v[1].buf, count);
    Py_END_ALLOW_THREADS
    if (failed) {
        PyErr_SetString(PyExc_ValueError, "a table card has no candidate left");
        goto fail;
    }
    release_all(v, 2);
    Py_RETURN_NONE;
fail:
    release_all(v, 2);
    return NULL;
}

static PyMethodDef methods[] = {
    {"sample", sample, METH_VARARGS, sample_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "evaluators.kernels._deal",
    .m_doc = "Odds' sampled deal: seeded run-outs of the unseen cards.",
    .m_size = 0,
    .m_methods = methods,
};

PyMODINIT_FUNC
PyInit__deal(void)
{
    return PyModuleDef_Init(&module);
}
