"""Results as text for people: aligned tables of the contract's messages.

Everything here reads only protobuf messages (the request sent and the answer), so the
CLI prints the same text whether a server or the in-process core answered; a game's own
figures are read back into the core's result and the game says how they read. Strength
is shown as sent: higher is better.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

if TYPE_CHECKING:
    from evaluators.game_rules import Figure


def table(rows: Sequence[Sequence[str]], header: Sequence[str] | None = None) -> str:
    """Rows as left-aligned columns two spaces apart; no trailing spaces."""
    all_rows = [list(header)] if header is not None else []
    all_rows += [list(r) for r in rows]
    if not all_rows:
        return ""
    widths = [max(len(r[i]) for r in all_rows) for i in range(len(all_rows[0]))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in all_rows
    )


def cards(texts: Iterable[str]) -> str:
    joined = " ".join(texts)
    return joined or "-"


def enum_text(enum: object, value: int, prefix: str) -> str:
    """``POKER_CATEGORY_FULL_HOUSE`` -> ``full house``."""
    name: str = enum.Name(value)  # type: ignore[attr-defined]
    return name.removeprefix(prefix).replace("_", " ").lower()


def game_slug(game: pb.Game.ValueType) -> str:
    """``GAME_POKER_HIGH`` -> ``poker-high``, the name the CLI's ``--game`` takes."""
    name: str = pb.Game.Name(game)
    return name.removeprefix("GAME_").replace("_", "-").lower()


def figures(evaluation: pb.Evaluation) -> list[Figure]:
    """Strength, then the figures the game says its evaluations show (its ``figures``);
    strength alone for a game or detail this build does not know."""
    from evaluators.registry import GAMES
    from service.wire.enums import to_game
    from service.wire.replies import from_evaluation

    rows: list[Figure] = [("strength", str(evaluation.strength), True)]
    game = to_game(evaluation.game)
    core = from_evaluation(evaluation)
    if game is None or core is None:
        return rows
    return rows + GAMES[game].figures(core)


def _setting_lines(
    table_cards: Sequence[str], spreads: Sequence[pb.Spread], options: pb.Options
) -> list[str]:
    lines = []
    if table_cards:
        lines.append(f"table: {cards(table_cards)}")
    if spreads:
        laid = ", ".join(f"[{i}] {cards(s.cards)}" for i, s in enumerate(spreads))
        lines.append(f"table spreads: {laid}")
    chosen = [field.name for field in options.DESCRIPTOR.fields if getattr(options, field.name)]
    if chosen:
        lines.append("options: " + ", ".join(n.replace("_", "-") for n in chosen))
    return lines


def render_evaluation(request: pb.EvaluateRequest, evaluation: pb.Evaluation) -> str:
    """One scored hand: what was asked, the description, then every figure."""
    lines = [f"{game_slug(request.game)}: {cards(request.hand)}"]
    lines += _setting_lines(request.table, request.table_spreads, request.options)
    lines += ["", evaluation.description, ""]
    lines.append(table([(label, value) for label, value, _ in figures(evaluation)]))
    return "\n".join(lines)


def share_text(award: pb.Award) -> str:
    """The share of the whole pot as a fraction: ``1/2``, ``1/6``, ``1``."""
    return str(Fraction(award.numerator, award.denominator or 1))


def render_showdown(request: pb.ShowdownRequest, response: pb.ShowdownResponse) -> str:
    """Seats with their figures, then awards (fractions of the whole pot) or Tonk payouts,
    then the explanation."""
    lines = [f"{game_slug(request.game)} showdown"]
    lines += _setting_lines(request.table, request.table_spreads, request.options)
    if request.ending:
        ending = enum_text(pb.TonkEnding, request.ending, "TONK_ENDING_")
        lines.append(f"ending: {ending}" + (f" by {request.ender}" if request.ender else ""))
    hands = {seat.player: seat for seat in request.seats}
    seat_rows: list[list[str]] = []
    labels: list[str] = []
    instant = any(r.evaluation.instant_win for r in response.results)
    declared = any(seat.declaration for seat in request.seats)
    for result in response.results:
        seat = hands.get(result.player, pb.Seat())
        shown = [(label, value) for label, value, brief in figures(result.evaluation) if brief]
        if instant:
            shown.append(("out after", str(result.evaluation.out_after)))
        labels = [label for label, _ in shown]
        row = [result.player, cards(seat.hand)]
        if declared:
            row.append(enum_text(pb.Declaration, seat.declaration, "DECLARATION_"))
        seat_rows.append([*row, result.evaluation.description, *(v for _, v in shown)])
    header = ["player", "hand"]
    if declared:
        header.append("declares")
    lines += ["", table(seat_rows, [*header, "description", *labels])]
    if response.redeal:
        lines += ["", "redeal: nobody takes the pot"]
    if response.awards:
        award_rows = [(a.player, a.pot, share_text(a)) for a in response.awards]
        lines += ["", table(award_rows, ["wins", "pot", "share"])]
    if response.payouts:
        payout_rows = [(p.player, f"{p.stakes:+d}") for p in response.payouts]
        lines += ["", table(payout_rows, ["player", "stakes"])]
    if response.explanation:
        lines += ["", response.explanation]
    return "\n".join(lines)


def percent(probability: float) -> str:
    return f"{probability * 100:.2f}%"


def render_odds(request: pb.OddsRequest, response: pb.OddsResponse) -> str:
    """Seats with their known cards (``?`` for each unknown one), share of the whole pot,
    chance of taking (part of) each pot and of an instant win (where a seat has one), all in
    per cent; then the
    redeal chance when there is one, and whether every run-out was counted or a sample."""
    lines = [f"{game_slug(request.game)} odds"]
    lines += _setting_lines(request.table, (), request.options)
    if request.dead:
        lines.append(f"dead: {cards(request.dead)}")
    hands = {seat.player: seat for seat in request.seats}
    declared = any(seat.declaration for seat in request.seats)
    pots = [pot.pot for pot in response.seats[0].pots] if response.seats else []
    instant = any(odds.instant_win for odds in response.seats)  # only games that can
    rows = []
    for odds in response.seats:
        seat = hands.get(odds.player, pb.Seat())
        row = [odds.player, cards([*seat.hand, *["?"] * seat.unknown])]
        if declared:
            row.append(enum_text(pb.Declaration, seat.declaration, "DECLARATION_"))
        row.append(percent(odds.share))
        row += [percent(pot.win) for pot in odds.pots]
        rows.append(row + ([percent(odds.instant_win)] if instant else []))
    header = ["player", "hand", *(["declares"] if declared else []), "share"]
    header += [f"{pot} win" for pot in pots] + (["instant win"] if instant else [])
    lines += ["", table(rows, header)]
    lines.append("")
    if response.redeal:
        lines.append(f"redeal: {percent(response.redeal)}")
    if response.exact:
        lines.append(f"exact: every one of {response.runouts:,} run-outs")
    else:
        lines.append(
            f"sampled: {response.runouts:,} run-outs (seed {request.seed}), standard error "
            f"{response.standard_error * 100:.3f} points"
        )
    return "\n".join(lines)


def render_games(response: pb.ListGamesResponse) -> str:
    """Every game: the name ``--game`` takes, its name and number, sizes, pots, whether Odds
    serves it, options."""

    def size(low: int, high: int) -> str:
        return str(low) if low == high else f"{low}-{high}"

    rows = [
        (
            game_slug(g.game),
            g.name,
            str(g.number) if g.number else "-",
            size(g.hand_min, g.hand_max),
            size(g.table_min, g.table_max),
            ", ".join(g.pots) or "stakes",
            "yes" if g.odds else "no",
            ", ".join(o.replace("_", "-") for o in g.options) or "-",
        )
        for g in response.games
    ]
    return table(rows, ["game", "name", "no.", "hand", "table", "pots", "odds", "options"])
