/* A unary Evaluate's request read, and an Evaluation's head written, without protobuf's
 * Python objects.
 *
 * ``plain_request`` reads the plainest EvaluateRequest there is, the one nearly every
 * caller sends: ``game`` (field 1), ``hand`` (2) and ``table`` (3) in canonical card text,
 * and ``request_id`` (6), nothing else. Its answer is (game, hand ids, table ids,
 * request_id, the bytes); None for any other bytes (another field, a card in any other
 * spelling, a list longer than MAX_LIST, ``game`` or ``request_id`` twice, a
 * ``request_id`` over its byte limit, a game number past int32's positive range, bytes
 * that are no message), which the caller then reads the long way (protobuf, then the
 * rules' every check), so nothing this reader declines is answered differently. So an
 * accepted request is at most a few hundred bytes, well within the request's byte limit
 * (``request_limits.MAX_REQUEST_BYTES``). The lists' items may interleave, as protobuf
 * allows; each list keeps its order.
 *
 * ``evaluation_head`` writes an Evaluation's fields 1-9 as protobuf serialises them (in
 * field order, a field at its default left out), for the reply's cached detail to follow.
 *
 * On the server each protobuf attribute read and each message built from Python cost
 * several microseconds a call between grpc's own work (docs/performance.md, "Unary
 * Evaluate"); the tests hold both functions to protobuf's own reading and writing.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_varint.h"

#define MAX_LIST 64
#define VARINT 0
#define LENGTH_DELIMITED 2
#define CARD_TABLE_SIZE 65536

typedef struct {
    const uint8_t *at;
    const uint8_t *end;
} Reader;

/* One varint of at most 10 bytes into *value; 0 when the bytes end first or it is longer. */
static int read_varint(Reader *reader, uint64_t *value)
{
    uint64_t result = 0;
    for (int shift = 0; shift < 64 && reader->at < reader->end; shift += 7) {
        uint8_t byte = *reader->at++;
        result |= (uint64_t)(byte & 0x7F) << shift;
        if (!(byte & 0x80)) {
            *value = result;
            return 1;
        }
    }
    return 0;
}

/* A length-delimited field's bytes; 0 when they run past the end. */
static int read_bytes(Reader *reader, const uint8_t **start, size_t *size)
{
    uint64_t length;
    if (!read_varint(reader, &length) || length > (uint64_t)(reader->end - reader->at)) {
        return 0;
    }
    *start = reader->at;
    *size = (size_t)length;
    reader->at += length;
    return 1;
}

/* One card of a list: its id from the two-character table (id + 1; 0: not canonical). */
static int read_card(Reader *reader, const uint8_t *ids, uint8_t *cards, Py_ssize_t *count)
{
    const uint8_t *text;
    size_t size;
    if (!read_bytes(reader, &text, &size) || size != 2 || *count >= MAX_LIST) {
        return 0;
    }
    uint8_t id = ids[(text[0] << 8) | text[1]];
    if (!id) {
        return 0;
    }
    cards[(*count)++] = (uint8_t)(id - 1);
    return 1;
}

static PyObject *card_tuple(const uint8_t *cards, Py_ssize_t count)
{
    PyObject *tuple = PyTuple_New(count);
    if (tuple == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *card = PyLong_FromLong(cards[i]);
        if (card == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, i, card);
    }
    return tuple;
}

/* plain_request(data, card_ids, max_id_bytes, /) */
static PyObject *plain_request(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyBytes_Check(args[0]) || !PyBytes_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "plain_request(data: bytes, card_ids: bytes, int)");
        return NULL;
    }
    if (PyBytes_GET_SIZE(args[1]) != CARD_TABLE_SIZE) {
        PyErr_SetString(PyExc_ValueError, "card_ids holds one byte per two-character text");
        return NULL;
    }
    Py_ssize_t max_id_bytes = PyLong_AsSsize_t(args[2]);
    if (max_id_bytes == -1 && PyErr_Occurred()) {
        return NULL;
    }
    const uint8_t *ids = (const uint8_t *)PyBytes_AS_STRING(args[1]);
    Reader reader = {(const uint8_t *)PyBytes_AS_STRING(args[0]), NULL};
    reader.end = reader.at + PyBytes_GET_SIZE(args[0]);
    uint8_t hand[MAX_LIST], table[MAX_LIST];
    Py_ssize_t hand_count = 0, table_count = 0;
    uint64_t game = 0;
    int game_seen = 0;
    const uint8_t *request_id = NULL;
    size_t id_size = 0;
    while (reader.at < reader.end) {
        uint64_t tag;
        if (!read_varint(&reader, &tag)) {
            Py_RETURN_NONE;
        }
        int ok;
        switch (tag) {
        case (1 << 3) | VARINT:
            ok = !game_seen && read_varint(&reader, &game) && game <= INT32_MAX;
            game_seen = 1;
            break;
        case (2 << 3) | LENGTH_DELIMITED:
            ok = read_card(&reader, ids, hand, &hand_count);
            break;
        case (3 << 3) | LENGTH_DELIMITED:
            ok = read_card(&reader, ids, table, &table_count);
            break;
        case (6 << 3) | LENGTH_DELIMITED:
            ok = request_id == NULL && read_bytes(&reader, &request_id, &id_size) &&
                 id_size <= (size_t)max_id_bytes;
            break;
        default:
            ok = 0;
        }
        if (!ok) {
            Py_RETURN_NONE;
        }
    }
    PyObject *text = PyUnicode_DecodeUTF8(request_id ? (const char *)request_id : "",
                                          (Py_ssize_t)id_size, "strict");
    if (text == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
            return NULL;
        }
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    PyObject *hand_ids = card_tuple(hand, hand_count);
    PyObject *table_ids = hand_ids ? card_tuple(table, table_count) : NULL;
    if (table_ids == NULL) {
        Py_XDECREF(hand_ids);
        Py_DECREF(text);
        return NULL;
    }
    return Py_BuildValue("(kNNNO)", (unsigned long)game, hand_ids, table_ids, text, args[0]);
}

typedef struct {
    const char *text;
    Py_ssize_t size;
} Text;

/* A str's UTF-8 bytes (borrowed from the str); 0 with an error set. */
static int utf8_of(PyObject *value, Text *text)
{
    if (!PyUnicode_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "expected str");
        return 0;
    }
    text->text = PyUnicode_AsUTF8AndSize(value, &text->size);
    return text->text != NULL;
}

static int unsigned_of(PyObject *value, uint64_t *out)
{
    *out = PyLong_AsUnsignedLongLong(value);
    return !(*out == (uint64_t)-1 && PyErr_Occurred());
}

/* evaluation_head(request_id, game, strength, low_strength, instant_win, out_after,
 *                 kept, discarded, description, /): fields 1-9 in order. ``kept`` and
 * ``discarded`` are tuples of card text. */
static PyObject *evaluation_head(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 9 || !PyTuple_Check(args[6]) || !PyTuple_Check(args[7])) {
        PyErr_SetString(PyExc_TypeError,
                        "evaluation_head(request_id, game, strength, low_strength, instant_win, "
                        "out_after, kept: tuple, discarded: tuple, description)");
        return NULL;
    }
    Text request_id, description;
    long long game;
    uint64_t strength, low_strength, out_after;
    int instant_win;
    if (!utf8_of(args[0], &request_id) ||
        ((game = PyLong_AsLongLong(args[1])) == -1 && PyErr_Occurred()) ||
        !unsigned_of(args[2], &strength) || !unsigned_of(args[3], &low_strength) ||
        (instant_win = PyObject_IsTrue(args[4])) < 0 || !unsigned_of(args[5], &out_after) ||
        !utf8_of(args[8], &description)) {
        return NULL;
    }
    if (game < INT32_MIN || game > INT32_MAX || out_after > UINT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "game is an int32 and out_after a uint32");
        return NULL;
    }
    /* An enum is an int32: a negative one goes out sign-extended to 64 bits. */
    uint64_t game_bits = (uint64_t)(int64_t)game;
    PyObject *lists[2] = {args[6], args[7]};
    size_t size = 0;
    if (request_id.size) {
        size += 1 + varint_size((uint64_t)request_id.size) + (size_t)request_id.size;
    }
    size += game ? 1 + varint_size(game_bits) : 0;
    size += strength ? 1 + varint_size(strength) : 0;
    size += low_strength ? 1 + varint_size(low_strength) : 0;
    size += instant_win ? 2 : 0;
    size += out_after ? 1 + varint_size(out_after) : 0;
    for (int list = 0; list < 2; list++) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(lists[list]); i++) {
            Text card;
            if (!utf8_of(PyTuple_GET_ITEM(lists[list], i), &card)) {
                return NULL;
            }
            size += 1 + varint_size((uint64_t)card.size) + (size_t)card.size;
        }
    }
    if (description.size) {
        size += 1 + varint_size((uint64_t)description.size) + (size_t)description.size;
    }
    PyObject *head = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
    if (head == NULL) {
        return NULL;
    }
    uint8_t *out = (uint8_t *)PyBytes_AS_STRING(head);
    if (request_id.size) {
        *out++ = (1 << 3) | LENGTH_DELIMITED;
        out = put_varint(out, (uint64_t)request_id.size);
        memcpy(out, request_id.text, (size_t)request_id.size);
        out += request_id.size;
    }
    if (game) {
        *out++ = (2 << 3) | VARINT;
        out = put_varint(out, game_bits);
    }
    if (strength) {
        *out++ = (3 << 3) | VARINT;
        out = put_varint(out, strength);
    }
    if (low_strength) {
        *out++ = (4 << 3) | VARINT;
        out = put_varint(out, low_strength);
    }
    if (instant_win) {
        *out++ = (5 << 3) | VARINT;
        *out++ = 1;
    }
    if (out_after) {
        *out++ = (6 << 3) | VARINT;
        out = put_varint(out, out_after);
    }
    for (int list = 0; list < 2; list++) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(lists[list]); i++) {
            Text card;
            utf8_of(PyTuple_GET_ITEM(lists[list], i), &card);
            *out++ = (uint8_t)(((7 + list) << 3) | LENGTH_DELIMITED);
            out = put_varint(out, (uint64_t)card.size);
            memcpy(out, card.text, (size_t)card.size);
            out += card.size;
        }
    }
    if (description.size) {
        *out++ = (9 << 3) | LENGTH_DELIMITED;
        out = put_varint(out, (uint64_t)description.size);
        memcpy(out, description.text, (size_t)description.size);
    }
    return head;
}

static PyMethodDef methods[] = {
    {"plain_request", (PyCFunction)(void (*)(void))plain_request, METH_FASTCALL,
     "(game, hand ids, table ids, request_id) of the plainest EvaluateRequest, else None."},
    {"evaluation_head", (PyCFunction)(void (*)(void))evaluation_head, METH_FASTCALL,
     "An Evaluation's fields 1-9 serialised as protobuf does."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_evaluation",
    "A unary Evaluate's request read and an Evaluation's head written in C.", -1, methods,
};

PyMODINIT_FUNC PyInit__evaluation(void) { return PyModule_Create(&module); }
