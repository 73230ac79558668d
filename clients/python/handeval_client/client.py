"""``HandevalClient``: a channel to handeval and its calls, card text in, the contract's
messages out.

Results are the protobuf messages of the contract (docs/api.md: ``Evaluation``,
``ShowdownResponse``, ``OddsResponse``, ``ListGamesResponse``), not a third vocabulary:
they are the documented contract every language sees, carry cards back as text in the
notation sent and grow with the proto. ``share()`` turns an award into a ``Fraction`` and
``detail()`` returns the game's detail message. The batch call takes numpy arrays of card
ids and answers ``BatchResult`` (numpy arrays, one entry per hand). Strength always
points up: a larger ``strength`` is a better hand.

Every RPC is idempotent, so the channel retries UNAVAILABLE with exponential backoff
(``handeval_client.channel``). Every failure raises ``HandevalError``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, Unpack

import grpc
from google.protobuf.message import Message
from grpc_health.v1 import health_pb2, health_pb2_grpc

from handeval_client.batch import BatchResult, read_batch_reply
from handeval_client.channel import DEFAULT_TARGET, SERVICE_NAME, channel_options, channel_target
from handeval_client.errors import HandevalError
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb
from handeval_client.requests import (
    BatchCardsIn,
    CardsIn,
    GameIn,
    OptionFlags,
    OptionsIn,
    SeatIn,
    batch_request,
    evaluate_request,
    odds_request,
    showdown_request,
)

if TYPE_CHECKING:
    from fractions import Fraction

DEFAULT_TIMEOUT_S = 10.0
"""Deadline of each unary call; retries happen within it."""


def share(award: pb.Award) -> Fraction:
    """The award's share of the whole pot."""
    from fractions import Fraction  # on first use: it imports decimal, which few callers need

    return Fraction(award.numerator, award.denominator or 1)


def detail(evaluation: pb.Evaluation) -> Message | None:
    """The game's detail message (``PointsDetail``, ``TonkDetail``, ...), or None."""
    which = evaluation.WhichOneof("detail")
    found: Message | None = None if which is None else getattr(evaluation, which)
    return found


def batch_method(channel: grpc.Channel) -> grpc.UnaryUnaryMultiCallable:
    """``EvaluateBatch`` on ``channel``, its replies read by ``read_batch_reply``: calling
    it with an ``EvaluateBatchRequest`` answers a ``BatchResult``."""
    return channel.unary_unary(
        f"/{SERVICE_NAME}/EvaluateBatch",
        request_serializer=pb.EvaluateBatchRequest.SerializeToString,
        response_deserializer=read_batch_reply,
    )


class HandevalClient:
    """A channel to one or several handeval servers and the calls it makes.

    ``target``: ``host:port``, any gRPC target string, or a list of ``ip:port`` addresses
    to spread calls over (round_robin). ``timeout``: deadline of each unary call in
    seconds (streams have none unless given). ``credentials``: TLS channel credentials, or
    None for plaintext. Thread-safe; use one client per process and close it (or use it
    as a context manager).
    """

    def __init__(
        self,
        target: str | Sequence[str] = DEFAULT_TARGET,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
        retries: bool = True,
        credentials: grpc.ChannelCredentials | None = None,
        keepalive_s: float = 60.0,
        max_message_bytes: int = 64 * 1024 * 1024,
    ) -> None:
        self.target = channel_target(target)
        self.timeout = timeout
        options = channel_options(
            retries, keepalive_s=keepalive_s, max_message_bytes=max_message_bytes
        )
        if credentials is None:
            self._channel = grpc.insecure_channel(self.target, options=options)
        else:
            self._channel = grpc.secure_channel(self.target, credentials, options=options)
        from handeval_client.gen.handeval.v1 import handeval_pb2_grpc  # as a client is made

        self._stub = handeval_pb2_grpc.HandEvaluatorStub(self._channel)
        self._batch = batch_method(self._channel)
        self._health = health_pb2_grpc.HealthStub(self._channel)

    def __enter__(self) -> HandevalClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        self._channel.close()

    def wait_ready(self, timeout: float = 10.0) -> None:
        """Block until the channel connects; raises HandevalError(UNAVAILABLE) on timeout."""
        try:
            grpc.channel_ready_future(self._channel).result(timeout=timeout)
        except grpc.FutureTimeoutError:
            raise HandevalError(
                grpc.StatusCode.UNAVAILABLE, f"no server at {self.target} after {timeout} s"
            ) from None

    def _call(self, method: Any, request: Message, timeout: float | None) -> Any:
        try:
            return method(request, timeout=self.timeout if timeout is None else timeout)
        except grpc.RpcError as error:
            raise HandevalError.from_rpc_error(error) from None

    def evaluate(
        self,
        game: GameIn,
        hand: CardsIn,
        table: CardsIn = (),
        table_spreads: Sequence[CardsIn] = (),
        options: OptionsIn = None,
        request_id: str = "",
        *,
        timeout: float | None = None,
        **flags: Unpack[OptionFlags],
    ) -> pb.Evaluation:
        """Score one hand (``Evaluate``); higher ``strength`` is better. Options as
        ``options_proto`` reads them: ``evaluate("high-card", ..., ace_low=True)``."""
        request = evaluate_request(game, hand, table, table_spreads, options, request_id, **flags)
        return self.send_evaluate(request, timeout=timeout)

    def send_evaluate(
        self, request: pb.EvaluateRequest, *, timeout: float | None = None
    ) -> pb.Evaluation:
        """``Evaluate`` with a request already built (``evaluate_request``)."""
        result: pb.Evaluation = self._call(self._stub.Evaluate, request, timeout)
        return result

    def evaluate_stream(
        self, requests: Iterable[pb.EvaluateRequest], *, timeout: float | None = None
    ) -> Iterator[pb.Evaluation]:
        """One ``Evaluation`` per request, in order, over one ``EvaluateStream`` call.

        A bad request gets a reply with ``error`` set (``HandevalError.from_status(reply.
        error)`` reads it) and the stream goes on; a failure of the whole call raises
        HandevalError. Requests are sent as the iterable yields them.
        """
        replies = self._stub.EvaluateStream(iter(requests), timeout=timeout)
        try:
            yield from replies
        except grpc.RpcError as error:
            raise HandevalError.from_rpc_error(error) from None
        finally:
            replies.cancel()

    def evaluate_batch(
        self,
        game: GameIn,
        hands: BatchCardsIn,
        tables: BatchCardsIn = (),
        options: OptionsIn = None,
        *,
        hand_size: int | None = None,
        table_size: int | None = None,
        columns: bool = True,
        timeout: float | None = None,
        **flags: Unpack[OptionFlags],
    ) -> BatchResult:
        """Score many hands of one game (``EvaluateBatch``; see ``batch_request``): with
        ``hands`` an (N, hand_size) uint8 array and ``tables`` one, the call has no
        per-hand Python on either side. The answer is numpy arrays, one entry per hand
        (``strength``, ``low_strength``, ``value``, ``instant_win``) in the columns' wire
        types (uint32, uint32, int32, bool), read-only views of the reply's bytes: copy one
        to write to it. The reply comes as columns unless ``columns`` is False; the result
        is the same either way (the packed figures narrowed to those types).

        Any bad hand fails the whole batch: HandevalError with ``hands[i]`` violations.
        """
        request = batch_request(
            game, hands, tables, options, hand_size, table_size, columns, **flags
        )
        result: BatchResult = self._call(self._batch, request, timeout)
        return result

    def send_batch(
        self, request: pb.EvaluateBatchRequest, *, timeout: float | None = None
    ) -> pb.EvaluateBatchResponse:
        """``EvaluateBatch`` with a request already built, answering the raw response."""
        result: pb.EvaluateBatchResponse = self._call(self._stub.EvaluateBatch, request, timeout)
        return result

    def showdown(
        self,
        game: GameIn,
        seats: Mapping[str, CardsIn] | Sequence[SeatIn],
        table: CardsIn = (),
        table_spreads: Sequence[CardsIn] = (),
        options: OptionsIn = None,
        ending: str | enum.Enum | None = None,
        ender: str = "",
        request_id: str = "",
        *,
        timeout: float | None = None,
        **flags: Unpack[OptionFlags],
    ) -> pb.ShowdownResponse:
        """Who wins what share of the pot, or for Tonk who pays whom (``Showdown``; see
        ``showdown_request``): ``showdown("tonk", seats, ending="drop", ender="bob",
        texas=True)``."""
        request = showdown_request(
            game, seats, table, table_spreads, options, ending, ender, request_id, **flags
        )
        return self.send_showdown(request, timeout=timeout)

    def send_showdown(
        self, request: pb.ShowdownRequest, *, timeout: float | None = None
    ) -> pb.ShowdownResponse:
        """``Showdown`` with a request already built (``showdown_request``)."""
        result: pb.ShowdownResponse = self._call(self._stub.Showdown, request, timeout)
        return result

    def odds(
        self,
        game: GameIn,
        seats: Mapping[str, CardsIn] | Sequence[SeatIn],
        table: CardsIn = (),
        dead: CardsIn = (),
        options: OptionsIn = None,
        samples: int = 0,
        seed: int = 0,
        request_id: str = "",
        *,
        timeout: float | None = None,
        **flags: Unpack[OptionFlags],
    ) -> pb.OddsResponse:
        """Each seat's chances over the cards still to come (``Odds``; see
        ``odds_request``): ``odds("poker-high", {"ann": "As Ks", "bob": "?2"}, table=...)``
        answers each seat's ``share`` of the pot and win rates, and whether the figures are
        ``exact`` or sampled."""
        request = odds_request(
            game, seats, table, dead, options, samples, seed, request_id, **flags
        )
        return self.send_odds(request, timeout=timeout)

    def send_odds(
        self, request: pb.OddsRequest, *, timeout: float | None = None
    ) -> pb.OddsResponse:
        """``Odds`` with a request already built (``odds_request``)."""
        result: pb.OddsResponse = self._call(self._stub.Odds, request, timeout)
        return result

    def list_games(self, *, timeout: float | None = None) -> pb.ListGamesResponse:
        """Every game with its limits, pots and options."""
        result: pb.ListGamesResponse = self._call(
            self._stub.ListGames, pb.ListGamesRequest(), timeout
        )
        return result

    def health(self, service: str = "", *, timeout: float | None = None) -> str:
        """The health status name of ``service`` (``""``: the whole server):
        ``"SERVING"``, ``"NOT_SERVING"``, ... Raises HandevalError(NOT_FOUND) for an
        unknown service."""
        request = health_pb2.HealthCheckRequest(service=service)
        response = self._call(self._health.Check, request, timeout)
        name: str = health_pb2.HealthCheckResponse.ServingStatus.Name(response.status)
        return name
