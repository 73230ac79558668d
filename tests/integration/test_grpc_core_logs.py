"""Every line the server writes to stderr is JSON, even when callers make grpc's C core
complain: 50 bad connections to a mutual-TLS port (plaintext HTTP/2, garbage, TLS without
a client certificate) used to write 50 lines of grpc-core text. The server's entry point
sets GRPC_VERBOSITY to ERROR when unset (``service.grpc_verbosity``); the server here
starts with it empty (unset)."""

from __future__ import annotations

import contextlib
import json
import socket
import ssl
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import grpc
import pytest
from handeval_client import evaluate_request
from handeval_client.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc

from benchmarks.transport_attacks import log_flood
from service.server.logs import NOISE_PER_SECOND
from tests.conftest import ServerProcess
from tests.integration.test_tls import Authority, client, start_tls

BAD_CONNECTIONS = 50
HAND = "Ah Kh Qh Jh Th 2c 3d"
REQUEST = evaluate_request("poker", HAND)


def _bad_connection(port: int, kind: int, ca: bytes) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        if kind == 0:
            raw.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes(24))
        elif kind == 1:
            raw.sendall(bytes(range(256)))
        else:
            context = ssl.create_default_context(cadata=ca.decode())
            context.check_hostname = False
            with contextlib.suppress(OSError), context.wrap_socket(raw) as tls:
                tls.sendall(b"PRI * HTTP/2.0\r\n\r\n")
                tls.recv(1)
            return
        with contextlib.suppress(OSError):
            raw.recv(1024)


def test_bad_tls_connections_write_no_line_that_is_not_json(
    launch_server: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    ours = Authority("handeval test CA")
    cert, key = ours.issue("handeval", server=True).write(tmp_path, "server")
    (tmp_path / "clients.pem").write_bytes(ours.pem)
    server = start_tls(
        lambda *args, **kwargs: launch_server(*args, env={"GRPC_VERBOSITY": ""}, **kwargs),
        "--tls-cert", cert, "--tls-key", key, "--tls-client-ca", str(tmp_path / "clients.pem"),
    )  # fmt: skip
    for index in range(BAD_CONNECTIONS):
        _bad_connection(server.port, index % 3, ours.pem)
    with client(server, ours, ours.issue("game-server", server=False)) as caller:
        assert caller.evaluate("poker", HAND).strength > 0
    assert server.stop() == 0
    assert server.named("stop"), "its log was read to the end"
    assert server.other_lines == []


FLOOD = 200


@pytest.mark.parametrize("core_logs", ["off", "json"])
def test_callers_floods_and_sigterm_leave_only_json_lines_on_stderr(
    launch_server: Callable[..., ServerProcess], core_logs: str
) -> None:
    server = launch_server("--grpc-core-logs", core_logs, "--grace-seconds", "1",
                           env={"GRPC_VERBOSITY": "INFO"})  # fmt: skip
    log_flood(server.port, FLOOD)
    with grpc.insecure_channel(server.target) as channel:
        stub = pb_grpc.HandEvaluatorStub(channel)
        assert stub.Evaluate(REQUEST, timeout=10).strength > 0
        busy = [stub.Evaluate.future(REQUEST, timeout=10) for _ in range(200)]
        assert server.stop() == 0
        for call in busy:
            with contextlib.suppress(grpc.RpcError):
                call.result()
    assert server.named("stop"), "its log was read to the end"
    assert server.other_lines == []
    core = server.named("grpc_core")
    if core_logs == "off":
        assert core == []
    else:
        assert core and all(line["source"] and line["message"] for line in core)
    unsent = server.named("reply_unsent")
    assert all("stack" not in line and len(json.dumps(line)) < 400 for line in unsent)
    per_second = Counter(line["time"][:19] for line in unsent)
    assert max(per_second.values(), default=0) <= 2 * NOISE_PER_SECOND, "one throttle window"
