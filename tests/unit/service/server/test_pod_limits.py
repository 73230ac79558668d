"""The pod's limits read from cgroup files (``service.server.pod_limits``), v2 and v1."""

from __future__ import annotations

from pathlib import Path

from service.server.pod_limits import cpu_limit, memory_limit


def test_cgroup_v2_limits_are_read_and_max_is_none(tmp_path: Path) -> None:
    (tmp_path / "cpu.max").write_text("150000 100000\n")
    (tmp_path / "memory.max").write_text("1073741824\n")
    assert cpu_limit(tmp_path) == 1.5
    assert memory_limit(tmp_path) == 1 << 30
    (tmp_path / "cpu.max").write_text("max 100000\n")
    (tmp_path / "memory.max").write_text("max\n")
    assert cpu_limit(tmp_path) is None
    assert memory_limit(tmp_path) is None


def test_cgroup_v1_limits_are_read_and_no_quota_is_none(tmp_path: Path) -> None:
    (tmp_path / "cpu").mkdir()
    (tmp_path / "memory").mkdir()
    (tmp_path / "cpu" / "cpu.cfs_quota_us").write_text("200000\n")
    (tmp_path / "cpu" / "cpu.cfs_period_us").write_text("100000\n")
    (tmp_path / "memory" / "memory.limit_in_bytes").write_text("536870912\n")
    assert cpu_limit(tmp_path) == 2.0
    assert memory_limit(tmp_path) == 512 << 20
    (tmp_path / "cpu" / "cpu.cfs_quota_us").write_text("-1\n")
    (tmp_path / "memory" / "memory.limit_in_bytes").write_text("9223372036854771712\n")
    assert cpu_limit(tmp_path) is None
    assert memory_limit(tmp_path) is None


def test_no_cgroup_at_all_is_no_limit(tmp_path: Path) -> None:
    assert cpu_limit(tmp_path) is None
    assert memory_limit(tmp_path) is None
