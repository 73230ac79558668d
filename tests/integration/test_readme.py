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


def _python_example() -> str:
    section = README.split("### From Python", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_python_example_prints_what_its_comments_say(server: ServerProcess) -> None:
    code = _python_example().replace("localhost:50051", server.target)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md", "exec"), {})
    lines = printed.getvalue().splitlines()
    comments = [line.split("# ", 1)[1].strip() for line in code.splitlines() if "print(" in line]
    assert len(comments) >= 6
    assert lines == comments


def test_the_python_errors_example_is_what_a_handeval_error_prints(server: ServerProcess) -> None:
    lead = "`print(error)` says each violation once:\n\n```\n"
    shown = README.split(lead, 1)[1].split("```", 1)[0]
    with (
        HandevalClient(server.target, timeout=10) as handeval,
        pytest.raises(HandevalError) as caught,
    ):
        handeval.evaluate("numbers", "Ah Zz Ah")
    assert str(caught.value) + "\n" == shown
