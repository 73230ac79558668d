"""nghttpx in front of a running server, on 127.0.0.1, for tests and benchmarks alike.

``start_front(backend_port)`` runs ``nghttpx --conf=front/nghttpx.conf`` (the settings the
image and the k8s sidecar run with) with a plaintext frontend on a free loopback port and
the server's port as its HTTP/2 backend, then waits until a health Check through it
answers SERVING. nghttpx cannot bind port 0 and report the port, so the port is bound here
(port 0, no race with parallel tests) and the listening socket handed to nghttpx, which
takes inherited listeners from ``NGHTTPX_ACCEPT_<n>=tcp,<fd>`` (how it restarts itself
without dropping connections) when the address matches its ``--frontend``.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2

from benchmarks.launcher import ROOT, STOP_SECONDS, health_status

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


def nghttpx() -> str | None:
    """The nghttpx binary on PATH (Debian: ``nghttp2-proxy``, also in /usr/sbin), or None."""
    return shutil.which("nghttpx") or shutil.which("nghttpx", path="/usr/sbin:/usr/local/sbin")


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
        """Its main process and its worker (nghttpx forks one per ``workers`` setting)."""
        pids = [self.process.pid]
        for task in Path(f"/proc/{self.process.pid}/task").iterdir():
            pids += [int(p) for p in (task / "children").read_text().split()]
        return pids

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


def start_front(backend_port: int, *flags: str, conf: Path = CONF) -> FrontProcess:
    """nghttpx on a free 127.0.0.1 port in front of ``127.0.0.1:backend_port`` (HTTP/2),
    ``flags`` after the conf file's settings; returns once health is SERVING through it."""
    binary = nghttpx()
    if binary is None:
        raise FileNotFoundError("nghttpx is not installed (Debian: apt-get install nghttp2-proxy)")
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1024)
        port = listener.getsockname()[1]
        process = subprocess.Popen(
            [binary, f"--conf={conf}", f"--frontend=127.0.0.1,{port};no-tls",
             f"--backend=127.0.0.1,{backend_port};;proto=h2", *flags],
            env={**os.environ, "NGHTTPX_ACCEPT_1": f"tcp,{listener.fileno()}"},
            pass_fds=(listener.fileno(),), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
    front = FrontProcess(process, port)
    threading.Thread(target=front._read, daemon=True).start()
    deadline = time.monotonic() + START_SECONDS
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"nghttpx exited {process.returncode}: {front.lines}")
        try:
            if health_status(front.target) == health_pb2.HealthCheckResponse.SERVING:
                return front
        except grpc.RpcError:
            pass
        if time.monotonic() > deadline:
            front.stop()
            raise RuntimeError(f"no SERVING through nghttpx in {START_SECONDS} s: {front.lines}")
        time.sleep(0.1)
