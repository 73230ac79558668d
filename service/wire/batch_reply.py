"""``EvaluateBatchResponse`` bytes written straight from the result arrays, as protobuf
would; the client reads them back (``handeval_client.batch``).

A batch reply is four packed repeated fields of up to millions of numbers, or (when the
request set ``columns``) one ``BatchColumns`` of four fixed-width byte columns. Building the
message from Python lists would cost a ``tolist``, protobuf's copy and a serialisation
of every number; encoding in numpy costs a few vector passes. The bytes equal
protobuf's serialisation of that message (a test holds them so), and the servicer hands
them to grpc as the reply, already serialised.

Wire format (proto3), fields in number order. Packed (``serialized``): per non-empty field,
its tag byte, the payload length as a varint, then one varint per value (``uint64``: the
value; ``sint64``: zigzag; ``bool``: 0 or 1). Columns (``serialized_columns``): field 5,
its length, then ``BatchColumns``' four bytes fields (tag, length, the column), each
omitted when empty, written in C (``_columns.c``: one pass, no intermediate copy), or
made first and filled in place by the scoring (``ColumnsReply``, one-pass poker). The
columns cost a client one ``numpy.frombuffer`` each where packed varints cost it a
protobuf parse of every number.

Field numbers come from the descriptor. The layout of a columns reply is stated once, in
the client's ``columns_frame``, which reads a reply exactly so laid out where it lies; the
compiled writer writes it from its own literals and a test holds the two equal.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from handeval_client.batch import FIGURES, tag, varint
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.results import BatchResult
from service.wire import _columns

_PACKED_FIELDS = tuple(
    pb.EvaluateBatchResponse.DESCRIPTOR.fields_by_name[f].number for f in FIGURES
)


def varints(values: npt.NDArray[np.uint64]) -> bytes:
    """Every value as a varint, concatenated: a packed field's payload.

    Column ``k`` of an (N, width) byte grid holds bits ``7k..7k+6`` of each value, with
    the continuation bit where more follow; the bytes a value does not need are dropped.
    Column by column (strided), since numpy broadcasts over a short last axis slowly.
    """
    if not len(values):
        return b""
    width = max(1, -(-int(values.max()).bit_length() // 7))
    if width == 1:
        return values.astype(np.uint8).tobytes()
    if width <= 4:
        values = values.astype(np.uint32)
    grid = np.empty(len(values) * width, dtype=np.uint8)
    keep = np.empty(len(values) * width, dtype=np.bool_)
    keep[::width] = True
    for byte in range(width):
        low = ((values >> (7 * byte)) & 0x7F).astype(np.uint8)
        if byte + 1 < width:
            more = values >= (1 << (7 * byte + 7))
            keep[byte + 1 :: width] = more
            low |= more.view(np.uint8) << np.uint8(7)
        grid[byte::width] = low
    return grid[keep].tobytes()


def zigzag(values: npt.NDArray[np.int64]) -> npt.NDArray[np.uint64]:
    """``sint64`` encoding: 0, -1, 1, -2 ... -> 0, 1, 2, 3 ..."""
    signed = values.astype(np.int64, copy=False)
    encoded: npt.NDArray[np.uint64] = ((signed << 1) ^ (signed >> 63)).view(np.uint64)
    return encoded


def _packed_field(field_number: int, payload: bytes) -> bytes:
    if not payload:
        return b""
    return tag(field_number) + varint(len(payload)) + payload


def serialized(result: BatchResult) -> bytes:
    """The ``EvaluateBatchResponse`` of ``result``, serialised (its packed fields in order)."""
    payloads = (
        varints(result.strength.astype(np.uint64, copy=False)),
        varints(result.low_strength.astype(np.uint64, copy=False)),
        varints(zigzag(result.value)),
        result.instant_win.astype(np.uint8).tobytes(),
    )
    return b"".join(map(_packed_field, _PACKED_FIELDS, payloads))


class ColumnOverflow(ValueError):
    """A figure outside its column's type: a bug in a game's scores (the wire would
    truncate it silently), answered INTERNAL like any other."""


def serialized_columns(result: BatchResult) -> bytes:
    """The ``EvaluateBatchResponse`` of ``result`` with only ``columns`` (field 5) set:
    ``BatchColumns``' four fields, strength and low_strength ``<u4``, value ``<i4`` and
    instant_win one byte a hand (docs/api.md; clients read each with ``numpy.frombuffer``).

    Written by ``_columns.write`` (C) straight into the reply's bytes, each figure cast as
    it is copied and the GIL released; protobuf's own serialisation is the reference the
    tests hold it to. Raises ColumnOverflow when a figure does not fit its column; every
    game's fit (``tests/test_batch_columns.py``).
    """
    figures = (result.strength, result.low_strength, result.value, result.instant_win)
    try:
        return _columns.write(*(np.ascontiguousarray(figure) for figure in figures))
    except OverflowError as error:
        raise ColumnOverflow(str(error)) from None


ColumnsReply = _columns.Reply
"""A columns reply written in place (``_columns.c``): ``ColumnsReply(hands)`` makes the
final bytes, framed as ``serialized_columns`` frames them with low_strength and
instant_win zero, when its ``strength`` or ``value`` column is first asked for; it lends
them as writable uint32 / int32 views (``evaluators.results.RankedCells``) for the
scoring to fill, and ``finish()`` hands the bytes over uncopied, refusing (BufferError)
while a view of a column is still alive. The bytes equal ``serialized_columns`` of the same
figures (tests/unit/service/wire/test_batch_reply.py)."""


def reply_bytes(result: BatchResult | None, room: ColumnsReply | None) -> bytes:
    """A batch's reply: ``room`` finished when the figures were written into it (``result``
    None: ``evaluators.batch.score_batch``), else ``result`` as columns when the caller
    asked for them (a ``room``) or as packed fields."""
    if result is not None:
        return serialized(result) if room is None else serialized_columns(result)
    if room is None:
        raise ValueError("a batch scored in place needs the reply it was written into")
    return room.finish()
