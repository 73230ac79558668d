"""``python -m service [serve] [flags]``: the same as ``handeval serve``."""

from __future__ import annotations

import sys

from service.launcher import serve_module

if __name__ == "__main__":
    sys.exit(serve_module())
