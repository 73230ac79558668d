"""The committed generated code is what the committed proto generates today."""

from __future__ import annotations

from service.gen import regenerate


def test_committed_generated_code_matches_the_proto() -> None:
    fresh = regenerate.generated_now()
    committed = {rel: (regenerate.OUT / rel).read_text() for rel in fresh}
    stale = sorted(rel for rel in fresh if committed[rel] != fresh[rel])
    assert not stale, f"stale: {stale}; run python -m service.gen.regenerate"


def test_no_generated_file_is_left_over_from_a_removed_proto() -> None:
    fresh = set(regenerate.generated_now())
    on_disk = {
        str(path.relative_to(regenerate.OUT))
        for pattern in ("*_pb2*.py", "*_pb2*.pyi")
        for path in regenerate.OUT.rglob(pattern)
    }
    assert on_disk == fresh
