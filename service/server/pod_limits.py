"""The pod's CPU and memory limits as this process sees them, from its cgroup: v2's
``cpu.max`` and ``memory.max``, else v1's ``cpu.cfs_quota_us`` / ``cpu.cfs_period_us`` and
``memory.limit_in_bytes``. None where there is no limit (or no cgroup: not Linux, or
"max"). The cost budgets' defaults derive from them (``service.server.limits``)."""

from __future__ import annotations

from pathlib import Path

CGROUP = Path("/sys/fs/cgroup")
NO_LIMIT_BYTES = 1 << 60
"""cgroup v1 reports "no limit" as a number near 2^63."""


def _read(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except OSError:
        return None


def cpu_limit(root: Path = CGROUP) -> float | None:
    """CPUs the pod may use (quota / period), None without a quota."""
    v2 = _read(root / "cpu.max")
    if v2 is not None:
        quota, _, period = v2.partition(" ")
        return None if quota == "max" else int(quota) / int(period or 100_000)
    quota_v1 = _read(root / "cpu" / "cpu.cfs_quota_us")
    period_v1 = _read(root / "cpu" / "cpu.cfs_period_us")
    if quota_v1 is None or period_v1 is None or int(quota_v1) <= 0:
        return None
    return int(quota_v1) / int(period_v1)


def memory_limit(root: Path = CGROUP) -> int | None:
    """Bytes the pod may hold, None without a limit."""
    text = _read(root / "memory.max") or _read(root / "memory" / "memory.limit_in_bytes")
    if text is None or text == "max" or int(text) >= NO_LIMIT_BYTES:
        return None
    return int(text)
