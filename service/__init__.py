"""handeval's service side: the gRPC server, its typed client and the CLI.

One setting for the whole process, made here because it must precede ``import grpc``:
grpc's C core reads ``GRPC_VERBOSITY`` when it loads, and left unset it logs at INFO, in
its own text format on stderr, one line for every failed TLS handshake, so that anyone
could fill the server's JSON-lines log (``service.server.logs``) with other lines. Unset
or empty, it becomes ERROR (grpc's documented default): the core still reports its errors
and crashes; an operator who sets it (or ``GRPC_TRACE``) gets what they asked for.
"""

import os

if not os.environ.get("GRPC_VERBOSITY"):
    os.environ["GRPC_VERBOSITY"] = "ERROR"
