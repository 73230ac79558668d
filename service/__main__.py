"""``python -m service [serve] [flags]``: the same as ``handeval serve``."""

from __future__ import annotations

import sys

from service.server.serve import serve_main


def main() -> int:
    argv = sys.argv[1:]
    if argv[:1] == ["serve"]:
        argv = argv[1:]
    return serve_main(argv)


if __name__ == "__main__":
    sys.exit(main())
