"""Child spans for the phases of a call (a batch's read, score and reply; Odds' plan,
run-outs and reply), opened by the servicer around its calls into the core.

Untraced (the default), ``phase`` hands back one shared object that does nothing and
``carried`` the function it was given: the choice is made once, at start-up, when
``service.server.tracing`` calls ``trace_with``, and nothing of OpenTelemetry is imported
before then. Traced, ``phase`` opens an INTERNAL span named ``handeval.<phase>`` under the
current one (the call's SERVER span), and ``carried`` runs a function in the caller's
context, so a phase run in the pool's thread is still the call's child. A phase that raises
is an error named by the exception's type alone: a request's cards stay out of spans, as
they stay out of logs.
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from opentelemetry.trace import Tracer

Work = Callable[[], bytes]


class Noted(Protocol):
    """What a phase may say about itself (an OpenTelemetry span has this method)."""

    def set_attribute(self, key: str, value: str | bool | int | float) -> None: ...


class _Untraced:
    """The phase of an untraced call: enters, notes and leaves doing nothing."""

    def __enter__(self) -> _Untraced:
        return self

    def __exit__(self, *_: object) -> None:
        return None

    def set_attribute(self, key: str, value: str | bool | int | float) -> None:
        return None


_UNTRACED = _Untraced()


def _untraced_phase(name: str) -> AbstractContextManager[Noted]:
    return _UNTRACED


def _uncarried(work: Work) -> Work:
    return work


phase: Callable[[str], AbstractContextManager[Noted]] = _untraced_phase
"""``with trace_phases.phase("batch.score") as span:`` a child span of the call (or nothing)."""
carried: Callable[[Work], Work] = _uncarried
"""``pool.submit(trace_phases.carried(run))``: ``run`` in this context (or as it is)."""


def trace_with(tracer: Tracer) -> None:
    """Open phases' spans with ``tracer`` from now on (``tracing`` calls it at start-up)."""
    from opentelemetry.trace import Status, StatusCode

    global phase, carried

    @contextmanager
    def traced_phase(name: str) -> Iterator[Noted]:
        with tracer.start_as_current_span(
            f"handeval.{name}", record_exception=False, set_status_on_exception=False
        ) as span:
            try:
                yield span
            except BaseException as error:
                span.set_status(Status(StatusCode.ERROR, type(error).__name__))
                raise

    def in_context(work: Work) -> Work:
        return functools.partial(contextvars.copy_context().run, work)

    phase, carried = traced_phase, in_context
