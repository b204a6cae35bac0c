"""A throwaway certificate authority and a server certificate it signs, made with ``openssl``
in a test's folder (nothing of them is kept): for Mosquitto's TLS listeners and bridges."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from testbed.tools import require


@dataclass(frozen=True)
class Certificates:
    """``ca``: the CA's certificate (what a client trusts); ``cert`` and ``key``: the server's,
    for ``127.0.0.1`` and ``localhost``."""

    ca: Path
    cert: Path
    key: Path


def make_certificates(folder: Path, name: str = "server") -> Certificates:
    """A new CA and a certificate it signs for the loopback address, in ``folder``."""
    require(shutil.which("openssl") is not None, "openssl")
    folder.mkdir(parents=True, exist_ok=True)
    ca, ca_key = folder / f"{name}-ca.pem", folder / f"{name}-ca.key"
    cert, key, request = folder / f"{name}.pem", folder / f"{name}.key", folder / f"{name}.csr"
    names = folder / f"{name}.ext"
    names.write_text("subjectAltName = IP:127.0.0.1, DNS:localhost\n")
    for command in (
        ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", ca_key, "-out", ca]
        + ["-days", "2", "-subj", f"/CN={name} test CA"],
        ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", request, "-subj", "/CN=localhost"],
        ["x509", "-req", "-in", request, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial", "-out", cert]
        + ["-days", "2", "-extfile", names],
    ):
        subprocess.run(["openssl", *map(str, command)], check=True, capture_output=True, timeout=60)
    return Certificates(ca, cert, key)
