"""The committed generated code (and the commented descriptor set reflection serves) is
what ``python -m service.gen.regenerate`` writes from the committed protos today."""

from __future__ import annotations

from service.gen import regenerate


def _as_bytes(content: str | bytes) -> bytes:
    return content if isinstance(content, bytes) else content.encode()


def test_committed_generated_code_matches_the_proto() -> None:
    fresh = regenerate.generated_now()
    stale = sorted(
        rel
        for rel, content in fresh.items()
        if not (regenerate.OUT / rel).is_file()
        or (regenerate.OUT / rel).read_bytes() != _as_bytes(content)
    )
    assert not stale, f"stale: {stale}; run python -m service.gen.regenerate"


def test_every_proto_has_generated_code() -> None:
    generated = {rel.rsplit("/", 1)[-1].split("_pb2")[0] for rel in regenerate.generated_now()}
    protos = {p.rsplit("/", 1)[-1].removesuffix(".proto") for p in regenerate.PROTO_FILES}
    assert protos <= generated


def test_no_generated_file_is_left_over_from_a_removed_proto() -> None:
    fresh = set(regenerate.generated_now())
    on_disk = {
        str(path.relative_to(regenerate.OUT))
        for pattern in ("*_pb2*.py", "*_pb2*.pyi", "*.binpb", "*.proto")
        for path in regenerate.OUT.rglob(pattern)
    }
    assert on_disk == fresh
