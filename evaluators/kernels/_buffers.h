/* What every kernel shares: reading its arguments (_points.c, _not_poker.c, _tonk.c,
 * _odds/, _poker.c, _screen.c).
 *
 * Every table and matrix reaches a kernel as a C-contiguous buffer ("y*" or "w*" of
 * PyArg_ParseTuple) whose item type the calling Python module fixes; a kernel checks
 * each one's length against the shape it was told, so a wrong table or a short output
 * is a ValueError naming the argument, never a read or a write out of bounds.
 */
#ifndef HANDEVAL_KERNEL_BUFFERS_H
#define HANDEVAL_KERNEL_BUFFERS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* 0 when `view` holds exactly `items` items of `itemsize` bytes; else -1, ValueError set. */
static inline int
expect_items(const Py_buffer *view, Py_ssize_t items, Py_ssize_t itemsize, const char *name)
{
    if (view->len == items * itemsize)
        return 0;
    PyErr_Format(PyExc_ValueError, "%s has %zd bytes; expected %zd items of %zd bytes",
                 name, view->len, items, itemsize);
    return -1;
}

/* The rows of a uint8 matrix of `width` bytes a row (a zero width has `fallback` rows,
 * as a batch without tables has one empty table); -1 with ValueError when its length is
 * no whole number of rows. */
static inline Py_ssize_t
matrix_rows(const Py_buffer *view, Py_ssize_t width, Py_ssize_t fallback, const char *name)
{
    if (width < 0 || (width == 0 && view->len) || (width && view->len % width)) {
        PyErr_Format(PyExc_ValueError, "%s has %zd bytes, not rows of %zd bytes", name,
                     view->len, width);
        return -1;
    }
    return width ? view->len / width : fallback;
}

/* The rows of a batch's tables matrix for `hands` hands: one row every hand shares (a
 * zero width counts as one empty row) or one per hand; -1 with ValueError otherwise. */
static inline Py_ssize_t
table_rows(const Py_buffer *view, Py_ssize_t width, Py_ssize_t hands)
{
    Py_ssize_t tables = matrix_rows(view, width, 1, "tables");
    if (tables < 0)
        return -1;
    if (tables != 1 && tables != hands) {
        PyErr_Format(PyExc_ValueError, "tables has %zd rows for %zd hands", tables, hands);
        return -1;
    }
    return tables;
}

/* A batch's rows from any C-contiguous buffer object: a 2-d uint8 matrix of at most
 * `max_width` columns; 0, or -1 with ValueError (and nothing held). */
static inline int
get_rows(PyObject *obj, Py_buffer *view, Py_ssize_t max_width, const char *what)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    if (view->ndim != 2 || view->itemsize != 1 || view->shape[1] > max_width) {
        if (max_width == PY_SSIZE_T_MAX)
            PyErr_Format(PyExc_ValueError, "%s must be a 2-d array of uint8", what);
        else
            PyErr_Format(PyExc_ValueError, "%s must be a 2-d array of uint8, rows of at most %zd",
                         what, max_width);
        PyBuffer_Release(view);
        view->obj = NULL;
        return -1;
    }
    return 0;
}

/* A lookup table from any C-contiguous buffer object: exactly `entries` items of
 * `itemsize` bytes; 0, or -1 with ValueError (and nothing held). */
static inline int
get_table(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, Py_ssize_t entries,
          const char *what)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    if (view->itemsize != itemsize || view->len != itemsize * entries) {
        PyErr_Format(PyExc_ValueError, "%s must hold %zd items of %zd bytes", what, entries,
                     itemsize);
        PyBuffer_Release(view);
        view->obj = NULL;
        return -1;
    }
    return 0;
}

/* Releases every buffer of `views` that PyArg_ParseTuple filled (obj set). */
static inline void
release_all(Py_buffer *views, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (views[i].obj)
            PyBuffer_Release(&views[i]);
}

#endif
