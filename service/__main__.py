"""``python -m service [serve] [flags]``: the same as ``handeval serve``."""

from __future__ import annotations

import sys

from service.grpc_verbosity import quiet_grpc_core


def main() -> int:
    quiet_grpc_core()
    from service.server.serve import serve_main

    argv = sys.argv[1:]
    if argv[:1] == ["serve"]:
        argv = argv[1:]
    return serve_main(argv)


if __name__ == "__main__":
    sys.exit(main())
