"""What importing the client costs a caller's process: the CPU time ``import
handeval_client`` adds over its dependencies (grpc, protobuf, numpy, health, rich status),
each run in a fresh interpreter, medians; with ``--against PYTHON MODULE``, the same for
another interpreter's module (an older tree's client), interleaved run by run so both see
the same machine.

    python -m benchmarks.client_import --runs 15
    python -m benchmarks.client_import --against /old/.venv/bin/python some.old.module

CPU time (``time.process_time``), not wall time: a shared machine's waits do not count.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

from benchmarks.progress import Progress

_DEPENDENCIES = (
    "grpc, numpy, google.protobuf.message, grpc_status.rpc_status, "
    "grpc_health.v1.health_pb2_grpc, google.rpc.error_details_pb2"
)
_CODE = """
import time
import {dependencies}
started = time.process_time()
import {module}
print(time.process_time() - started)
"""


def import_seconds(python: str, module: str) -> float:
    """CPU seconds ``import module`` takes in a fresh ``python`` whose dependencies are in."""
    code = _CODE.format(dependencies=_DEPENDENCIES, module=module)
    ran = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True, cwd="/")
    return float(ran.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--against", nargs=2, metavar=("PYTHON", "MODULE"))
    args = parser.parse_args(argv)
    trees = [(sys.executable, "handeval_client")]
    if args.against:
        trees.append((args.against[0], args.against[1]))
    progress = Progress(args.runs * len(trees))
    runs: dict[str, list[float]] = {module: [] for _, module in trees}
    for _ in range(args.runs):
        for python, module in trees:
            runs[module].append(import_seconds(python, module))
            progress(module)
    medians = {module: statistics.median(seconds) for module, seconds in runs.items()}
    print("| module | import CPU over its dependencies (median) |")
    print("| --- | --- |")
    for module, seconds in medians.items():
        print(f"| {module} | {seconds * 1000:.1f} ms |")
    if args.against:
        print(f"\nratio: {medians['handeval_client'] / medians[args.against[1]]:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
