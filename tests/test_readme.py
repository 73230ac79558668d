"""The README's promises hold: its Python example runs against a real server and prints
what its comments say, and every server setting is documented."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from service.server.config import configuration_table
from tests.conftest import ServerProcess

ROOT = Path(__file__).resolve().parents[1]
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
    comments = [line.split("#", 1)[1].strip() for line in code.splitlines() if "print(" in line]
    assert len(lines) == len(comments) == 4
    assert lines[0] == comments[0]
    assert lines[1] == comments[1]
    assert lines[2] == comments[2]
    assert lines[3].startswith("INVALID_ARGUMENT (('hand[1]', \"'Zz' is not a card:")


def test_the_configuration_table_is_the_one_config_py_generates() -> None:
    document = (ROOT / "docs" / "configuration.md").read_text()
    shown = document.split("-->\n", 1)[1].split("<!-- end generated -->", 1)[0]
    assert shown == configuration_table(), "run python -m service.server.config"
