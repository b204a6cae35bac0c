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
import secrets
import socket


def is_loopback(host: str) -> bool:
    """True for addresses only this machine can reach (127.0.0.1, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def new_token() -> str:
    return secrets.token_urlsafe(16)


def listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (0: the OS chooses); OSError when the
    address is taken or not this machine's."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except BaseException:
        sock.close()
        raise
    return sock
