"""What an Odds caller asks, parsed and checked (docs/rules.md "Odds", docs/api.md ``OddsRequest``).

``read_odds`` turns card text into an ``OddsRequest`` or raises ``InvalidRequest`` with
every problem at once; ``odds_violations`` is the same check of a request built from ids.
The checks a showdown shares (one deck, seats and player ids, the game, its options, its
sizes and jokers) are ``validation``'s, in its words; what is Odds' own is here: whether
the game serves Odds (``serves_odds``), known + unknown cards against its deal, and enough
unseen cards for what is to come. Field paths are the wire's: ``game``,
``seats[1].unknown``, ``seats[0].hand[2]``, ``seats[2].declaration``, ``table``,
``table[3]``, ``dead[0]``, ``options.ace_low``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

from evaluators.cards import DECK_SIZE, check_one_deck, parse_cards
from evaluators.errors import InvalidRequest, Violation
from evaluators.game_rules import GameRules
from evaluators.inputs import Cards, Declaration, Game, Options, Seat, ShowdownRequest
from evaluators.registry import GAMES
from evaluators.validation import (
    check_cards_allowed,
    check_options,
    check_players,
    check_table,
    rules_for,
)

OddsSeatText = tuple[str, Sequence[str], int, Declaration | None]
"""(player id, known hand card texts, unknown count, declaration) as a caller sends a seat."""


@dataclass(frozen=True)
class OddsSeat:
    """A seat whose hand is not all dealt or not all known: ``hand`` the known cards,
    ``unknown`` how many more it holds or will be dealt that nobody here knows."""

    player: str
    hand: Cards
    unknown: int = 0
    declaration: Declaration | None = None


@dataclass(frozen=True)
class OddsRequest:
    """A showdown still to come: the table so far in the order turned, ``dead`` cards
    seen and out of play. Odds trusts it as checked, as ``scoring`` trusts a
    ``HandRequest``: ``read_odds`` makes one, and a caller that builds one from ids asks
    ``odds_violations`` first. ``unseen``: the cards nobody has shown, found once here for
    the check and the deal."""

    game: Game
    seats: tuple[OddsSeat, ...]
    table: Cards = ()
    dead: Cards = ()
    options: Options = field(default_factory=Options)
    unseen: Cards = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        seen = {card for seat in self.seats for card in seat.hand}
        seen.update(self.table, self.dead)
        unseen = tuple(card for card in range(DECK_SIZE) if card not in seen)
        object.__setattr__(self, "unseen", unseen)


def serves_odds(game: Game) -> bool:
    """Whether Odds answers for ``game`` (``GameRules.odds`` is set): its cards still to
    come are dealt by chance. The refusal on ``game`` and ``GameInfo.odds`` both ask this."""
    return GAMES[game].odds is not None


def read_odds(
    game: Game | None,
    seats: Sequence[OddsSeatText],
    table: Sequence[str] = (),
    dead: Sequence[str] = (),
    options: Options | None = None,
) -> OddsRequest:
    """Parse and check an Odds request; raises InvalidRequest listing every problem."""
    violations: list[Violation] = []
    parsed = tuple(
        OddsSeat(player, parse_cards(hand, f"seats[{i}].hand", violations), unknown, declaration)
        for i, (player, hand, unknown, declaration) in enumerate(seats)
    )
    table_ids = parse_cards(table, "table", violations)
    dead_ids = parse_cards(dead, "dead", violations)
    if game is None:
        try:
            rules_for(game)
        except InvalidRequest as missing:
            violations += missing.violations
        raise InvalidRequest(violations + _violations_of_any_game(parsed, table_ids, dead_ids))
    request = OddsRequest(game, parsed, table_ids, dead_ids, options or Options())
    violations += odds_violations(request)
    if violations:
        raise InvalidRequest(violations)
    return request


def odds_violations(request: OddsRequest) -> list[Violation]:
    """Every problem of an Odds request on ids (255 marks a card text already refused)."""
    seats, table, dead = request.seats, request.table, request.dead
    violations = _violations_of_any_game(seats, table, dead)
    rules = GAMES[request.game]
    deal = rules.odds
    if deal is None:
        violations.append(
            Violation(
                "game",
                f"{rules.name} has no odds: its hands change by the players' choices, not "
                "by cards still to come",
            )
        )
        return violations
    violations += check_options(rules, request.options, showdown=True)
    sizes = f"{deal.hand_min}" + (f"-{deal.hand_max}" if deal.hand_max > deal.hand_min else "")
    for index, seat in enumerate(seats):
        check_cards_allowed(rules, seat.hand, f"seats[{index}].hand", violations)
        dealt = len(seat.hand) + seat.unknown
        if seat.unknown < 0 or not deal.hand_min <= dealt <= deal.hand_max:
            violations.append(
                Violation(
                    f"seats[{index}].unknown",
                    f"{len(seat.hand)} known + {seat.unknown} unknown cards make {dealt}; "
                    f"{rules.name} deals {sizes}",
                )
            )
    if rules.check_showdown is not None:
        showdown_seats = tuple(Seat(s.player, s.hand, s.declaration) for s in seats)
        violations += rules.check_showdown(ShowdownRequest(rules.game, showdown_seats))
    check_table(dataclasses.replace(rules, table_min=0), table, violations)
    check_cards_allowed(rules, dead, "dead", violations)
    if not violations:
        violations += _supply_violations(rules, request)
    return violations


def _violations_of_any_game(
    seats: Sequence[OddsSeat], table: Cards, dead: Cards
) -> list[Violation]:
    """What is checked whatever the game: one deck, and the seats (``validation``'s)."""
    violations: list[Violation] = []
    deck = [(f"seats[{i}].hand", seat.hand) for i, seat in enumerate(seats)]
    check_one_deck([*deck, ("table", table), ("dead", dead)], violations)
    check_players([seat.player for seat in seats], violations)
    return violations


def _supply_violations(rules: GameRules, request: OddsRequest) -> list[Violation]:
    """Enough unseen cards for every completion: the seats' unknown cards and the missing
    table cards, and in the discard games enough new ranks for the table whatever the
    hands are dealt (the hands could take every card of the scarcest ranks)."""
    unseen, table = request.unseen, request.table
    hands = sum(seat.unknown for seat in request.seats)
    missing = rules.table_max - len(table)
    if hands + missing > len(unseen):
        return [
            Violation(
                "table",
                f"what is to come needs {hands + missing} unseen cards ({hands} for the "
                f"hands, {missing} for the table); {len(unseen)} are left",
            )
        ]
    if not rules.distinct_table_ranks or not missing:
        return []
    on_table = {card >> 2 for card in table}
    per_rank = sorted(
        sum(1 for card in unseen if card >> 2 == rank) for rank in set(range(13)) - on_table
    )
    per_rank = [cards for cards in per_rank if cards]
    taken = hands
    while per_rank and per_rank[0] <= taken:
        taken -= per_rank.pop(0)
    if len(per_rank) < missing:
        return [
            Violation(
                "table",
                f"the table needs {missing} more cards of ranks not on it; after the hands "
                f"are dealt as few as {len(per_rank)} such ranks can be left",
            )
        ]
    return []
