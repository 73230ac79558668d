"""A bare HTTP/2 client connection that speaks gRPC's framing and none of its manners,
for attacks grpc's own client will not make: a stream window of 0 (its replies are never
read) and a request whose last bytes never come. Its frames are ``benchmarks.raw_h2``'s.

``RawConnection(target, window=0)`` connects, sends the preface and SETTINGS (the stream
window it offers), answers the server's SETTINGS and PINGs, and obeys the server's flow
control when it sends. ``call(path, message, leave_out=0)`` opens a stream and sends the
gRPC message, all but its last ``leave_out`` bytes (then without END_STREAM). It never
sends a WINDOW_UPDATE, so with ``window`` 0 the server cannot send a single reply byte.
Only for measuring (``benchmarks.attacks``, ``tests/test_cost_admission.py``).
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
import time

from benchmarks import raw_h2
from benchmarks.raw_h2 import (
    ACK,
    DATA,
    DEFAULT_WINDOW,
    END_STREAM,
    FRAME_BYTES,
    FRAME_HEADER_BYTES,
    GOAWAY,
    HEADERS,
    INITIAL_WINDOW_SIZE,
    PING,
    RST_STREAM,
    SETTINGS,
    WINDOW_UPDATE,
    frame,
)


class RawConnection:
    """One HTTP/2 connection to ``target`` (host:port), plaintext."""

    def __init__(self, target: str, window: int = DEFAULT_WINDOW) -> None:
        host, port = target.rsplit(":", 1)
        self.authority = target
        self.sock = socket.create_connection((host, int(port)), timeout=10)
        self._lock = threading.Condition()
        self._send_lock = threading.Lock()
        self._connection_window = DEFAULT_WINDOW
        self._initial_stream_window = DEFAULT_WINDOW
        self._stream_windows: dict[int, int] = {}
        self._next_stream = 1
        self.closed = False
        self.goaway = False
        self.headers_received = 0
        self.resets = 0
        self._send(raw_h2.PREFACE + raw_h2.settings(values=[(INITIAL_WINDOW_SIZE, window)]))
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    @property
    def stream_window(self) -> int:
        """The bytes the server lets a new stream send before it asks for more (its SETTINGS'
        initial window, as last announced)."""
        with self._lock:
            return self._initial_stream_window

    def _send(self, data: bytes) -> None:
        with self._send_lock:
            self.sock.sendall(data)

    def _read_exact(self, count: int) -> bytes:
        data = bytearray()
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            if not chunk:
                raise ConnectionError("closed")
            data += chunk
        return bytes(data)

    def _read(self) -> None:
        self.sock.settimeout(None)
        try:
            while True:
                length, kind, flags, stream = raw_h2.frame_header(
                    self._read_exact(FRAME_HEADER_BYTES)
                )
                payload = self._read_exact(length)
                self._handle(kind, flags, stream, payload)
        except (ConnectionError, OSError):
            pass
        with self._lock:
            self.closed = True
            self._lock.notify_all()

    def _handle(self, kind: int, flags: int, stream: int, payload: bytes) -> None:
        if kind == SETTINGS and not flags & ACK:
            with self._lock:
                for at in range(0, len(payload), 6):
                    key, value = struct.unpack(">HI", payload[at : at + 6])
                    if key == INITIAL_WINDOW_SIZE:
                        change = value - self._initial_stream_window
                        self._initial_stream_window = value
                        for open_stream in self._stream_windows:
                            self._stream_windows[open_stream] += change
                self._lock.notify_all()
            self._send(frame(SETTINGS, ACK, 0))
        elif kind == PING and not flags & ACK:
            self._send(frame(PING, ACK, 0, payload))
        elif kind == WINDOW_UPDATE:
            increment = int.from_bytes(payload[:4], "big") & 0x7FFFFFFF
            with self._lock:
                if stream == 0:
                    self._connection_window += increment
                elif stream in self._stream_windows:
                    self._stream_windows[stream] += increment
                self._lock.notify_all()
        elif kind == HEADERS:
            with self._lock:
                self.headers_received += 1
        elif kind == RST_STREAM:
            with self._lock:
                self.resets += 1
                self._stream_windows.pop(stream, None)
                self._lock.notify_all()
        elif kind == GOAWAY:
            with self._lock:
                self.goaway = True
                self._lock.notify_all()

    def call(self, path: str, message: bytes, leave_out: int = 0, timeout: float = 30.0) -> int:
        """Open a stream to ``path`` and send ``message`` framed for gRPC, all but its last
        ``leave_out`` bytes; the stream id. Raises TimeoutError if the server's flow
        control holds the bytes back for ``timeout`` seconds."""
        with self._lock:
            stream = self._next_stream
            self._next_stream += 2
            self._stream_windows[stream] = self._initial_stream_window
        block = raw_h2.header_block(raw_h2.request_headers(path, self.authority))
        self._send(raw_h2.headers(stream, block))
        body = raw_h2.grpc_body(message)
        body = body[: len(body) - leave_out]
        deadline = time.monotonic() + timeout
        sent = 0
        while sent < len(body):
            with self._lock:
                while True:
                    allowed = min(
                        self._connection_window, self._stream_windows.get(stream, 0), FRAME_BYTES
                    )
                    if allowed > 0 or self.closed or stream not in self._stream_windows:
                        break
                    if not self._lock.wait(max(deadline - time.monotonic(), 0)):
                        raise TimeoutError(f"stream {stream}: {sent} of {len(body)} bytes sent")
                if self.closed or stream not in self._stream_windows:
                    raise ConnectionError(f"stream {stream} ended after {sent} bytes")
                piece = body[sent : sent + allowed]
                self._connection_window -= len(piece)
                self._stream_windows[stream] -= len(piece)
            sent += len(piece)
            last = sent == len(body) and not leave_out
            self._send(frame(DATA, END_STREAM if last else 0, stream, piece))
        return stream

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()
        self._reader.join(5)
