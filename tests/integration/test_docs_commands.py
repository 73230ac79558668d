"""Every transcript in the README and docs/ runs as pasted and prints what it shows.

A transcript is a fenced block whose lines start with ``$ ``: each command runs in bash
with this environment's scripts first on PATH (``localhost:50051`` becomes the test
server), and its output, stdout and stderr together, must equal the lines shown under it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```[a-z]*\n(.*?)^```", re.M | re.S)
DEFAULT_TARGET = "localhost:50051"


@dataclass(frozen=True)
class Transcript:
    where: str
    command: str
    output: str


def transcripts() -> list[Transcript]:
    found = []
    for document in DOCUMENTS:
        text = document.read_text()
        for block in FENCE.finditer(text):
            if not block.group(1).startswith("$ "):
                continue
            line = text[: block.start()].count("\n") + 2
            for number, piece in enumerate(re.split(r"^\$ ", block.group(1), flags=re.M)[1:]):
                command, _, output = piece.partition("\n")
                where = f"{document.relative_to(ROOT)}:{line}#{number}"
                found.append(Transcript(where, command, output))
    return found


TRANSCRIPTS = transcripts()


def test_the_documents_hold_transcripts() -> None:
    assert len(TRANSCRIPTS) >= 10


@pytest.mark.parametrize("transcript", TRANSCRIPTS, ids=[t.where for t in TRANSCRIPTS])
def test_a_documented_command_prints_what_is_shown(
    transcript: Transcript, server: ServerProcess
) -> None:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    result = subprocess.run(
        transcript.command.replace(DEFAULT_TARGET, server.target),
        shell=True,
        executable="/bin/bash",
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=60,
        check=False,
    )
    shown = transcript.output.rstrip("\n")
    assert result.stdout.rstrip("\n").replace(server.target, DEFAULT_TARGET) == shown
