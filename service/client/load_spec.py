"""What a load run is asked (``LoadSpec``) and what it did (``LoadReport``), for
``service.client.load.run_load`` and the people who read its reports."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from evaluators.inputs import Game
from evaluators.registry import DEFAULT_GAME, GAMES


class Rpc(enum.Enum):
    """Which call the load makes."""

    EVALUATE = "evaluate"
    STREAM = "stream"
    BATCH = "batch"
    ODDS = "odds"


class LoadError(Exception):
    """The load could not run (no server reachable, a bad spec); one line for people."""


@dataclass(frozen=True)
class LoadSpec:
    """What to send, where, and for how long. ``requests`` and ``duration_s`` bound the
    run (whichever is reached first); at least one must be set."""

    targets: tuple[str, ...]
    rpc: Rpc = Rpc.EVALUATE
    game: Game = DEFAULT_GAME
    concurrency: int = 8
    batch_size: int = 100
    """Hands per ``EvaluateBatch`` (other RPCs send one hand per request)."""
    requests: int | None = None
    duration_s: float | None = 10.0
    bad_share: float = 0.0
    """Share of requests (0-1) that carry a bad hand."""
    seed: int = 0
    timeout_s: float = 10.0
    """Deadline of each unary call."""
    channels: str = "worker"
    """``worker``: a channel (and connection) per worker; ``shared``: one for all."""
    ready_timeout_s: float = 10.0
    """How long to wait for the servers to accept connections before the clock starts."""

    def check(self) -> None:
        """Raises LoadError, for people, for a spec that cannot run or would not end."""
        if not self.targets:
            raise LoadError("no target: give at least one host:port")
        if self.requests is None and not self.duration_s:
            raise LoadError("unbounded: give a number of requests or a duration (or both)")
        if self.requests is not None and self.requests < 1:
            raise LoadError(f"requests must be 1 or more, not {self.requests}")
        if self.duration_s is not None and self.duration_s < 0:
            raise LoadError(f"duration must be 0 or more seconds, not {self.duration_s}")
        if self.concurrency < 1:
            raise LoadError(f"concurrency must be 1 or more, not {self.concurrency}")
        if self.batch_size < 1:
            raise LoadError(f"batch size must be 1 or more, not {self.batch_size}")
        if not 0.0 <= self.bad_share <= 1.0:
            raise LoadError(f"bad share must be 0-1, not {self.bad_share}")
        if self.channels not in ("worker", "shared"):
            raise LoadError(f"channels must be worker or shared, not {self.channels!r}")
        if self.rpc is Rpc.ODDS:
            odds_sizes(self.game)

    @property
    def hands_per_request(self) -> int:
        return self.batch_size if self.rpc is Rpc.BATCH else 1


@dataclass(frozen=True)
class Latency:
    """Milliseconds from sending a request to its answer, over every request answered."""

    p50: float
    p90: float
    p99: float
    max: float
    mean: float

    @classmethod
    def of(cls, seconds: Sequence[float]) -> Latency:
        if not seconds:
            return cls(0.0, 0.0, 0.0, 0.0, 0.0)
        ms = np.asarray(seconds, dtype=np.float64) * 1000.0
        p50, p90, p99 = np.percentile(ms, [50, 90, 99])
        return cls(float(p50), float(p90), float(p99), float(ms.max()), float(ms.mean()))


@dataclass(frozen=True)
class LoadReport:
    """What a run did. ``requests`` = sum of ``codes``; ``hands`` = requests x hands per
    request; ``bad_sent`` of the requests carried a bad hand, ``refused`` of them were
    refused INVALID_ARGUMENT as meant; ``errors``: requests not answered as meant (see the
    module docstring). Rates are per second of ``elapsed_s``, from the first request to the
    last answer."""

    spec: LoadSpec
    requests: int
    hands: int
    bad_sent: int
    refused: int
    errors: int
    elapsed_s: float
    codes: dict[str, int]
    """Requests by gRPC status code name (``OK``, ``INVALID_ARGUMENT``, ...)."""
    latency_ms: Latency
    client_cpu_s: float = 0.0
    """CPU time this process spent during the run: near ``elapsed_s`` per core used means
    the generator, not the server, may be the limit."""

    @property
    def ok(self) -> int:
        return self.codes.get("OK", 0)

    @property
    def requests_per_s(self) -> float:
        return self.requests / self.elapsed_s if self.elapsed_s > 0 else 0.0

    @property
    def hands_per_s(self) -> float:
        return self.hands / self.elapsed_s if self.elapsed_s > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON types (what ``--json`` writes)."""
        spec = self.spec
        return {
            "targets": list(spec.targets),
            "rpc": spec.rpc.value,
            "game": spec.game.value,
            "concurrency": spec.concurrency,
            "batch_size": spec.hands_per_request,
            "channels": spec.channels,
            "bad_share": spec.bad_share,
            "seed": spec.seed,
            "requests": self.requests,
            "ok": self.ok,
            "errors": self.errors,
            "bad_sent": self.bad_sent,
            "refused": self.refused,
            "hands": self.hands,
            "elapsed_s": round(self.elapsed_s, 3),
            "requests_per_s": round(self.requests_per_s, 1),
            "hands_per_s": round(self.hands_per_s, 1),
            "latency_ms": {k: round(v, 3) for k, v in vars(self.latency_ms).items()},
            "client_cpu_s": round(self.client_cpu_s, 3),
            "codes": dict(sorted(self.codes.items())),
        }


@dataclass(frozen=True)
class Progress:
    """A running total, handed to ``run_load``'s ``progress`` about once a second."""

    elapsed_s: float
    requests: int
    errors: int
    requests_per_s: float
    """Over the last interval."""


def odds_sizes(game: Game) -> tuple[int, int]:
    """(cards a seat ends with, cards of the full table) in the game's Odds deal; LoadError
    for a game Odds does not serve."""
    dealt = GAMES[game].odds
    if dealt is None:
        raise LoadError(
            f"Odds does not serve {GAMES[game].name}: its hands are not dealt by chance"
        )
    return dealt.hand_max, GAMES[game].table_max
