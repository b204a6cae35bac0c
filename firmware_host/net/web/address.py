"""Where the simulator page listens, without the web server's libraries (the daemon binds its
address before it is ready, and starts serving after).

>>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("0.0.0.0")
(True, True, False)
>>> sock = listen("127.0.0.1", 0); sock.getsockname()[0]
'127.0.0.1'
>>> sock.close()
"""

from __future__ import annotations

import ipaddress
import socket
from functools import lru_cache


def is_loopback(host: str) -> bool:
    """True for addresses only this machine can reach (127.0.0.1, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def new_token() -> str:
    """A secret for the page's address (``secrets`` loads OpenSSL's hashes: only when asked)."""
    import secrets

    return secrets.token_urlsafe(16)


def listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (0: the OS chooses); OSError when the
    address is taken or not this machine's."""
    family, kind, proto, _, address = socket.getaddrinfo(
        _ascii(host), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except BaseException:
        sock.close()
        raise
    return sock


def _ascii(host: str) -> str | bytes:
    """``host`` as the bytes the IDNA codec makes of it when it would only check its labels'
    lengths (an ASCII name or address: the codec, with ``unicodedata``, is not loaded for it);
    else ``host``, for the codec to encode or refuse.

    >>> _ascii("127.0.0.1"), _ascii("a..b"), _ascii("bücher.example")
    (b'127.0.0.1', 'a..b', 'bücher.example')
    """
    labels = host.split(".")
    if host.isascii() and all(0 < len(label) < 64 for label in labels[:-1]) and len(labels[-1]) < 64:
        return host.encode()
    return host


def page_address(host: str, port: int, lan: str) -> str:
    """The page's address as a phone on the network would open it: this machine's network
    address ``lan`` when bound to every interface.

    >>> page_address("0.0.0.0", 8080, "192.168.1.5"), page_address("127.0.0.1", 80, "x")
    ('http://192.168.1.5:8080/', 'http://127.0.0.1:80/')
    """
    if host in ("0.0.0.0", "::", ""):
        host = lan
    host = f"[{host}]" if ":" in host else host
    return f"http://{host}:{port}/"


@lru_cache(maxsize=8)
def qr_svg(text: str) -> str:
    """``text`` as a QR code, an SVG element that scales to its box (segno)."""
    import segno

    return segno.make(text, error="m").svg_inline(scale=4, border=2, omitsize=True)
