"""TLS for the gRPC port: server credentials that reload on SIGHUP, and client credentials.

Server: ``--tls-cert`` and ``--tls-key`` (PEM) make the port speak TLS; ``--tls-client-ca``
adds mutual TLS: a client must present a certificate that CA signed, or its handshake
fails (the call is UNAVAILABLE and never reaches a handler). Without a client CA any
client may connect over TLS.

Reload: the credentials are grpc's ``dynamic_ssl_server_credentials``, whose fetch callback
grpc calls before every new connection's handshake. ``CertificateStore.reload()`` (serve
calls it on SIGHUP) reads the three files again and checks that the key matches the
certificate; only a pair that loads replaces the old one, so a half-written renewal is
refused (logged) and the server goes on with the certificates it had. Connections already
open keep the certificate they were made with until they close (``max_connection_age``
bounds that). ``--workers N``: each worker reloads when it gets SIGHUP, so the parent must
pass the signal on.

The metrics port (``service.server.metrics_http``) speaks TLS with the same store: its
``ssl_context()`` holds the same files, swapped by the same reload, and asks for a client
certificate when the gRPC port does. ``--health-port`` offers grpc.health.v1 in plaintext
for Kubernetes' gRPC probes, which cannot speak TLS.
"""

from __future__ import annotations

import ssl
import threading
from dataclasses import dataclass
from pathlib import Path

import grpc


class CertificateError(ValueError):
    """Certificate files that cannot be served; the message is one line for people."""


@dataclass(frozen=True)
class ServerFiles:
    """Where the server's PEM files are; ``client_ca`` empty: no client certificates."""

    cert: str
    key: str
    client_ca: str = ""


def read_files(files: ServerFiles) -> tuple[bytes, bytes, bytes | None]:
    """(key, certificate chain, client CA or None), checked to load together.

    Raises CertificateError naming the file when one is missing, not PEM, or the key does
    not belong to the certificate.
    """
    return _load(files)[0]


def _load(files: ServerFiles) -> tuple[tuple[bytes, bytes, bytes | None], ssl.SSLContext]:
    """``read_files``'s PEM, and the server SSLContext that checked them (requiring a
    client certificate the CA signed when there is a client CA)."""
    try:
        key, chain = Path(files.key).read_bytes(), Path(files.cert).read_bytes()
        client_ca = Path(files.client_ca).read_bytes() if files.client_ca else None
    except OSError as error:
        raise CertificateError(f"cannot read {error.filename}: {error.strerror}") from None
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(files.cert, files.key)
    except (ssl.SSLError, OSError) as error:
        raise CertificateError(
            f"{files.cert} and {files.key} are not a certificate and its key: {error}"
        ) from None
    if client_ca is not None:
        try:
            context.load_verify_locations(cadata=client_ca.decode("ascii", "replace"))
        except (ssl.SSLError, ValueError) as error:
            raise CertificateError(f"{files.client_ca} holds no CA certificate: {error}") from None
        context.verify_mode = ssl.CERT_REQUIRED
    return (key, chain, client_ca), context


def _configuration(
    key: bytes, chain: bytes, client_ca: bytes | None
) -> grpc.ServerCertificateConfiguration:
    return grpc.ssl_server_certificate_configuration(((key, chain),), root_certificates=client_ca)


class CertificateStore:
    """The server's current certificates, swapped by ``reload()`` and handed to grpc at
    the next handshake. Thread-safe: reload runs in the main thread, fetch in grpc's."""

    def __init__(self, files: ServerFiles) -> None:
        self.files = files
        self._lock = threading.Lock()
        self._pending: grpc.ServerCertificateConfiguration | None = None
        pem, self._ssl_context = _load(files)
        self.initial = _configuration(*pem)
        self.reloads = 0

    def credentials(self) -> grpc.ServerCredentials:
        """Server credentials asking for client certificates iff a client CA is set."""
        return grpc.dynamic_ssl_server_credentials(
            self.initial, self._fetch, require_client_authentication=bool(self.files.client_ca)
        )

    def reload(self) -> None:
        """Read the files again; new connections use them. Raises CertificateError (the
        old certificates stay) when they do not load."""
        pem, context = _load(self.files)
        configuration = _configuration(*pem)
        with self._lock:
            self._pending = configuration
            self._ssl_context = context
            self.reloads += 1

    def ssl_context(self) -> ssl.SSLContext:
        """The current certificates for Python's ssl (the metrics port)."""
        with self._lock:
            return self._ssl_context

    def _fetch(self) -> grpc.ServerCertificateConfiguration | None:
        with self._lock:
            pending, self._pending = self._pending, None
        return pending


def server_store(cert: str, key: str, client_ca: str = "") -> CertificateStore | None:
    """The store for these settings, or None when TLS is off (no cert)."""
    if not cert:
        return None
    return CertificateStore(ServerFiles(cert, key, client_ca))


def client_credentials(
    ca: str | bytes | None = None, cert: str | bytes | None = None, key: str | bytes | None = None
) -> grpc.ChannelCredentials:
    """Channel credentials for ``HandevalClient(credentials=...)``.

    ``ca``: PEM (bytes) or a file path of the CA that signed the server's certificate (None:
    the system's roots). ``cert``/``key``: the client's own certificate and key, for a
    server that requires them (mutual TLS).
    """
    return grpc.ssl_channel_credentials(
        root_certificates=_pem(ca), private_key=_pem(key), certificate_chain=_pem(cert)
    )


def _pem(value: str | bytes | None) -> bytes | None:
    if value is None or isinstance(value, bytes):
        return value
    return Path(value).read_bytes()
