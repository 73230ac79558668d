"""A call's phases untraced (``service.server.trace_phases``, the default): a phase is one
shared object that notes nothing, and work handed to the pool is carried as it is."""

from __future__ import annotations

from service.server import trace_phases


def test_untraced_phases_do_nothing_and_work_is_carried_as_it_is() -> None:
    def work() -> bytes:
        return b"done"

    if trace_phases.phase is not trace_phases._untraced_phase:
        return  # another test in this process turned tracing on: nothing to say here
    with trace_phases.phase("batch.score") as span:
        span.set_attribute("handeval.runouts", 3)
    assert trace_phases.phase("odds.plan") is trace_phases.phase("batch.read")
    assert trace_phases.carried(work) is work
