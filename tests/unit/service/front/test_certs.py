"""The front's certificate copies (``service.front.certs``): a changed pair is copied only
when it loads, and a bad one leaves the copies as they were."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.authority import Authority
from service.front.certs import CertificateCopies
from service.server.tls import CertificateError, ServerFiles


def test_a_pair_is_copied_once_per_change_and_only_when_it_loads(tmp_path: Path) -> None:
    ca = Authority("handeval test CA")
    first = ca.issue("handeval", server=True)
    cert, key = first.write(tmp_path, "server")
    (tmp_path / "ca.pem").write_bytes(ca.pem)
    copies = CertificateCopies(ServerFiles(cert, key, str(tmp_path / "ca.pem")), tmp_path / "c")
    assert copies.refresh() is True
    served = copies.served
    assert Path(served.cert).read_bytes() == first.cert
    assert Path(served.key).read_bytes() == first.key
    assert Path(served.client_ca).read_bytes() == ca.pem
    assert Path(served.key).stat().st_mode & 0o777 == 0o600
    assert copies.refresh() is False, "unchanged"
    (tmp_path / "server.crt").write_bytes(b"half-written renewal")
    with pytest.raises(CertificateError, match=r"server\.crt"):
        copies.refresh()
    assert copies.refresh() is False, "a refused pair is judged once"
    assert Path(served.cert).read_bytes() == first.cert, "the old pair stays"
    _, other_key = ca.issue("other", server=True).write(tmp_path, "other")
    (tmp_path / "server.crt").write_bytes(first.cert)
    (tmp_path / "server.key").write_bytes(Path(other_key).read_bytes())
    with pytest.raises(CertificateError, match="not a certificate and its key"):
        copies.refresh()
    second = ca.issue("handeval", server=True)
    second.write(tmp_path, "server")
    assert copies.refresh() is True
    assert Path(served.cert).read_bytes() == second.cert


def test_without_a_client_ca_none_is_served_and_a_missing_file_is_named(tmp_path: Path) -> None:
    cert, key = Authority("ca").issue("handeval", server=True).write(tmp_path, "server")
    copies = CertificateCopies(ServerFiles(cert, key), tmp_path / "c")
    assert copies.refresh() is True
    assert copies.served.client_ca == ""
    missing = CertificateCopies(ServerFiles(cert, str(tmp_path / "nope.key")), tmp_path / "d")
    with pytest.raises(CertificateError, match=r"nope\.key"):
        missing.refresh()
