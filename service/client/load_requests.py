"""The requests a load run cycles through, built before its clock starts from
``evaluators.deal`` (valid random hands of the game, seeded) and kept as pre-serialized
bytes (a stream's as messages), so the generator spends its time in gRPC, not in dealing
or protobuf. ``bad_share`` of them carry a bad hand (a repeated card, or a card that does
not exist); in a batch one bad hand spoils the whole batch, so there it is the share of
bad batches. A batch asks for column replies, as the typed client does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from handeval_client import batch_request, evaluate_request, odds_request
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.cards import card_text
from evaluators.deal import Deal, deal
from evaluators.inputs import Declaration
from service.client.load_spec import LoadSpec, Rpc, odds_sizes

POOL_REQUESTS = 2048
"""Distinct requests built before a run; calls cycle through them."""
POOL_HANDS = 200_000
"""At most this many hands dealt for a batch run's pool (batch size x pool requests)."""
NOT_A_CARD_ID = 60
"""A byte that is no card (52, 53 are jokers, 255 pads): a bad hand in a packed batch."""
NOT_A_CARD_TEXT = "Zz"
ODDS_SAMPLES = 2_000
"""Run-outs each Odds call samples: real work for the server, yet a call of milliseconds."""


@dataclass(frozen=True)
class Pool:
    """Requests built before the run: ``payloads[i]`` is bad where ``bad[i]``."""

    payloads: list[Any]
    bad: list[bool]


def _bad_positions(count: int, share: float, seed: int) -> list[bool]:
    bad = np.zeros(count, dtype=np.bool_)
    chosen = np.random.default_rng([seed, 1]).permutation(count)[: round(count * share)]
    bad[chosen] = True
    return [bool(b) for b in bad]


def _spoiled_texts(hand: list[str], table: list[str], which: int) -> list[str]:
    """A bad hand: every other one repeats a card, the rest hold a card that does not exist."""
    hand = list(hand)
    if which % 2 == 0 and (len(hand) > 1 or table):
        hand[-1] = hand[0] if len(hand) > 1 else table[0]
    else:
        hand[-1] = NOT_A_CARD_TEXT
    return hand


def _evaluate_pool(spec: LoadSpec, count: int) -> tuple[list[pb.EvaluateRequest], list[bool]]:
    dealt = deal(spec.game, count, spec.seed)
    bad = _bad_positions(count, spec.bad_share, spec.seed)
    requests = []
    for index in range(count):
        hand_ids, table_ids = dealt.row(index)
        hand = [card_text(c) for c in hand_ids]
        table = [card_text(c) for c in table_ids]
        if bad[index]:
            hand = _spoiled_texts(hand, table, index)
        requests.append(evaluate_request(spec.game, hand, table, request_id=str(index)))
    return requests, bad


def _spoil_batch(dealt: Deal, rows: slice, which: int) -> tuple[np.ndarray, np.ndarray]:
    hands = dealt.hands[rows].copy()
    tables = dealt.tables[rows]
    row = which % len(hands)
    if which % 2 == 0 and dealt.hand_size > 1:
        hands[row, -1] = hands[row, 0]
    else:
        hands[row, -1] = NOT_A_CARD_ID
    return hands, tables


def _batch_pool(spec: LoadSpec, count: int) -> tuple[list[bytes], list[bool]]:
    size = spec.batch_size
    dealt = deal(spec.game, count * size, spec.seed)
    bad = _bad_positions(count, spec.bad_share, spec.seed)
    payloads = []
    for index in range(count):
        rows = slice(index * size, (index + 1) * size)
        if bad[index]:
            hands, tables = _spoil_batch(dealt, rows, index)
        else:
            hands, tables = dealt.hands[rows], dealt.tables[rows]
        payloads.append(batch_request(spec.game, hands, tables, columns=True).SerializeToString())
    return payloads, bad


def _odds_pool(spec: LoadSpec, count: int) -> tuple[list[bytes], list[bool]]:
    """Seat ``a`` knows its whole hand, seat ``b`` none of its own; half the table (rounded
    down) is turned. Declarations are sent for every game (only Flop-A reads them)."""
    hand_size, table_size = odds_sizes(spec.game)
    dealt = deal(spec.game, count, spec.seed, hand_size=hand_size, table_size=table_size)
    bad = _bad_positions(count, spec.bad_share, spec.seed)
    payloads = []
    for index in range(count):
        hand_ids, table_ids = dealt.row(index)
        hand = [card_text(c) for c in hand_ids]
        table = [card_text(c) for c in table_ids[: table_size // 2]]
        if bad[index]:
            hand = _spoiled_texts(hand, table, index)
        seats = [("a", hand, Declaration.BOTH), ("b", f"?{hand_size}", Declaration.HIGH)]
        request = odds_request(
            spec.game, seats, table, samples=ODDS_SAMPLES, seed=index, request_id=str(index)
        )
        payloads.append(request.SerializeToString())
    return payloads, bad


def build_pool(spec: LoadSpec) -> Pool:
    """The requests a run cycles through (as bytes, or messages for a stream)."""
    count = POOL_REQUESTS if spec.requests is None else min(POOL_REQUESTS, spec.requests)
    if spec.rpc is Rpc.BATCH:
        count = max(1, min(count, POOL_HANDS // spec.batch_size))
        payloads, bad = _batch_pool(spec, count)
        return Pool(list(payloads), bad)
    if spec.rpc is Rpc.ODDS:
        payloads, bad = _odds_pool(spec, count)
        return Pool(list(payloads), bad)
    requests, bad = _evaluate_pool(spec, count)
    if spec.rpc is Rpc.STREAM:
        return Pool(list(requests), bad)
    return Pool([r.SerializeToString() for r in requests], bad)
