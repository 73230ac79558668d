"""A batch's answer: ``BatchResult``, read from ``EvaluateBatchResponse`` bytes with the
columns left where they lie.

A batch reply carries its four figures either as packed repeated fields or (the default,
``columns``) as one ``BatchColumns`` of four fixed-width little-endian byte columns: uint32
strength and low_strength, int32 value, one byte of instant_win a hand (docs/api.md). The
columns read as numpy views of the reply's own bytes; protobuf would copy a columns reply
twice before numpy saw it (into its arena, then into a new ``bytes`` on each field read).
The server's writer (``service/wire/batch_reply.py`` and its C half) lays the reply out as
``columns_frame`` says; tests hold the two equal.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

FIGURES = ("strength", "low_strength", "value", "instant_win")
"""A batch's figures: ``BatchResult``'s arrays, the reply's packed fields and its columns."""
COLUMN_DTYPES = ("<u4", "<u4", "<i4", "u1")
"""Each column's type on the wire (docs/api.md), in ``FIGURES`` order; a client's figures
come in these (``instant_win`` as bool), whichever layout it asked for."""
COLUMN_WIDTHS = tuple(np.dtype(dtype).itemsize for dtype in COLUMN_DTYPES)
_HAND_BYTES = sum(COLUMN_WIDTHS)
_COLUMNS_FIELD = pb.EvaluateBatchResponse.COLUMNS_FIELD_NUMBER
_COLUMN_FIELDS = tuple(pb.BatchColumns.DESCRIPTOR.fields_by_name[f].number for f in FIGURES)
_LENGTH_DELIMITED = 2


class BatchResult(NamedTuple):
    """One entry per hand, in order (docs/api.md ``EvaluateBatchResponse``): numpy arrays
    ``strength`` (higher is better), ``low_strength`` (for games with a low half; higher
    is better), ``value`` (the game's headline figure) and ``instant_win``.

    Read from a reply they are read-only views of its bytes in the columns' wire types
    (uint32, uint32, int32, bool): copy one to write to it, widen before sums that could
    pass 32 bits.
    """

    strength: npt.NDArray[np.unsignedinteger[Any]]
    low_strength: npt.NDArray[np.unsignedinteger[Any]]
    value: npt.NDArray[np.signedinteger[Any]]
    instant_win: npt.NDArray[np.bool_]


def tag(field_number: int) -> bytes:
    """The one-byte tag of a length-delimited field (numbers below 16)."""
    return bytes([field_number << 3 | _LENGTH_DELIMITED])


def varint(value: int) -> bytes:
    """One non-negative int as a protobuf varint (7 bits a byte, low bits first)."""
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def batch_result(response: pb.EvaluateBatchResponse) -> BatchResult:
    """The figures of either reply layout in their column types (``COLUMN_DTYPES``), so a
    caller's arithmetic does not depend on the layout asked for. Packed figures are
    narrowed by numpy, which raises OverflowError for one that does not fit (no game's
    figure does not: the server's tests hold every game's to the columns)."""
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


def _from_columns(
    strength: Buffer, low_strength: Buffer, value: Buffer, instant_win: Buffer
) -> BatchResult:
    """The columns as read-only arrays over the reply's own bytes: no copy, no widening.
    A wire byte other than 0 or 1 in ``instant_win`` is read as true, as protobuf reads a
    bool."""
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
    """The layout of a columns reply of ``hands`` hands, as the server writes it: the
    ``columns`` field's tag and length, then each column's (tag and length, the column's
    byte count), in ``FIGURES`` order. Cached, as a client reads replies of a few sizes
    again and again."""
    columns = tuple(
        (tag(number) + varint(width * hands), width * hands)
        for number, width in zip(_COLUMN_FIELDS, COLUMN_WIDTHS, strict=True)
    )
    body = sum(len(head) + size for head, size in columns)
    return tag(_COLUMNS_FIELD) + varint(body), columns


def _varint_size(value: int) -> int:
    return max(1, -(-value.bit_length() // 7))


def _reply_size(hands: int) -> int:
    """The bytes of a columns reply of ``hands`` hands (``columns_frame``'s total)."""
    body = sum(1 + _varint_size(width * hands) + width * hands for width in COLUMN_WIDTHS)
    return 1 + _varint_size(body) + body


_MOST_FRAMING = 1 + 10 + len(FIGURES) * (1 + 10)
"""The most bytes of tags and lengths a columns reply can hold (varints of 10 bytes)."""


@functools.lru_cache(maxsize=64)
def _hands_in(size: int) -> int | None:
    """The hand count of a columns reply of ``size`` bytes; None if no count gives that
    size. ``_HAND_BYTES`` a hand plus at most ``_MOST_FRAMING``, and the framing grows with
    the count, so at most one fits (about four are tried)."""
    least = max(1, (size - _MOST_FRAMING) // _HAND_BYTES)
    fits = (h for h in range(least, size // _HAND_BYTES + 1) if _reply_size(h) == size)
    return next(fits, None)


def _columns_in_place(data: bytes) -> list[memoryview] | None:
    """The columns of ``data`` sliced where they lie, when ``data`` is exactly a columns
    reply of one or more hands as ``columns_frame`` lays it out; else None. The hand count
    follows from the length, and the framing is then compared byte for byte."""
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
    """An ``EvaluateBatchResponse``'s bytes as ``batch_result`` reads them, a columns reply
    laid out as ``columns_frame`` says sliced where it lies; anything else (packed
    figures, an empty batch, fields in another order, repeated or unknown) goes to
    protobuf's parser, which also raises on bytes that are no message."""
    columns = _columns_in_place(data)
    if columns is not None:
        strength, low_strength, value, instant_win = columns
        return _from_columns(strength, low_strength, value, instant_win)
    return batch_result(pb.EvaluateBatchResponse.FromString(data))
