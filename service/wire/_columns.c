/* A batch reply's columns written straight into the reply's bytes.
 *
 * The C form of service/wire/batch_reply.py's ``serialized_columns``: the
 * ``EvaluateBatchResponse`` holding only ``columns`` (field 5), whose ``BatchColumns`` has
 * four bytes fields (1-4), each the little-endian column of one figure: strength and
 * low_strength uint32, value int32, instant_win one byte. Each figure array (any integer
 * width, or bool) is cast while it is copied, into one new bytes object, with the GIL
 * released; a figure that does not fit its column raises OverflowError before anything is
 * written. Protobuf's own serialisation is the reference the tests hold it to.
 *
 * ``Reply`` skips even that pass for a game with one ranking: the same bytes made first,
 * their strength and value columns lent to the scoring kernel to fill in place.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_varint.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the columns are little-endian on the wire; this writer copies native integers"
#endif

#define COLUMNS_FIELD 5
#define LENGTH_DELIMITED 2
#define COLUMN_COUNT 4

typedef enum { U32, I32, U8 } Kind;

static const Kind KINDS[COLUMN_COUNT] = {U32, U32, I32, U8};
static const int WIDTHS[COLUMN_COUNT] = {4, 4, 4, 1};
static const char *NAMES[COLUMN_COUNT] = {"strength", "low_strength", "value", "instant_win"};
static const int LENT[COLUMN_COUNT] = {1, 0, 1, 0}; /* a Reply's columns that a kernel fills */

/* A new reply of ``count`` hands with its frame written: the ``columns`` field's tag and
 * length, then each column's tag and length (none when ``count`` is 0), each column's
 * first byte recorded in ``at``; the columns themselves are left for the caller to fill.
 * NULL with an error set when it cannot be made. */
static PyObject *framed_reply(size_t count, Py_ssize_t at[COLUMN_COUNT])
{
    size_t body = 0;
    for (int k = 0; count && k < COLUMN_COUNT; k++)
        body += 1 + varint_size(count * WIDTHS[k]) + count * WIDTHS[k];
    PyObject *reply = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(1 + varint_size(body) + body));
    if (reply == NULL)
        return NULL;
    uint8_t *start = (uint8_t *)PyBytes_AS_STRING(reply), *out = start;
    *out++ = COLUMNS_FIELD << 3 | LENGTH_DELIMITED;
    out = put_varint(out, body);
    for (int k = 0; count && k < COLUMN_COUNT; k++) {
        size_t length = count * WIDTHS[k];
        *out++ = (uint8_t)((k + 1) << 3 | LENGTH_DELIMITED);
        out = put_varint(out, length);
        at[k] = out - start;
        out += length;
    }
    return reply;
}

/* The source array's element type: its struct format letter and size. */
typedef struct {
    char letter;
    Py_ssize_t size;
    int is_signed;
} Source;

static int source_of(const Py_buffer *view, Source *source)
{
    const char *format = view->format ? view->format : "B";
    if (*format == '<' || *format == '=' || *format == '@')
        format++;
    if (strlen(format) != 1 || !strchr("?bBhHiIlLqQ", *format))
        return -1;
    source->letter = *format;
    source->size = view->itemsize;
    source->is_signed = strchr("bhilq", *format) != NULL;
    return (source->size == 1 || source->size == 2 || source->size == 4 || source->size == 8)
               ? 0
               : -1;
}

/* Per element type: its bounds (lowest as int64, highest as uint64, 0 for none below 0)
 * and its copy into uint32 or uint8 cells, one plain loop each so the compiler can
 * vectorise them. */
#define TYPED(T, NAME, SIGNED)                                                              \
    static void bounds_##NAME(const void *cells, Py_ssize_t count, int64_t *low,            \
                              uint64_t *high)                                               \
    {                                                                                       \
        const T *data = cells;                                                              \
        T lo = 0, hi = 0;                                                                   \
        for (Py_ssize_t i = 0; i < count; i++) {                                            \
            lo = data[i] < lo ? data[i] : lo;                                               \
            hi = data[i] > hi ? data[i] : hi;                                               \
        }                                                                                   \
        *low = SIGNED ? (int64_t)lo : 0;                                                    \
        *high = (uint64_t)hi;                                                               \
    }                                                                                       \
    static void words_##NAME(uint8_t *out, const void *cells, Py_ssize_t count)             \
    {                                                                                       \
        const T *data = cells;                                                              \
        for (Py_ssize_t i = 0; i < count; i++) {                                            \
            uint32_t word = (uint32_t)data[i];                                              \
            memcpy(out + 4 * i, &word, 4);                                                  \
        }                                                                                   \
    }                                                                                       \
    static void bytes_##NAME(uint8_t *out, const void *cells, Py_ssize_t count)             \
    {                                                                                       \
        const T *data = cells;                                                              \
        for (Py_ssize_t i = 0; i < count; i++)                                              \
            out[i] = (uint8_t)data[i];                                                      \
    }

TYPED(int8_t, i1, 1)
TYPED(uint8_t, u1, 0)
TYPED(int16_t, i2, 1)
TYPED(uint16_t, u2, 0)
TYPED(int32_t, i4, 1)
TYPED(uint32_t, u4, 0)
TYPED(int64_t, i8, 1)
TYPED(uint64_t, u8, 0)

/* 0..7: the element type as (signed, log2 size), the index of the typed loops. */
static int type_index(const Source *s)
{
    int log2 = s->size == 1 ? 0 : s->size == 2 ? 1 : s->size == 4 ? 2 : 3;
    return 2 * log2 + (s->is_signed ? 0 : 1);
}

typedef void (*Bounds)(const void *, Py_ssize_t, int64_t *, uint64_t *);
typedef void (*Copy)(uint8_t *, const void *, Py_ssize_t);

static const Bounds BOUNDS[8] = {bounds_i1, bounds_u1, bounds_i2, bounds_u2,
                                 bounds_i4, bounds_u4, bounds_i8, bounds_u8};
static const Copy WORDS[8] = {words_i1, words_u1, words_i2, words_u2,
                              words_i4, words_u4, words_i8, words_u8};
static const Copy BYTES[8] = {bytes_i1, bytes_u1, bytes_i2, bytes_u2,
                              bytes_i4, bytes_u4, bytes_i8, bytes_u8};

/* Whether every value of the element type fits the column (no need to look at them). */
static int type_fits(Kind kind, const Source *s)
{
    if (kind == U8)
        return s->letter == '?' || (!s->is_signed && s->size == 1);
    if (kind == U32)
        return !s->is_signed && s->size <= 4;
    return s->is_signed ? s->size <= 4 : s->size <= 2;
}

static int fits(Kind kind, int64_t low, uint64_t high)
{
    if (kind == U8)
        return low >= 0 && high <= UINT8_MAX;
    if (kind == U32)
        return low >= 0 && high <= UINT32_MAX;
    return low >= INT32_MIN && high <= INT32_MAX;
}

PyDoc_STRVAR(write_doc,
"write(strength, low_strength, value, instant_win) -> bytes\n\n"
"The EvaluateBatchResponse with only ``columns`` set, from four 1-d arrays of one length\n"
"(integers of any width, or bool): uint32, uint32, int32 and one byte per hand. Raises\n"
"OverflowError when a figure does not fit its column, ValueError for other arrays.");

static PyObject *write_columns(PyObject *module, PyObject *args)
{
    PyObject *objs[COLUMN_COUNT];
    if (!PyArg_ParseTuple(args, "OOOO", &objs[0], &objs[1], &objs[2], &objs[3]))
        return NULL;
    Py_buffer views[COLUMN_COUNT];
    Source sources[COLUMN_COUNT];
    int held = 0;
    PyObject *reply = NULL;
    for (; held < COLUMN_COUNT; held++) {
        if (PyObject_GetBuffer(objs[held], &views[held], PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
            goto done;
        if (views[held].ndim != 1 || source_of(&views[held], &sources[held]) < 0) {
            PyErr_Format(PyExc_ValueError, "%s must be a 1-d array of integers or bools",
                         NAMES[held]);
            held++;
            goto done;
        }
    }
    Py_ssize_t count = views[0].shape[0];
    for (int k = 1; k < COLUMN_COUNT; k++) {
        if (views[k].shape[0] != count) {
            PyErr_SetString(PyExc_ValueError, "the four figures must have one length");
            goto done;
        }
    }
    int64_t lows[COLUMN_COUNT] = {0};
    uint64_t highs[COLUMN_COUNT] = {0};
    int checked[COLUMN_COUNT];
    for (int k = 0; k < COLUMN_COUNT; k++)
        checked[k] = !type_fits(KINDS[k], &sources[k]);
    Py_BEGIN_ALLOW_THREADS
    for (int k = 0; k < COLUMN_COUNT; k++)
        if (checked[k])
            BOUNDS[type_index(&sources[k])](views[k].buf, count, &lows[k], &highs[k]);
    Py_END_ALLOW_THREADS
    for (int k = 0; k < COLUMN_COUNT; k++) {
        if (checked[k] && !fits(KINDS[k], lows[k], highs[k])) {
            PyErr_Format(PyExc_OverflowError, "a batch figure in %lld..%llu does not fit %s",
                         (long long)lows[k], (unsigned long long)highs[k],
                         KINDS[k] == I32 ? "int32" : KINDS[k] == U32 ? "uint32" : "uint8");
            goto done;
        }
    }
    Py_ssize_t at[COLUMN_COUNT];
    reply = framed_reply((size_t)count, at);
    if (reply == NULL || !count)
        goto done;
    uint8_t *out = (uint8_t *)PyBytes_AS_STRING(reply);
    Py_BEGIN_ALLOW_THREADS
    for (int k = 0; k < COLUMN_COUNT; k++)
        (KINDS[k] == U8 ? BYTES : WORDS)[type_index(&sources[k])](out + at[k], views[k].buf,
                                                                 count);
    Py_END_ALLOW_THREADS
done:
    while (held--)
        PyBuffer_Release(&views[held]);
    return reply;
}

/* A columns reply written in place: ``Reply(hands)`` holds the final bytes object, framed
 * as ``write`` frames it, with low_strength and instant_win zero, and lends its strength
 * (uint32) and value (int32) columns as writable buffers (``Column``) for a kernel to fill;
 * ``finish`` then hands the bytes over with no copy, and refuses while any column is still
 * lent, so nobody can write into bytes that have been handed out. The bytes are made when
 * a column is first asked for: a caller that asks for none (its batch took another road)
 * allocates nothing. */
typedef struct {
    PyObject_HEAD
    PyObject *bytes; /* the reply; NULL before a column is asked for and once finished */
    Py_ssize_t hands;
    Py_ssize_t lent; /* buffers of its columns held now */
    Py_ssize_t at[COLUMN_COUNT]; /* each column's first byte in ``bytes`` */
    int finished;
} Reply;

typedef struct {
    PyObject_HEAD
    Reply *reply;
    int column; /* 0: strength, 2: value */
} Column;

static PyTypeObject ColumnType;

static int reply_bytes(Reply *self)
{
    if (self->bytes)
        return 0;
    size_t count = (size_t)self->hands;
    PyObject *bytes = framed_reply(count, self->at);
    if (bytes == NULL)
        return -1;
    for (int k = 0; count && k < COLUMN_COUNT; k++)
        if (!LENT[k]) /* low_strength and instant_win: a ranked game's zeros */
            memset(PyBytes_AS_STRING(bytes) + self->at[k], 0, count * WIDTHS[k]);
    self->bytes = bytes;
    return 0;
}

static PyObject *reply_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    Py_ssize_t hands;
    static char *keywords[] = {"hands", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "n:Reply", keywords, &hands))
        return NULL;
    if (hands < 0 || hands > PY_SSIZE_T_MAX / 16) {
        PyErr_SetString(PyExc_ValueError, "hands must be 0 or more");
        return NULL;
    }
    Reply *self = (Reply *)type->tp_alloc(type, 0);
    if (self != NULL)
        self->hands = hands;
    return (PyObject *)self;
}

static void reply_dealloc(Reply *self)
{
    Py_XDECREF(self->bytes);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A writable memoryview of column ``k``, lent until the view and its slices are gone. */
static PyObject *reply_column(Reply *self, int k)
{
    if (self->finished) {
        PyErr_SetString(PyExc_ValueError, "the reply is finished; its columns are no longer lent");
        return NULL;
    }
    if (reply_bytes(self) < 0)
        return NULL;
    Column *column = PyObject_New(Column, &ColumnType);
    if (column == NULL)
        return NULL;
    Py_INCREF(self);
    column->reply = self;
    column->column = k;
    PyObject *view = PyMemoryView_FromObject((PyObject *)column);
    Py_DECREF(column);
    return view;
}

static PyObject *reply_strength(Reply *self, void *closure)
{
    return reply_column(self, 0);
}

static PyObject *reply_value(Reply *self, void *closure)
{
    return reply_column(self, 2);
}

PyDoc_STRVAR(finish_doc,
"finish() -> bytes\n\n"
"The reply, handed over without a copy. BufferError while a column is still lent (a view\n"
"of it, or of a slice of it, still alive); ValueError when no column was asked for (its\n"
"figures were never written) or when the reply was finished already.");

static PyObject *reply_finish(Reply *self, PyObject *unused)
{
    if (self->lent) {
        PyErr_Format(PyExc_BufferError, "%zd buffers of the reply's columns are still held",
                     self->lent);
        return NULL;
    }
    if (self->finished || self->bytes == NULL) {
        PyErr_SetString(PyExc_ValueError, self->finished ? "the reply is finished already"
                                                         : "no column of the reply was written");
        return NULL;
    }
    PyObject *bytes = self->bytes;
    self->bytes = NULL;
    self->finished = 1;
    return bytes;
}

static int column_getbuffer(Column *self, Py_buffer *view, int flags)
{
    Reply *reply = self->reply;
    if (reply->finished || reply->bytes == NULL) {
        PyErr_SetString(PyExc_BufferError, "the reply is finished");
        return -1;
    }
    view->buf = PyBytes_AS_STRING(reply->bytes) + reply->at[self->column];
    view->obj = (PyObject *)self;
    Py_INCREF(self);
    view->len = reply->hands * 4;
    view->readonly = 0;
    view->itemsize = 4;
    view->format = (flags & PyBUF_FORMAT) ? (self->column == 0 ? "I" : "i") : NULL;
    view->ndim = 1;
    view->shape = (flags & PyBUF_ND) ? &reply->hands : NULL;
    view->strides = (flags & PyBUF_STRIDES) ? &view->itemsize : NULL;
    view->suboffsets = NULL;
    view->internal = NULL;
    reply->lent++;
    return 0;
}

static void column_releasebuffer(Column *self, Py_buffer *view)
{
    self->reply->lent--;
}

static void column_dealloc(Column *self)
{
    Py_DECREF(self->reply);
    PyObject_Free(self);
}

static PyBufferProcs column_buffer = {
    (getbufferproc)column_getbuffer,
    (releasebufferproc)column_releasebuffer,
};

static PyTypeObject ColumnType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "service.wire._columns.Column",
    .tp_basicsize = sizeof(Column),
    .tp_dealloc = (destructor)column_dealloc,
    .tp_as_buffer = &column_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One column of a Reply, lent as a writable buffer of 4-byte cells.",
};

static PyGetSetDef reply_getset[] = {
    {"strength", (getter)reply_strength, NULL,
     "The strength column: a writable memoryview of one uint32 a hand.", NULL},
    {"value", (getter)reply_value, NULL,
     "The value column: a writable memoryview of one int32 a hand.", NULL},
    {NULL},
};

static PyMethodDef reply_methods[] = {
    {"finish", (PyCFunction)reply_finish, METH_NOARGS, finish_doc},
    {NULL, NULL, 0, NULL},
};

PyDoc_STRVAR(reply_doc,
"Reply(hands)\n\n"
"The EvaluateBatchResponse with only ``columns`` set, for ``hands`` hands of a game with\n"
"one ranking, written in place: ``strength`` and ``value`` lend its uint32 and int32\n"
"columns to be filled (low_strength and instant_win are zero), ``finish`` hands the bytes\n"
"over. The bytes equal ``write``'s of the same figures.");

static PyTypeObject ReplyType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "service.wire._columns.Reply",
    .tp_basicsize = sizeof(Reply),
    .tp_dealloc = (destructor)reply_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = reply_doc,
    .tp_methods = reply_methods,
    .tp_getset = reply_getset,
    .tp_new = reply_new,
};

static PyMethodDef methods[] = {
    {"write", write_columns, METH_VARARGS, write_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "service.wire._columns",
    "A batch reply's columns written straight into the reply's bytes, GIL released.",
    -1,
    methods,
};

PyMODINIT_FUNC PyInit__columns(void)
{
    if (PyType_Ready(&ColumnType) < 0 || PyType_Ready(&ReplyType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&ReplyType);
    if (PyModule_AddObject(m, "Reply", (PyObject *)&ReplyType) < 0) {
        Py_DECREF(&ReplyType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
