"""``EvaluateBatchRequest`` read with its ``hands`` and ``tables`` left where they lie.

protobuf copies a bytes field into its arena when it parses a message, and again into a
new ``bytes`` on every read of the field: two copies of a 100,000-hand batch's 700 KB on
the event loop before the batch starts. ``read_batch_call`` walks the message's top-level
fields instead (a handful of tags), keeps ``hands`` and ``tables`` as views of the bytes
grpc handed over, and parses the rest (a few bytes) with protobuf, so every other rule of
the wire (the options message, unknown fields, a field sent twice) is still protobuf's.
Anything the walk does not follow (a group, a length past the end, a malformed varint) is
parsed by protobuf whole, which refuses a broken message with its own error as before.
"""

from __future__ import annotations

from dataclasses import dataclass

from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

_HANDS, _TABLES = 2, 4
_VARINT, _FIXED64, _LENGTH_DELIMITED, _FIXED32 = 0, 1, 2, 5
WALK_FROM_BYTES = 64 * 1024
"""Below this size protobuf's two copies cost less than the walk, which is Python."""


@dataclass(frozen=True)
class BatchCall:
    """A batch request: ``message`` without ``hands`` and ``tables`` (unless protobuf read
    it whole), and those two fields' bytes, read once."""

    message: pb.EvaluateBatchRequest
    hands: bytes | memoryview
    tables: bytes | memoryview


def read_batch_call(data: bytes) -> BatchCall:
    """The request in ``data``; raises what ``EvaluateBatchRequest.FromString`` raises for
    bytes that are no such message."""
    fields = _walk(data) if len(data) >= WALK_FROM_BYTES else None
    if fields is None:
        message = pb.EvaluateBatchRequest.FromString(data)
        return BatchCall(message, message.hands, message.tables)
    rest, hands, tables = fields
    view = memoryview(data)
    return BatchCall(
        pb.EvaluateBatchRequest.FromString(b"".join(view[start:end] for start, end in rest)),
        view[hands[0] : hands[1]],
        view[tables[0] : tables[1]],
    )


Span = tuple[int, int]


def _walk(data: bytes) -> tuple[list[Span], Span, Span] | None:
    """The spans of the fields other than hands and tables, and the payload span of the
    last hands and tables field (empty when absent); None where protobuf should decide."""
    rest: list[Span] = []
    hands = tables = (0, 0)
    at, end = 0, len(data)
    while at < end:
        start = at
        tag, at = _varint(data, at)
        kind = tag & 7  # a tag is (field number << 3) | wire type
        if tag < 0 or tag >> 3 == 0:
            return None
        if kind == _VARINT:
            _, at = _varint(data, at)
            if at < 0:
                return None
        elif kind == _LENGTH_DELIMITED:
            length, at = _varint(data, at)
            if at < 0 or length < 0 or at + length > end:
                return None
            if tag >> 3 in (_HANDS, _TABLES):
                payload = (at, at + length)
                if tag >> 3 == _HANDS:
                    hands = payload
                else:
                    tables = payload
                at += length
                continue
            at += length
        elif kind in (_FIXED64, _FIXED32):
            at += 8 if kind == _FIXED64 else 4
            if at > end:
                return None
        else:
            return None
        rest.append((start, at))
    return rest, hands, tables


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """(the varint at ``at``, the offset after it), or (-1, -1) when it is cut off or
    longer than ten bytes."""
    value = shift = 0
    for offset in range(at, min(at + 10, len(data))):
        byte = data[offset]
        value |= (byte & 0x7F) << shift  # seven bits a byte, least significant first
        if byte < 0x80:  # the high bit clear: the last byte
            return value, offset + 1
        shift += 7
    return -1, -1
