"""nghttpx's log lines as the server's JSON lines, so a pod writes one format.

nghttpx writes its error log as text (``2026-12-06T20:52:39.131Z PID TID ID LEVEL
(file.cc:123) message``) and its access log as whatever ``accesslog-format`` says.
``front_line`` turns one line into one JSON object with the server's ``time``, ``level``
and ``event`` keys: an error-log line becomes a ``front`` event (``source`` its file and
line, ``message`` the text); a line that already is a JSON object (the access log in the
format ``front/nghttpx.conf`` gives) passes as it is; any other text (a continuation line)
is a ``front`` event whose message is the line. Lines a caller can cause (a handshake
refused) are throttled per source by the caller (``service.server.logs.Throttle``).
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

from service.server.logs import MAX_LINE_CHARS, is_json_object

EVENT = "front"
_LINE = re.compile(
    r"^(\d{4}-\d\d-\d\dT[\d:.]+Z) (\d+) \d+ [0-9a-f]+ ([A-Z]+) \(([^)]{1,100})\) ?(.*)$"
)
_LEVELS = {"INFO": "info", "NOTICE": "info", "WARN": "warning", "ERROR": "error",
           "FATAL": "critical"}  # fmt: skip


def front_line(text: str) -> tuple[str, str | None] | None:
    """The JSON line for one line nghttpx wrote and the kind it is throttled as (None: not
    throttled), or None for a blank line."""
    text = text.rstrip("\r\n")
    if not text.strip():
        return None
    if is_json_object(text):
        return text, None
    parsed = _LINE.match(text)
    line: dict[str, Any] = {
        "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
        "level": "info",
        "event": EVENT,
        "message": text[:MAX_LINE_CHARS],
    }
    if parsed is None:
        return json.dumps(line), EVENT
    time, pid, level, source, message = parsed.groups()
    line |= {"time": time, "level": _LEVELS.get(level, "info"), "source": source,
             "pid": int(pid), "message": message[:MAX_LINE_CHARS]}  # fmt: skip
    return json.dumps(line), source
