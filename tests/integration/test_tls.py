"""TLS and mutual TLS on the gRPC port (``service.server.tls``), the plaintext health port, and
certificate reload on SIGHUP, with real certificates for 127.0.0.1 from two throwaway CAs
(``benchmarks.authority``)."""

from __future__ import annotations

import signal
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc
import pytest
from handeval_client import HandevalClient, HandevalError

from benchmarks.authority import Authority, Issued
from service.server.tls import CertificateError, ServerFiles, client_credentials, read_files
from tests.conftest import ServerProcess, health_status

HAND = "Ah Kh Qh Jh Th 2c 3d"


@pytest.fixture(scope="module")
def ours() -> Authority:
    return Authority("handeval test CA")


@pytest.fixture(scope="module")
def theirs() -> Authority:
    return Authority("some other CA")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_tls(launch: Callable[..., ServerProcess], *args: str) -> ServerProcess:
    """A TLS server: the port from its ``ready`` line (the fixture's check is plaintext)."""
    server = launch(*args, wait_ready=False)
    server.port = int(server.wait_for_event("ready")["port"])
    return server


def tls_server(launch: Callable[..., ServerProcess], ca: Authority, folder: Path) -> ServerProcess:
    """A TLS server whose certificate ``ca`` issued (written to ``folder``/server.crt, .key),
    asking clients for none."""
    cert, key = ca.issue("handeval", server=True).write(folder, "server")
    return start_tls(launch, "--tls-cert", cert, "--tls-key", key)


def client(server: ServerProcess, ca: Authority, cert: Issued | None = None) -> HandevalClient:
    credentials = client_credentials(
        ca=ca.pem, cert=cert.cert if cert else None, key=cert.key if cert else None
    )
    return HandevalClient(server.target, credentials=credentials, timeout=5, retries=False)


def serves(server: ServerProcess, ca: Authority) -> bool:
    """Whether a client trusting ``ca``, without a certificate, gets a hand scored."""
    with client(server, ca) as caller:
        return caller.evaluate("poker", HAND).strength > 0


def refused(server: ServerProcess, ca: Authority, cert: Issued | None = None) -> HandevalError:
    with client(server, ca, cert) as caller, pytest.raises(HandevalError) as caught:
        caller.evaluate("poker", HAND)
    return caught.value


def test_mutual_tls_refuses_no_certificate_and_a_foreign_one_and_serves_ours(
    launch_server: Callable[..., ServerProcess], ours: Authority, theirs: Authority,
    tmp_path: Path,
) -> None:  # fmt: skip
    cert, key = ours.issue("handeval", server=True).write(tmp_path, "server")
    (tmp_path / "clients.pem").write_bytes(ours.pem)
    health_port = free_port()
    server = start_tls(
        launch_server, "--tls-cert", cert, "--tls-key", key,
        "--tls-client-ca", str(tmp_path / "clients.pem"), "--health-port", str(health_port),
    )  # fmt: skip
    assert refused(server, ours).code is grpc.StatusCode.UNAVAILABLE
    foreign = theirs.issue("intruder", server=False)
    assert refused(server, ours, foreign).code is grpc.StatusCode.UNAVAILABLE
    with client(server, ours, ours.issue("game-server", server=False)) as caller:
        assert caller.evaluate("poker", HAND).strength > 0
        assert caller.health() == "SERVING"
    with pytest.raises(grpc.RpcError) as plaintext:
        health_status(server.target, timeout=3)
    assert plaintext.value.code() is grpc.StatusCode.UNAVAILABLE
    assert health_status(f"127.0.0.1:{health_port}") == 1
    with HandevalClient(f"127.0.0.1:{health_port}", timeout=5, retries=False) as probe, \
            pytest.raises(HandevalError) as evaluator:  # fmt: skip
        probe.evaluate("poker", HAND)
    assert evaluator.value.code is grpc.StatusCode.UNIMPLEMENTED, "the health port is health only"


def test_tls_without_a_client_ca_serves_clients_without_certificates(
    launch_server: Callable[..., ServerProcess], ours: Authority, theirs: Authority,
    tmp_path: Path,
) -> None:  # fmt: skip
    server = tls_server(launch_server, ours, tmp_path)
    assert serves(server, ours)
    assert refused(server, theirs).code is grpc.StatusCode.UNAVAILABLE, "server not trusted"


def test_sighup_reloads_the_certificates_for_new_connections(
    launch_server: Callable[..., ServerProcess], ours: Authority, theirs: Authority,
    tmp_path: Path,
) -> None:  # fmt: skip
    server = tls_server(launch_server, ours, tmp_path)
    assert serves(server, ours)
    (tmp_path / "server.crt").write_bytes(b"half-written renewal")
    server.process.send_signal(signal.SIGHUP)
    kept = _wait_for(server, "error")
    assert "kept the old certificates" in kept["message"]
    assert serves(server, ours)
    theirs.issue("handeval", server=True).write(tmp_path, "server")
    server.process.send_signal(signal.SIGHUP)
    assert _wait_for(server, "reload")["reloads"] == 1
    assert serves(server, theirs)
    assert refused(server, ours).code is grpc.StatusCode.UNAVAILABLE


def _wait_for(server: ServerProcess, name: str) -> dict[str, Any]:
    ended = time.monotonic() + 10
    while time.monotonic() < ended:
        found = server.named(name)
        if found:
            return found[-1]
        time.sleep(0.05)
    raise AssertionError(f"no {name!r} line: {server.events}")


def test_a_key_that_is_not_the_certificates_is_a_bad_setting(
    launch_server: Callable[..., ServerProcess], ours: Authority, tmp_path: Path
) -> None:
    cert, _ = ours.issue("handeval", server=True).write(tmp_path, "server")
    _, other_key = ours.issue("other", server=True).write(tmp_path, "other")
    with pytest.raises(CertificateError, match="not a certificate and its key"):
        read_files(ServerFiles(cert, other_key))
    server = launch_server("--tls-cert", cert, "--tls-key", other_key, wait_ready=False)
    assert server.process.wait(30) == 2
    only_cert = launch_server("--tls-cert", cert, wait_ready=False)
    assert only_cert.process.wait(30) == 2
