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
omitted when empty, written in C (``_columns.c``: one pass, no intermediate copy). The
columns cost a client one ``numpy.frombuffer`` each where packed varints cost it a
protobuf parse of every number (~50 ns each, 20x the server's encoding).
"""

from __future__ import annotations

from collections.abc import Sequence
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


def batch_result(response: pb.EvaluateBatchResponse) -> BatchResult:
    """The figures of either reply layout, in the core's dtypes (uint64, int64, bool), so
    a caller's arithmetic does not depend on the layout asked for. Columns are read with
    ``numpy.frombuffer`` (little-endian, as docs/api.md fixes them) and widened in numpy."""
    if response.HasField("columns"):
        return _from_columns(*(getattr(response.columns, figure) for figure in FIGURES))
    return BatchResult(
        strength=np.array(response.strength, dtype=np.uint64),
        low_strength=np.array(response.low_strength, dtype=np.uint64),
        value=np.array(response.value, dtype=np.int64),
        instant_win=np.array(response.instant_win, dtype=np.bool_),
    )


Buffer: TypeAlias = bytes | memoryview


def _from_columns(
    strength: Buffer, low_strength: Buffer, value: Buffer, instant_win: Buffer
) -> BatchResult:
    return BatchResult(
        strength=np.frombuffer(strength, dtype="<u4").astype(np.uint64),
        low_strength=np.frombuffer(low_strength, dtype="<u4").astype(np.uint64),
        value=np.frombuffer(value, dtype="<i4").astype(np.int64),
        instant_win=np.frombuffer(instant_win, dtype=np.uint8).astype(np.bool_),
    )


def read_batch_reply(data: bytes) -> BatchResult:
    """An ``EvaluateBatchResponse``'s bytes as ``batch_result`` reads them, the columns
    read where they lie in ``data``.

    protobuf would copy a column reply twice before numpy sees it (into its arena, then
    into a new ``bytes`` on each field read): 2.6 MB and some 650 fresh pages for 100,000
    hands. A reply holding only ``columns``, each of its fields once, is sliced here
    instead; anything else (packed figures, an empty batch, a field repeated or unknown)
    goes to protobuf's parser, which also raises on bytes that are no message.
    """
    top = _only_fields(memoryview(data), (_COLUMNS_FIELD,))
    fields = None if top is None else _only_fields(top[0], _COLUMN_FIELDS)
    if fields is not None:
        return _from_columns(*fields)
    return batch_result(pb.EvaluateBatchResponse.FromString(data))


def _varint(data: memoryview, at: int) -> tuple[int, int]:
    """The varint at ``at`` and the offset after it; IndexError past the end."""
    value = shift = 0
    while (byte := data[at]) & 0x80:
        value |= (byte & 0x7F) << shift
        shift += 7
        at += 1
    return value | byte << shift, at + 1


def _only_fields(data: memoryview, numbers: Sequence[int]) -> list[memoryview] | None:
    """The payload of each length-delimited field in ``numbers``, in that order, when
    ``data`` holds exactly those fields once each and nothing else; else None."""
    found: dict[int, memoryview] = {}
    at = 0
    try:
        while at < len(data):
            key, at = _varint(data, at)
            length, at = _varint(data, at)
            number = key >> 3
            end = at + length
            if key & 7 != _LENGTH_DELIMITED or number not in numbers or number in found:
                return None
            if end > len(data):
                return None  # truncated: protobuf's parser says so
            found[number] = data[at:end]
            at = end
    except IndexError:
        return None
    if len(found) != len(numbers):
        return None
    return [found[number] for number in numbers]
