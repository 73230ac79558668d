"""``EvaluateBatchResponse`` bytes: written straight from the result arrays, as protobuf
would (the server), and read back with the columns left where they lie (the client).

A batch reply is four packed repeated fields of up to millions of numbers, or (when the
request set ``columns``) one ``BatchColumns`` of four fixed-width byte columns. Building the
message from Python lists costs ~130 ns a number (``tolist`` plus protobuf's copy) and
serialising it again later; encoding in numpy costs a few ns a number. The bytes equal
protobuf's serialisation of that message (a test holds them so), and the servicer hands
them to grpc as the reply, already serialised.

Wire format (proto3), fields in number order. Packed (``serialized``): per non-empty field,
its tag byte, the payload length as a varint, then one varint per value (``uint64``: the
value; ``sint64``: zigzag; ``bool``: 0 or 1). Columns (``serialized_columns``): field 5,
its length, then ``BatchColumns``' four bytes fields (tag, length, the column), each
omitted when empty, written in C (``_columns.c``: one pass, no intermediate copy), or
made first and filled in place by the scoring (``ColumnsReply``, one-pass poker). The
columns cost a client one ``numpy.frombuffer`` each where packed varints cost it a
protobuf parse of every number (~50 ns each, 20x the server's encoding).

Field numbers come from the descriptor. Reading (``read_batch_reply``): a columns reply
exactly as the writer lays it out (``columns_frame``) is sliced where it lies, half the
client's CPU of protobuf's parse; anything else goes to protobuf.
"""

from __future__ import annotations

import functools
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from evaluators.results import BatchResult
from service.gen.handeval.v1 import handeval_pb2 as pb
from service.wire import _columns

FIGURES = ("strength", "low_strength", "value", "instant_win")
"""A batch's figures: ``BatchResult``'s arrays, the reply's packed fields and its columns."""
_PACKED_FIELDS = tuple(
    pb.EvaluateBatchResponse.DESCRIPTOR.fields_by_name[f].number for f in FIGURES
)
_COLUMNS_FIELD = pb.EvaluateBatchResponse.COLUMNS_FIELD_NUMBER
_COLUMN_FIELDS = tuple(pb.BatchColumns.DESCRIPTOR.fields_by_name[f].number for f in FIGURES)
_LENGTH_DELIMITED = 2


def _tag(field_number: int) -> bytes:
    return bytes([field_number << 3 | _LENGTH_DELIMITED])


def varint(value: int) -> bytes:
    """One non-negative int as a protobuf varint (7 bits a byte, low bits first)."""
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


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
    return _tag(field_number) + varint(len(payload)) + payload


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


def batch_result(response: pb.EvaluateBatchResponse) -> BatchResult:
    """The figures of either reply layout in their column types (``COLUMN_DTYPES``: uint32,
    uint32, int32, bool), so a caller's arithmetic does not depend on the layout asked for.
    Columns are read with ``numpy.frombuffer`` (little-endian, as docs/api.md fixes them);
    packed figures are narrowed by numpy, which raises OverflowError for one that does not
    fit (no figure of ours does: ``serialized_columns`` holds every game's to them)."""
    if response.HasField("columns"):
        return _from_columns(*(getattr(response.columns, figure) for figure in FIGURES))
    strength_type, low_type, value_type, _ = COLUMN_DTYPES
    return BatchResult(
        strength=np.array(response.strength, dtype=strength_type),
        low_strength=np.array(response.low_strength, dtype=low_type),
        value=np.array(response.value, dtype=value_type),
        instant_win=np.array(response.instant_win, dtype=np.bool_),
    )


Buffer: TypeAlias = bytes | memoryview
COLUMN_DTYPES = ("<u4", "<u4", "<i4", "u1")
"""Each column's type on the wire (docs/api.md), in ``FIGURES`` order; a client's figures
come in these (``instant_win`` as bool), whichever layout it asked for."""
_COLUMN_WIDTHS = tuple(np.dtype(dtype).itemsize for dtype in COLUMN_DTYPES)
_HAND_BYTES = sum(_COLUMN_WIDTHS)


def _from_columns(
    strength: Buffer, low_strength: Buffer, value: Buffer, instant_win: Buffer
) -> BatchResult:
    """The columns as read-only arrays over the reply's own bytes: no copy, no widening
    (widening 100,000 hands to 64 bits was a tenth of a client's CPU a call). A wire byte
    other than 0 or 1 in ``instant_win`` is read as true, as protobuf reads a bool."""
    strength_type, low_type, value_type, win_type = COLUMN_DTYPES
    wins = np.frombuffer(instant_win, dtype=win_type)
    return BatchResult(
        strength=np.frombuffer(strength, dtype=strength_type),
        low_strength=np.frombuffer(low_strength, dtype=low_type),
        value=np.frombuffer(value, dtype=value_type),
        instant_win=wins.view(np.bool_) if wins.max(initial=0) <= 1 else wins.astype(np.bool_),
    )


@functools.lru_cache(maxsize=64)
def columns_frame(hands: int) -> tuple[bytes, tuple[tuple[bytes, int], ...]]:
    """The layout of a columns reply of ``hands`` hands, as ``serialized_columns`` writes
    it: the ``columns`` field's tag and length, then each column's (tag and length, the
    column's byte count), in ``FIGURES`` order: what the reader expects. The compiled
    writer (``_columns.c``) writes it from its own literals; a test holds the two equal.
    Cached, as a client reads replies of a few sizes again and again."""
    columns = tuple(
        (_tag(number) + varint(width * hands), width * hands)
        for number, width in zip(_COLUMN_FIELDS, _COLUMN_WIDTHS, strict=True)
    )
    body = sum(len(head) + size for head, size in columns)
    return _tag(_COLUMNS_FIELD) + varint(body), columns


def _varint_size(value: int) -> int:
    return max(1, -(-value.bit_length() // 7))


def _reply_size(hands: int) -> int:
    """The bytes of a columns reply of ``hands`` hands (``columns_frame``'s total)."""
    body = sum(1 + _varint_size(width * hands) + width * hands for width in _COLUMN_WIDTHS)
    return 1 + _varint_size(body) + body


_MOST_FRAMING = 1 + 10 + len(FIGURES) * (1 + 10)
"""The most bytes of tags and lengths a columns reply can hold (varints of 10 bytes)."""


@functools.lru_cache(maxsize=64)
def _hands_in(size: int) -> int | None:
    """The hand count of a columns reply of ``size`` bytes; None if no count gives that
    size. ``_HAND_BYTES`` a hand plus at most ``_MOST_FRAMING``, and the framing grows with
    the count, so at most one fits (about four are tried); cached like ``columns_frame``."""
    least = max(1, (size - _MOST_FRAMING) // _HAND_BYTES)
    fits = (h for h in range(least, size // _HAND_BYTES + 1) if _reply_size(h) == size)
    return next(fits, None)


def _columns_in_place(data: bytes) -> list[memoryview] | None:
    """The columns of ``data`` sliced where they lie, when ``data`` is exactly a columns
    reply of one or more hands as ``columns_frame`` lays it out; else None.

    The hand count follows from the length (``_hands_in``), and the framing is then
    compared byte for byte: no protobuf parsing.
    """
    hands = _hands_in(len(data))
    if hands is None:
        return None
    view = memoryview(data)
    head, columns = columns_frame(hands)
    if view[: len(head)] != head:
        return None
    at, found = len(head), []
    for column_head, size in columns:
        if view[at : at + len(column_head)] != column_head:
            return None
        at += len(column_head)
        found.append(view[at : at + size])
        at += size
    return found


def read_batch_reply(data: bytes) -> BatchResult:
    """An ``EvaluateBatchResponse``'s bytes as ``batch_result`` reads them, the columns
    read where they lie in ``data``.

    protobuf would copy a column reply twice before numpy sees it (into its arena, then
    into a new ``bytes`` on each field read): 2.6 MB and some 650 fresh pages for 100,000
    hands, twice the client's CPU. A reply exactly as ``serialized_columns`` writes it is
    sliced here instead (``columns_frame``, the writer's own layout); anything else
    (packed figures, an empty batch, fields in another order, repeated or unknown) goes
    to protobuf's parser, which also raises on bytes that are no message.
    """
    columns = _columns_in_place(data)
    if columns is not None:
        strength, low_strength, value, instant_win = columns
        return _from_columns(strength, low_strength, value, instant_win)
    return batch_result(pb.EvaluateBatchResponse.FromString(data))
