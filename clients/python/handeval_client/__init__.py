"""handeval's Python client: score card-game hands, resolve showdowns and ask the odds
over gRPC.

    from handeval_client import HandevalClient

    with HandevalClient("localhost:50051") as handeval:
        handeval.evaluate("tonk", "5h 6h 7h Kd 2c").description      # 'Deadwood 12'

Pure Python (grpcio, protobuf and numpy); nothing of the server. ``pb`` is the contract's
generated module (``handeval.v1``), whose messages the calls answer.
"""

from __future__ import annotations

from handeval_client.batch import BatchResult
from handeval_client.client import HandevalClient, detail, share
from handeval_client.errors import HandevalError
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb
from handeval_client.requests import (
    batch_request,
    evaluate_request,
    odds_request,
    options_proto,
    parse_game,
    showdown_request,
)

__all__ = [
    "BatchResult",
    "HandevalClient",
    "HandevalError",
    "batch_request",
    "detail",
    "evaluate_request",
    "odds_request",
    "options_proto",
    "parse_game",
    "pb",
    "share",
    "showdown_request",
]
__version__ = "0.1.0"
