"""The TLS pod's front: the real nghttpx under its supervisor (``python -m service.front``,
``front/nghttpx.conf``) ending TLS and mutual TLS before the real server on loopback, with
real certificates from throwaway CAs (``benchmarks.authority``). Refusals are judged at the
handshake; rotation under a short bounded load by counts; limits by what is refused and
when it is served again; logs by parsing every line. Attacks at length are benchmarks
(``python -m benchmarks.attacks --below --front nghttpx-tls``)."""

from __future__ import annotations

import contextlib
import json
import queue
import signal
import socket
import ssl
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from handeval_client import HandevalClient, HandevalError, evaluate_request
from handeval_client.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc

from benchmarks import raw_h2
from benchmarks.authority import Authority, Issued
from benchmarks.front import BEHIND_FRONT, FrontProcess, nghttpx, start_front
from service.server.tls import ServerFiles, client_credentials
from tests.conftest import ServerProcess, health_status, unavailable

HAND = "Ah Kh Qh Jh Th 2c 3d"
REQUEST = evaluate_request("poker", HAND)
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]
CHECK_SECONDS = 0.2
"""How often the supervisor reads the certificate files here (10 s by default)."""
WAIT_SECONDS = 15.0
MAX_CONCURRENT_STREAMS = 0x3
"""The SETTINGS parameter a server caps a connection's streams with (RFC 9113 6.5.2)."""


@dataclass
class TlsFront:
    """A server behind the TLS front, and the CA that issued its and its clients' pairs."""

    proxy: FrontProcess
    server: ServerProcess
    ca: Authority
    folder: Path
    client: Issued

    def credentials(self, cert: Issued | None = None) -> grpc.ChannelCredentials:
        cert = cert or self.client
        return client_credentials(ca=self.ca.pem, cert=cert.cert, key=cert.key)

    def context(self, cert: Issued | None) -> ssl.SSLContext:
        """Python's TLS settings for a client trusting ``ca``, presenting ``cert`` if any."""
        files = ("", "")
        if cert is not None:
            files = cert.write(self.folder, f"client-{id(cert)}")
        (self.folder / "trusted.pem").write_bytes(self.ca.pem)
        return raw_h2.tls_context(str(self.folder / "trusted.pem"), *files)

    def events(self, name: str) -> list[dict[str, object]]:
        found = []
        for line in list(self.proxy.lines):
            event = json.loads(line)
            if event.get("event") == name:
                found.append(event)
        return found

    def wait_for(self, name: str, count: int = 1) -> dict[str, object]:
        ended = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < ended:
            found = self.events(name)
            if len(found) >= count:
                return found[count - 1]
            time.sleep(0.05)
        raise AssertionError(f"no {name!r} line: {self.proxy.lines}")


def _start(launch_server: Callable[..., ServerProcess], tmp_path: Path, *flags: str) -> TlsFront:
    if nghttpx() is None:
        unavailable("nghttpx is not installed (Debian package `nghttp2-proxy`)")
    ca = Authority("handeval test CA")
    cert, key = ca.issue("handeval", server=True).write(tmp_path, "server")
    (tmp_path / "clients.pem").write_bytes(ca.pem)
    client = ca.issue("game-server", server=False)
    server = launch_server("--max-connection-age-seconds", "0", *BEHIND_FRONT)
    proxy = start_front(
        server.port, *flags, tls=ServerFiles(cert, key, str(tmp_path / "clients.pem")),
        credentials=client_credentials(ca=ca.pem, cert=client.cert, key=client.key),
        copies=tmp_path / "copies", check_seconds=CHECK_SECONDS,
    )  # fmt: skip
    return TlsFront(proxy, server, ca, tmp_path, client)


@pytest.fixture
def front(launch_server: Callable[..., ServerProcess], tmp_path: Path) -> Iterator[TlsFront]:
    running = _start(launch_server, tmp_path)
    yield running
    running.proxy.stop()


def _handshake(front: TlsFront, context: ssl.SSLContext) -> tuple[ssl.SSLSocket, bytes]:
    """A TLS connection to the front that has sent HTTP/2's preface, and the front's first
    bytes read on it: in TLS 1.3 a refused client certificate is told after the client's
    side of the handshake, on the first read."""
    connection = raw_h2.open_connection("127.0.0.1", front.proxy.port, tls=context)
    assert isinstance(connection, ssl.SSLSocket)
    first = connection.recv(65536)
    if not first:
        connection.close()
        raise ssl.SSLEOFError("the front closed the connection")
    return connection, first


def _served_certificate(front: TlsFront) -> bytes:
    """The certificate (DER) the front shows a new connection."""
    connection, _ = _handshake(front, front.context(front.client))
    with connection:
        served = connection.getpeercert(binary_form=True)
        assert served is not None
        return served


def _wait_until_served(front: TlsFront, issued: Issued) -> None:
    """Until new connections get ``issued``: nghttpx starts a new worker on the reload."""
    ended = time.monotonic() + WAIT_SECONDS
    while _served_certificate(front) != _der(issued):
        assert time.monotonic() < ended, "the renewed certificate was never served"
        time.sleep(0.1)


def _der(issued: Issued) -> bytes:
    return ssl.PEM_cert_to_DER_cert(issued.cert.decode())


def test_mutual_tls_at_the_front_refuses_at_the_handshake_and_serves_a_good_certificate(
    front: TlsFront,
) -> None:
    """No certificate, one an unknown CA signed and an expired one of our CA are refused by
    TLS itself (no call is made), in TLS 1.3 and 1.2 (whose handshake alert names why); ours is
    served over TLS 1.3 and 1.2 with ALPN h2. Every line the pod's front wrote, the
    refusals' included, is a JSON object."""
    foreign = Authority("some other CA").issue("game-server", server=False)
    expired = front.ca.issue("game-server", server=False, expired=True)
    refusals = [(None, "HANDSHAKE_FAILURE"), (foreign, "UNKNOWN_CA"), (expired, "EXPIRED")]
    for cert, alert in refusals:
        for version in (ssl.TLSVersion.TLSv1_3, ssl.TLSVersion.TLSv1_2):
            context = front.context(cert)
            context.maximum_version = version
            with pytest.raises(OSError) as refused:  # ssl.SSLError, or a reset after it
                _handshake(front, context)[0].close()
            if version is ssl.TLSVersion.TLSv1_2:  # in 1.3 the alert may come after the close
                assert alert in str(refused.value)
    for version in (ssl.TLSVersion.TLSv1_3, ssl.TLSVersion.TLSv1_2):
        context = front.context(front.client)
        context.maximum_version = version
        connection, _ = _handshake(front, context)
        with connection:
            assert connection.version() == version.name.replace("_", ".")
            assert connection.selected_alpn_protocol() == "h2"
    with HandevalClient(front.proxy.target, credentials=front.credentials(), timeout=10) as caller:
        assert (
            caller.evaluate("poker", HAND).description == "Straight flush, ace high (royal flush)"
        )
        assert caller.health() == "SERVING"
    with HandevalClient(
        front.proxy.target, credentials=front.credentials(foreign), timeout=5, retries=False
    ) as intruder, pytest.raises(HandevalError) as refused_call:  # fmt: skip
        intruder.evaluate("poker", HAND)
    assert refused_call.value.code is grpc.StatusCode.UNAVAILABLE
    lines = [json.loads(line) for line in front.proxy.lines]
    assert lines and all(isinstance(line, dict) for line in lines)
    assert any(line.get("level") == "error" and "verify" in str(line["message"]) for line in lines)


def _load(target: str, credentials: grpc.ChannelCredentials, stop: threading.Event,
          codes: Counter[str], fresh: bool) -> None:  # fmt: skip
    """Evaluate calls until ``stop``: on one connection, or each on a new one (``fresh``)."""
    channel = None
    while not stop.is_set():
        if channel is None or fresh:
            if channel is not None:
                channel.close()
            channel = grpc.secure_channel(target, credentials, options=OWN_CONNECTION)
        try:
            pb_grpc.HandEvaluatorStub(channel).Evaluate(REQUEST, timeout=10)
            codes["OK"] += 1
        except grpc.RpcError as error:
            codes[error.code().name] += 1
    if channel is not None:
        channel.close()


def test_a_renewed_pair_is_served_to_new_connections_without_a_failed_call(
    front: TlsFront,
) -> None:
    """Four callers on connections of their own and one opening a connection per call run
    through two renewals (the supervisor sees the changed files, nghttpx reloads); then a
    pair that does not load is refused and the last good one is served on."""
    first = front.ca.issue("handeval", server=True)
    second = front.ca.issue("handeval", server=True)
    stop = threading.Event()
    codes: Counter[str] = Counter()
    callers = [
        threading.Thread(
            target=_load,
            args=(front.proxy.target, front.credentials(), stop, codes, index == 0),
        )
        for index in range(5)
    ]
    for caller in callers:
        caller.start()
    try:
        time.sleep(0.5)
        for count, renewed in enumerate((first, second), start=1):
            renewed.write(front.folder, "server")
            front.wait_for("certificates_reloaded", count)
            _wait_until_served(front, renewed)
    finally:
        stop.set()
        for caller in callers:
            caller.join()
    assert set(codes) == {"OK"}, codes
    assert codes["OK"] > 20, codes
    seen = len(front.events("certificates_refused"))  # a poll between key and cert writes
    (front.folder / "server.crt").write_bytes(b"half-written renewal")
    refused = front.wait_for("certificates_refused", seen + 1)
    assert "server.crt" in str(refused["message"]), refused
    assert "kept the old ones" in str(refused["message"])
    assert front.proxy.process.poll() is None
    assert _served_certificate(front) == _der(second)
    with HandevalClient(front.proxy.target, credentials=front.credentials(), timeout=10) as caller:
        assert caller.evaluate("poker", HAND).strength > 0
    assert front.proxy.stop() == 128 + signal.SIGTERM
    stopped = front.wait_for("front_exit")
    assert (stopped["level"], stopped["stopped_by"]) == ("info", ["SIGTERM"]), stopped


def test_a_pair_that_does_not_load_at_start_is_a_bad_setting(
    launch_server: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    if nghttpx() is None:
        unavailable("nghttpx is not installed (Debian package `nghttp2-proxy`)")
    ca = Authority("handeval test CA")
    cert, _ = ca.issue("handeval", server=True).write(tmp_path, "server")
    _, other_key = ca.issue("other", server=True).write(tmp_path, "other")
    with pytest.raises(RuntimeError, match="exited 2") as failed:
        start_front(1, tls=ServerFiles(cert, other_key), copies=tmp_path / "copies")
    assert "not a certificate and its key" in str(failed.value)


def test_the_front_caps_streams_per_connection_and_connections(
    launch_server: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    """nghttpx's own caps, as the conf sets them: 100 streams at once on a client
    connection (its SETTINGS), and here 3 client connections at once: while 3 are held a
    new client's call is not served; once one goes, it is. A connection that never
    finishes its TLS handshake is ended after ``frontend-read-timeout`` (here 1 s)."""
    front = _start(
        launch_server, tmp_path, "--worker-frontend-connections=3", "--frontend-read-timeout=1s"
    )
    try:
        connection, first = _handshake(front, front.context(front.client))
        connection.close()
        frames, _ = raw_h2.read_frames(first)
        settings = next(payload for kind, flags, _, payload in frames
                        if kind == raw_h2.SETTINGS and not flags & raw_h2.ACK)  # fmt: skip
        values = {int.from_bytes(settings[i : i + 2], "big"):
                  int.from_bytes(settings[i + 2 : i + 6], "big")
                  for i in range(0, len(settings), 6)}  # fmt: skip
        assert values[MAX_CONCURRENT_STREAMS] == 100
        idle = socket.create_connection(("127.0.0.1", front.proxy.port), timeout=10)
        with idle, contextlib.suppress(ConnectionResetError):
            assert idle.recv(1) == b"", "ended before its handshake"
        held = [_handshake(front, front.context(front.client))[0] for _ in range(3)]
        late = HandevalClient(
            front.proxy.target, credentials=front.credentials(), timeout=2, retries=False
        )
        with late, pytest.raises(HandevalError) as capped:
            late.evaluate("poker", HAND)
        refused = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
        assert capped.value.code in refused
        held.pop().close()
        with HandevalClient(front.proxy.target, credentials=front.credentials(),
                            timeout=10) as caller:  # fmt: skip
            # nghttpx frees the slot once it reads the close: a handshake before that is
            # reset, and the channel connects on its next attempt.
            caller.wait_ready(timeout=20)
            assert caller.evaluate("poker", HAND).strength > 0
        for connection in held:
            connection.close()
    finally:
        front.proxy.stop()


def test_the_health_port_listens_where_the_kubelet_reaches_it_and_grpc_stays_on_loopback(
    launch_server: Callable[..., ServerProcess],
) -> None:
    """``--health-host``: the TLS pod's server keeps gRPC on the pod's loopback behind the
    front and offers health alone, in plaintext, on the interface the kubelet probes
    (here 127.0.0.2, another loopback address, for the pod's)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.2", 0))
        health_port = probe.getsockname()[1]
    server = launch_server(*BEHIND_FRONT, "--health-port", str(health_port),
                           "--health-host", "127.0.0.2")  # fmt: skip
    assert health_status(f"127.0.0.2:{health_port}") == 1
    with pytest.raises(grpc.RpcError) as elsewhere:
        health_status(f"127.0.0.1:{health_port}", timeout=3)
    assert elsewhere.value.code() is grpc.StatusCode.UNAVAILABLE
    with pytest.raises(grpc.RpcError) as gone:
        health_status(f"127.0.0.2:{server.port}", timeout=3)
    assert gone.value.code() is grpc.StatusCode.UNAVAILABLE


def test_sigquit_reaches_nghttpx_through_the_supervisor_and_calls_in_flight_finish(
    front: TlsFront,
) -> None:
    """The pod's preStop sends SIGQUIT to the front's PID 1, the supervisor: nghttpx stops
    accepting new connections and lets the streams it holds finish. An EvaluateStream open
    across the signal gets its later replies."""
    requests: queue.Queue[object] = queue.Queue()
    sentinel = object()

    def sent() -> Iterator[object]:
        while (item := requests.get(timeout=30)) is not sentinel:
            yield item

    with grpc.secure_channel(front.proxy.target, front.credentials()) as channel:
        replies = pb_grpc.HandEvaluatorStub(channel).EvaluateStream(sent(), timeout=60)
        requests.put(REQUEST)
        assert next(replies).strength > 0
        front.proxy.process.send_signal(signal.SIGQUIT)
        ended = time.monotonic() + WAIT_SECONDS
        while True:
            try:
                socket.create_connection(("127.0.0.1", front.proxy.port), timeout=5).close()
            except ConnectionRefusedError:
                break
            assert time.monotonic() < ended, "still accepting after SIGQUIT"
            time.sleep(0.1)
        requests.put(REQUEST)
        assert next(replies).strength > 0
        requests.put(sentinel)
        assert list(replies) == []
    assert front.proxy.process.poll() is None or front.proxy.process.returncode == 0
