def plain_request(
    data: bytes, card_ids: bytes, max_id_bytes: int, /
) -> tuple[int, tuple[int, ...], tuple[int, ...], str, bytes] | None: ...
def evaluation_head(
    request_id: str,
    game: int,
    strength: int,
    low_strength: int,
    instant_win: bool,
    out_after: int,
    kept: tuple[str, ...],
    discarded: tuple[str, ...],
    description: str,
    /,
) -> bytes: ...
