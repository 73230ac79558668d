"""``python -m service.front [--cert F --key F [--client-ca F]] [--copies DIR]
[--check-seconds S] -- NGHTTPX_ARGS...``: nghttpx, supervised.

What the supervisor does, and why nghttpx alone does not:

- **Logs**: nghttpx's stdout and stderr are read here and written to stderr as JSON lines
  (``service.front.logs``), throttled per source like the server's, with the supervisor's
  own events (``front_start``, ``certificates_reloaded``, ``certificates_refused``,
  ``front_exit``) in the same format.
- **TLS**: with ``--cert``/``--key`` nghttpx ends TLS on every frontend not marked
  ``no-tls``, reading private copies of the files (``service.front.certs``); with
  ``--client-ca`` it requires a client certificate that CA signed (``--verify-client``).
  The files are checked every ``--check-seconds`` and on SIGHUP: a changed pair that loads
  is copied and nghttpx reloads (SIGHUP: new connections get the new certificate, the old
  worker finishes the calls in flight); one that does not load is refused, logged, and
  the old pair is served on. A pair that does not load at start is a bad setting (exit 2).
- **Signals**: SIGTERM, SIGINT, SIGQUIT (nghttpx's graceful stop) and SIGUSR1 are passed
  to nghttpx; the supervisor exits with nghttpx's exit code once it has gone (128 + the
  signal when a signal ended it), logged at ``error`` only when nobody asked it to stop.
- Listening sockets handed down as ``NGHTTPX_ACCEPT_<n>=tcp,<fd>`` are passed on.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from types import FrameType
from typing import IO

from service.front.certs import CertificateCopies
from service.front.logs import front_line
from service.server.logs import NOISE_PER_SECOND, Throttle, configure, log_event
from service.server.tls import CertificateError, ServerFiles

PASSED_ON = (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT, signal.SIGUSR1)
CHECK_SECONDS = 10.0
"""How often the certificate files are read for a renewal (a Kubernetes Secret volume is
updated within about a minute of the Secret)."""
COPIES = Path("/tmp/front-tls")
WAIT_SECONDS = 0.2
"""How soon a SIGHUP or nghttpx's exit is acted on."""
_WRITE = threading.Lock()


def nghttpx() -> str | None:
    """The nghttpx binary on PATH (Debian: ``nghttp2-proxy``, also in /usr/sbin), or None."""
    return shutil.which("nghttpx") or shutil.which("nghttpx", path="/usr/sbin:/usr/local/sbin")


def inherited_listeners() -> tuple[int, ...]:
    """The descriptors named by ``NGHTTPX_ACCEPT_<n>=tcp,<fd>`` in the environment."""
    found = []
    for name, value in os.environ.items():
        kind, _, descriptor = value.partition(",")
        if name.startswith("NGHTTPX_ACCEPT_") and kind in ("tcp", "unix") and descriptor.isdigit():
            found.append(int(descriptor))
    return tuple(found)


def tls_arguments(files: ServerFiles) -> list[str]:
    """nghttpx's arguments for these files: key and certificate, and client verification."""
    verify = ["--verify-client", f"--verify-client-cacert={files.client_ca}"]
    return [files.key, files.cert, *(verify if files.client_ca else [])]


def _pump(stream: IO[str], throttle: Throttle) -> None:
    for raw in stream:
        converted = front_line(raw)
        if converted is None:
            continue
        line = throttle.let_through(*converted)
        if line is None:
            continue
        with _WRITE:
            sys.stderr.write(line + "\n")
            sys.stderr.flush()


def _check(copies: CertificateCopies | None, process: subprocess.Popen[str], asked: bool) -> None:
    """Reload nghttpx when the files changed and load (or when ``asked``, by SIGHUP)."""
    if copies is None:
        if asked:
            process.send_signal(signal.SIGHUP)
        return
    try:
        changed = copies.refresh()
    except CertificateError as error:
        log_event("certificates_refused", logging.ERROR, message=f"{error}; kept the old ones")
        return
    if changed or asked:
        process.send_signal(signal.SIGHUP)
        log_event("certificates_reloaded", cert=copies.sources.cert, changed=changed)


def supervise(command: list[str], copies: CertificateCopies | None, check_seconds: float) -> int:
    """Run ``command`` (nghttpx) to its end; its exit code (128 + signal when killed)."""
    process = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, errors="replace", pass_fds=inherited_listeners(),
    )  # fmt: skip
    for descriptor in inherited_listeners():
        os.close(descriptor)  # nghttpx's alone: once it stops listening, connects are refused
    throttle = Throttle(NOISE_PER_SECOND)
    pumps = [
        threading.Thread(target=_pump, args=(stream, throttle), daemon=True)
        for stream in (process.stdout, process.stderr)
        if stream is not None
    ]
    for pump in pumps:
        pump.start()
    hangups: list[int] = []
    stopped: list[int] = []

    def pass_on(signum: int, _frame: FrameType | None) -> None:
        if signum != signal.SIGUSR1:
            stopped.append(signum)
        process.send_signal(signum)

    def hang_up(signum: int, _frame: FrameType | None) -> None:
        hangups.append(signum)

    for signum in PASSED_ON:
        signal.signal(signum, pass_on)
    signal.signal(signal.SIGHUP, hang_up)
    log_event("front_start", pid=process.pid, tls=copies is not None)
    next_check = time.monotonic() + check_seconds
    while True:
        try:
            code = process.wait(WAIT_SECONDS)
            break
        except subprocess.TimeoutExpired:
            pass
        asked = bool(hangups)
        hangups.clear()
        if asked or time.monotonic() >= next_check:
            _check(copies, process, asked)
            next_check = time.monotonic() + check_seconds
    for pump in pumps:
        pump.join(5.0)
    code = 128 - code if code < 0 else code
    asked = code == 0 or (code > 128 and code - 128 in stopped)
    log_event("front_exit", level=logging.INFO if asked else logging.ERROR, code=code,
              stopped_by=[signal.Signals(signum).name for signum in stopped])  # fmt: skip
    return code


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m service.front", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    parser.add_argument("--cert", default="", help="the server's certificate chain (PEM)")
    parser.add_argument("--key", default="", help="its private key (PEM)")
    parser.add_argument("--client-ca", default="", help="CA clients' certificates must have")
    parser.add_argument("--copies", type=Path, default=COPIES, help="folder for the copies")
    parser.add_argument("--check-seconds", type=float, default=CHECK_SECONDS)
    parser.add_argument("nghttpx_args", nargs="*", help="after --: nghttpx's own arguments")
    return parser


def main(argv: Iterable[str] | None = None) -> int:
    options = _parser().parse_args(None if argv is None else list(argv))
    configure("info")
    binary = nghttpx()
    if binary is None:
        log_event("bad_setting", logging.ERROR, message="nghttpx is not installed")
        return 2
    if options.check_seconds <= 0:
        log_event("bad_setting", logging.ERROR, message="--check-seconds must be above 0")
        return 2
    copies = None
    if options.cert or options.key or options.client_ca:
        if not (options.cert and options.key):
            log_event("bad_setting", logging.ERROR, message="--cert and --key go together")
            return 2
        copies = CertificateCopies(
            ServerFiles(options.cert, options.key, options.client_ca), options.copies
        )
        try:
            copies.refresh()
        except CertificateError as error:
            log_event("bad_setting", logging.ERROR, message=str(error))
            return 2
    command = [binary, *options.nghttpx_args, *(tls_arguments(copies.served) if copies else [])]
    return supervise(command, copies, options.check_seconds)
