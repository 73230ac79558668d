"""JSON-lines logs on stderr: one object per event (start, ready, draining, stop, error).

Events, not requests: a request is logged only when it hits a bug. Each line carries
``time`` (UTC, ISO 8601), ``level``, ``event`` and the event's own fields; an error adds
``stack``. Python logging from libraries (grpc's own warnings) goes out the same way.

Whatever a caller sends, every line on stderr is JSON:

- gRPC's C core writes its own text lines straight to file descriptor 2 (an unparsable
  ``grpc-timeout`` is one line each). ``capture_stderr`` points descriptor 2 at a pipe
  and reads it: a core line is dropped, or with ``--grpc-core-logs json`` rewritten as a
  ``grpc_core`` event; any other text (a traceback Python printed itself) becomes a
  ``stderr`` event line by line; a line that already is a JSON object passes as it is.
- A library's record that carries a stack (grpc logs ``ExecuteBatchError`` with one each
  time a client goes away before its reply was sent) loses the stack: the error's type and
  first words stay, and a reply that could not be sent is one ``reply_unsent`` line.
- Lines that callers can cause are throttled (``Throttle``): at most ``NOISE_PER_SECOND``
  a second of each kind, the next one let through saying how many were dropped.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import threading
import time
import traceback
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TextIO

LOGGER = logging.getLogger("handeval")
LEVELS = ("debug", "info", "warning", "error")
CORE_LOG_MODES = ("off", "json")
"""``--grpc-core-logs``: drop gRPC C core's own lines, or pass them on as JSON events."""
NOISE_PER_SECOND = 5
"""Lines of one kind a caller can cause (core lines, a library's errors) let out a second."""
MAX_LINE_CHARS = 1000
"""A longer captured line is cut here: one line of the log stays one short line."""

_QUIET = {"grpc._common": logging.CRITICAL}
"""grpc logs every undecodable request with a stack: a caller's mistake, not an event."""
_CORE_LINE = re.compile(r"^([IWEF])\d{4} [\d:.]+\s+\d+ ([^\]]+)\] ?(.*)$")
"""absl's prefix, as gRPC's C core writes it: ``E1201 21:10:57.98 21991 file.cc:1048] text``."""
_CORE_LEVELS = {"I": "info", "W": "warning", "E": "error", "F": "critical"}
_METHOD = re.compile(r"\[(/[^\]]{1,200})\]")


class Throttle:
    """At most ``per_second`` lines a second for each key; thread-safe. Keys are few (a
    logger and its message template), and the table is emptied past ``MAX_KEYS``."""

    MAX_KEYS = 1024

    def __init__(self, per_second: int) -> None:
        self.per_second = per_second
        self._lock = threading.Lock()
        self._state: dict[str, list[float]] = {}
        """key -> [window start, lines let out in it, lines dropped since the last one]"""

    def admit(self, key: str) -> int | None:
        """None: drop this line. Otherwise how many lines of ``key`` were dropped since
        the last one let out (reported with this one)."""
        now = time.monotonic()
        with self._lock:
            state = self._state.get(key)
            if state is None:
                if len(self._state) >= self.MAX_KEYS:
                    self._state.clear()
                state = self._state[key] = [now, 0, 0]
            if now - state[0] >= 1.0:
                state[0], state[1] = now, 0
            if state[1] >= self.per_second:
                state[2] += 1
                return None
            state[1] += 1
            dropped, state[2] = int(state[2]), 0
            return dropped

    def let_through(self, line: str, kind: str | None) -> str | None:
        """A JSON-object ``line`` as it is to be written, or None to drop it: a line of no
        ``kind`` always passes; the first of a kind let out after some were dropped says
        how many (``suppressed``). The server's stderr and the front's lines go through
        it alike."""
        if kind is None:
            return line
        dropped = self.admit(kind)
        if dropped is None:
            return None
        return json.dumps(json.loads(line) | {"suppressed": dropped}) if dropped else line


class JsonLines(logging.Formatter):
    """A record as one JSON object on one line."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "event": getattr(record, "event", None) or record.getMessage(),
        }
        if record.name != LOGGER.name:
            line["logger"] = record.name
        line.update(getattr(record, "fields", {}))
        if record.exc_info:
            line["stack"] = "".join(traceback.format_exception(*record.exc_info))
        return json.dumps(line, default=str)


class TameLibraries(logging.Filter):
    """A library's record (not ``handeval``'s) loses its stack and is throttled per
    message template; grpc's report of a reply it could not send becomes ``reply_unsent``."""

    def __init__(self, throttle: Throttle) -> None:
        super().__init__()
        self._throttle = throttle

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith(LOGGER.name):
            return True
        dropped = self._throttle.admit(f"{record.name}:{record.msg}")
        if dropped is None:
            return False
        fields: dict[str, Any] = {"suppressed": dropped} if dropped else {}
        error = record.exc_info[1] if record.exc_info else None
        if error is not None:
            if type(error).__name__ == "ExecuteBatchError":
                method = _METHOD.search(record.getMessage())
                record.event = "reply_unsent"
                record.levelname = "INFO"
                fields |= {
                    "method": method.group(1) if method else None,
                    "message": "the client was gone before its reply could be sent",
                }
            else:
                fields["error"] = f"{type(error).__name__}: {error}"[:200]
            record.exc_info, record.exc_text = None, None
        record.fields = getattr(record, "fields", {}) | fields
        return True


def configure(level: str = "info", stream: TextIO | None = None) -> None:
    """Send all Python logging to ``stream`` (stderr) as JSON lines at ``level``."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonLines())
    handler.addFilter(TameLibraries(Throttle(NOISE_PER_SECOND)))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name, quiet_level in _QUIET.items():
        logging.getLogger(name).setLevel(quiet_level)


def log_event(event: str, level: int = logging.INFO, exc_info: bool = False, **fields: Any) -> None:
    """One line for one event, e.g. ``log_event("ready", port=50051)``."""
    LOGGER.log(level, event, exc_info=exc_info, extra={"event": event, "fields": fields})


def is_json_object(text: str) -> bool:
    """Whether a line read from a program already is one JSON object (passed on as it is)."""
    if not text.startswith("{"):
        return False
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


def captured_line(text: str, core_logs: str) -> tuple[str, str | None] | None:
    """What to write for one line read from descriptor 2, None to drop it: the JSON line
    and the kind it is throttled as (None: not throttled). A JSON object passes as it is;
    a gRPC core line follows ``core_logs`` (kind: its source file); anything else is a
    ``stderr`` event (kind ``stderr``)."""
    text = text.rstrip("\r\n")
    if not text.strip():
        return None
    if is_json_object(text):
        return text, None
    line: dict[str, Any] = {
        "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
        "level": "error",
        "event": "stderr",
        "message": text[:MAX_LINE_CHARS],
    }
    kind = "stderr"
    core = _CORE_LINE.match(text)
    if core is not None:
        if core_logs == "off":
            return None
        kind = core.group(2)[:200]
        line |= {"level": _CORE_LEVELS[core.group(1)], "event": "grpc_core", "source": kind,
                 "message": core.group(3)[:MAX_LINE_CHARS]}  # fmt: skip
    return json.dumps(line), kind


def capture_stderr(core_logs: str) -> Callable[[], None]:
    """Point file descriptor 2 at a pipe read by a thread that writes only JSON lines to
    the real stderr (``captured_line``, throttled per kind), and Python logging straight
    to the real stderr. Returns the function that puts descriptor 2 back and waits for
    the last captured lines."""
    sys.stderr.flush()
    real = os.fdopen(os.dup(2), "w", buffering=1, encoding="utf-8", errors="replace")
    read_end, write_end = os.pipe()
    os.dup2(write_end, 2)
    os.close(write_end)
    handlers = [h for h in logging.getLogger().handlers if isinstance(h, logging.StreamHandler)]
    for handler in handlers:
        handler.setStream(real)
    lock = handlers[0].lock if handlers and handlers[0].lock else threading.RLock()
    throttle = Throttle(NOISE_PER_SECOND)

    def pump() -> None:
        with os.fdopen(read_end, "rb") as pipe:
            for raw in pipe:
                captured = captured_line(raw[: MAX_LINE_CHARS * 4].decode("utf-8", "replace"),
                                         core_logs)  # fmt: skip
                if captured is None:
                    continue
                line = throttle.let_through(*captured)
                if line is None:
                    continue
                with lock:
                    real.write(line + "\n")

    reader = threading.Thread(target=pump, name="handeval-stderr", daemon=True)
    reader.start()

    def restore() -> None:
        sys.stderr.flush()
        os.dup2(real.fileno(), 2)
        reader.join(5.0)

    return restore
