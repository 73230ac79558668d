from google.rpc import status_pb2 as _status_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Game(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GAME_UNSPECIFIED: _ClassVar[Game]
    GAME_NUMBERS: _ClassVar[Game]
    GAME_FLORIDA_BINGO: _ClassVar[Game]
    GAME_FLOP_A: _ClassVar[Game]
    GAME_THREE_THIRTY_THREE: _ClassVar[Game]
    GAME_HIGH_CARD: _ClassVar[Game]
    GAME_GROCERY_STORE_DOTS: _ClassVar[Game]
    GAME_POKER_HIGH: _ClassVar[Game]
    GAME_NOT_POKER: _ClassVar[Game]
    GAME_TONK: _ClassVar[Game]
    GAME_TONK_SPADES: _ClassVar[Game]

class PokerCategory(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    POKER_CATEGORY_UNSPECIFIED: _ClassVar[PokerCategory]
    POKER_CATEGORY_HIGH_CARD: _ClassVar[PokerCategory]
    POKER_CATEGORY_ONE_PAIR: _ClassVar[PokerCategory]
    POKER_CATEGORY_TWO_PAIR: _ClassVar[PokerCategory]
    POKER_CATEGORY_THREE_OF_A_KIND: _ClassVar[PokerCategory]
    POKER_CATEGORY_STRAIGHT: _ClassVar[PokerCategory]
    POKER_CATEGORY_FLUSH: _ClassVar[PokerCategory]
    POKER_CATEGORY_FULL_HOUSE: _ClassVar[PokerCategory]
    POKER_CATEGORY_FOUR_OF_A_KIND: _ClassVar[PokerCategory]
    POKER_CATEGORY_STRAIGHT_FLUSH: _ClassVar[PokerCategory]

class NotPokerCategory(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    NOT_POKER_CATEGORY_UNSPECIFIED: _ClassVar[NotPokerCategory]
    NOT_POKER_CATEGORY_TWO_TRIPS: _ClassVar[NotPokerCategory]
    NOT_POKER_CATEGORY_THREE_PAIRS: _ClassVar[NotPokerCategory]
    NOT_POKER_CATEGORY_FULL_HOUSE: _ClassVar[NotPokerCategory]
    NOT_POKER_CATEGORY_TRIPS: _ClassVar[NotPokerCategory]
    NOT_POKER_CATEGORY_TWO_PAIRS: _ClassVar[NotPokerCategory]
    NOT_POKER_CATEGORY_PAIR: _ClassVar[NotPokerCategory]
    NOT_POKER_CATEGORY_HIGH_CARD: _ClassVar[NotPokerCategory]

class Declaration(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DECLARATION_UNSPECIFIED: _ClassVar[Declaration]
    DECLARATION_HIGH: _ClassVar[Declaration]
    DECLARATION_LOW: _ClassVar[Declaration]
    DECLARATION_BOTH: _ClassVar[Declaration]

class TonkEnding(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TONK_ENDING_UNSPECIFIED: _ClassVar[TonkEnding]
    TONK_ENDING_TONK: _ClassVar[TonkEnding]
    TONK_ENDING_OUT: _ClassVar[TonkEnding]
    TONK_ENDING_DROP: _ClassVar[TonkEnding]
    TONK_ENDING_STOCK_OUT: _ClassVar[TonkEnding]
    TONK_ENDING_DEAL: _ClassVar[TonkEnding]

class DealBonus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DEAL_BONUS_UNSPECIFIED: _ClassVar[DealBonus]
    DEAL_BONUS_NONE: _ClassVar[DealBonus]
    DEAL_BONUS_FIFTY: _ClassVar[DealBonus]
    DEAL_BONUS_FORTY_NINE: _ClassVar[DealBonus]
    DEAL_BONUS_THIRTEEN_OR_LESS: _ClassVar[DealBonus]
    DEAL_BONUS_NINE_OR_LESS: _ClassVar[DealBonus]
GAME_UNSPECIFIED: Game
GAME_NUMBERS: Game
GAME_FLORIDA_BINGO: Game
GAME_FLOP_A: Game
GAME_THREE_THIRTY_THREE: Game
GAME_HIGH_CARD: Game
GAME_GROCERY_STORE_DOTS: Game
GAME_POKER_HIGH: Game
GAME_NOT_POKER: Game
GAME_TONK: Game
GAME_TONK_SPADES: Game
POKER_CATEGORY_UNSPECIFIED: PokerCategory
POKER_CATEGORY_HIGH_CARD: PokerCategory
POKER_CATEGORY_ONE_PAIR: PokerCategory
POKER_CATEGORY_TWO_PAIR: PokerCategory
POKER_CATEGORY_THREE_OF_A_KIND: PokerCategory
POKER_CATEGORY_STRAIGHT: PokerCategory
POKER_CATEGORY_FLUSH: PokerCategory
POKER_CATEGORY_FULL_HOUSE: PokerCategory
POKER_CATEGORY_FOUR_OF_A_KIND: PokerCategory
POKER_CATEGORY_STRAIGHT_FLUSH: PokerCategory
NOT_POKER_CATEGORY_UNSPECIFIED: NotPokerCategory
NOT_POKER_CATEGORY_TWO_TRIPS: NotPokerCategory
NOT_POKER_CATEGORY_THREE_PAIRS: NotPokerCategory
NOT_POKER_CATEGORY_FULL_HOUSE: NotPokerCategory
NOT_POKER_CATEGORY_TRIPS: NotPokerCategory
NOT_POKER_CATEGORY_TWO_PAIRS: NotPokerCategory
NOT_POKER_CATEGORY_PAIR: NotPokerCategory
NOT_POKER_CATEGORY_HIGH_CARD: NotPokerCategory
DECLARATION_UNSPECIFIED: Declaration
DECLARATION_HIGH: Declaration
DECLARATION_LOW: Declaration
DECLARATION_BOTH: Declaration
TONK_ENDING_UNSPECIFIED: TonkEnding
TONK_ENDING_TONK: TonkEnding
TONK_ENDING_OUT: TonkEnding
TONK_ENDING_DROP: TonkEnding
TONK_ENDING_STOCK_OUT: TonkEnding
TONK_ENDING_DEAL: TonkEnding
DEAL_BONUS_UNSPECIFIED: DealBonus
DEAL_BONUS_NONE: DealBonus
DEAL_BONUS_FIFTY: DealBonus
DEAL_BONUS_FORTY_NINE: DealBonus
DEAL_BONUS_THIRTEEN_OR_LESS: DealBonus
DEAL_BONUS_NINE_OR_LESS: DealBonus

class Options(_message.Message):
    __slots__ = ("ace_low", "hit_runs_only", "texas", "six_card_tonk")
    ACE_LOW_FIELD_NUMBER: _ClassVar[int]
    HIT_RUNS_ONLY_FIELD_NUMBER: _ClassVar[int]
    TEXAS_FIELD_NUMBER: _ClassVar[int]
    SIX_CARD_TONK_FIELD_NUMBER: _ClassVar[int]
    ace_low: bool
    hit_runs_only: bool
    texas: bool
    six_card_tonk: bool
    def __init__(self, ace_low: _Optional[bool] = ..., hit_runs_only: _Optional[bool] = ..., texas: _Optional[bool] = ..., six_card_tonk: _Optional[bool] = ...) -> None: ...

class Spread(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class EvaluateRequest(_message.Message):
    __slots__ = ("game", "hand", "table", "table_spreads", "options", "request_id")
    GAME_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    TABLE_SPREADS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    game: Game
    hand: _containers.RepeatedScalarFieldContainer[str]
    table: _containers.RepeatedScalarFieldContainer[str]
    table_spreads: _containers.RepeatedCompositeFieldContainer[Spread]
    options: Options
    request_id: str
    def __init__(self, game: _Optional[_Union[Game, str]] = ..., hand: _Optional[_Iterable[str]] = ..., table: _Optional[_Iterable[str]] = ..., table_spreads: _Optional[_Iterable[_Union[Spread, _Mapping]]] = ..., options: _Optional[_Union[Options, _Mapping]] = ..., request_id: _Optional[str] = ...) -> None: ...

class PointsDetail(_message.Message):
    __slots__ = ("high_total", "low_total")
    HIGH_TOTAL_FIELD_NUMBER: _ClassVar[int]
    LOW_TOTAL_FIELD_NUMBER: _ClassVar[int]
    high_total: float
    low_total: float
    def __init__(self, high_total: _Optional[float] = ..., low_total: _Optional[float] = ...) -> None: ...

class BlackjackDetail(_message.Message):
    __slots__ = ("total", "soft", "bust")
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    SOFT_FIELD_NUMBER: _ClassVar[int]
    BUST_FIELD_NUMBER: _ClassVar[int]
    total: int
    soft: bool
    bust: bool
    def __init__(self, total: _Optional[int] = ..., soft: _Optional[bool] = ..., bust: _Optional[bool] = ...) -> None: ...

class HighCardDetail(_message.Message):
    __slots__ = ("survived", "ascending")
    SURVIVED_FIELD_NUMBER: _ClassVar[int]
    ASCENDING_FIELD_NUMBER: _ClassVar[int]
    survived: int
    ascending: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, survived: _Optional[int] = ..., ascending: _Optional[_Iterable[str]] = ...) -> None: ...

class PokerDetail(_message.Message):
    __slots__ = ("category", "rank_class", "best_five")
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    RANK_CLASS_FIELD_NUMBER: _ClassVar[int]
    BEST_FIVE_FIELD_NUMBER: _ClassVar[int]
    category: PokerCategory
    rank_class: int
    best_five: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, category: _Optional[_Union[PokerCategory, str]] = ..., rank_class: _Optional[int] = ..., best_five: _Optional[_Iterable[str]] = ...) -> None: ...

class DotsDetail(_message.Message):
    __slots__ = ("dots", "poker")
    DOTS_FIELD_NUMBER: _ClassVar[int]
    POKER_FIELD_NUMBER: _ClassVar[int]
    dots: int
    poker: PokerDetail
    def __init__(self, dots: _Optional[int] = ..., poker: _Optional[_Union[PokerDetail, _Mapping]] = ...) -> None: ...

class NotPokerDetail(_message.Message):
    __slots__ = ("category", "groups", "jokers_as")
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    GROUPS_FIELD_NUMBER: _ClassVar[int]
    JOKERS_AS_FIELD_NUMBER: _ClassVar[int]
    category: NotPokerCategory
    groups: _containers.RepeatedScalarFieldContainer[str]
    jokers_as: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, category: _Optional[_Union[NotPokerCategory, str]] = ..., groups: _Optional[_Iterable[str]] = ..., jokers_as: _Optional[_Iterable[str]] = ...) -> None: ...

class Hit(_message.Message):
    __slots__ = ("card", "spread_index")
    CARD_FIELD_NUMBER: _ClassVar[int]
    SPREAD_INDEX_FIELD_NUMBER: _ClassVar[int]
    card: str
    spread_index: int
    def __init__(self, card: _Optional[str] = ..., spread_index: _Optional[int] = ...) -> None: ...

class TonkDetail(_message.Message):
    __slots__ = ("points", "deadwood", "spreads", "hits", "deadwood_cards", "tonk", "deal_bonus")
    POINTS_FIELD_NUMBER: _ClassVar[int]
    DEADWOOD_FIELD_NUMBER: _ClassVar[int]
    SPREADS_FIELD_NUMBER: _ClassVar[int]
    HITS_FIELD_NUMBER: _ClassVar[int]
    DEADWOOD_CARDS_FIELD_NUMBER: _ClassVar[int]
    TONK_FIELD_NUMBER: _ClassVar[int]
    DEAL_BONUS_FIELD_NUMBER: _ClassVar[int]
    points: int
    deadwood: int
    spreads: _containers.RepeatedCompositeFieldContainer[Spread]
    hits: _containers.RepeatedCompositeFieldContainer[Hit]
    deadwood_cards: _containers.RepeatedScalarFieldContainer[str]
    tonk: bool
    deal_bonus: DealBonus
    def __init__(self, points: _Optional[int] = ..., deadwood: _Optional[int] = ..., spreads: _Optional[_Iterable[_Union[Spread, _Mapping]]] = ..., hits: _Optional[_Iterable[_Union[Hit, _Mapping]]] = ..., deadwood_cards: _Optional[_Iterable[str]] = ..., tonk: _Optional[bool] = ..., deal_bonus: _Optional[_Union[DealBonus, str]] = ...) -> None: ...

class SpadesDetail(_message.Message):
    __slots__ = ("highest",)
    HIGHEST_FIELD_NUMBER: _ClassVar[int]
    highest: str
    def __init__(self, highest: _Optional[str] = ...) -> None: ...

class Evaluation(_message.Message):
    __slots__ = ("request_id", "game", "strength", "low_strength", "instant_win", "out_after", "kept", "discarded", "description", "error", "points", "blackjack", "high_card", "dots", "poker", "not_poker", "tonk", "spades")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    STRENGTH_FIELD_NUMBER: _ClassVar[int]
    LOW_STRENGTH_FIELD_NUMBER: _ClassVar[int]
    INSTANT_WIN_FIELD_NUMBER: _ClassVar[int]
    OUT_AFTER_FIELD_NUMBER: _ClassVar[int]
    KEPT_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    BLACKJACK_FIELD_NUMBER: _ClassVar[int]
    HIGH_CARD_FIELD_NUMBER: _ClassVar[int]
    DOTS_FIELD_NUMBER: _ClassVar[int]
    POKER_FIELD_NUMBER: _ClassVar[int]
    NOT_POKER_FIELD_NUMBER: _ClassVar[int]
    TONK_FIELD_NUMBER: _ClassVar[int]
    SPADES_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    game: Game
    strength: int
    low_strength: int
    instant_win: bool
    out_after: int
    kept: _containers.RepeatedScalarFieldContainer[str]
    discarded: _containers.RepeatedScalarFieldContainer[str]
    description: str
    error: _status_pb2.Status
    points: PointsDetail
    blackjack: BlackjackDetail
    high_card: HighCardDetail
    dots: DotsDetail
    poker: PokerDetail
    not_poker: NotPokerDetail
    tonk: TonkDetail
    spades: SpadesDetail
    def __init__(self, request_id: _Optional[str] = ..., game: _Optional[_Union[Game, str]] = ..., strength: _Optional[int] = ..., low_strength: _Optional[int] = ..., instant_win: _Optional[bool] = ..., out_after: _Optional[int] = ..., kept: _Optional[_Iterable[str]] = ..., discarded: _Optional[_Iterable[str]] = ..., description: _Optional[str] = ..., error: _Optional[_Union[_status_pb2.Status, _Mapping]] = ..., points: _Optional[_Union[PointsDetail, _Mapping]] = ..., blackjack: _Optional[_Union[BlackjackDetail, _Mapping]] = ..., high_card: _Optional[_Union[HighCardDetail, _Mapping]] = ..., dots: _Optional[_Union[DotsDetail, _Mapping]] = ..., poker: _Optional[_Union[PokerDetail, _Mapping]] = ..., not_poker: _Optional[_Union[NotPokerDetail, _Mapping]] = ..., tonk: _Optional[_Union[TonkDetail, _Mapping]] = ..., spades: _Optional[_Union[SpadesDetail, _Mapping]] = ...) -> None: ...

class EvaluateBatchRequest(_message.Message):
    __slots__ = ("game", "hands", "hand_size", "tables", "table_size", "options", "columns")
    GAME_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    TABLES_FIELD_NUMBER: _ClassVar[int]
    TABLE_SIZE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    COLUMNS_FIELD_NUMBER: _ClassVar[int]
    game: Game
    hands: bytes
    hand_size: int
    tables: bytes
    table_size: int
    options: Options
    columns: bool
    def __init__(self, game: _Optional[_Union[Game, str]] = ..., hands: _Optional[bytes] = ..., hand_size: _Optional[int] = ..., tables: _Optional[bytes] = ..., table_size: _Optional[int] = ..., options: _Optional[_Union[Options, _Mapping]] = ..., columns: _Optional[bool] = ...) -> None: ...

class BatchColumns(_message.Message):
    __slots__ = ("strength", "low_strength", "value", "instant_win")
    STRENGTH_FIELD_NUMBER: _ClassVar[int]
    LOW_STRENGTH_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    INSTANT_WIN_FIELD_NUMBER: _ClassVar[int]
    strength: bytes
    low_strength: bytes
    value: bytes
    instant_win: bytes
    def __init__(self, strength: _Optional[bytes] = ..., low_strength: _Optional[bytes] = ..., value: _Optional[bytes] = ..., instant_win: _Optional[bytes] = ...) -> None: ...

class EvaluateBatchResponse(_message.Message):
    __slots__ = ("strength", "low_strength", "value", "instant_win", "columns")
    STRENGTH_FIELD_NUMBER: _ClassVar[int]
    LOW_STRENGTH_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    INSTANT_WIN_FIELD_NUMBER: _ClassVar[int]
    COLUMNS_FIELD_NUMBER: _ClassVar[int]
    strength: _containers.RepeatedScalarFieldContainer[int]
    low_strength: _containers.RepeatedScalarFieldContainer[int]
    value: _containers.RepeatedScalarFieldContainer[int]
    instant_win: _containers.RepeatedScalarFieldContainer[bool]
    columns: BatchColumns
    def __init__(self, strength: _Optional[_Iterable[int]] = ..., low_strength: _Optional[_Iterable[int]] = ..., value: _Optional[_Iterable[int]] = ..., instant_win: _Optional[_Iterable[bool]] = ..., columns: _Optional[_Union[BatchColumns, _Mapping]] = ...) -> None: ...

class Seat(_message.Message):
    __slots__ = ("player", "hand", "declaration", "unknown")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    DECLARATION_FIELD_NUMBER: _ClassVar[int]
    UNKNOWN_FIELD_NUMBER: _ClassVar[int]
    player: str
    hand: _containers.RepeatedScalarFieldContainer[str]
    declaration: Declaration
    unknown: int
    def __init__(self, player: _Optional[str] = ..., hand: _Optional[_Iterable[str]] = ..., declaration: _Optional[_Union[Declaration, str]] = ..., unknown: _Optional[int] = ...) -> None: ...

class ShowdownRequest(_message.Message):
    __slots__ = ("game", "seats", "table", "table_spreads", "options", "ending", "ender", "request_id")
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    TABLE_SPREADS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    ENDING_FIELD_NUMBER: _ClassVar[int]
    ENDER_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    game: Game
    seats: _containers.RepeatedCompositeFieldContainer[Seat]
    table: _containers.RepeatedScalarFieldContainer[str]
    table_spreads: _containers.RepeatedCompositeFieldContainer[Spread]
    options: Options
    ending: TonkEnding
    ender: str
    request_id: str
    def __init__(self, game: _Optional[_Union[Game, str]] = ..., seats: _Optional[_Iterable[_Union[Seat, _Mapping]]] = ..., table: _Optional[_Iterable[str]] = ..., table_spreads: _Optional[_Iterable[_Union[Spread, _Mapping]]] = ..., options: _Optional[_Union[Options, _Mapping]] = ..., ending: _Optional[_Union[TonkEnding, str]] = ..., ender: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class SeatResult(_message.Message):
    __slots__ = ("player", "evaluation")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    EVALUATION_FIELD_NUMBER: _ClassVar[int]
    player: str
    evaluation: Evaluation
    def __init__(self, player: _Optional[str] = ..., evaluation: _Optional[_Union[Evaluation, _Mapping]] = ...) -> None: ...

class Award(_message.Message):
    __slots__ = ("player", "pot", "numerator", "denominator")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    POT_FIELD_NUMBER: _ClassVar[int]
    NUMERATOR_FIELD_NUMBER: _ClassVar[int]
    DENOMINATOR_FIELD_NUMBER: _ClassVar[int]
    player: str
    pot: str
    numerator: int
    denominator: int
    def __init__(self, player: _Optional[str] = ..., pot: _Optional[str] = ..., numerator: _Optional[int] = ..., denominator: _Optional[int] = ...) -> None: ...

class Payout(_message.Message):
    __slots__ = ("player", "stakes")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    STAKES_FIELD_NUMBER: _ClassVar[int]
    player: str
    stakes: int
    def __init__(self, player: _Optional[str] = ..., stakes: _Optional[int] = ...) -> None: ...

class ShowdownResponse(_message.Message):
    __slots__ = ("results", "awards", "redeal", "payouts", "explanation", "request_id")
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    AWARDS_FIELD_NUMBER: _ClassVar[int]
    REDEAL_FIELD_NUMBER: _ClassVar[int]
    PAYOUTS_FIELD_NUMBER: _ClassVar[int]
    EXPLANATION_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[SeatResult]
    awards: _containers.RepeatedCompositeFieldContainer[Award]
    redeal: bool
    payouts: _containers.RepeatedCompositeFieldContainer[Payout]
    explanation: str
    request_id: str
    def __init__(self, results: _Optional[_Iterable[_Union[SeatResult, _Mapping]]] = ..., awards: _Optional[_Iterable[_Union[Award, _Mapping]]] = ..., redeal: _Optional[bool] = ..., payouts: _Optional[_Iterable[_Union[Payout, _Mapping]]] = ..., explanation: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class OddsRequest(_message.Message):
    __slots__ = ("game", "seats", "table", "dead", "options", "samples", "seed", "request_id")
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    DEAD_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SAMPLES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    game: Game
    seats: _containers.RepeatedCompositeFieldContainer[Seat]
    table: _containers.RepeatedScalarFieldContainer[str]
    dead: _containers.RepeatedScalarFieldContainer[str]
    options: Options
    samples: int
    seed: int
    request_id: str
    def __init__(self, game: _Optional[_Union[Game, str]] = ..., seats: _Optional[_Iterable[_Union[Seat, _Mapping]]] = ..., table: _Optional[_Iterable[str]] = ..., dead: _Optional[_Iterable[str]] = ..., options: _Optional[_Union[Options, _Mapping]] = ..., samples: _Optional[int] = ..., seed: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class SeatOdds(_message.Message):
    __slots__ = ("player", "share", "pots", "instant_win")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    SHARE_FIELD_NUMBER: _ClassVar[int]
    POTS_FIELD_NUMBER: _ClassVar[int]
    INSTANT_WIN_FIELD_NUMBER: _ClassVar[int]
    player: str
    share: float
    pots: _containers.RepeatedCompositeFieldContainer[PotOdds]
    instant_win: float
    def __init__(self, player: _Optional[str] = ..., share: _Optional[float] = ..., pots: _Optional[_Iterable[_Union[PotOdds, _Mapping]]] = ..., instant_win: _Optional[float] = ...) -> None: ...

class PotOdds(_message.Message):
    __slots__ = ("pot", "win", "share")
    POT_FIELD_NUMBER: _ClassVar[int]
    WIN_FIELD_NUMBER: _ClassVar[int]
    SHARE_FIELD_NUMBER: _ClassVar[int]
    pot: str
    win: float
    share: float
    def __init__(self, pot: _Optional[str] = ..., win: _Optional[float] = ..., share: _Optional[float] = ...) -> None: ...

class OddsResponse(_message.Message):
    __slots__ = ("request_id", "game", "seats", "redeal", "exact", "runouts", "standard_error")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    REDEAL_FIELD_NUMBER: _ClassVar[int]
    EXACT_FIELD_NUMBER: _ClassVar[int]
    RUNOUTS_FIELD_NUMBER: _ClassVar[int]
    STANDARD_ERROR_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    game: Game
    seats: _containers.RepeatedCompositeFieldContainer[SeatOdds]
    redeal: float
    exact: bool
    runouts: int
    standard_error: float
    def __init__(self, request_id: _Optional[str] = ..., game: _Optional[_Union[Game, str]] = ..., seats: _Optional[_Iterable[_Union[SeatOdds, _Mapping]]] = ..., redeal: _Optional[float] = ..., exact: _Optional[bool] = ..., runouts: _Optional[int] = ..., standard_error: _Optional[float] = ...) -> None: ...

class ListGamesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GameInfo(_message.Message):
    __slots__ = ("game", "name", "number", "hand_min", "hand_max", "table_min", "table_max", "jokers", "pots", "options", "summary", "odds")
    GAME_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    HAND_MIN_FIELD_NUMBER: _ClassVar[int]
    HAND_MAX_FIELD_NUMBER: _ClassVar[int]
    TABLE_MIN_FIELD_NUMBER: _ClassVar[int]
    TABLE_MAX_FIELD_NUMBER: _ClassVar[int]
    JOKERS_FIELD_NUMBER: _ClassVar[int]
    POTS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    ODDS_FIELD_NUMBER: _ClassVar[int]
    game: Game
    name: str
    number: int
    hand_min: int
    hand_max: int
    table_min: int
    table_max: int
    jokers: bool
    pots: _containers.RepeatedScalarFieldContainer[str]
    options: _containers.RepeatedScalarFieldContainer[str]
    summary: str
    odds: bool
    def __init__(self, game: _Optional[_Union[Game, str]] = ..., name: _Optional[str] = ..., number: _Optional[int] = ..., hand_min: _Optional[int] = ..., hand_max: _Optional[int] = ..., table_min: _Optional[int] = ..., table_max: _Optional[int] = ..., jokers: _Optional[bool] = ..., pots: _Optional[_Iterable[str]] = ..., options: _Optional[_Iterable[str]] = ..., summary: _Optional[str] = ..., odds: _Optional[bool] = ...) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games",)
    GAMES_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[GameInfo]
    def __init__(self, games: _Optional[_Iterable[_Union[GameInfo, _Mapping]]] = ...) -> None: ...
