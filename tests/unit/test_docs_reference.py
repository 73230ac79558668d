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


MEASURED = re.compile(
    r"\d[\d,.]*\s*[kM]?\s*(?:calls|requests|req|hands|messages|run-outs)(?:/s| a second)"
    r"|\d\s*(?:µs|us)\b|\bp(?:50|99) [\d.]+ ?ms"
)
"""A throughput, a per-call CPU time or a latency percentile: a measured figure."""
PERFORMANCE = ROOT / "docs" / "performance.md"


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


@pytest.mark.parametrize(
    "page",
    [page for page in REFERENCE if page != PERFORMANCE],
    ids=lambda path: path.relative_to(ROOT).as_posix(),
)
def test_a_measured_rate_or_latency_is_stated_on_performance_md_only(page: Path) -> None:
    """Each measured figure has one place, docs/performance.md; other pages link to it."""
    found = MEASURED.findall(page.read_text())
    assert not found, f"state it in docs/performance.md and link there: {found}"


def test_the_figures_pattern_finds_the_figures() -> None:
    assert len(MEASURED.findall(PERFORMANCE.read_text())) > 20


@pytest.mark.parametrize(("page", "most"), [("README.md", 199), ("docs/performance.md", 299)])
def test_a_page_stays_short_enough_to_read(page: str, most: int) -> None:
    """The README is the way in for users, performance.md the one table per topic."""
    assert len((ROOT / page).read_text().splitlines()) <= most
