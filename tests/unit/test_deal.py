"""The seeded dealer: every row it deals is a hand its game accepts, singly and as a batch."""

from __future__ import annotations

from collections import Counter

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluators.batch import evaluate_batch
from evaluators.cards import DECK_SIZE, JOKERS, card_text, rank_of
from evaluators.deal import Deal, deal, default_sizes
from evaluators.inputs import Game, Options
from evaluators.registry import GAMES
from evaluators.validation import read_hand
from tests.unit.games.examples import examples


def _texts(cards: tuple[int, ...]) -> list[str]:
    return [card_text(c) for c in cards]


def _assert_rows_are_one_deck_each(dealt: Deal, deck_size: int) -> None:
    """Brute force: every card exists in the game's deck and appears once per row."""
    for index in range(len(dealt)):
        hand, table = dealt.row(index)
        cards = hand + table
        assert all(0 <= c < deck_size for c in cards), cards
        assert len(set(cards)) == len(cards), cards


@pytest.mark.parametrize("game", list(Game))
def test_default_deal_is_the_fullest_hand_and_table_the_game_takes(game: Game) -> None:
    full = examples(game).full_deal
    assert default_sizes(GAMES[game]) == full
    dealt = deal(game, 3)
    assert (dealt.hand_size, dealt.table_size) == full
    assert dealt.hands.shape == (3, full[0])
    assert dealt.tables.shape == (3, full[1])


@pytest.mark.parametrize("game", list(Game))
def test_every_dealt_row_passes_single_hand_validation(game: Game) -> None:
    dealt = deal(game, 300, seed=7)
    for index in range(len(dealt)):
        hand, table = dealt.row(index)
        request = read_hand(game, _texts(hand), _texts(table))
        assert (request.hand, request.table) == (hand, table)


@pytest.mark.parametrize("game", list(Game))
def test_a_whole_deal_is_accepted_and_scored_as_one_packed_batch(game: Game) -> None:
    dealt = deal(game, 500, seed=3)
    result = evaluate_batch(
        game,
        dealt.hands.tobytes(),
        dealt.hand_size,
        dealt.tables.tobytes(),
        dealt.table_size,
        Options(),
        max_hands=len(dealt),
    )
    assert len(result.strength) == len(dealt)


@pytest.mark.parametrize("game", [g for g in Game if GAMES[g].distinct_table_ranks])
def test_discard_game_tables_never_pair(game: Game) -> None:
    dealt = deal(game, 2000, seed=11)
    for table in dealt.tables.tolist():
        ranks = [rank_of(c) for c in table]
        assert len(set(ranks)) == len(ranks), table


def test_high_card_tables_may_pair_since_no_discard_rule_applies() -> None:
    dealt = deal(Game.HIGH_CARD, 500, seed=11)
    paired = sum(len({rank_of(c) for c in t}) < len(t) for t in dealt.tables.tolist())
    assert paired > 0


def test_only_not_poker_deals_jokers() -> None:
    for game in Game:
        dealt = deal(game, 400, seed=5)
        has_joker = bool(np.isin(dealt.hands, JOKERS).any())
        assert has_joker == (game is Game.NOT_POKER), game


def test_the_same_seed_deals_the_same_cards_and_another_seed_others() -> None:
    first = deal(Game.TONK, 50, seed=42)
    again = deal(Game.TONK, 50, seed=42)
    other = deal(Game.TONK, 50, seed=43)
    assert np.array_equal(first.hands, again.hands)
    assert not np.array_equal(first.hands, other.hands)


def test_each_game_draws_its_own_cards_from_one_seed() -> None:
    poker = deal(Game.POKER_HIGH, 50, seed=1)
    dots = deal(Game.GROCERY_STORE_DOTS, 50, seed=1)
    assert not np.array_equal(poker.hands, dots.hands)


def test_every_card_is_dealt_about_equally_often() -> None:
    """A fair shuffle: 20,000 seven-card hands give each card 2,692 times on average;
    a broken draw (a card never dealt, or always first) is far outside 15%."""
    dealt = deal(Game.POKER_HIGH, 20_000, seed=9)
    counts = Counter(dealt.hands.ravel().tolist())
    expected = 20_000 * 7 / DECK_SIZE
    assert set(counts) == set(range(DECK_SIZE))
    assert all(abs(n - expected) < 0.15 * expected for n in counts.values()), counts
    first = Counter(dealt.hands[:, 0].tolist())
    assert len(first) == DECK_SIZE


@pytest.mark.parametrize(
    ("game", "hand_size", "table_size", "problem"),
    [
        (Game.NOT_POKER, 5, 0, "the hand has 5 cards; this game takes 6"),
        (Game.HIGH_CARD, 5, 4, "the table has 4 cards; this game takes 5"),
        (Game.POKER_HIGH, 2, 2, "together have 4 cards; Poker high takes 5-7"),
        (Game.POKER_HIGH, 7, 1, "together have 8 cards; Poker high takes 5-7"),
    ],
)
def test_sizes_the_game_refuses_are_refused_before_dealing(
    game: Game, hand_size: int, table_size: int, problem: str
) -> None:
    with pytest.raises(ValueError, match=problem):
        deal(game, 1, hand_size=hand_size, table_size=table_size)


def test_zero_hands_is_an_empty_deal() -> None:
    assert len(deal(Game.TONK, 0)) == 0


@st.composite
def _deal_args(draw: st.DrawFn) -> tuple[Game, int, int, int]:
    game = draw(st.sampled_from(list(Game)))
    rules = GAMES[game]
    hand = draw(st.integers(rules.hand_min, rules.hand_max))
    low = max(rules.table_min, rules.cards_min - hand)
    high = min(rules.table_max, rules.cards_max - hand)
    table = draw(st.integers(low, high))
    return game, hand, table, draw(st.integers(0, 2**32))


@settings(max_examples=150, deadline=None)
@given(_deal_args(), st.integers(1, 20))
def test_any_accepted_size_and_seed_deals_hands_the_validator_accepts(
    args: tuple[Game, int, int, int], count: int
) -> None:
    game, hand_size, table_size, seed = args
    dealt = deal(game, count, seed, hand_size, table_size)
    assert dealt.hands.shape == (count, hand_size)
    assert dealt.tables.shape == (count, table_size)
    _assert_rows_are_one_deck_each(dealt, DECK_SIZE + (2 if GAMES[game].jokers else 0))
    for index in range(count):
        hand, table = dealt.row(index)
        read_hand(game, _texts(hand), _texts(table))


def test_a_narrowed_deck_and_a_keep_rule_deal_only_what_they_allow() -> None:
    deck = np.array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], dtype=np.uint8)

    def no_deuce_of_clubs(rows: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
        result: npt.NDArray[np.bool_] = ~(rows == 0).any(axis=1)
        return result

    dealt = deal(Game.TONK, 200, seed=4, hand_size=5, deck=deck, keep=no_deuce_of_clubs)
    assert set(dealt.hands.ravel().tolist()) <= set(range(1, 10))
    _assert_rows_are_one_deck_each(dealt, DECK_SIZE)


def _hand_alone_size(game: Game) -> int | None:
    """The largest hand ``game`` takes with an empty table, if it takes one."""
    rules = GAMES[game]
    sizes = [n for n in range(rules.hand_min, rules.hand_max + 1) if rules.cards_min <= n]
    return max(sizes) if rules.table_min == 0 and sizes else None


@pytest.mark.parametrize("game", [g for g in Game if _hand_alone_size(g)])
def test_a_narrowed_deck_deals_its_cards_not_their_positions(game: Game) -> None:
    deck = np.arange(DECK_SIZE - 20, DECK_SIZE, dtype=np.uint8)
    dealt = deal(game, 200, seed=8, hand_size=_hand_alone_size(game), table_size=0, deck=deck)
    assert set(dealt.hands.ravel().tolist()) <= set(deck.tolist())
