"""The one process-wide setting the server and the CLI make before grpc loads.

grpc's C core reads ``GRPC_VERBOSITY`` when it loads (``import grpc``; setting it later
does nothing), and left unset it logs at INFO, in its own text format on stderr, one line
for every failed TLS handshake, so that anyone could fill the server's JSON-lines log
(``service.server.logs``) with other lines. Unset or empty, it becomes ERROR (grpc's
documented default): the core still reports its errors and crashes; an operator who sets
it (or ``GRPC_TRACE``) gets what they asked for. Only the programs' entry points call this
(``python -m service``, the ``handeval`` command): importing the client sets nothing.
"""

from __future__ import annotations

import os


def quiet_grpc_core() -> None:
    """Set ``GRPC_VERBOSITY=ERROR`` if unset or empty; call it before ``import grpc``."""
    if not os.environ.get("GRPC_VERBOSITY"):
        os.environ["GRPC_VERBOSITY"] = "ERROR"
