"""Pure scoring for the card games of docs/rules.md: card ids in, plain results out.

Imports nothing from ``service``, grpc or protobuf; a game server may use it directly:

    from evaluators.validation import read_hand
    from evaluators.scoring import evaluate
    evaluate(read_hand(Game.POKER_HIGH, ["Ah", "Kh"], ["Qh", "Jh", "Th"]))
"""
