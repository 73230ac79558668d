"""Start a real server as a child process on 127.0.0.1, for tests and benchmarks alike.

``start_server()`` runs ``python -m service serve --host 127.0.0.1 --port 0 --metrics-port 0
--workers 1`` (later flags win), reads the port from its ``ready`` JSON log line (one per
worker), then checks health SERVING. Port 0 lets the server bind any free port itself, so
parallel test workers never race for one. ``tests/conftest.py`` builds its fixtures on this;
the soak, the metrics-overhead run and the gRPC benchmark start their servers with it too.
It lives here, not under ``service/``, because it is for testing and measuring only.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

ROOT = Path(__file__).resolve().parents[1]
START_SECONDS = 60.0
STOP_SECONDS = 30.0


@dataclass
class ServerProcess:
    """A running server child and everything it has logged so far."""

    process: subprocess.Popen[str]
    events: list[dict[str, Any]] = field(default_factory=list)
    """Its JSON log lines, in order."""
    other_lines: list[str] = field(default_factory=list)
    """Anything else it wrote to stderr (grpc's C core may log plain text)."""
    port: int = 0
    ended: bool = False
    """Its stderr is closed: it has exited (or closed stderr)."""
    _changed: threading.Condition = field(default_factory=threading.Condition)

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        return self.process.pid

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            with self._changed:
                try:
                    event = json.loads(line)
                    self.events.append(event if isinstance(event, dict) else {"raw": line})
                except ValueError:
                    self.other_lines.append(line.rstrip("\n"))
                self._changed.notify_all()
        with self._changed:
            self.ended = True
            self._changed.notify_all()

    def wait_for_event(
        self, name: str, timeout: float = START_SECONDS, count: int = 1
    ) -> dict[str, Any]:
        """The ``count``-th ``name`` log line; fails if the process ends or time runs out
        first."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                seen = [e for e in self.events if e.get("event") == name]
                if len(seen) >= count:
                    return seen[count - 1]
                if self.ended:
                    break
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._changed.wait(min(left, 0.2))
        raise AssertionError(
            f"no {name!r} log line #{count} (exit code {self.process.poll()}): "
            f"{self.events} {self.other_lines}"
        )

    def named(self, name: str) -> list[dict[str, Any]]:
        with self._changed:
            return [e for e in self.events if e.get("event") == name]

    def metrics_port(self) -> int:
        """The /metrics port: in the parent's ``workers`` line, or a single server's
        ``start``."""
        line = self.wait_for_event("workers" if self.named("workers") else "start")
        if line.get("metrics_port") is None:
            line = self.wait_for_event("workers")
        return int(line["metrics_port"])

    def rss_kib(self) -> int:
        """Resident memory of the server process (Linux /proc)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError("no VmRSS in /proc status")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = STOP_SECONDS) -> int:
        """Send ``sig`` and wait for the exit code (kill -9 if it does not come in time)."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise


def server_env(extra: dict[str, str] | None = None, root: Path = ROOT) -> dict[str, str]:
    """The environment for a child server of the checkout at ``root``: ours minus
    HANDEVAL_* and a Prometheus multiprocess directory (settings come from flags only),
    plus ``extra``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("HANDEVAL_") and k != "PROMETHEUS_MULTIPROC_DIR"
    }
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH")]))
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra or {})
    return env


def serve_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "service", "serve", *args]


def start_server(
    *args: str,
    env: dict[str, str] | None = None,
    wait_ready: bool = True,
    workers: int = 1,
    command: Sequence[str] = (),
    root: Path = ROOT,
) -> ServerProcess:
    """Start ``command`` (default ``handeval serve``) with ``--host 127.0.0.1 --port 0
    --metrics-port 0 --workers N *args`` (a ``--workers`` in ``args`` is N); with
    ``wait_ready``, return once every worker has logged ``ready`` (so any of them may answer
    the health check) and health says SERVING. ``command`` is another program taking the serve
    flags, e.g. ``python -m benchmarks.bench_service``. ``root``: the checkout whose code
    runs (another one, e.g. the tree before a change, with ``command`` its own Python)."""
    flags = ("--host", "127.0.0.1", "--port", "0", "--metrics-port", "0")
    if "--workers" in args:
        workers = int(args[args.index("--workers") + 1])
    else:
        args = ("--workers", str(workers), *args)
    process = subprocess.Popen(
        [*(command or serve_command()), *flags, *args],
        cwd=root,
        env=server_env(env, root),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    server = ServerProcess(process)
    threading.Thread(target=server._read, name=f"server-log-{process.pid}", daemon=True).start()
    if wait_ready:
        try:
            server.port = int(server.wait_for_event("ready", count=workers)["port"])
            assert health_status(server.target) == health_pb2.HealthCheckResponse.SERVING
        except BaseException:
            process.kill()
            process.wait()
            raise
    return server


def health_status(target: str, service: str = "", timeout: float = 5.0) -> int:
    with grpc.insecure_channel(target) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        reply = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=timeout)
        return int(reply.status)
