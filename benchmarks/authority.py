"""A throwaway certificate authority for tests and benchmarks: real certificates for
127.0.0.1, made on the spot with ``cryptography`` (the test extra), never written anywhere
but where the caller asks."""

from __future__ import annotations

import datetime
import ipaddress
from dataclasses import dataclass
from pathlib import Path

import grpc
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from service.server.tls import ServerFiles, client_credentials


@dataclass(frozen=True)
class Issued:
    """A key and its certificate, PEM."""

    key: bytes
    cert: bytes

    def write(self, directory: Path, name: str) -> tuple[str, str]:
        (directory / f"{name}.key").write_bytes(self.key)
        (directory / f"{name}.crt").write_bytes(self.cert)
        return str(directory / f"{name}.crt"), str(directory / f"{name}.key")


class Authority:
    """A throwaway CA issuing server and client certificates."""

    def __init__(self, name: str) -> None:
        self._key = ec.generate_private_key(ec.SECP256R1())
        self._name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
        builder = self._builder(self._name, self._key.public_key()).add_extension(
            x509.BasicConstraints(ca=True, path_length=None), critical=True
        )
        self.cert = builder.sign(self._key, hashes.SHA256())

    @property
    def pem(self) -> bytes:
        return self.cert.public_bytes(serialization.Encoding.PEM)

    def _builder(
        self, subject: x509.Name, public_key: ec.EllipticCurvePublicKey, expired: bool = False
    ) -> x509.CertificateBuilder:
        now = datetime.datetime.now(datetime.UTC)
        if expired:
            now -= datetime.timedelta(days=2)
        return (
            x509.CertificateBuilder()
            .subject_name(subject)
            .issuer_name(self._name)
            .public_key(public_key)
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
        )

    def issue(self, name: str, server: bool, expired: bool = False) -> Issued:
        """A key and a certificate for ``name``, valid for a day from five minutes ago
        (``expired``: it ended a day ago); a server's names localhost and 127.0.0.1."""
        key = ec.generate_private_key(ec.SECP256R1())
        subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
        usage = ExtendedKeyUsageOID.SERVER_AUTH if server else ExtendedKeyUsageOID.CLIENT_AUTH
        builder = self._builder(subject, key.public_key(), expired).add_extension(
            x509.ExtendedKeyUsage([usage]), critical=False
        )
        if server:
            builder = builder.add_extension(
                x509.SubjectAlternativeName(
                    [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
                ),
                critical=False,
            )
        cert = builder.sign(self._key, hashes.SHA256())
        return Issued(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            ),
            cert.public_bytes(serialization.Encoding.PEM),
        )


@dataclass(frozen=True)
class TlsRun:
    """The files of one TLS benchmark: the server's pair and the CA its clients' pairs
    must come from (``server``), and one client's pair, all from one throwaway CA."""

    server: ServerFiles
    client_cert: str
    client_key: str
    ca: bytes

    def credentials(self) -> grpc.ChannelCredentials:
        """A gRPC client's: trusting the CA, presenting the client's pair."""
        return client_credentials(ca=self.ca, cert=self.client_cert, key=self.client_key)

    def server_flags(self) -> tuple[str, ...]:
        """``handeval serve``'s flags to end TLS (and mutual TLS) itself."""
        return ("--tls-cert", self.server.cert, "--tls-key", self.server.key,
                "--tls-client-ca", self.server.client_ca)  # fmt: skip

    def attacker_flags(self) -> tuple[str, ...]:
        """``benchmarks.transport_attacks``' flags to attack over TLS with the pair."""
        return ("--tls", "--tls-cert", self.client_cert, "--tls-key", self.client_key)


def tls_run(folder: Path) -> TlsRun:
    """New certificates for a TLS benchmark, written to ``folder``."""
    authority = Authority("handeval benchmark CA")
    cert, key = authority.issue("handeval", server=True).write(folder, "server")
    client_cert, client_key = authority.issue("caller", server=False).write(folder, "client")
    (folder / "clients.pem").write_bytes(authority.pem)
    return TlsRun(ServerFiles(cert, key, str(folder / "clients.pem")), client_cert, client_key,
                  authority.pem)  # fmt: skip
