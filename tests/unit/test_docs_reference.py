"""The reference pages (the README, CONTRIBUTING.md, docs/*.md) say what holds today: the
history of how a figure came to be (measurement rounds, before-and-after comparisons,
issue numbers, commit hashes) lives in docs/history/, and every page there is linked."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
HISTORY = sorted((ROOT / "docs" / "history").glob("*.md"))

HISTORY_WORDS = re.compile(
    r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b"  # a commit hash
    r"|\b[Ii]ssues? #?\d+"
    r"|\b[Rr]ound \d+\b|\bthis round\b|\bthe round before\b|\bprevious round\b"
    r"|\bbefore and after\b|\|\s*before\b"
)


def test_there_is_a_history() -> None:
    assert {path.name for path in HISTORY} >= {"performance.md", "reliability.md"}


@pytest.mark.parametrize("page", REFERENCE, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_a_reference_page_carries_no_history(page: Path) -> None:
    found = [
        f"{page.relative_to(ROOT)}:{text[: match.start()].count(chr(10)) + 1}: {match.group(0)!r}"
        for text in [page.read_text()]
        for match in HISTORY_WORDS.finditer(text)
    ]
    assert not found, "move it to docs/history/:\n" + "\n".join(found)


def test_the_pattern_finds_history() -> None:
    """The words the rule looks for, as the moved pages use them."""
    moved = "\n".join(path.read_text() for path in HISTORY)
    assert len(HISTORY_WORDS.findall(moved)) > 20


@pytest.mark.parametrize("page", HISTORY, ids=lambda path: path.name)
def test_a_history_page_links_to_its_reference_and_is_linked(page: Path) -> None:
    assert f"](../{page.name})" in page.read_text()
    linked = "\n".join(path.read_text() for path in REFERENCE)
    assert f"history/{page.name})" in linked, f"link docs/history/{page.name} from its page"
