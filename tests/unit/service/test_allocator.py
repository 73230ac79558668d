"""Freed memory stays in the process, so a repeated batch touches no fresh pages.

Each check runs in a child interpreter: malloc settings are per process, and the test
process must keep glibc's defaults for the other tests.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="glibc's malloc is what is tuned"
)

_BATCH_LIKE = """
import json, resource, sys
import numpy as np
from service.allocator import retain_freed_memory
retained = retain_freed_memory() if sys.argv[1] == "retain" else None

def batch():
    # Like a batch's temporaries: 0.8-3.2 MB arrays, 24 MB alive at once, then all freed.
    alive = [np.ones(100_000 * (1 + i % 4), dtype=np.uint64) for i in range(12)]
    return sum(int(a[-1]) for a in alive)

for _ in range(3):
    batch()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(10):
    batch()
faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
print(json.dumps({"retained": retained, "faults_per_batch": faults / 10}))
"""


def _run(mode: str, env: dict[str, str] | None = None) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", _BATCH_LIKE, mode],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_with_glibc_defaults_every_repeated_batch_faults_its_pages_in_again() -> None:
    # The premise: without tuning, freed blocks go back to the kernel.
    faults = _run("default")["faults_per_batch"]
    assert isinstance(faults, float) and faults > 1_000


def test_retained_freed_memory_stops_the_page_faults_of_repeated_batches() -> None:
    result = _run("retain")
    assert result["retained"] is True
    faults = result["faults_per_batch"]
    assert isinstance(faults, float) and faults < 50


def test_an_operators_own_malloc_settings_are_left_alone() -> None:
    result = _run("retain", env={"MALLOC_TRIM_THRESHOLD_": "1048576"})
    assert result["retained"] is False


_BURST = """
import json, threading
from pathlib import Path
import numpy as np
from service.allocator import retain_freed_memory, return_freed_memory
retain_freed_memory()

def rss_mib():
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024

def burst():
    # A burst's chunks in pool threads: 2-8 MB arrays, ~200 MB alive at once, then freed.
    alive = [np.ones(250_000 * (1 + i % 4), dtype=np.uint64) for i in range(40)]
    return sum(int(a[-1]) for a in alive)

threads = [threading.Thread(target=burst) for _ in range(4)]
for t in threads: t.start()
for t in threads: t.join()
kept = rss_mib()
returned = return_freed_memory()
print(json.dumps({"kept": kept, "returned": returned, "after": rss_mib()}))
"""


def test_returning_freed_memory_gives_a_bursts_peak_back_to_the_kernel() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _BURST], capture_output=True, text=True, check=True, timeout=60
    )
    result = json.loads(done.stdout)
    assert result["returned"] is True
    assert result["kept"] - result["after"] > 100, result
