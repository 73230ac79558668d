"""The committed generated code is what ``python -m service.gen.regenerate`` writes now."""

from __future__ import annotations

from service.gen import regenerate


def test_committed_generated_code_matches_every_proto() -> None:
    generated = regenerate.generated_now()
    protos = {p.rsplit("/", 1)[-1].removesuffix(".proto") for p in regenerate.PROTO_FILES}
    assert {rel.rsplit("/", 1)[-1].split("_pb2")[0] for rel in generated} == protos
    stale = [
        rel
        for rel, text in generated.items()
        if not (regenerate.OUT / rel).is_file() or (regenerate.OUT / rel).read_text() != text
    ]
    assert stale == [], "run python -m service.gen.regenerate"
