"""The repository stands on its own: nothing in it cites a document kept outside it, and
every place it points a reader to (a markdown link, a ``docs/*.md`` path, a section quoted
after one) is there."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINKING = [*DOCUMENTS, ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs" / "history").glob("*.md"))]
"""Every page whose links must resolve: the reference pages, CONTRIBUTING.md and the history."""

_OUTSIDE_NAMES = ("RULES", "API", "CONVENTIONS", "DESIGN")
OUTSIDE = re.compile(
    "|".join([*(re.escape(name + ".md") for name in _OUTSIDE_NAMES), r"\bshared/", r"\bseeds/"])
)
"""The project's working documents, which live beside the repository and ship with none
of it (spelt in pieces so that this file does not name them)."""
_SKIPPED_DIRS = {".git", ".venv", "node_modules", "__pycache__", "build", "dist"}
LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
DOC_PATH = re.compile(r"\bdocs/([\w-]+\.md)\b")
QUOTED_SECTION = re.compile(r'\bdocs/([\w-]+\.md),? "([^"\n]+)"')


def repository_files() -> list[Path]:
    """The tracked files (the whole tree but tool and build folders without git)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return [
            path
            for path in ROOT.rglob("*")
            if path.is_file()
            and not _SKIPPED_DIRS & set(path.relative_to(ROOT).parts)
            and not any(part.endswith(".egg-info") for part in path.parts)
        ]
    return [ROOT / name for name in listed.decode().split("\0") if name and (ROOT / name).is_file()]


FILES = repository_files()


def _text(path: Path) -> str:
    return path.read_bytes().decode("utf-8", errors="replace")


def anchors(document: Path) -> set[str]:
    """GitHub's anchor of every heading: lower case, punctuation dropped, spaces as hyphens."""
    headings = re.findall(r"^#{1,6} +(.+?) *$", FENCE.sub("", _text(document)), re.M)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


def test_the_repository_lists_its_files() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in FILES}
    assert {
        "README.md",
        "docs/rules.md",
        "docs/api.md",
        "protos/handeval/v1/handeval.proto",
    } <= names


def test_no_file_cites_a_document_kept_outside_the_repository() -> None:
    """Rules and contract are docs/rules.md and docs/api.md; generated code and the shipped
    descriptors are read too, since they carry the proto's comments."""
    cited = [
        f"{path.relative_to(ROOT)}: {match.group(0)!r}"
        for path in FILES
        for match in OUTSIDE.finditer(_text(path))
    ]
    assert not cited, "cite docs/rules.md or docs/api.md instead:\n" + "\n".join(cited)


def test_every_relative_markdown_link_resolves() -> None:
    broken = []
    for document in LINKING:
        for target in LINK.findall(FENCE.sub("", _text(document))):
            if re.match(r"[a-z]+:", target):
                continue
            path_text, _, anchor = target.partition("#")
            path = (document.parent / path_text).resolve() if path_text else document
            where = f"{document.relative_to(ROOT)} -> {target}"
            if not path.exists():
                broken.append(f"{where}: no such file")
            elif anchor and path.suffix == ".md" and anchor not in anchors(path):
                broken.append(f"{where}: no such heading")
    assert not broken, "\n".join(broken)


def test_every_docs_page_a_file_names_exists() -> None:
    named = {
        (path.relative_to(ROOT).as_posix(), page)
        for path in FILES
        if path.suffix in {".py", ".proto", ".md", ".yaml", ".yml", ".js", ".json", ".toml"}
        for page in DOC_PATH.findall(_text(path))
    }
    missing = sorted(
        f"{where}: docs/{page}" for where, page in named if not (ROOT / "docs" / page).exists()
    )
    assert not missing, "\n".join(missing)


def test_a_section_quoted_from_a_docs_page_is_in_it() -> None:
    """``docs/rules.md "Odds"`` in a docstring names text the page holds (a heading or a
    phrase), so renaming a section shows every place that points to it."""
    pages = {path.name: _text(path) for path in DOCUMENTS}
    missing = sorted(
        f'{path.relative_to(ROOT)}: docs/{page} "{quoted}"'
        for path in FILES
        if path.suffix in {".py", ".proto"}
        for page, quoted in QUOTED_SECTION.findall(_text(path))
        if quoted not in pages.get(page, "")
    )
    assert not missing, "\n".join(missing)
