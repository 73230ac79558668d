"""Admission by cost: the lane of the calls that run in the pool (batches, Odds) and of
every batch's reply.

Cheap work (a unary Evaluate, Showdown or ListGames, a stream's message) is scored on the
event loop in microseconds and never awaits while it runs, so it holds nothing and is
never refused for load: at most one such call runs at a time by construction. Batches
and Odds reserve their cost first (``CostAdmission``): CPU and working memory estimated
from the game's cost facts (``evaluators.costs``) and, for a batch, its reply's bytes,
against per-process budgets derived from the pod's limits (``cost_budgets``); a call that
does not fit waits briefly, first come first served, then is refused RESOURCE_EXHAUSTED
naming the budget, and one peer (its connection, ``context.peer()``, or behind the HTTP/2
front the client the front names: ``service.server.peers``) may hold only ``peer_share``
of either budget. A call bound for the pool also takes one of its ``slots``
(``--max-concurrent-rpcs``, ``service.server.limits.pool_slots``) or is refused at once. A
call in the pool holds its working set until its thread has stopped (a cancelled batch
counts until it has really let go) and a batch's reply until gRPC reports the call done,
sent or cancelled: replies a client never reads stay counted. Counts are per process;
``--workers N`` admits N times as many.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from evaluators.costs import CallCost
from service.server.config import default_workers
from service.server.peers import PeerOf, connection_peer
from service.server.pod_limits import cpu_limit, memory_limit


@dataclass(frozen=True)
class Budgets:
    """One process's budgets for the calls that reserve a cost (``CostAdmission``).

    ``cpu_seconds``: CPU reserved by calls running at once (each its estimate, given back
    when its work ends); ``memory_bytes``: working sets of running calls plus replies not
    yet sent; ``peer_share``: the fraction of either one peer may hold; ``wait_seconds``:
    how long a call that does not fit waits before it is refused; ``slots``: calls in
    the pool at once (``pool_slots``)."""

    cpu_seconds: float
    memory_bytes: int
    peer_share: float
    wait_seconds: float
    slots: int


class OverBudget(Exception):
    """A call did not fit in time; the message names the budget, for the caller."""


class Reservation:
    """What one call holds: CPU and a working set until its work ends (``work_done``),
    its reply's bytes until gRPC reports the call done (``release``)."""

    def __init__(self, lane: CostAdmission, cost: CallCost, peer: str, pooled: bool) -> None:
        self.lane = lane
        self.peer = peer
        self.pooled = pooled
        self.cpu = cost.cpu_seconds
        self.working = cost.working_bytes
        self.request = cost.request_bytes
        self.reply = HELD_COPIES * (cost.reply_bytes + cost.request_bytes)
        self.working_held = True
        self.reply_held = True

    def work_done(self, reply_bytes: int | None = None) -> None:
        """The work has ended (any thread): give back its CPU, working set and slot; what
        stays held until the call is over is then figured from the reply's real size,
        ``reply_bytes``, when given."""
        self.lane.work_done(self, reply_bytes)

    def release(self, _done: Any = None) -> None:
        """The call is over (sent, failed or cancelled): give back everything still held.
        Idempotent; fits ``context.add_done_callback``."""
        self.lane.release(self)


class CostAdmission:
    """Reserves each call's ``CallCost`` against ``Budgets`` before its work starts.

    A call fits when the process's CPU and memory reserved, and its peer's, stay within
    the budgets (one call larger than a whole budget fits only when nothing else holds
    it, so no call is refused for ever), and, for a call bound for the pool, a slot is
    free. One that does not fit a budget waits, first come first served, up to its wait,
    then is refused with ``OverBudget`` naming what was full; one that finds every slot
    taken or its peer over its share is refused at once. Counters are guarded by a lock
    (work ends on pool threads); waiters are woken on the event loop.

    ``on_idle`` (``service.allocator.return_freed_memory``) runs in a thread once nothing
    has held a working set for ``IDLE_SECONDS``: a burst's freed memory goes back to the
    kernel, while calls in a row keep reusing it. Work ending on a pool thread only notes
    the time (``_quiet_since``); one timer on the loop, armed when a call arrives, looks at
    it, so a call costs the loop no wake-up for it. ``peer_of`` names the peer a call's
    context is charged to (``service.server.peers.peer_of``).
    """

    def __init__(
        self,
        budgets: Budgets,
        on_idle: Callable[[], object] | None = None,
        peer_of: PeerOf = connection_peer,
    ) -> None:
        self.budgets = budgets
        self.peer_of = peer_of
        self._on_idle = on_idle
        self._working = 0
        self._idle_check: asyncio.TimerHandle | None = None
        self._quiet_since: float | None = None
        self._lock = threading.Lock()
        self.cpu = 0.0
        self.memory = 0
        self.running = 0
        self._peers: dict[str, list[float]] = {}
        self._waiting: deque[tuple[asyncio.Future[Reservation], Reservation]] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None

    async def reserve(self, cost: CallCost, peer: str, pooled: bool, wait: float) -> Reservation:
        """Hold ``cost`` for ``peer``, waiting up to ``wait`` seconds for room."""
        self._loop = asyncio.get_running_loop()
        if self._idle_check is None and self._on_idle is not None:
            self._idle_check = self._loop.call_later(IDLE_SECONDS, self._still_idle)
        held = Reservation(self, cost, peer, pooled)
        with self._lock:
            full = self._full(held)
            if full is None and not self._waiting:
                self._take(held)
                return held
        if full is None:
            full = "the server is busy with calls that came first"
        if wait <= 0 or full.startswith((PEER_FULL, SLOTS_FULL)):
            self._refused()
            raise OverBudget(full)
        waiting = sum(w[1].working + w[1].reply for w in self._waiting)
        if waiting + held.working + held.reply > self.budgets.memory_bytes:
            self._refused()
            raise OverBudget(f"{full}, and the calls waiting for room already hold its size")
        ready: asyncio.Future[Reservation] = self._loop.create_future()
        self._waiting.append((ready, held))
        self._grant()
        try:
            return await asyncio.wait_for(ready, wait)
        except TimeoutError:
            self._refused()
            with self._lock:
                full = self._full(held)
            raise OverBudget(
                f"{full or 'the server is busy with calls that came first'}; waited {wait:g} s"
            ) from None
        except BaseException:
            if ready.done() and not ready.cancelled():
                held.release()  # granted as the caller went: nobody will give it back
            raise
        finally:
            self._waiting = deque(w for w in self._waiting if w[1] is not held)

    def _full(self, call: Reservation) -> str | None:
        """What ``call`` does not fit in, for people; None when it fits."""
        budgets = self.budgets
        memory = call.working + call.reply
        peer = self._peers.get(call.peer, [0.0, 0.0])
        if call.pooled and self.running >= budgets.slots:
            return f"{SLOTS_FULL} {budgets.slots} threads for batches and Odds are busy"
        if self.cpu and self.cpu + call.cpu > budgets.cpu_seconds:
            return (
                f"this call needs ~{call.cpu:.3g} CPU-s and the server's CPU budget "
                f"({budgets.cpu_seconds:g} CPU-s, --cpu-budget-seconds) has "
                f"{max(budgets.cpu_seconds - self.cpu, 0):.3g} left"
            )
        if self.memory and self.memory + memory > budgets.memory_bytes:
            return (
                f"this call needs ~{_mib(memory)} and the server's memory budget "
                f"({_mib(budgets.memory_bytes)}, --memory-budget-mib) has "
                f"{_mib(max(budgets.memory_bytes - self.memory, 0))} left (working sets "
                "and replies not yet read)"
            )
        share = budgets.peer_share
        if peer[0] and peer[0] + call.cpu > share * budgets.cpu_seconds:
            return (
                f"{PEER_FULL} {peer[0]:.3g} CPU-s of the CPU budget; one "
                f"peer may hold {share:.0%} of it (--peer-share)"
            )
        if peer[1] and peer[1] + memory > share * budgets.memory_bytes:
            return (
                f"{PEER_FULL} {_mib(int(peer[1]))} of the memory budget "
                f"(working sets and replies not yet read); one peer may hold {share:.0%} of "
                "it (--peer-share)"
            )
        return None

    def _take(self, call: Reservation) -> None:
        memory = call.working + call.reply
        self._working += 1
        self._quiet_since = None
        self.cpu += call.cpu
        self.memory += memory
        self.running += call.pooled  # a bool: a call in the pool takes a slot
        peer = self._peers.setdefault(call.peer, [0.0, 0.0])
        peer[0] += call.cpu
        peer[1] += memory

    def _give_back(self, call: Reservation, cpu: float, memory: int, slot: bool) -> None:
        """Under the lock."""
        self.cpu = max(self.cpu - cpu, 0.0)
        self.memory -= memory
        self.running -= slot
        peer = self._peers.setdefault(call.peer, [0.0, 0.0])
        peer[0] = max(peer[0] - cpu, 0.0)
        peer[1] -= memory
        if peer[1] <= 0 and peer[0] <= 0:
            del self._peers[call.peer]

    def work_done(self, call: Reservation, reply_bytes: int | None) -> None:
        with self._lock:
            if not call.working_held:
                return
            call.working_held = False
            freed = call.working
            held = None if reply_bytes is None else HELD_COPIES * (reply_bytes + call.request)
            if held is not None and held < call.reply:
                freed += call.reply - held
                call.reply = held
            self._give_back(call, call.cpu, freed, call.pooled)
            self._working -= 1
            self._note_quiet()
        self._wake()  # outside the lock: the loop's grant takes it again

    def release(self, call: Reservation) -> None:
        self.work_done(call, None)  # takes and lets go of the lock first: never nested
        with self._lock:
            if not call.reply_held:
                return
            call.reply_held = False
            self._give_back(call, 0.0, call.reply, False)
            self._note_quiet()
        self._wake()

    def _wake(self) -> None:
        if self._waiting and self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._grant)

    def _refused(self) -> None:
        """A refused call's request is freed now: count it towards going idle."""
        with self._lock:
            self._note_quiet()

    def _note_quiet(self) -> None:
        """Under the lock: when nothing holds a working set, it has been so since now."""
        self._quiet_since = None if self._working else time.monotonic()

    def _still_idle(self) -> None:
        """On the loop, ``IDLE_SECONDS`` after a call arrived and then again until it is so:
        ``on_idle`` once nothing has held a working set for ``IDLE_SECONDS``; the timer
        stops then, until the next call arrives."""
        with self._lock:
            quiet_since = self._quiet_since
        quiet = 0.0 if quiet_since is None else time.monotonic() - quiet_since
        assert self._loop is not None
        if quiet_since is None or quiet < IDLE_SECONDS:
            self._idle_check = self._loop.call_later(IDLE_SECONDS - quiet, self._still_idle)
            return
        self._idle_check = None
        if self._on_idle is not None:
            self._loop.run_in_executor(None, self._on_idle)

    def _grant(self) -> None:
        """On the loop: start the waiters that now fit, oldest first."""
        for ready, held in list(self._waiting):
            if ready.done():
                continue
            with self._lock:
                if self._full(held) is not None:
                    continue
                self._take(held)
            ready.set_result(held)
            self._waiting = deque(w for w in self._waiting if w[1] is not held)


HELD_COPIES = 2
"""Until a call is over, grpc.aio keeps its request twice (the bytes read and the parsed
message, both referenced by the handler's frame) and its reply twice (our bytes and grpc
core's copy waiting to be sent), as replies stuck behind a window of 0 showed
(docs/reliability.md, "Cost")."""
PEER_FULL = "this connection already holds"
"""How a refusal over a peer's share begins: such a call is refused without waiting (the
peer is the one keeping itself out), and so is one when the calls already waiting hold
the memory budget's size (a waiting call holds its request)."""
SLOTS_FULL = "all"
"""How a refusal for want of a pool slot begins: refused at once, as ``--max-concurrent-
rpcs`` has always been (nothing queues behind the busy ones)."""
IDLE_SECONDS = 1.0
"""How long no call may hold a working set before the cost lane's ``on_idle`` runs."""


def _mib(count: int) -> str:
    return f"{count / 2**20:.1f} MiB"


CPU_SECONDS_PER_CPU = 10.0
"""The CPU budget's default per CPU the pod may use: a call of up to this many CPU-seconds
(10M sampled run-outs of 23 Poker high seats is ~9) runs beside another, and work never
queues up much more than a deadline's worth (30 s) of CPU."""
ASSUMED_POD_BYTES = 1 << 30
"""The pod's memory when its cgroup sets no limit: the manifests' (``k8s/base``) 1 GiB."""
MEMORY_BUDGET_FRACTION = 8
"""The memory budget's default is the pod's memory over this: room for the interpreter,
the tables, gRPC's own buffers and what the allocator keeps."""


def cost_budgets(
    cpu_budget_seconds: float,
    memory_budget_mib: int,
    peer_share: float,
    wait_seconds: float,
    slots: int,
    workers: int,
    cpus: float | None = None,
    pod_bytes: int | None = None,
) -> Budgets:
    """The budgets in force in one of ``workers`` processes: the settings, or where they
    are 0 the pod's share (``cpus`` and ``pod_bytes``, read from the cgroup when None)."""
    cpus = cpus or cpu_limit() or float(default_workers())
    pod_bytes = pod_bytes or memory_limit() or ASSUMED_POD_BYTES
    return Budgets(
        cpu_seconds=cpu_budget_seconds or cpus * CPU_SECONDS_PER_CPU / workers,
        memory_bytes=memory_budget_mib * 2**20 or pod_bytes // MEMORY_BUDGET_FRACTION // workers,
        peer_share=peer_share,
        wait_seconds=wait_seconds,
        slots=slots,
    )
