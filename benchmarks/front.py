"""nghttpx in front of a running server, on 127.0.0.1, for tests and benchmarks alike.

``start_front(backend_port)`` runs ``nghttpx --conf=front/nghttpx.conf`` (the settings the
image and the k8s sidecar run with) with a plaintext frontend on a free loopback port and
the server's port as its HTTP/2 backend, then waits until a health Check through it
answers SERVING. nghttpx cannot bind port 0 and report the port, so the port is bound here
(port 0, no race with parallel tests) and the listening socket handed to nghttpx, which
takes inherited listeners from ``NGHTTPX_ACCEPT_<n>=tcp,<fd>`` (how it restarts itself
without dropping connections) when the address matches its ``--frontend``.

With ``tls`` (the server's certificate, key and optional client CA) the front is the TLS
pod's: ``python -m service.front`` (the supervisor that checks and copies the certificates
and writes nghttpx's log as JSON) runs nghttpx with a TLS frontend, and readiness is
checked over TLS with ``credentials``.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from benchmarks.launcher import ROOT, STOP_SECONDS, health_status
from service.front.supervise import nghttpx
from service.server.tls import ServerFiles

CONF = ROOT / "front" / "nghttpx.conf"
START_SECONDS = 30.0
BEHIND_FRONT = ("--max-streams-per-connection", "1000", "--peer-from-forwarded")
"""The server's flags behind the front, as k8s/base's ConfigMap sets them
(tests/test_k8s.py holds the two equal): the front holds each client to 100 streams and
carries every client's calls to the server on a few connections (with the server's 100,
1-4 of 5,000 calls in flight were refused in 3 of 7 bursts, REFUSED_STREAM from the server
through the front; with 1,000, none in 7), and it names each client connection in a
``Forwarded`` header the server charges the cost lane's share to
(``service.server.peers``)."""


__all__ = ["BEHIND_FRONT", "CONF", "FrontProcess", "nghttpx", "start_front"]


def _descendants(pid: int) -> list[int]:
    children = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        children += [int(p) for p in (task / "children").read_text().split()]
    return [grandchild for child in children for grandchild in [child, *_descendants(child)]]


@dataclass
class FrontProcess:
    """A running nghttpx and what it wrote to stderr."""

    process: subprocess.Popen[str]
    port: int
    lines: list[str] = field(default_factory=list)

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    def pids(self) -> list[int]:
        """Its main process and its descendants: nghttpx's worker (one per ``workers``
        setting), and nghttpx itself under the TLS front's supervisor."""
        return [self.process.pid, *_descendants(self.process.pid)]

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.append(line.rstrip("\n"))

    def stop(self) -> int:
        """SIGTERM (nghttpx ends at once; SIGQUIT would drain) and its exit code."""
        if self.process.poll() is None:
            self.process.terminate()
        try:
            return self.process.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()


def _serving(target: str, credentials: grpc.ChannelCredentials | None) -> bool:
    if credentials is None:
        return bool(health_status(target) == health_pb2.HealthCheckResponse.SERVING)
    with grpc.secure_channel(target, credentials) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        status = stub.Check(health_pb2.HealthCheckRequest(), timeout=5).status
        return bool(status == health_pb2.HealthCheckResponse.SERVING)


def start_front(
    backend_port: int,
    *flags: str,
    conf: Path = CONF,
    tls: ServerFiles | None = None,
    credentials: grpc.ChannelCredentials | None = None,
    copies: Path | None = None,
    check_seconds: float = 10.0,
) -> FrontProcess:
    """nghttpx on a free 127.0.0.1 port in front of ``127.0.0.1:backend_port`` (HTTP/2),
    ``flags`` after the conf file's settings; returns once health is SERVING through it.
    With ``tls``: the TLS front under its supervisor (certificate copies in ``copies``,
    by default a folder beside the certificate; the files checked every
    ``check_seconds``), checked with ``credentials``."""
    binary = nghttpx()
    if binary is None:
        raise FileNotFoundError("nghttpx is not installed (Debian: apt-get install nghttp2-proxy)")
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1024)
        port = listener.getsockname()[1]
        arguments = [f"--conf={conf}", f"--frontend=127.0.0.1,{port}{'' if tls else ';no-tls'}",
                     f"--backend=127.0.0.1,{backend_port};;proto=h2", *flags]  # fmt: skip
        command = [binary, *arguments]
        if tls is not None:
            command = [sys.executable, "-m", "service.front", "--cert", tls.cert, "--key",
                       tls.key, "--client-ca", tls.client_ca, "--check-seconds",
                       str(check_seconds), "--copies",
                       str(copies or Path(tls.cert).parent / "front-copies"),
                       "--", *arguments]  # fmt: skip
        process = subprocess.Popen(
            command, cwd=ROOT,
            env={**os.environ, "NGHTTPX_ACCEPT_1": f"tcp,{listener.fileno()}"},
            pass_fds=(listener.fileno(),), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
    front = FrontProcess(process, port)
    reader = threading.Thread(target=front._read, daemon=True)
    reader.start()
    deadline = time.monotonic() + START_SECONDS
    while True:
        if process.poll() is not None:
            reader.join(5.0)
            raise RuntimeError(f"nghttpx exited {process.returncode}: {front.lines}")
        try:
            if _serving(front.target, credentials):
                return front
        except grpc.RpcError:
            pass
        if time.monotonic() > deadline:
            front.stop()
            raise RuntimeError(f"no SERVING through nghttpx in {START_SECONDS} s: {front.lines}")
        time.sleep(0.1)
