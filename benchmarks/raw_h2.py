"""HTTP/2 frames and HPACK written by hand, for attacks no well-behaved client library
will send: streams reset as soon as they are opened (rapid reset), PING floods, headers
gRPC's own client refuses to send (an unparsable ``grpc-timeout``, thousands of headers),
requests dropped before their reply is read, a stream window of 0, a request whose last
bytes never come. ``benchmarks.raw_connection`` holds a connection built on these.

Only what those attacks need: frames (RFC 9113 section 4.1) and HPACK literal header
fields without indexing and without Huffman coding (RFC 7541 section 6.2.2), which every
decoder must accept. The frames come back as bytes so a caller can send many in one write.
"""

from __future__ import annotations

import socket
import ssl
import struct
from collections.abc import Iterable

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, RST_STREAM, SETTINGS, PING, GOAWAY, WINDOW_UPDATE = 0x0, 0x1, 0x3, 0x4, 0x6, 0x7, 0x8
CONTINUATION = 0x9
END_STREAM, ACK, END_HEADERS = 0x1, 0x1, 0x4
CANCEL = 0x8
"""RST_STREAM's error code for a stream the client no longer wants."""
INITIAL_WINDOW_SIZE = 0x4
"""The SETTINGS parameter for the window each new stream starts with."""
DEFAULT_WINDOW = 65_535
FRAME_BYTES = 16_384
"""The largest frame payload a peer must accept without asking (SETTINGS_MAX_FRAME_SIZE)."""
FRAME_HEADER_BYTES = 9


def frame(kind: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
    return (
        struct.pack(">I", len(payload))[1:]
        + bytes([kind, flags])
        + struct.pack(">I", stream & 0x7FFFFFFF)
        + payload
    )


def frame_header(head: bytes) -> tuple[int, int, int, int]:
    """A frame's first ``FRAME_HEADER_BYTES`` as (payload length, type, flags, stream)."""
    stream = int.from_bytes(head[5:9], "big") & 0x7FFFFFFF
    return int.from_bytes(head[:3], "big"), head[3], head[4], stream


def _integer(value: int, prefix_bits: int = 7) -> bytes:
    """HPACK's integer with an N-bit prefix (RFC 7541 section 5.1), first byte's flags 0."""
    limit = (1 << prefix_bits) - 1
    if value < limit:
        return bytes([value])
    out = [limit]
    value -= limit
    while value >= 128:
        out.append(value % 128 + 128)
        value //= 128
    out.append(value)
    return bytes(out)


def header_block(headers: Iterable[tuple[str, str]]) -> bytes:
    """Each header a literal without indexing, with a literal name (no table state)."""
    block = bytearray()
    for name, value in headers:
        raw_name, raw_value = name.encode(), value.encode()
        block += b"\x00" + _integer(len(raw_name)) + raw_name
        block += _integer(len(raw_value)) + raw_value
    return bytes(block)


def request_headers(
    method: str, authority: str = "localhost", extra: Iterable[tuple[str, str]] = ()
) -> list[tuple[str, str]]:
    """A gRPC request's headers for ``method`` (``/package.Service/Method``)."""
    return [
        (":method", "POST"), (":scheme", "http"), (":path", method), (":authority", authority),
        ("content-type", "application/grpc"), ("te", "trailers"), *extra,
    ]  # fmt: skip


def headers(
    stream: int, block: bytes, end_stream: bool = False, max_frame: int = FRAME_BYTES
) -> bytes:
    """HEADERS, and CONTINUATION frames when ``block`` is larger than one frame."""
    flags = END_STREAM if end_stream else 0
    chunks = [block[i : i + max_frame] for i in range(0, len(block), max_frame)] or [b""]
    out = [frame(HEADERS, flags | (END_HEADERS if len(chunks) == 1 else 0), stream, chunks[0])]
    for index, chunk in enumerate(chunks[1:], start=2):
        out.append(frame(CONTINUATION, END_HEADERS if index == len(chunks) else 0, stream, chunk))
    return b"".join(out)


def grpc_body(message: bytes) -> bytes:
    """``message`` as gRPC frames it in a stream's DATA: uncompressed, length-prefixed."""
    return b"\x00" + struct.pack(">I", len(message)) + message


def grpc_message(message: bytes, stream: int, end_stream: bool = True) -> bytes:
    """One length-prefixed gRPC message as a DATA frame (or several, 16 KiB each)."""
    body = grpc_body(message)
    chunks = [body[i : i + FRAME_BYTES] for i in range(0, len(body), FRAME_BYTES)]
    return b"".join(
        frame(DATA, END_STREAM if end_stream and i == len(chunks) - 1 else 0, stream, chunk)
        for i, chunk in enumerate(chunks)
    )


def rst_stream(stream: int, code: int = CANCEL) -> bytes:
    return frame(RST_STREAM, 0, stream, struct.pack(">I", code))


def ping(data: bytes = bytes(8)) -> bytes:
    return frame(PING, 0, 0, data)


def settings(ack: bool = False, values: Iterable[tuple[int, int]] = ()) -> bytes:
    """SETTINGS with ``values`` as (parameter, value) pairs, or its acknowledgement."""
    payload = b"".join(struct.pack(">HI", key, value) for key, value in values)
    return frame(SETTINGS, ACK if ack else 0, 0, payload)


def tls_context(ca: str = "", cert: str = "", key: str = "") -> ssl.SSLContext:
    """A client's TLS settings offering HTTP/2 (ALPN ``h2``): the server's certificate
    checked against ``ca`` (unchecked without it), and ``cert``/``key`` presented when
    given (mutual TLS)."""
    context = ssl.create_default_context(cafile=ca or None)
    context.set_alpn_protocols(["h2"])
    if not ca:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    if cert:
        context.load_cert_chain(cert, key)
    return context


def open_connection(
    host: str,
    port: int,
    timeout: float = 10.0,
    tls: ssl.SSLContext | None = None,
    acknowledge: bool = True,
) -> socket.socket:
    """A TCP connection (TLS with ``tls``, handshake done) that has sent the client preface
    and empty SETTINGS, and with ``acknowledge`` an acknowledgement of the server's SETTINGS
    ahead of them (an attacker's shortcut: a server that counts it as early ends the
    connection after its SETTINGS timeout; ``acknowledged`` is the polite way)."""
    connection = socket.create_connection((host, port), timeout=timeout)
    connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    if tls is not None:
        connection = tls.wrap_socket(connection, server_hostname=host)
    connection.sendall(PREFACE + settings() + (settings(ack=True) if acknowledge else b""))
    return connection


def acknowledged(connection: socket.socket) -> None:
    """Read the server's first frames until its SETTINGS, and acknowledge them, as a
    well-behaved client does; raises ConnectionError if the server closes first."""
    pending = b""
    while True:
        data = connection.recv(65536)
        if not data:
            raise ConnectionError("closed before its SETTINGS")
        frames, pending = read_frames(pending + data)
        if any(kind == SETTINGS and not flags & ACK for kind, flags, _, _ in frames):
            connection.sendall(settings(ack=True))
            return


def read_frames(data: bytes) -> tuple[list[tuple[int, int, int, bytes]], bytes]:
    """Whole frames at the start of ``data`` as (type, flags, stream, payload), and the rest."""
    frames = []
    while len(data) >= FRAME_HEADER_BYTES:
        length, kind, flags, stream = frame_header(data)
        end = FRAME_HEADER_BYTES + length
        if len(data) < end:
            break
        frames.append((kind, flags, stream, data[FRAME_HEADER_BYTES:end]))
        data = data[end:]
    return frames, data
