"""JSON-lines logs on stderr: one object per event (start, ready, draining, stop, error).

Events, not requests: a request is logged only when it hits a bug. Each line carries
``time`` (UTC, ISO 8601), ``level``, ``event`` and the event's own fields; an error adds
``stack``. Python logging from libraries (grpc's own warnings) goes out the same way.
"""

from __future__ import annotations

import json
import logging
import sys
import traceback
from datetime import UTC, datetime
from typing import Any, TextIO

LOGGER = logging.getLogger("handeval")
LEVELS = ("debug", "info", "warning", "error")

_QUIET = {"grpc._common": logging.CRITICAL}
"""grpc logs every undecodable request with a stack: a caller's mistake, not an event."""


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


def configure(level: str = "info", stream: TextIO | None = None) -> None:
    """Send all Python logging to ``stream`` (stderr) as JSON lines at ``level``."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonLines())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name, quiet_level in _QUIET.items():
        logging.getLogger(name).setLevel(quiet_level)


def log_event(event: str, level: int = logging.INFO, exc_info: bool = False, **fields: Any) -> None:
    """One line for one event, e.g. ``log_event("ready", port=50051)``."""
    LOGGER.log(level, event, exc_info=exc_info, extra={"event": event, "fields": fields})
