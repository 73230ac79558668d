"""Adapters for the libraries people score hands with today, run on our seeded hands.

Each ``Peer`` turns the first N hands of a ``NamedDeal`` into the peer's own card objects once
(``prepare``, not timed: we time our core on ids already parsed, too) and then scores them
all in one Python loop (``run``, timed). ``answers`` gives the peer's figure per hand so
the benchmark can check, before timing, that the peer and we agree on these hands:
phevaluator and treys return the Cactus-Kev class as our ``rank_class``; eval7 and pokerkit
are compared by order; rlcard returns the gin-rummy deadwood, which is Tonk's deadwood on
hands without a Q-K-A run possibility (rlcard has no ace-high runs; ``hands.py`` deals
only such hands).

A peer whose package is missing is skipped, with the reason in ``missing_peers()``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from evaluators.cards import card_text
from evaluators.inputs import Cards

Prepared = Any
"""A peer's own representation of N hands, built once outside the timed loop."""
Adapter = tuple[Callable[[Sequence[Cards]], Prepared], Callable[[Prepared], list[Any]]]
"""(prepare, run) of one peer."""


@dataclass(frozen=True)
class Peer:
    """One way a library scores hands: ``run(prepare(hands))`` scores each hand once."""

    name: str
    package: str
    sizes: tuple[int, ...]
    """Hand sizes it takes (poker 5 and 7; Tonk 5, 7, 9, 10)."""
    game: str
    """``poker`` or ``tonk``: which of our evaluators it is compared with."""
    prepare: Callable[[Sequence[Cards]], Prepared]
    run: Callable[[Prepared], list[Any]]
    order_only: bool = False
    """Its answers are not our numbers but order hands, higher better (compared by order)."""


def _texts(hand: Cards) -> list[str]:
    return [card_text(c) for c in hand]


def _columns(hands: Sequence[Cards]) -> list[list[int]]:
    return [list(column) for column in zip(*hands, strict=True)]


def _phevaluator_c() -> Adapter:
    """phevaluator's C functions (``_pheval.evaluate_5cards`` / ``evaluate_7cards``), called
    per hand on plain ints (phevaluator's ids are ours) with ``map``, the cheapest Python way."""
    pheval = importlib.import_module("phevaluator._pheval")
    by_size = {5: pheval.evaluate_5cards, 6: pheval.evaluate_6cards, 7: pheval.evaluate_7cards}

    def prepare(hands: Sequence[Cards]) -> Prepared:
        return by_size[len(hands[0])], _columns(hands)

    def run(prepared: Prepared) -> list[Any]:
        function, columns = prepared
        return list(map(function, *columns))

    return prepare, run


def _phevaluator_public() -> Adapter:
    """phevaluator's public ``evaluate_cards(*cards)`` on ints."""
    evaluate_cards = importlib.import_module("phevaluator").evaluate_cards

    def run(hands: Sequence[Cards]) -> list[Any]:
        return [evaluate_cards(*hand) for hand in hands]

    return list, run


def _eval7() -> Adapter:
    eval7 = importlib.import_module("eval7")
    deck = [eval7.Card(card_text(c)) for c in range(52)]

    def prepare(hands: Sequence[Cards]) -> Prepared:
        return [[deck[c] for c in hand] for hand in hands]

    def run(prepared: Prepared) -> list[Any]:
        evaluate = eval7.evaluate
        return [evaluate(hand) for hand in prepared]

    return prepare, run


def _treys() -> Adapter:
    treys = importlib.import_module("treys")
    deck = [treys.Card.new(card_text(c)) for c in range(52)]
    evaluator = treys.Evaluator()

    def prepare(hands: Sequence[Cards]) -> Prepared:
        return [([deck[c] for c in hand[:2]], [deck[c] for c in hand[2:]]) for hand in hands]

    def run(prepared: Prepared) -> list[Any]:
        evaluate = evaluator.evaluate
        return [evaluate(hole, board) for hole, board in prepared]

    return prepare, run


def _pokerkit() -> Adapter:
    pokerkit = importlib.import_module("pokerkit")
    hand_type = pokerkit.StandardHighHand

    def prepare(hands: Sequence[Cards]) -> Prepared:
        cards = [list(pokerkit.Card.parse("".join(_texts(hand)))) for hand in hands]
        return [(c[:2], c[2:]) for c in cards]

    def run(prepared: Prepared) -> list[Any]:
        from_game = hand_type.from_game
        return [from_game(hole, board) for hole, board in prepared]

    return prepare, run


def _rlcard() -> Adapter:
    """rlcard's gin-rummy meld search: every meld cluster, least deadwood.

    For 10 cards this is rlcard's own ``get_best_meld_clusters`` + ``get_deadwood_count``
    (which insist on 10 cards); for 5, 7 and 9 the same clusters from ``get_meld_clusters``
    and the same deadwood sum, without the 10-card check.
    """
    melding = importlib.import_module("rlcard.games.gin_rummy.utils.melding")
    utils = importlib.import_module("rlcard.games.gin_rummy.utils.utils")
    suit_letter = "CDHS"

    def to_rlcard(card: int) -> Any:
        text = card_text(card)
        return utils.card_from_text(text[0] + suit_letter[card & 3])

    deck = [to_rlcard(c) for c in range(52)]

    def deadwood_any_size(hand: list[Any]) -> int:
        best: int = sum(utils.get_deadwood_value(card) for card in hand)
        for cluster in melding.get_meld_clusters(hand=hand):
            meld_cards = [card for pile in cluster for card in pile]
            left = sum(utils.get_deadwood_value(c) for c in hand if c not in meld_cards)
            best = min(best, left)
        return best

    def deadwood_ten(hand: list[Any]) -> int:
        clusters = melding.get_best_meld_clusters(hand=hand)
        if not clusters:
            return sum(utils.get_deadwood_value(card) for card in hand)
        return int(utils.get_deadwood_count(hand=hand, meld_cluster=clusters[0]))

    def prepare(hands: Sequence[Cards]) -> Prepared:
        return [[deck[c] for c in hand] for hand in hands]

    def run(prepared: Prepared) -> list[Any]:
        score = deadwood_ten if len(prepared[0]) == 10 else deadwood_any_size
        return [score(hand) for hand in prepared]

    return prepare, run


_FACTORIES: tuple[tuple[str, str, tuple[int, ...], str, Callable[[], Any], bool], ...] = (
    ("phevaluator C", "phevaluator", (5, 7), "poker", _phevaluator_c, False),
    ("phevaluator evaluate_cards", "phevaluator", (5, 7), "poker", _phevaluator_public, False),
    ("eval7", "eval7", (5, 7), "poker", _eval7, True),
    ("treys", "treys", (5, 7), "poker", _treys, False),
    ("pokerkit", "pokerkit", (5, 7), "poker", _pokerkit, True),
    ("rlcard gin-rummy melding", "rlcard", (5, 7, 9, 10), "tonk", _rlcard, False),
)

_MISSING: dict[str, str] = {}


def load_peers() -> list[Peer]:
    """Every peer whose package imports here; the others are recorded in ``missing_peers``."""
    peers = []
    for name, package, sizes, game, factory, order_only in _FACTORIES:
        try:
            prepare, run = factory()
        except Exception as error:  # an uninstalled or broken peer is skipped, not fatal
            _MISSING[name] = f"{type(error).__name__}: {error}"
            continue
        peers.append(Peer(name, package, sizes, game, prepare, run, order_only))
    return peers


def missing_peers() -> dict[str, str]:
    """Peers ``load_peers`` skipped, with why."""
    return dict(_MISSING)


def disagreements(peer: Peer, ours: Sequence[int], theirs: Sequence[Any]) -> int:
    """How many hands (or pairs of neighbouring hands, for order-only peers) disagree.

    ``ours`` is our rank_class (poker: lower is better) or deadwood (Tonk).
    """
    if not peer.order_only:
        return sum(1 for a, b in zip(ours, theirs, strict=True) if a != int(b))
    bad = 0
    for i in range(len(ours) - 1):
        a, b, x, y = ours[i], ours[i + 1], theirs[i], theirs[i + 1]
        bad += ((a > b) - (a < b)) != ((x < y) - (x > y))
    return bad
