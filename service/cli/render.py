"""Results as text for people: aligned tables of the contract's messages.

Everything here reads only protobuf messages (the request sent and the answer), so the
CLI prints the same text whether a server or the in-process core answered. Strength is
shown as sent: higher is better.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from service.gen.handeval.v1 import handeval_pb2 as pb

Figure = tuple[str, str, bool]
"""(label, value, shown in a showdown's seat table too)."""

_DISCARD_DETAILS = ("points", "blackjack")


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


def yes_no(value: bool) -> str:
    return "yes" if value else "no"


def number(value: float) -> str:
    """``7`` for a whole number, ``7½`` for a half (as the descriptions write it)."""
    whole = int(value)
    if value == whole:
        return str(whole)
    if value - whole == 0.5:
        return f"{whole or ''}½"
    return f"{value:g}"


def enum_text(enum: object, value: int, prefix: str) -> str:
    """``POKER_CATEGORY_FULL_HOUSE`` -> ``full house``."""
    name: str = enum.Name(value)  # type: ignore[attr-defined]
    return name.removeprefix(prefix).replace("_", " ").lower()


def game_slug(game: pb.Game.ValueType) -> str:
    """``GAME_POKER_HIGH`` -> ``poker-high``, the name the CLI's ``--game`` takes."""
    name: str = pb.Game.Name(game)
    return name.removeprefix("GAME_").replace("_", "-").lower()


def _poker_figures(poker: pb.PokerDetail) -> list[Figure]:
    return [
        ("category", enum_text(pb.PokerCategory, poker.category, "POKER_CATEGORY_"), True),
        ("rank class", str(poker.rank_class), True),
        ("best five", cards(poker.best_five), True),
    ]


def _tonk_figures(tonk: pb.TonkDetail) -> list[Figure]:
    hits = ", ".join(f"{h.card} on table spread {h.spread_index}" for h in tonk.hits)
    return [
        ("points", str(tonk.points), True),
        ("deadwood", str(tonk.deadwood), True),
        ("spreads", ", ".join(cards(s.cards) for s in tonk.spreads) or "-", False),
        ("hits", hits or "-", False),
        ("deadwood cards", cards(tonk.deadwood_cards), True),
        ("tonk", yes_no(tonk.tonk), False),
        ("deal bonus", enum_text(pb.DealBonus, tonk.deal_bonus, "DEAL_BONUS_"), False),
    ]


def detail_figures(evaluation: pb.Evaluation) -> list[Figure]:
    """The game's own figures, in the order API.md lists them."""
    which = evaluation.WhichOneof("detail")
    if which == "points":
        p = evaluation.points
        return [
            ("high total", number(p.high_total), True),
            ("low total", number(p.low_total), True),
        ]
    if which == "blackjack":
        b = evaluation.blackjack
        return [
            ("total", str(b.total), True),
            ("soft", yes_no(b.soft), True),
            ("bust", yes_no(b.bust), True),
        ]
    if which == "high_card":
        h = evaluation.high_card
        return [("survived", str(h.survived), True), ("ascending", cards(h.ascending), False)]
    if which == "dots":
        return [("dots", str(evaluation.dots.dots), True), *_poker_figures(evaluation.dots.poker)]
    if which == "poker":
        return _poker_figures(evaluation.poker)
    if which == "not_poker":
        n = evaluation.not_poker
        return [
            ("category", enum_text(pb.NotPokerCategory, n.category, "NOT_POKER_CATEGORY_"), True),
            ("groups", " ".join(n.groups) or "-", True),
            ("jokers as", " ".join(n.jokers_as) or "-", False),
        ]
    if which == "tonk":
        return _tonk_figures(evaluation.tonk)
    return []


def figures(evaluation: pb.Evaluation) -> list[Figure]:
    """Strength, the discard rule where the game has it, then the game's figures."""
    rows: list[Figure] = [("strength", str(evaluation.strength), True)]
    which = evaluation.WhichOneof("detail")
    if which == "points":
        rows.append(("low strength", str(evaluation.low_strength), True))
    if which in _DISCARD_DETAILS:
        rows += [
            ("instant win", yes_no(evaluation.instant_win), False),
            ("out after", str(evaluation.out_after), False),
            ("kept", cards(evaluation.kept), True),
            ("discarded", cards(evaluation.discarded), False),
        ]
    return rows + detail_figures(evaluation)


def _setting_lines(
    table_cards: Sequence[str], spreads: Sequence[pb.Spread], options: pb.Options
) -> list[str]:
    lines = []
    if table_cards:
        lines.append(f"table: {cards(table_cards)}")
    if spreads:
        laid = ", ".join(f"[{i}] {cards(s.cards)}" for i, s in enumerate(spreads))
        lines.append(f"table spreads: {laid}")
    chosen = [name for name in ("ace_low", "hit_runs_only") if getattr(options, name)]
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


def render_games(response: pb.ListGamesResponse) -> str:
    """Every game: the name ``--game`` takes, its name and number, sizes, pots, options."""

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
            ", ".join(o.replace("_", "-") for o in g.options) or "-",
        )
        for g in response.games
    ]
    return table(rows, ["game", "name", "no.", "hand", "table", "pots", "options"])
