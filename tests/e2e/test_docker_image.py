"""The real image: the Dockerfile built as users build it, run as it is deployed, stopped.

``.ci/docker-build-offline`` builds the unchanged Dockerfile here, where no image registry
and no package index can be reached from a build: its build args point at local Debian
bases and a wheelhouse served on loopback (both cached by content hash, so a second run
reuses every layer). The container then runs on the host network with a read-only root, a
tmpfs on /tmp and the image's own non-root user; the test waits for Docker's HEALTHCHECK
to say healthy, calls Evaluate with the project's client, starts the image's nghttpx
beside the server as the k8s ``front`` container runs it and calls through it, and scrapes
/metrics from the host, then ``docker stop`` (SIGTERM) must end in a clean drain: exit 0
after the ``draining`` and ``stop`` log lines.

The TLS pair of docs/tls.md ("Docker") runs as printed there, read from the document: on
Docker's default bridge network, its ports published on the host's loopback, the server
container on its own loopback and the front (``python -m service.front``, nghttpx ending
mutual TLS) in its network namespace, with certificates made for the test
(``benchmarks.authority``) mounted read-only.

Under xdist the two tests never build or run the image at once: the build script takes a
lock (a second build reuses every layer), and each test holds ``docker_turn`` while its
containers run. Where Docker cannot run they skip and say why; under ``CI=true`` they fail
instead.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2
from handeval_client import HandevalClient, HandevalError
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb
from prometheus_client.parser import text_string_to_metric_families

from benchmarks.authority import Authority
from service.server.tls import client_credentials
from tests.conftest import ROOT, health_status, unavailable
from tests.integration.test_metrics_http import scrape

pytestmark = pytest.mark.e2e

IMAGE = "handeval:e2e"
BUILD_SECONDS = 1500
"""All cold, the build makes both bases with debootstrap: 9 minutes here under heavy load."""
HEALTHY_SECONDS = 90.0
"""The HEALTHCHECK's first probe comes after its 10 s interval; start-up takes 2-6 s."""
WORKERS = 2
"""Worker processes (the default is one per CPU): the drain of several is the harder path."""
CONTEXT_LIMIT_BYTES = 5_000_000
"""The package sources are about 1 MB; protos/node_modules alone would be 93 MB."""
TURN_LOCK = Path(tempfile.gettempdir()) / "handeval-e2e-docker.lock"
TURN_SECONDS = 600.0
"""How long a test waits for the other's containers to go: each takes well under a minute."""


def docker_unavailable() -> str | None:
    """Why Docker cannot build and run the image here, or None when it can."""
    if shutil.which("docker") is None:
        return "no docker command: apt-get install docker.io (.ci/run does)"
    try:
        info = subprocess.run(
            ["docker", "info", "--format", "{{.ServerVersion}}"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return "dockerd did not answer `docker info` within 30 s"
    if info.returncode != 0:
        return f"dockerd is not reachable (start it: dockerd &): {info.stderr.strip()}"
    if shutil.which("debootstrap") is None:
        return "no debootstrap for the local base images: apt-get install debootstrap"
    return None


@pytest.fixture(scope="module")
def image() -> str:
    reason = docker_unavailable()
    if reason is not None:
        unavailable(f"the image cannot be built and run here: {reason}")
    built = subprocess.run(
        [str(ROOT / ".ci" / "docker-build-offline"), IMAGE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=BUILD_SECONDS,
        check=False,
    )
    output = built.stdout + built.stderr
    assert built.returncode == 0, output[-6000:]
    sent = re.search(r"Sending build context to Docker daemon\s+([\d.]+)([kMG]?B)", output)
    assert sent, output[-3000:]
    size = float(sent.group(1)) * {"B": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9}[sent.group(2)]
    assert size < CONTEXT_LIMIT_BYTES, f"build context {sent.group(0)}: .dockerignore leaks"
    return IMAGE


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def docker(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["docker", *args], capture_output=True, text=True, timeout=timeout, check=False
    )


def state(name: str) -> dict[str, Any]:
    inspected = docker("inspect", "--format", "{{json .State}}", name)
    assert inspected.returncode == 0, inspected.stderr
    found: dict[str, Any] = json.loads(inspected.stdout)
    return found


def events(name: str) -> list[dict[str, Any]]:
    """The container's JSON log lines (the server logs one JSON object per line)."""
    logs = docker("logs", name)
    lines = []
    for line in (logs.stdout + logs.stderr).splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict):
            lines.append(event)
    return lines


def wait_healthy(name: str) -> float:
    """Seconds until Docker's HEALTHCHECK says healthy; fails if the container stops."""
    started = time.monotonic()
    while True:
        now = state(name)
        if now["Health"]["Status"] == "healthy":
            return time.monotonic() - started
        assert now["Running"], f"the container stopped: {now}\n{docker('logs', name).stderr}"
        assert time.monotonic() - started < HEALTHY_SECONDS, f"never healthy: {now['Health']}"
        time.sleep(0.5)


def evaluations_counted(metrics_port: int) -> float:
    """``grpc_server_handled_total`` for Evaluate/OK, scraped from the host. The count
    lands as the call ends, which may be just after the client has its reply: poll."""
    deadline = time.monotonic() + 15
    while True:
        handled = {
            (sample.labels["grpc_method"], sample.labels["grpc_code"]): sample.value
            for family in text_string_to_metric_families(scrape(metrics_port))
            for sample in family.samples
            if sample.name == "grpc_server_handled_total"
        }
        counted = handled.get(("Evaluate", "OK"), 0.0)
        if counted or time.monotonic() > deadline:
            return counted
        time.sleep(0.2)


FRONT_SECONDS = 30.0


def through_the_images_front(name: str, port: int) -> int:
    """The image's nghttpx started in the running container as k8s/base's ``front``
    container runs it (its conf file, the server as an HTTP/2 backend), on a free loopback
    port; that port once a health Check through it answers."""
    front_port = free_port()
    started = docker(
        "exec", "--detach", name, "nghttpx", "--conf=/etc/handeval/nghttpx.conf",
        f"--frontend=127.0.0.1,{front_port};no-tls", f"--backend=127.0.0.1,{port};;proto=h2",
        "--pid-file=/tmp/nghttpx.pid",
    )  # fmt: skip
    assert started.returncode == 0, started.stderr
    deadline = time.monotonic() + FRONT_SECONDS
    while True:
        try:
            if health_status(f"127.0.0.1:{front_port}") == health_pb2.HealthCheckResponse.SERVING:
                return front_port
        except grpc.RpcError:
            pass
        assert time.monotonic() < deadline, docker("logs", name).stderr[-3000:]
        time.sleep(0.2)


@pytest.fixture
def docker_turn() -> Iterator[None]:
    """This test's turn to run containers: xdist workers take turns (a file lock), so two
    sets of the image's containers never share the machine's CPUs at once."""
    with TURN_LOCK.open("w") as lock:
        deadline = time.monotonic() + TURN_SECONDS
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                assert time.monotonic() < deadline, f"{TURN_LOCK} held for {TURN_SECONDS} s"
                time.sleep(0.5)
        yield  # closing the file lets the lock go


@pytest.fixture
def container(image: str, docker_turn: None) -> Iterator[tuple[str, int, int]]:
    """The image running as deployed, on loopback ports: (name, gRPC port, metrics port)."""
    name = f"handeval-e2e-{os.getpid()}"
    port, metrics_port = free_port(), free_port()
    started = docker(
        "run", "--detach", "--name", name, "--network", "host",
        "--read-only", "--tmpfs", "/tmp",
        "--env", "HANDEVAL_HOST=127.0.0.1",
        "--env", f"HANDEVAL_PORT={port}",
        "--env", f"HANDEVAL_METRICS_PORT={metrics_port}",
        "--env", f"HANDEVAL_WORKERS={WORKERS}",
        image,
    )  # fmt: skip
    assert started.returncode == 0, started.stderr
    try:
        yield name, port, metrics_port
    finally:
        docker("rm", "--force", name)


def test_image_runs_read_only_as_non_root_serves_and_drains_on_sigterm(
    container: tuple[str, int, int],
) -> None:
    name, port, metrics_port = container
    wait_healthy(name)

    server_status = docker("exec", name, "cat", "/proc/1/status").stdout
    [uids] = re.findall(r"^Uid:\s+(.*)$", server_status, flags=re.MULTILINE)
    assert set(uids.split()) == {"10001"}, server_status
    write = docker("exec", name, "python", "-c", "open('/opt/venv/probe', 'w')")
    assert write.returncode != 0 and "Read-only file system" in write.stderr

    with HandevalClient(f"127.0.0.1:{port}", timeout=10) as client:
        evaluation = client.evaluate("tonk", "5h 6h 7h Kd 2c")
    assert evaluation.game == pb.GAME_TONK and evaluation.tonk.deadwood == 12

    front_port = through_the_images_front(name, port)
    with HandevalClient(f"127.0.0.1:{front_port}", timeout=10) as client:
        assert client.evaluate("tonk", "5h 6h 7h Kd 2c").tonk.deadwood == 12
    stopped_front = docker("exec", name, "sh", "-c", 'kill "$(cat /tmp/nghttpx.pid)"')
    assert stopped_front.returncode == 0, stopped_front.stderr

    assert evaluations_counted(metrics_port) >= 1

    stopped = docker("stop", "--time", "30", name, timeout=90)
    assert stopped.returncode == 0, stopped.stderr
    ended, logged = state(name), events(name)
    assert ended["ExitCode"] == 0 and not ended["OOMKilled"], (ended, logged)
    # The parent passes SIGTERM on; every worker drains and stops, then the parent.
    drains = [event for event in logged if event["event"] == "draining"]
    assert len(drains) == WORKERS + 1 and drains[0]["signal"] == "SIGTERM", logged
    assert [event["event"] for event in logged].count("stop") == WORKERS + 1, logged
    assert logged[-1]["event"] == "stop" and logged[-1]["clean"] is True, logged


TLS_DOC = ROOT / "docs" / "tls.md"


def documented_tls_pair() -> list[list[str]]:
    """docs/tls.md's two ``docker run`` commands (its "Docker" section), each as the
    arguments after ``docker``, split as the shell splits them (``$PWD`` left as printed)."""
    section = re.search(r"^## Docker\n(.*?)^## ", TLS_DOC.read_text(), flags=re.M | re.S)
    assert section, f"{TLS_DOC} has no Docker section"
    [block] = re.findall(r"^```sh\n(.*?)^```", section.group(1), flags=re.M | re.S)
    lines = block.replace("\\\n", " ").splitlines()
    commands = [shlex.split(line) for line in lines if line.strip()]
    assert [command[:2] for command in commands] == [["docker", "run"]] * 2, block
    return [command[1:] for command in commands]


def wait_serving_through_tls(target: str, credentials: grpc.ChannelCredentials, front: str) -> None:
    """Until a health Check through the TLS front answers SERVING, each on a new channel
    (one channel's reconnect backoff would stretch the wait); fails with the front's log."""
    deadline = time.monotonic() + FRONT_SECONDS
    while True:
        with HandevalClient(target, credentials=credentials, timeout=2, retries=False) as probe:
            try:
                if probe.health() == "SERVING":
                    return
            except HandevalError:
                pass
        assert time.monotonic() < deadline, docker("logs", front).stderr[-3000:]
        time.sleep(0.2)


def test_documented_tls_pair_serves_mutual_tls_and_refuses_a_client_without_a_certificate(
    image: str, docker_turn: None, tmp_path: Path
) -> None:
    """docs/tls.md's Docker pair, run as printed (only the names, the host ports, the
    certificates' folder and the image's tag are the test's): a client with a certificate
    the CA signed is served through the front over mutual TLS and its call reaches the
    server; a client without one is refused (UNAVAILABLE) and nothing reaches the server.
    The server's HEALTHCHECK says healthy on its loopback port, which is all it listens on:
    from outside the pod only the front's port answers."""
    authority = Authority("handeval e2e CA")
    tls = tmp_path / "tls"
    tls.mkdir()
    authority.issue("handeval", server=True).write(tls, "tls")
    (tls / "ca.crt").write_bytes(authority.pem)
    tls.chmod(0o755)
    for file in tls.iterdir():
        file.chmod(0o644)  # the image runs as UID 10001, not the files' owner
    client = authority.issue("game-server", server=False)

    name, front = f"handeval-e2e-tls-{os.getpid()}", f"handeval-e2e-tls-front-{os.getpid()}"
    port, metrics_port = free_port(), free_port()
    here = {
        "handeval": name,
        "handeval-front": front,
        "container:handeval": f"container:{name}",
        "50051:50051": f"127.0.0.1:{port}:50051",
        "9464:9464": f"127.0.0.1:{metrics_port}:9464",
        "$PWD/tls:/etc/handeval/tls:ro": f"{tls}:/etc/handeval/tls:ro",
        "handeval:0.1.0": image,
    }
    documented = documented_tls_pair()
    printed = {argument for command in documented for argument in command}
    assert here.keys() <= printed, f"no longer in {TLS_DOC}: {sorted(here.keys() - printed)}"
    try:
        for command in documented:
            started = docker(*[here.get(argument, argument) for argument in command])
            assert started.returncode == 0, started.stderr
        wait_healthy(name)
        assert state(front).get("Health") is None  # --no-healthcheck

        target = f"127.0.0.1:{port}"
        served = client_credentials(ca=authority.pem, cert=client.cert, key=client.key)
        wait_serving_through_tls(target, served, front)
        with HandevalClient(target, credentials=served, timeout=10) as caller:
            evaluation = caller.evaluate("tonk", "5h 6h 7h Kd 2c")
        assert evaluation.game == pb.GAME_TONK and evaluation.tonk.deadwood == 12
        assert evaluations_counted(metrics_port) == 1

        without = client_credentials(ca=authority.pem)
        with (
            HandevalClient(target, credentials=without, timeout=5, retries=False) as stranger,
            pytest.raises(HandevalError) as refused,
        ):
            stranger.evaluate("tonk", "5h 6h 7h Kd 2c")
        assert refused.value.code is grpc.StatusCode.UNAVAILABLE, refused.value
        assert evaluations_counted(metrics_port) == 1

        inspected = docker("inspect", "--format", "{{.NetworkSettings.IPAddress}}", name)
        address = inspected.stdout.strip()
        assert address, inspected
        with socket.create_connection((address, 50051), timeout=5):
            pass  # the front listens on every interface of the pod
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection((address, 50052), timeout=5).close()
    finally:
        docker("rm", "--force", front)
        docker("rm", "--force", name)
