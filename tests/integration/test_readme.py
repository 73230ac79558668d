"""The README's Python examples run against a real server and print what the README shows
(its tables against the code: tests/unit/test_docs_tables.py)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from handeval_client import HandevalClient, HandevalError

from tests.conftest import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
CLIENT_README = ROOT / "clients" / "python" / "README.md"


def python_example(text: str, after: str = "") -> str:
    """The first ```python block of ``text`` after the heading ``after``."""
    section = text.split(after, 1)[1] if after else text
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def printed_comments(code: str) -> list[str]:
    """What each ``print(...)  # shown`` line of an example says it prints."""
    return [line.split("# ", 1)[1].strip() for line in code.splitlines() if "print(" in line]


def _run(code: str, where: str) -> list[str]:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, where, "exec"), {})
    return printed.getvalue().splitlines()


def test_the_python_example_prints_what_its_comments_say(server: ServerProcess) -> None:
    code = python_example(README, "### From Python").replace("localhost:50051", server.target)
    assert len(printed_comments(code)) >= 6
    assert _run(code, "README.md") == printed_comments(code)


def test_the_client_readme_example_prints_what_its_comments_say(server: ServerProcess) -> None:
    """Its fresh-venv twin, from the built wheel: tests/e2e/test_client_wheel.py."""
    code = python_example(CLIENT_README.read_text()).replace("localhost:50051", server.target)
    assert len(printed_comments(code)) >= 5
    assert _run(code, "clients/python/README.md") == printed_comments(code)


def test_the_python_errors_example_is_what_a_handeval_error_prints(server: ServerProcess) -> None:
    lead = "`print(error)` says each violation once:\n\n```\n"
    shown = README.split(lead, 1)[1].split("```", 1)[0]
    with (
        HandevalClient(server.target, timeout=10) as handeval,
        pytest.raises(HandevalError) as caught,
    ):
        handeval.evaluate("numbers", "Ah Zz Ah")
    assert str(caught.value) + "\n" == shown
