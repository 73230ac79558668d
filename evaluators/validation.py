"""Parse and check a request against its game's rules, reporting every problem at once.

The one place where card text becomes ids for single hands and showdowns. A request
that passes is a ``HandRequest`` or ``ShowdownRequest`` the evaluators may trust; one
that fails raises ``InvalidRequest`` with a ``Violation`` per problem, each naming the
field and index the caller sent (``hand[2]``, ``seats[1].hand[0]``, ``table_spreads[0].cards[1]``).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence

from evaluators.cards import (
    EMPTY,
    RANKS,
    card_text,
    check_one_deck,
    deck_size,
    parse_cards,
    repeats,
    table_pairs,
    table_ranks,
)
from evaluators.errors import InvalidRequest, Violation
from evaluators.inputs import (
    Cards,
    Declaration,
    Game,
    HandRequest,
    Options,
    Seat,
    ShowdownRequest,
    TonkEnding,
)
from evaluators.registry import GAMES, GameRules
from evaluators.rules_check import (
    PAIRING_REMEDY,
    joker_message,
    size_message,
    sizes_fit,
    together_message,
    within,
)

SeatText = tuple[str, Sequence[str], Declaration | None]
"""(player id, hand card texts, declaration) as a caller sends a seat."""


def _missing_game() -> Violation:
    """Names each game as the wire spells it, with its name for people beside it."""
    names = ", ".join(f"GAME_{game.name} ({rules.name})" for game, rules in GAMES.items())
    return Violation("game", f"the game is missing: one of {names}")


def rules_for(game: Game | None) -> GameRules:
    """The game's rules, or InvalidRequest naming the ``game`` field."""
    if game is None:
        raise InvalidRequest([_missing_game()])
    return GAMES[game]


def _rules_or_violation(game: Game | None, violations: list[Violation]) -> GameRules | None:
    """The game's rules, or None after recording the missing game, so that the checks
    that need no game (card text, one deck, seats) still report their problems."""
    if game is None:
        violations.append(_missing_game())
        return None
    return GAMES[game]


def check_size(
    cards: Sequence[int], low: int, high: int, field: str, what: str, violations: list[Violation]
) -> None:
    if not within(len(cards), low, high):
        violations.append(Violation(field, size_message(what, len(cards), low, high)))


def check_cards_allowed(
    rules: GameRules, cards: Cards, field: str, violations: list[Violation]
) -> None:
    """Jokers only where the game has them."""
    refused = deck_size(rules.jokers)
    for index, card in enumerate(cards):
        if card != EMPTY and card >= refused:
            violations.append(Violation(f"{field}[{index}]", joker_message(rules)))


def check_table(rules: GameRules, table: Cards, violations: list[Violation]) -> None:
    check_size(table, rules.table_min, rules.table_max, "table", "the table", violations)
    check_cards_allowed(rules, table, "table", violations)
    if rules.distinct_table_ranks:
        check_table_pairs(table, "table", violations)


def check_table_pairs(table: Cards, field: str, violations: list[Violation]) -> None:
    """A table of distinct ranks (``cards.table_ranks``): each card pairing an earlier one,
    at its place, naming that place."""
    ranks = table_ranks(table)
    violations += [
        Violation(
            f"{field}[{place}]",
            f"the table pairs: {card_text(table[place])} has the rank {RANKS[ranks[place]]} of "
            f"{field}[{first}]; {PAIRING_REMEDY}",
        )
        for place, first in table_pairs(table)
    ]


def check_hand(
    rules: GameRules,
    hand: Cards,
    table: Cards,
    field: str,
    violations: list[Violation],
    may_be_empty: bool = False,
) -> None:
    low = 0 if may_be_empty else rules.hand_min
    check_size(hand, low, rules.hand_max, field, "the hand", violations)
    total = len(hand) + len(table)
    if hand and not within(total, rules.cards_min, rules.cards_max):
        violations.append(Violation(field, together_message(rules, total)))
    check_cards_allowed(rules, hand, field, violations)


def read_spreads(
    rules: GameRules | None, spreads: Sequence[Sequence[str]], violations: list[Violation]
) -> tuple[Cards, ...]:
    """Parse and check table spreads; with no game (None) only their card text is checked."""
    if rules is None:
        return tuple(
            parse_cards(texts, f"table_spreads[{i}].cards", violations)
            for i, texts in enumerate(spreads)
        )
    check_spread = rules.check_spread
    if check_spread is None:
        if spreads:
            violations.append(Violation("table_spreads", f"{rules.name} has no table spreads"))
        return ()
    parsed: list[Cards] = []
    for index, texts in enumerate(spreads):
        field = f"table_spreads[{index}].cards"
        before = len(violations)
        cards = parse_cards(texts, field, violations)
        check_cards_allowed(rules, cards, field, violations)
        if len(violations) == before:
            problem = check_spread(cards)
            if problem:
                violations.append(Violation(f"table_spreads[{index}]", problem))
        parsed.append(cards)
    return tuple(parsed)


@functools.cache
def _options_set(options: Options) -> tuple[str, ...]:
    """The names of the options turned on, in ``Options`` order (few distinct values)."""
    return tuple(f.name for f in dataclasses.fields(options) if getattr(options, f.name))


def check_options(rules: GameRules, options: Options, showdown: bool) -> list[Violation]:
    """An option the game does not read is refused (``options.<name>``), never ignored:
    the caller believes it changes the score. ``showdown``: the request is a showdown,
    which also reads the game's ``showdown_options``."""
    return list(_option_refusals(rules.game, options, showdown))


@functools.cache
def _option_refusals(game: Game, options: Options, showdown: bool) -> tuple[Violation, ...]:
    """``check_options``' answer, worked out once per game, options and kind of request
    (a few hundred of them) instead of per request."""
    rules = GAMES[game]
    reads = [o for o in rules.options if showdown or o not in rules.showdown_options]
    listed = "only: " + ", ".join(reads) if reads else "no options"
    violations = []
    for name in _options_set(options):
        if name in reads:
            continue
        if name in rules.options:
            message = f"{rules.name} reads {name} only in a showdown; an evaluation reads {listed}"
        else:
            message = f"{rules.name} does not read {name}; this game reads {listed}"
        violations.append(Violation(f"options.{name}", message))
    return tuple(violations)


def _raise_if(violations: list[Violation]) -> None:
    if violations:
        raise InvalidRequest(violations)


_DEFAULT_OPTIONS = Options()
CANONICAL_IDS = {card_text(card): card for card in range(deck_size(jokers=True))}
"""Canonical card text (``Ah``, ``Td``, ``X1``) -> id: the fast path's one dict read."""


def read_plain_hand(
    game: Game | None,
    hand: Sequence[str],
    table: Sequence[str],
    table_spreads: Sequence[object],
    options: Options | None,
) -> HandRequest | None:
    """The request of a hand without table spreads (only their absence is read), in
    canonical card text, that passes every check; None for anything else
    (``read_hand_in_full`` then decides).

    Its work is bounded by the game's sizes whatever the lists' lengths, so a caller may
    try it before checking a request's limits (``service.wire.requests``)."""
    if game is None or not hand or table_spreads:
        return None
    rules = GAMES[game]
    if len(hand) > rules.hand_max or len(table) > rules.table_max:
        return None
    ids = CANONICAL_IDS
    try:
        hand_ids = tuple([ids[text] for text in hand])
        table_ids = tuple([ids[text] for text in table]) if table else ()
    except KeyError:
        return None
    return read_plain_ids(game, hand_ids, table_ids, options)


def read_plain_ids(
    game: Game | None, hand: Cards, table: Cards, options: Options | None = None
) -> HandRequest | None:
    """``read_plain_hand`` for cards already read as ids (``CANONICAL_IDS``): the request,
    if it passes every check, else None."""
    if game is None or not hand:
        return None
    rules = GAMES[game]
    if not sizes_fit(rules, len(hand), len(table)):
        return None
    cards = hand + table
    if repeats(cards) or max(cards) >= deck_size(rules.jokers):
        return None
    if rules.distinct_table_ranks and table_pairs(table):
        return None
    if options is not None and _option_refusals(game, options, False):
        return None
    return HandRequest(rules.game, hand, table, (), options or _DEFAULT_OPTIONS)


def read_hand(
    game: Game | None,
    hand: Sequence[str],
    table: Sequence[str] = (),
    table_spreads: Sequence[Sequence[str]] = (),
    options: Options | None = None,
) -> HandRequest:
    """Parse and check one hand; raises InvalidRequest listing every problem.

    >>> from evaluators.inputs import Game
    >>> read_hand(Game.POKER_HIGH, ["Ah", "Kh"], ["Qh", "Jh", "Th"]).hand  # card ids
    (50, 46)
    >>> read_hand(Game.POKER_HIGH, ["Ah", "Kh", "Qh", "Jh", "Ah"])
    Traceback (most recent call last):
    evaluators.errors.InvalidRequest: hand[4]: duplicate card 'Ah': also at hand[0]
    """
    plain = read_plain_hand(game, hand, table, table_spreads, options)
    if plain is not None:
        return plain
    return read_hand_in_full(game, hand, table, table_spreads, options)


def read_hand_in_full(
    game: Game | None,
    hand: Sequence[str],
    table: Sequence[str] = (),
    table_spreads: Sequence[Sequence[str]] = (),
    options: Options | None = None,
) -> HandRequest:
    """``read_hand`` without its plain-hand shortcut: every check, every problem listed."""
    violations: list[Violation] = []
    rules = _rules_or_violation(game, violations)
    hand_ids = parse_cards(hand, "hand", violations)
    table_ids = parse_cards(table, "table", violations)
    spreads = read_spreads(rules, table_spreads, violations)
    if rules is not None:
        check_hand(rules, hand_ids, table_ids, "hand", violations)
        check_table(rules, table_ids, violations)
        violations.extend(check_options(rules, options or _DEFAULT_OPTIONS, showdown=False))
    check_one_deck(
        [("hand", hand_ids), ("table", table_ids)]
        + [(f"table_spreads[{i}].cards", s) for i, s in enumerate(spreads)],
        violations,
    )
    if violations or rules is None:
        raise InvalidRequest(violations)
    return HandRequest(rules.game, hand_ids, table_ids, spreads, options or Options())


def check_players(players: Sequence[str], violations: list[Violation]) -> None:
    """A showdown's seats, still to come (Odds) or not: at least 2, each player id given
    and none twice."""
    if len(players) < 2:
        violations.append(
            Violation("seats", f"a showdown needs at least 2 seats, got {len(players)}")
        )
    first_seat: dict[str, int] = {}
    for index, player in enumerate(players):
        if not player:
            violations.append(Violation(f"seats[{index}].player", "the player id is empty"))
        elif player in first_seat:
            violations.append(
                Violation(
                    f"seats[{index}].player",
                    f"duplicate player id {player!r}: also seats[{first_seat[player]}]",
                )
            )
        else:
            first_seat[player] = index


def read_showdown(
    game: Game | None,
    seats: Sequence[SeatText],
    table: Sequence[str] = (),
    table_spreads: Sequence[Sequence[str]] = (),
    options: Options | None = None,
    ending: TonkEnding | None = None,
    ender: str = "",
) -> ShowdownRequest:
    """Parse and check a showdown; raises InvalidRequest listing every problem."""
    violations: list[Violation] = []
    rules = _rules_or_violation(game, violations)
    check_players([player for player, _, _ in seats], violations)
    parsed_seats = [
        Seat(player, parse_cards(hand, f"seats[{index}].hand", violations), declaration)
        for index, (player, hand, declaration) in enumerate(seats)
    ]
    table_ids = parse_cards(table, "table", violations)
    spreads = read_spreads(rules, table_spreads, violations)
    deck = (
        [(f"seats[{i}].hand", s.hand) for i, s in enumerate(parsed_seats)]
        + [("table", table_ids)]
        + [(f"table_spreads[{i}].cards", s) for i, s in enumerate(spreads)]
    )
    if rules is None:
        check_one_deck(deck, violations)
        raise InvalidRequest(violations)
    request = ShowdownRequest(
        rules.game, tuple(parsed_seats), table_ids, spreads, options or Options(), ending, ender
    )
    for index, seat in enumerate(request.seats):
        may_be_empty = bool(
            rules.empty_hand_allowed and rules.empty_hand_allowed(request, seat.player)
        )
        check_hand(rules, seat.hand, table_ids, f"seats[{index}].hand", violations, may_be_empty)
    check_table(rules, table_ids, violations)
    check_one_deck(deck, violations)
    violations.extend(check_options(rules, request.options, showdown=True))
    if rules.check_showdown is not None:
        violations.extend(rules.check_showdown(request))
    _raise_if(violations)
    return request
