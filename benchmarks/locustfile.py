"""Locust users for handeval, for teams whose load tests live in Locust.

Follows Locust's gRPC example: gRPC made gevent-friendly before any channel opens, a
``grpc_interceptor.ClientInterceptor`` that times each call and fires Locust's ``request``
event, one channel per user. Each user's channel is ``handeval_client.channel``'s (retries on
UNAVAILABLE, client-side health checking, round_robin over every address of the host)
with a subchannel pool of its own, so each user has its own connection, as separate
clients would: users then spread over the pods behind a Service, or the processes behind
one port, instead of all riding gRPC's one shared connection per target.

    pip install -e '.[bench]'
    locust -f benchmarks/locustfile.py --headless -u 50 -r 10 -t 60s \\
        --host 127.0.0.1:50051 --handeval-game tonk --handeval-batch-size 500

``--host`` is any gRPC target (``dns:///handeval-headless:50051`` for every pod of a headless
Service). Tasks: ``Evaluate`` (weight 3) and ``EvaluateBatch`` (weight 1) of valid random
hands from ``evaluators.deal``, dealt once per user; batches ask for column replies
(``columns``), the layout a batch caller reads fastest. ``handeval load`` is the lighter tool
for one machine; this file is for an existing Locust setup and its web UI.
"""

from __future__ import annotations

import itertools
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import suppress
from typing import Any

import grpc
import grpc.experimental.gevent as grpc_gevent
from grpc_interceptor import ClientInterceptor
from handeval_client import batch_request, evaluate_request, parse_game
from handeval_client.channel import channel_options
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb
from handeval_client.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc
from locust import User, events, task
from locust.env import Environment
from locust.exception import LocustError

from evaluators.deal import deal
from service.wire.enums import to_game

grpc_gevent.init_gevent()

DEALT_PER_USER = 512
"""Hands (and batches) each user deals before its first call and then cycles through."""


@events.init_command_line_parser.add_listener
def _add_arguments(parser: Any) -> None:
    parser.add_argument(
        "--handeval-game", default="poker-high", help="game of the dealt hands (handeval games)"
    )
    parser.add_argument(
        "--handeval-batch-size", type=int, default=100, help="hands per EvaluateBatch"
    )


class LocustInterceptor(ClientInterceptor):
    """Times every call on the channel and reports it to Locust (failures with their code)."""

    def __init__(self, environment: Environment) -> None:
        super().__init__()
        self.env: Any = environment

    def intercept(
        self,
        method: Callable[[Any, grpc.ClientCallDetails], Any],
        request_or_iterator: Any,
        call_details: grpc.ClientCallDetails,
    ) -> Any:
        response = None
        exception = None
        response_length = 0
        started = time.perf_counter()
        try:
            response = method(request_or_iterator, call_details)
            response_length = response.result().ByteSize()
        except grpc.RpcError as error:
            exception = error
        self.env.events.request.fire(
            request_type="grpc",
            name=call_details.method,
            response_time=(time.perf_counter() - started) * 1000,
            response_length=response_length,
            response=response,
            context=None,
            exception=exception,
        )
        return response


class GrpcUser(User):
    """A Locust user with its own intercepted channel to ``host`` and a stub on it."""

    abstract = True
    stub_class: Any = None

    def __init__(self, environment: Environment) -> None:
        super().__init__(environment)
        for value, name in ((self.host, "host"), (self.stub_class, "stub_class")):
            if value is None:
                raise LocustError(f"You must specify the {name}.")
        options = [*channel_options(), ("grpc.use_local_subchannel_pool", 1)]
        self._channel = grpc.intercept_channel(
            grpc.insecure_channel(self.host, options=options),
            LocustInterceptor(environment=environment),
        )
        self.stub = self.stub_class(self._channel)

    def on_stop(self) -> None:
        self._channel.close()


class HandevalUser(GrpcUser):
    """Scores valid random hands of one game, singly and in batches, back to back."""

    host = "127.0.0.1:50051"
    stub_class = pb_grpc.HandEvaluatorStub
    _users = itertools.count()

    def on_start(self) -> None:
        options = self.environment.parsed_options
        game = to_game(parse_game(getattr(options, "handeval_game", "poker-high")))
        if game is None:
            raise ValueError("--handeval-game names a game this build lacks")
        batch_size = int(getattr(options, "handeval_batch_size", 100))
        seed = zlib.crc32(game.value.encode()) + next(self._users)
        singles = deal(game, DEALT_PER_USER, seed)
        self._singles: Iterator[pb.EvaluateRequest] = itertools.cycle(
            [evaluate_request(game, *singles.row(i)) for i in range(len(singles))]
        )
        batches = max(1, min(DEALT_PER_USER, 100_000 // batch_size))
        dealt = deal(game, batches * batch_size, seed + 1)
        self._batches: Iterator[pb.EvaluateBatchRequest] = itertools.cycle(
            [
                batch_request(
                    game,
                    dealt.hands[i * batch_size : (i + 1) * batch_size],
                    dealt.tables[i * batch_size : (i + 1) * batch_size],
                    columns=True,
                )
                for i in range(batches)
            ]
        )

    @task(3)
    def evaluate(self) -> None:
        with suppress(grpc.RpcError):  # the interceptor has reported it as a failure
            self.stub.Evaluate(next(self._singles), timeout=10)

    @task(1)
    def evaluate_batch(self) -> None:
        with suppress(grpc.RpcError):
            self.stub.EvaluateBatch(next(self._batches), timeout=10)
