"""The channel to one or several handeval servers: retries, health-aware round robin,
keepalive and message limits, as a service config and channel arguments."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from handeval_client.errors import HandevalError

SERVICE_NAME = "handeval.v1.HandEvaluator"
DEFAULT_TARGET = "localhost:50051"


def service_config(retries: bool = True, wait_for_ready: bool = False) -> dict[str, Any]:
    """The channel's service config (gRPC's JSON form).

    Every handeval RPC and the health check is idempotent, so a call that fails with
    UNAVAILABLE (server restarting, draining, a pod gone) is retried up to 5 attempts
    (gRPC's cap), backing off 50 ms, 100 ms, 200 ms, ... at most 1 s, with jitter, always
    within the call's deadline. Retry throttling (100 tokens, a failure costs 1, a success
    earns 0.1; no retries below 50) lets a burst of failures be retried, such as every
    call in flight on a pod that died, but stops retrying once failures outrun a tenth of
    the successes, so an outage is not multiplied into a retry storm. A stream is retried
    only until its first reply arrives.

    Client-side health checking (``healthCheckConfig``) watches each server's
    ``grpc.health.v1`` status for the evaluator: round_robin sends calls only to servers
    reporting SERVING, so calls wait out a server's warm-up and move off a draining one as
    soon as it reports NOT_SERVING, before it closes the connection.

    ``wait_for_ready``: a call made while no server is ready (all reconnecting, or the only
    one warming up after a restart) waits for one within its deadline instead of failing
    at once; the load generator uses it so a restarted worker costs latency, not calls.
    """
    config: dict[str, Any] = {"healthCheckConfig": {"serviceName": SERVICE_NAME}}
    if retries:
        config["methodConfig"] = [
            {
                "name": [{"service": SERVICE_NAME}, {"service": "grpc.health.v1.Health"}],
                "waitForReady": wait_for_ready,
                "retryPolicy": {
                    "maxAttempts": 5,
                    "initialBackoff": "0.05s",
                    "maxBackoff": "1s",
                    "backoffMultiplier": 2,
                    "retryableStatusCodes": ["UNAVAILABLE"],
                },
            }
        ]
        config["retryThrottling"] = {"maxTokens": 100, "tokenRatio": 0.1}
    return config


def channel_target(target: str | Sequence[str]) -> str:
    """One gRPC target for one or several servers.

    A string is used as is (``host:port``, ``dns:///name:port``, ``ipv4:a:1,b:2``). A list of
    ``ip:port`` addresses becomes ``ipv4:a:1,b:2`` (or ``ipv6:[::1]:1,...``), which the
    client spreads calls over with ``round_robin``; for host names use one ``dns:///`` name
    that resolves to every server (a Kubernetes headless Service).
    """
    if isinstance(target, str):
        return target
    targets = list(target)
    if len(targets) == 1:
        return targets[0]
    if not targets:
        raise HandevalError.refused("target", "no target given")
    if all(t.startswith("[") for t in targets):
        return "ipv6:" + ",".join(targets)
    if all(re.fullmatch(r"\d{1,3}(\.\d{1,3}){3}:\d+", t) for t in targets):
        return "ipv4:" + ",".join(targets)
    raise HandevalError.refused(
        "target", "several targets must be ip:port addresses; for host names use one dns:/// target"
    )


def channel_options(
    retries: bool = True,
    wait_for_ready: bool = False,
    keepalive_s: float = 60.0,
    max_message_bytes: int = 64 * 1024 * 1024,
) -> list[tuple[str, str | int]]:
    """Channel arguments: the service config, round_robin over every resolved address,
    keepalive pings (every ``keepalive_s`` while calls are open, so a dead connection
    fails fast instead of hanging; the server must permit that interval), and a receive
    limit large enough for big batches."""
    import json  # on first use, as a client is made, not as the package is imported

    return [
        ("grpc.service_config", json.dumps(service_config(retries, wait_for_ready))),
        ("grpc.enable_retries", 1 if retries else 0),
        ("grpc.lb_policy_name", "round_robin"),
        ("grpc.keepalive_time_ms", int(keepalive_s * 1000)),
        ("grpc.keepalive_timeout_ms", 20_000),
        ("grpc.keepalive_permit_without_calls", 0),
        ("grpc.max_receive_message_length", max_message_bytes),
    ]
