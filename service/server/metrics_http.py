"""The Prometheus endpoint: ``/metrics`` over HTTP, or HTTPS when the gRPC port has TLS.

Built for callers that do not play fair, in a bounded number of threads whatever they do:
one event-loop thread holds every connection (a socket and a few KB each, never a
thread), and ``SCRAPE_THREADS`` threads render the metrics. A connection gets
``READ_TIMEOUT_S`` to finish its TLS handshake and send its request head (at most
``MAX_HEAD_BYTES``), then ``WRITE_TIMEOUT_S`` to take the answer; one that is slower is
closed. ``MAX_CONNECTIONS`` may be open at once: a connection beyond them closes the
oldest one still sending its request, so connections held half-open cannot lock a
scraper out (a scrape sends its request at once); with every one being answered, the new
one is closed. The kernel queues up to ``BACKLOG``
connections waiting to be accepted. One request per connection (``Connection: close``),
as Prometheus scrapes.

Paths: ``GET``/``HEAD /metrics`` (any query) is the exposition, in the text or OpenMetrics
format the ``Accept`` header asks for; any other path is 404 (``/`` included: nothing
to browse), another method on ``/metrics`` 405.

TLS: with a ``CertificateStore`` (``--tls-cert``) every connection is TLS with the store's
current certificate, so a SIGHUP reload (``CertificateStore.reload``) reaches the next
scrape, and with ``--tls-client-ca`` the scraper must present a certificate that CA
signed, as gRPC clients must.

Values: this process's default registry, or with ``PROMETHEUS_MULTIPROC_DIR`` the sum over
every process that wrote there (a fresh registry and ``MultiProcessCollector``, as
prometheus_client's docs ask). prometheus_client is imported only in ``serve_metrics``,
once the launcher has settled that variable.

Scrapes cannot slow scoring: the endpoint shares the serving process (and its GIL) with
gRPC, so a render (milliseconds of Python) is made at most once per ``RENDER_EVERY_S``
per format and every scrape in between gets that copy (``CachedRender``: values up to a
second old, which a scrape every 15 s never notices); and at most ``SCRAPES_PER_S``
scrapes are answered a second, the others waiting their turn within ``WRITE_TIMEOUT_S``.
16 scrapers in tight loops cost one render a second, not one core.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from service.server.logs import log_event
from service.server.metrics import MULTIPROC_ENV
from service.server.tls import CertificateError, CertificateStore

PATH = b"/metrics"
READ_TIMEOUT_S = 5.0
WRITE_TIMEOUT_S = 10.0
SCRAPE_THREADS = 8
MAX_CONNECTIONS = 256
BACKLOG = 128
MAX_HEAD_BYTES = 8 * 1024
RENDER_EVERY_S = 1.0
SCRAPES_PER_S = 50
_REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed"}

Render = Callable[[str], tuple[bytes, str]]
"""The ``Accept`` header -> (exposition body, its content type)."""


def _response(code: int, body: bytes, content_type: str = "text/plain; charset=utf-8",
              send_body: bool = True, extra: str = "") -> bytes:  # fmt: skip
    head = (
        f"HTTP/1.1 {code} {_REASONS[code]}\r\nContent-Type: {content_type}\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n{extra}\r\n"
    )
    return head.encode("latin-1") + (body if send_body else b"")


def answer(head: bytes, render: Render) -> bytes:
    """The whole HTTP response to one request head (its request line and headers)."""
    request_line, _, header_block = head.partition(b"\r\n")
    parts = request_line.split()
    if len(parts) != 3 or not parts[2].startswith(b"HTTP/"):
        return _response(400, b"not an HTTP request\n")
    method, target = parts[0], parts[1]
    if target.split(b"?", 1)[0] != PATH:
        return _response(404, b"not found: the metrics are at /metrics\n")
    if method not in (b"GET", b"HEAD"):
        return _response(405, b"GET or HEAD /metrics\n", extra="Allow: GET, HEAD\r\n")
    accept = ""
    for line in header_block.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"accept":
            accept = value.strip().decode("latin-1")
    body, content_type = render(accept)
    return _response(200, body, content_type, send_body=method == b"GET")


class CachedRender:
    """A ``Render`` that renders each format at most once per ``max_age_s`` (seconds,
    monotonic ``clock``); scrapes in between share the last copy. Thread-safe: scrapes
    arriving during a render wait for it instead of rendering too."""

    def __init__(
        self,
        render: Render,
        format_of: Callable[[str], str],
        max_age_s: float = RENDER_EVERY_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._render = render
        self._format_of = format_of
        self._max_age_s = max_age_s
        self._clock = clock
        self._lock = threading.Lock()
        self._copies: dict[str, tuple[float, tuple[bytes, str]]] = {}
        self.renders = 0

    def __call__(self, accept: str) -> tuple[bytes, str]:
        key = self._format_of(accept)
        with self._lock:
            copy = self._copies.get(key)
            if copy is not None and self._clock() - copy[0] < self._max_age_s:
                return copy[1]
            rendered = self._render(accept)
            self.renders += 1
            self._copies[key] = (self._clock(), rendered)
            return rendered


def _renderer() -> CachedRender:
    """Render the default registry, or every process's values in multiprocess mode."""
    from prometheus_client import REGISTRY, CollectorRegistry
    from prometheus_client.exposition import choose_encoder
    from prometheus_client.multiprocess import MultiProcessCollector

    multiprocess = bool(os.environ.get(MULTIPROC_ENV))

    def render(accept: str) -> tuple[bytes, str]:
        registry: Any = REGISTRY
        if multiprocess:
            registry = CollectorRegistry()
            MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        encoder, content_type = choose_encoder(accept)
        return encoder(registry), content_type

    return CachedRender(render, lambda accept: choose_encoder(accept)[1])


class MetricsServer:
    """The running endpoint. ``socket`` is its listening socket (a forked worker closes
    its copy); ``shutdown()`` stops it."""

    def __init__(
        self, listener: socket.socket, render: Render, certificates: CertificateStore | None
    ) -> None:
        self.socket = listener
        self.server_port: int = listener.getsockname()[1]
        self.certificates = certificates
        self.open_connections = 0
        self._reading: dict[asyncio.StreamWriter, None] = {}
        """Connections still sending their request, oldest first."""
        self._render = render
        self._next_turn = 0.0
        self._pool = ThreadPoolExecutor(SCRAPE_THREADS, thread_name_prefix="handeval-scrape")
        self._loop = asyncio.new_event_loop()
        self._started = threading.Event()
        self._thread = threading.Thread(target=self._run, name="handeval-metrics", daemon=True)
        self._thread.start()
        self._started.wait()

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        server = self._loop.run_until_complete(
            asyncio.start_server(
                self._serve, sock=self.socket, backlog=BACKLOG, limit=MAX_HEAD_BYTES
            )
        )
        self._started.set()
        try:
            self._loop.run_forever()
        finally:
            server.close()
            self._loop.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.open_connections >= MAX_CONNECTIONS:
            if not self._reading:
                writer.transport.abort()
                return
            next(iter(self._reading)).transport.abort()
        self.open_connections += 1
        self._reading[writer] = None
        try:
            async with asyncio.timeout(READ_TIMEOUT_S):
                if self.certificates is not None:
                    await writer.start_tls(self.certificates.ssl_context())
                head = await reader.readuntil(b"\r\n\r\n")
            del self._reading[writer]
            await self._take_turn()
            response = await self._loop.run_in_executor(self._pool, answer, head, self._render)
            writer.write(response)
            async with asyncio.timeout(WRITE_TIMEOUT_S):
                await writer.drain()
        except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, OSError):
            pass  # slow, gone, oversized or not TLS: nothing to answer
        finally:
            self.open_connections -= 1
            self._reading.pop(writer, None)
            writer.transport.abort()

    async def _take_turn(self) -> None:
        """Wait until this scrape may be answered: one every ``1 / SCRAPES_PER_S`` seconds,
        so scrapers in a loop cannot take the process's CPU from scoring."""
        now = self._loop.time()
        turn = max(now, self._next_turn)
        self._next_turn = turn + 1.0 / SCRAPES_PER_S
        if turn > now:
            await asyncio.sleep(turn - now)

    def reload_certificates(self) -> None:
        """SIGHUP in a process whose metrics have their own store (the workers' parent):
        the next scrape uses the reread files; a failure keeps the old ones (logged)."""
        if self.certificates is None:
            return
        try:
            self.certificates.reload()
        except CertificateError as error:
            message = f"SIGHUP: /metrics kept the old certificates: {error}"
            log_event("error", logging.ERROR, message=message)

    def shutdown(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(WRITE_TIMEOUT_S)
        self._pool.shutdown(wait=False, cancel_futures=True)


def serve_metrics(
    host: str, port: int, certificates: CertificateStore | None = None
) -> tuple[MetricsServer, int]:
    """``/metrics`` on ``host:port`` (port 0 picks one), TLS with ``certificates`` when
    given; the running server and its port. Raises OSError when it cannot bind."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host.strip("[]"), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    listener = socket.socket(family, kind, proto)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(address)
    except OSError:
        listener.close()
        raise
    server = MetricsServer(listener, _renderer(), certificates)
    return server, server.server_port
