"""Server settings: each one a flag and an environment variable, the flag winning.

``--max-batch-hands`` is ``HANDEVAL_MAX_BATCH_HANDS``, and so on for every field of
``Settings``. Values are read as text and checked here, so any bad value, from a flag or
from the environment, is a ``SettingError`` with one sentence naming both spellings.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import inspect
import itertools
import math
import os
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from evaluators.odds import OddsLimits
from service.server.logs import CORE_LOG_MODES, LEVELS

ENV_PREFIX = "HANDEVAL_"


class SettingError(ValueError):
    """A setting the server cannot start with; the message is the one line to show."""


def default_workers() -> int:
    """The CPUs this process may run on (its affinity mask, which containers narrow)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


@dataclass(frozen=True)
class Settings:
    """How one server runs. Defaults suit a container: listen on every interface."""

    host: str = "0.0.0.0"
    """Interface to listen on; a wildcard (``0.0.0.0`` or ``::``) listens on IPv4 and IPv6."""
    port: int = 50051
    """gRPC port; 0 picks a free one (the ``ready`` log line reports it)."""
    metrics: bool = True
    """Count calls and serve Prometheus ``/metrics`` (off: neither, for measuring the cost)."""
    metrics_port: int = 9464
    """Prometheus ``/metrics`` HTTP port; 0 picks a free one (logged in ``start``/``workers``)."""
    metrics_host: str = ""
    """Interface ``/metrics`` listens on; empty: ``host``'s (every interface by default, for
    Prometheus scraping inside the cluster). ``127.0.0.1`` keeps it to the pod."""
    workers: int = dataclasses.field(default_factory=default_workers)
    """Server processes sharing the port (``service.server.workers``); default one per CPU."""
    threads: int = 32
    """Threads scoring batches of over 16,384 hands, and Odds, in one process (smaller
    batches and the rest run on the event loop)."""
    max_batch_hands: int = 100_000
    """Hands in one EvaluateBatch; more is RESOURCE_EXHAUSTED."""
    max_exact_runouts: int = OddsLimits.max_exact_runouts
    """An Odds request with ``samples`` 0 is enumerated exactly when it has at most this many
    run-outs (the default makes heads-up Poker high before the flop exact), else sampled."""
    odds_samples: int = OddsLimits.default_samples
    """Run-outs sampled for an Odds request with ``samples`` 0 that is over
    ``max_exact_runouts``."""
    max_odds_samples: int = OddsLimits.max_samples
    """Most run-outs one Odds request may ask to sample; more is RESOURCE_EXHAUSTED."""
    max_message_bytes: int = 0
    """Largest request and reply; 0 derives both from ``max_batch_hands``
    (``service.server.limits.message_limits``: 1,765,553 and 3,165,567 bytes for 100,000 hands)."""
    grace_seconds: float = 10.0
    """On SIGTERM/SIGINT, how long in-flight calls may take before they are cancelled."""
    log_level: str = "info"
    """One of debug, info, warning, error; logs are JSON lines on stderr."""
    reflection: bool = True
    """Serve grpc.reflection so ``grpcurl list`` works without the protos."""
    max_concurrent_rpcs: int = 0
    """Batches and Odds running in the pool at once per process; more are RESOURCE_EXHAUSTED
    at once. Cheap calls, scored on the event loop, hold no slot. 0: three quarters of
    ``threads`` (``service.server.limits.pool_slots``)."""
    default_deadline_seconds: float = 30.0
    """Deadline of a call that carries none, from its start; 0: none."""
    keepalive_seconds: float = 60.0
    """The server pings a connection quiet this long, to find clients that are gone."""
    keepalive_timeout_seconds: float = 20.0
    """A ping unanswered this long closes the connection."""
    min_ping_interval_seconds: float = 30.0
    """Clients may ping this often (ours: every 60 s); faster, the server sends them away."""
    max_connection_age_seconds: float = 60.0
    """Connections are asked to reconnect after this long (+-10%), so new servers behind a
    plain Service get their share; 0: never."""
    max_connection_age_grace_seconds: float = 30.0
    """Calls open on such a connection get this long to finish before it is closed."""
    tls_cert: str = ""
    """PEM certificate chain of the server; with ``tls_key``, the gRPC port speaks TLS."""
    tls_key: str = ""
    """PEM private key of ``tls_cert``."""
    tls_client_ca: str = ""
    """PEM CA bundle; when set, clients must present a certificate it signed (mutual TLS)."""
    health_port: int = 0
    """A plaintext port serving only grpc.health.v1 (Kubernetes probes with TLS on); 0: off."""
    health_host: str = ""
    """Interface the health port listens on; empty: ``host``'s. ``0.0.0.0`` lets the kubelet
    probe a server whose gRPC port is on the pod's loopback behind the TLS front."""
    max_streams_per_connection: int = 100
    """Calls open at once on one client connection (HTTP/2); further ones wait in the client."""
    stream_idle_seconds: float = 30.0
    """An EvaluateStream with no request for this long is ended DEADLINE_EXCEEDED; 0: never."""
    max_connections: int = 0
    """Client connections open at once on the gRPC port; one more is closed as soon as it is
    accepted (the client sees UNAVAILABLE at once and may retry elsewhere). 0: the process's
    open-file limit less ``FD_RESERVE`` (``service.server.build``), so connections can never
    use up the descriptors the server needs."""
    max_pending_calls: int = 10_000
    """Calls gRPC's core holds for the server before it takes them, per process; beyond this
    core drops new ones (CANCELLED, uncounted). gRPC's own default (1,000, then at random
    up to 3,000) dropped a burst of 5,000 unary calls that the server answers in seconds."""
    max_metadata_bytes: int = 16 * 1024
    """Largest request header block (gRPC metadata); a larger one is refused, always
    (gRPC's default refuses 8-16 KiB at random)."""
    handshake_timeout_seconds: float = 10.0
    """A connection that has not finished its TLS and HTTP/2 handshake by then is closed."""
    max_connection_idle_seconds: float = 60.0
    """A connection with no call open this long is sent GOAWAY (clients reconnect when they
    next call); 0: never."""
    grpc_core_logs: str = "off"
    """gRPC's C core writes its own text lines to stderr (callers can cause them): ``off``
    drops them, ``json`` passes each on as a ``grpc_core`` JSON line, a few a second."""

    cpu_budget_seconds: float = 0.0
    """CPU-seconds of batches and Odds (each its estimate: hands or run-outs x seats at the
    game's cost) reserved at once per process; 0: 10 per CPU the pod may use (cgroup
    ``cpu.max``, else the CPUs usable), shared among ``workers``
    (``service.server.admission.cost_budgets``)."""
    memory_budget_mib: int = 0
    """MiB of batch and Odds working sets plus batch replies not yet sent, reserved at once
    per process; 0: an eighth of the pod's memory limit (cgroup ``memory.max``; 1 GiB
    when there is none), shared among ``workers``."""
    peer_share: float = 0.5
    """The most of either budget one client connection (``context.peer()``, or with
    ``peer_from_forwarded`` the client the front names) may hold."""
    peer_from_forwarded: bool = False
    """Charge a batch or Odds call to the client named by the ``for=`` of its ``forwarded``
    header (else its connection), not to its connection: behind the HTTP/2 front (nghttpx
    with ``add-forwarded=for``), where every connection is the front's. Only safe where
    the front strips the header clients send (``strip-incoming-forwarded=yes``) and
    clients cannot reach the server past it: otherwise a client names itself anew on each
    call and escapes its share (``service.server.peers``)."""
    admission_wait_seconds: float = 1.0
    """A batch or Odds call that does not fit its budgets waits this long (at most until
    its deadline), then is RESOURCE_EXHAUSTED naming the budget."""
    odds_threads: int = 0
    """Odds calls computing at once in the pod, across all ``workers`` processes
    (``service.server.odds_lane``); an admitted call beyond them waits for one to end. 0:
    the CPUs the pod may use less one, at least 1 (``service.server.limits.odds_lane_width``),
    so a core stays for the event loops, which answer every cheap call."""
    receive_window_bytes: int = 65_535
    """Bytes a client may send on a stream before the server reads its request (the HTTP/2
    initial window, with gRPC's BDP probing off); a read opens the window for its whole
    message. 0: gRPC's own, which grows it to 4-8 MiB a stream as it probes the link, so
    requests nobody has read yet pile up below the servicer (``service.server.build``)."""
    upload_seconds: float = 10.0
    """A unary call whose request has not fully arrived this long after the call began (or
    by its deadline) is ended DEADLINE_EXCEEDED (``service.server.uploads``); 0: only the
    deadline."""
    upload_budget_mib: int = 0
    """MiB that calls still receiving their request may hold per process, each counted at
    the receive limit; a call over it ends the one waiting longest RESOURCE_EXHAUSTED.
    0: the memory budget's size (``memory_budget_mib``)."""
    otlp_endpoint: str = ""
    """OTLP/gRPC collector for traces (``http://collector:4317``): a span per evaluator call
    (``service.server.tracing``, the ``otel`` extra); empty: ``OTEL_EXPORTER_OTLP_ENDPOINT``
    if set, else no tracing."""
    slow_call_seconds: float = 0.0
    """With tracing on, a unary call that takes at least this long logs a ``slow_call`` line
    carrying its ``trace_id`` (the way from the log to the call's spans); 0: none."""

    def changed(self) -> dict[str, Any]:
        """The settings not at their defaults: what the ``start`` log line lists, so a
        reader sees what this deployment set rather than every knob
        (``handeval serve --help`` and docs/configuration.md give the defaults)."""
        found = {}
        for field in dataclasses.fields(self):
            default = (
                field.default_factory()
                if field.default_factory is not dataclasses.MISSING
                else field.default
            )
            if getattr(self, field.name) != default:
                found[field.name] = getattr(self, field.name)
        return found

    def odds_limits(self) -> OddsLimits:
        return OddsLimits(self.max_exact_runouts, self.odds_samples, self.max_odds_samples)

    def address(self) -> str:
        """``host:port`` as gRPC wants it (IPv6 hosts bracketed)."""
        host = self.host
        if ":" in host and not host.startswith("["):
            host = f"[{host}]"
        return f"{host}:{self.port}"

    @classmethod
    def from_args(
        cls, args: argparse.Namespace, environ: Mapping[str, str] | None = None
    ) -> Settings:
        """Flags from ``add_serve_arguments`` over ``HANDEVAL_*`` variables over defaults."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for field in dataclasses.fields(cls):
            flag_value = getattr(args, field.name, None)
            env_name = ENV_PREFIX + field.name.upper()
            raw = flag_value if flag_value is not None else env.get(env_name)
            if raw is None or raw == "":
                continue
            if isinstance(raw, bool):
                values[field.name] = raw
                continue
            try:
                values[field.name] = _PARSERS[field.name](str(raw))
            except ValueError as error:
                raise SettingError(f"bad setting {spelled(field.name)}: {raw!r}: {error}") from None
        settings = cls(**values)
        settings.check()
        return settings

    def check(self) -> None:
        """Settings that are fine one by one but not together."""
        if self.port and self.metrics_port == self.port:
            raise SettingError(
                f"bad setting {spelled('metrics_port')}: {self.metrics_port} is also the "
                f"gRPC {spelled('port')}"
            )
        if self.health_port and self.health_port in (self.port, self.metrics_port):
            raise SettingError(
                f"bad setting {spelled('health_port')}: {self.health_port} is also the gRPC "
                "or metrics port"
            )
        if bool(self.tls_cert) != bool(self.tls_key):
            raise SettingError(
                f"bad setting {spelled('tls_cert')} / {spelled('tls_key')}: give both or neither"
            )
        if self.odds_samples > self.max_odds_samples:
            raise SettingError(
                f"bad setting {spelled('odds_samples')}: {self.odds_samples} is over "
                f"{spelled('max_odds_samples')} {self.max_odds_samples}"
            )
        if self.tls_client_ca and not self.tls_cert:
            raise SettingError(
                f"bad setting {spelled('tls_client_ca')}: needs {spelled('tls_cert')} and "
                f"{spelled('tls_key')}"
            )


def metrics_unavailable(settings: Settings, error: Exception) -> str:
    """Why ``/metrics`` could not be served, and the two ways out (``--metrics-port 0`` or
    ``--no-metrics``): a second server on the defaults meets this first."""
    host = settings.metrics_host or settings.host
    return (
        f"cannot serve /metrics on {host}:{settings.metrics_port}: {error}; move it with "
        f"{spelled('metrics_port')} (0 picks a free port) or turn it off with --no-metrics "
        f"({ENV_PREFIX}METRICS=off)"
    )


def spelled(name: str) -> str:
    """A setting as its two spellings, for messages: ``--metrics-port (HANDEVAL_METRICS_PORT)``."""
    return f"{_flag(name)} ({ENV_PREFIX}{name.upper()})"


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def _int_in(low: int, high: int | None = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise ValueError("not a whole number") from None
        if value < low or (high is not None and value > high):
            raise ValueError(f"must be {low} or more" if high is None else f"must be {low}-{high}")
        return value

    return parse


def _zero_or(parse: Callable[[str], int]) -> Callable[[str], int]:
    return lambda text: 0 if text.strip() == "0" else parse(text)


def _seconds(text: str) -> float:
    try:
        value = float(text.strip())
    except ValueError:
        raise ValueError("not a number of seconds") from None
    if not math.isfinite(value) or value < 0:
        raise ValueError("must be 0 or more seconds")
    return value


def _fraction(text: str) -> float:
    try:
        value = float(text.strip())
    except ValueError:
        raise ValueError("not a number") from None
    if not 0 < value <= 1:
        raise ValueError("must be more than 0 and at most 1")
    return value


def _host(text: str) -> str:
    host = text.strip()
    if not host or any(c.isspace() for c in host) or "/" in host:
        raise ValueError("not a host name or address")
    return host


def _file(text: str) -> str:
    path = text.strip()
    if not os.path.isfile(path) or not os.access(path, os.R_OK):
        raise ValueError("no readable file there")
    return path


def _one_of(words: tuple[str, ...]) -> Callable[[str], str]:
    def parse(text: str) -> str:
        word = text.strip().lower()
        if word not in words:
            raise ValueError(f"must be one of {', '.join(words)}")
        return word

    return parse


def _switch(text: str) -> bool:
    word = text.strip().lower()
    if word in ("1", "true", "yes", "on"):
        return True
    if word in ("0", "false", "no", "off"):
        return False
    raise ValueError("must be true or false")


_PARSERS: dict[str, Callable[[str], Any]] = {
    "host": _host,
    "port": _int_in(0, 65535),
    "metrics": _switch,
    "metrics_port": _int_in(0, 65535),
    "metrics_host": _host,
    "workers": _int_in(1),
    "threads": _int_in(1, 10_000),
    "max_batch_hands": _int_in(1),
    "max_exact_runouts": _int_in(0),
    "odds_samples": _int_in(1),
    "max_odds_samples": _int_in(1),
    "max_message_bytes": _zero_or(_int_in(64 * 1024, 2**31 - 1)),
    "grace_seconds": _seconds,
    "log_level": _one_of(LEVELS),
    "reflection": _switch,
    "max_concurrent_rpcs": _int_in(0),
    "default_deadline_seconds": _seconds,
    "keepalive_seconds": _seconds,
    "keepalive_timeout_seconds": _seconds,
    "min_ping_interval_seconds": _seconds,
    "max_connection_age_seconds": _seconds,
    "max_connection_age_grace_seconds": _seconds,
    "tls_cert": _file,
    "tls_key": _file,
    "tls_client_ca": _file,
    "health_port": _int_in(0, 65535),
    "health_host": _host,
    "max_streams_per_connection": _int_in(1, 2**31 - 1),
    "stream_idle_seconds": _seconds,
    "max_connections": _int_in(0),
    "max_pending_calls": _int_in(1, 2**31 - 1),
    "max_metadata_bytes": _int_in(1024, 2**31 - 1),
    "handshake_timeout_seconds": _seconds,
    "max_connection_idle_seconds": _seconds,
    "grpc_core_logs": _one_of(CORE_LOG_MODES),
    "cpu_budget_seconds": _seconds,
    "memory_budget_mib": _int_in(0),
    "peer_share": _fraction,
    "peer_from_forwarded": _switch,
    "admission_wait_seconds": _seconds,
    "odds_threads": _int_in(0),
    "receive_window_bytes": _zero_or(_int_in(1024, 2**31 - 1)),
    "upload_seconds": _seconds,
    "upload_budget_mib": _int_in(0),
    "otlp_endpoint": str.strip,
    "slow_call_seconds": _seconds,
}

_HELP = {
    "host": "interface to listen on",
    "port": "gRPC port (0: any free port)",
    "metrics": "count calls and serve Prometheus /metrics (on/off)",
    "metrics_port": "Prometheus /metrics port (0: any free port)",
    "metrics_host": "interface /metrics listens on (empty: --host's)",
    "workers": "server processes sharing the port",
    "threads": "threads for batches over 16,384 hands and Odds, per process",
    "max_batch_hands": "most hands in one EvaluateBatch",
    "max_exact_runouts": "Odds enumerates exactly up to this many run-outs, else samples",
    "odds_samples": "run-outs Odds samples when exact is out of reach and none are asked",
    "max_odds_samples": "most run-outs one Odds request may sample",
    "max_message_bytes": "largest request or reply in bytes (0: from --max-batch-hands)",
    "grace_seconds": "on SIGTERM, time in-flight calls get to finish",
    "log_level": "one of " + ", ".join(LEVELS),
    "reflection": "serve gRPC reflection",
    "max_concurrent_rpcs": "batches and Odds running at once per process (0: 3/4 of --threads)",
    "default_deadline_seconds": "deadline of calls that carry none (0: none)",
    "keepalive_seconds": "ping a connection quiet this long",
    "keepalive_timeout_seconds": "close a connection whose ping goes unanswered this long",
    "min_ping_interval_seconds": "fastest client pings permitted",
    "max_connection_age_seconds": "ask clients to reconnect after this long (0: never)",
    "max_connection_age_grace_seconds": "time calls get on such a connection",
    "tls_cert": "PEM certificate chain: serve TLS (with --tls-key)",
    "tls_key": "PEM private key of --tls-cert",
    "tls_client_ca": "PEM CA: require client certificates it signed",
    "health_port": "plaintext health-only port (0: off)",
    "health_host": "interface the health port listens on (empty: --host's)",
    "max_streams_per_connection": "calls open at once on one client connection",
    "stream_idle_seconds": "end an EvaluateStream idle this long (0: never)",
    "max_connections": "client connections open at once (0: open-file limit less a reserve)",
    "max_pending_calls": "calls gRPC core holds before the server takes them",
    "max_metadata_bytes": "largest request header block",
    "handshake_timeout_seconds": "close a connection still handshaking after this long",
    "max_connection_idle_seconds": "GOAWAY to a connection with no call this long (0: never)",
    "grpc_core_logs": "gRPC C core's own stderr lines: off, or json",
    "cpu_budget_seconds": "CPU-s of batches and Odds admitted at once per process (0: 10 per CPU)",
    "memory_budget_mib": "MiB of working sets and unsent replies per process (0: pod memory / 8)",
    "peer_share": "most of either budget one connection may hold (0-1)",
    "peer_from_forwarded": "peer = the front's Forwarded for= (only behind a front that strips it)",
    "admission_wait_seconds": "how long a call waits for its budget before it is refused",
    "odds_threads": "Odds calls computing at once across the workers (0: CPUs less one)",
    "receive_window_bytes": "bytes a stream may send before its request is read (0: gRPC's own)",
    "upload_seconds": "end a unary call whose request has not arrived by then (0: deadline only)",
    "upload_budget_mib": "MiB of requests still arriving per process (0: the memory budget)",
    "otlp_endpoint": "send traces to this OTLP/gRPC collector (empty: OTEL_EXPORTER_OTLP_ENDPOINT)",
    "slow_call_seconds": "with tracing on, log a slow_call line per unary call this slow (0: none)",
}


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    """Add a flag per setting; absent flags stay None so the environment can fill them."""
    defaults = Settings()
    for field in dataclasses.fields(Settings):
        env_name = ENV_PREFIX + field.name.upper()
        shown = _shown_default(field, getattr(defaults, field.name))
        text = f"{_HELP[field.name]} (env {env_name}; default {shown})"
        if field.type in (bool, "bool"):
            parser.add_argument(
                _flag(field.name), action=argparse.BooleanOptionalAction, default=None, help=text
            )
        else:
            parser.add_argument(_flag(field.name), default=None, metavar="VALUE", help=text)


def configuration_table() -> str:
    """The settings as a Markdown table (flag, environment, default, meaning), from the
    fields' docstrings: docs/configuration.md carries it, and a test holds it fresh."""
    meanings = _field_docstrings()
    defaults = Settings()
    rows = ["| flag | environment | default | meaning |", "| --- | --- | --- | --- |"]
    for field in dataclasses.fields(Settings):
        rows.append(
            f"| `{_flag(field.name)}` | `{ENV_PREFIX}{field.name.upper()}` "
            f"| {_shown_default(field, getattr(defaults, field.name))} "
            f"| {meanings[field.name]} |"
        )
    return "\n".join(rows) + "\n"


def _shown_default(field: dataclasses.Field[Any], value: Any) -> str:
    if field.default_factory is not dataclasses.MISSING:
        return "CPUs usable"
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value) if value != "" else "—"


def _field_docstrings() -> dict[str, str]:
    """Each field's docstring as one Markdown line (``x`` becomes `x`)."""
    (settings,) = ast.parse(textwrap.dedent(inspect.getsource(Settings))).body
    assert isinstance(settings, ast.ClassDef)
    found: dict[str, str] = {}
    for node, after in itertools.pairwise(settings.body):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            text = " ".join(after.value.value.split())
            found[node.target.id] = text.replace("``", "`").replace("|", "\\|")
    return found


if __name__ == "__main__":
    print(configuration_table(), end="")
