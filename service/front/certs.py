"""The certificate files nghttpx reads: private copies of a pair that loads.

nghttpx (1.52) rereads its certificates on SIGHUP, and a pair it cannot load then makes it
exit: one half-written renewal would take the front down. So nghttpx never reads the
mounted files (a Kubernetes Secret, renewed in place) but copies of them in a folder of the
supervisor's: ``CertificateCopies.refresh`` reads the mounted files, writes them beside the
copies, checks with the server's own check (``service.server.tls.read_files``: PEM, the key
is the certificate's, the client CA loads) and only then moves them over the copies. A pair
that does not load is refused (``CertificateError``) and the copies stay as they were.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from service.server.tls import CertificateError, ServerFiles, read_files

NAMES = ("tls.crt", "tls.key", "ca.crt")
"""The copies' names in the folder: certificate chain, key, client CA."""


class CertificateCopies:
    """Copies in ``folder`` of ``sources`` as they last loaded; ``served`` names them."""

    def __init__(self, sources: ServerFiles, folder: Path) -> None:
        self.sources = sources
        self.folder = folder
        self._seen = b""
        """The digest of the sources last read, loaded or refused: each is judged once."""

    @property
    def served(self) -> ServerFiles:
        cert, key, client_ca = (str(self.folder / name) for name in NAMES)
        return ServerFiles(cert, key, client_ca if self.sources.client_ca else "")

    def refresh(self) -> bool:
        """Copy the sources when they changed since the last call and load: True. False
        when unchanged. Raises CertificateError, once per change, when they do not load
        (the copies are left as they were)."""
        paths = [self.sources.cert, self.sources.key, self.sources.client_ca]
        try:
            contents = [Path(path).read_bytes() if path else b"" for path in paths]
        except OSError as error:
            raise CertificateError(f"cannot read {error.filename}: {error.strerror}") from None
        digest = hashlib.sha256(b"\0".join(contents)).digest()
        if digest == self._seen:
            return False
        self._seen = digest
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        staged = [self.folder / f".{name}.new" for name in NAMES]
        for path, content in zip(staged, contents, strict=True):
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "wb") as file:
                file.write(content)
        try:
            cert, key, client_ca = (str(path) for path in staged)
            read_files(ServerFiles(cert, key, client_ca if self.sources.client_ca else ""))
        except CertificateError as error:
            message = str(error)
            for path, source in zip(staged, paths, strict=True):
                message = message.replace(str(path), source)
            raise CertificateError(message) from None
        for path, name in zip(staged, NAMES, strict=True):
            os.replace(path, self.folder / name)
        return True
