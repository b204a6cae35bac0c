"""What both web servers (the board's page, the café dashboard) guard themselves with, through
their common frame (:mod:`firmware_host.net.web.base`): the Host check against DNS rebinding, the
same-origin check for websockets, security headers on every answer.
"""

from __future__ import annotations

import ipaddress
import socket

from aiohttp import web

from firmware_host.net.web.address import is_loopback

#: The largest websocket message either server reads.
MAX_MESSAGE = 4096
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def host_name(header: str) -> str:
    """The name in a ``Host`` header, without the port: "[::1]:8080" -> "::1".

    >>> host_name("LocalHost.:8080"), host_name("[::1]:80"), host_name("10.0.0.2")
    ('localhost', '::1', '10.0.0.2')
    >>> host_name("[::1].evil.test:80")
    '[::1].evil.test:80'

    """
    header = header.strip().lower()
    if header.startswith("["):  # an IPv6 address, then only a port may follow
        inside, _, rest = header[1:].partition("]")
        return inside if rest == "" or (rest[:1] == ":" and rest[1:].isdigit()) else header
    return header.rsplit(":", 1)[0].rstrip(".") if header.count(":") == 1 else header.rstrip(".")


def host_allowed(header: str, bound: str) -> bool:
    """May a request naming ``header`` as its Host reach a server bound to ``bound``?

    >>> host_allowed("localhost:8080", "127.0.0.1"), host_allowed("evil.test:8080", "127.0.0.1")
    (True, False)
    >>> host_allowed("192.168.1.9:8080", "0.0.0.0"), host_allowed("evil.test", "0.0.0.0")
    (True, False)
    """
    name = host_name(header)
    if not name:
        return False
    if is_loopback(name) or name.endswith(".localhost") or name == host_name(bound):
        return True
    if bound in ("0.0.0.0", "::", ""):
        try:
            ipaddress.ip_address(name)
            return True
        except ValueError:
            machine = socket.gethostname().lower()
            return name in (machine, f"{machine}.local")
    return False


def same_origin(request: web.Request) -> None:
    """Refuse websockets opened by another site's page (browsers always send Origin)."""
    origin = request.headers.get("Origin")
    if origin is not None and origin.split("://", 1)[-1] != request.host:
        raise web.HTTPForbidden(text="websocket from another origin\n")


@web.middleware
async def security_headers(request: web.Request, handler) -> web.StreamResponse:
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        exc.headers.update(HEADERS)
        raise
    if not isinstance(response, web.WebSocketResponse):
        response.headers.update(HEADERS)
    return response
