"""What the project's two web servers, the board's page (:mod:`firmware_host.net.web.server`) and the
café dashboard (:mod:`firmware_host.net.cafe.server`), do alike.

:class:`WebApp` is an aiohttp application's frame: every request's ``Host`` checked before
anything else (DNS rebinding: :func:`~firmware_host.net.web.guard.host_allowed`), the security
headers on every answer, the app's own files at ``/static/`` and the files both apps share (the
board-drawing module and its style, ``web/shared/``) at ``/shared/``, the token, and the
websockets: every message pushed (from any thread) is fanned out to each client's own bounded
queue, sent in order by a task of its own, so a slow client falls behind alone; one whose queue
is full is closed (it reconnects to the full state) and neither the sender nor the scan loop ever
waits for it. When the server stops every socket is told and closed, and a request still under
way is cut off after :data:`CLOSE_SECONDS`; the whole stop has :data:`STOP_SECONDS` (or what its
caller gives) and never raises: what it had to cut off or leave running is said in the journal.

:class:`WebServer` serves an app from a thread of its own (supervised: one that dies runs its
event loop again), at most :data:`MAX_CONNECTIONS` connections at once, a connection idle
:data:`IDLE_SECONDS` closed, each error one line on stderr.

>>> class Hello(WebApp):
...     name, farewell, static = "example", b"bye", SHARED
...     def routes(self, router):
...         router.add_get("/", self.file("board.css"))
>>> sorted(r.canonical for r in Hello(token=None, host="127.0.0.1").app().router.resources())
['/', '/controls.json', '/i18n.json', '/shared', '/static']
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import socket
import sys
import threading
import time
from concurrent import futures
from pathlib import Path
from typing import Any, Awaitable, Callable, Coroutine, Iterable

from aiohttp import WSCloseCode, WSMessage, web

from firmware_host import i18n
from firmware_host.net.web.guard import MAX_MESSAGE, host_allowed, same_origin, security_headers
from firmware_host.runtime.closing import until
from firmware_host.store.timecontrol import CONTROLS
from hardware.supervise import Supervised

#: The files both apps serve at /shared/: the board-drawing module and its style.
SHARED = Path(__file__).with_name("shared")
#: Open connections at most (more are answered 503 and closed), and the seconds a connection
#: may stay open without a whole request (a slow or idle client; websockets are not idle).
MAX_CONNECTIONS, IDLE_SECONDS = 64, 10.0
#: Seconds a websocket has to take its closing frame before its connection is cut, and a
#: request still under way when the server stops has to end (a client sending its body or
#: reading the answer no further is cut off then).
CLOSE_SECONDS = 2.0
#: Seconds a stop may take in all unless its caller gives fewer (what is left of its closing
#: deadline, firmware_host/runtime/closing.py): CLOSE_SECONDS for the sockets and requests to
#: end, then CUT_SECONDS for cutting off what has not.
CUT_SECONDS = 0.5
STOP_SECONDS = CLOSE_SECONDS + CUT_SECONDS

Message = dict[str, Any]
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class WebApp:
    """The frame of an app serving ``host`` (the address it is bound to: Host headers must name
    it, or loopback); ``token``: what its controls need (None: nothing, on loopback).
    Subclasses add their routes (:meth:`routes`)."""

    #: What the app is, as its refusals say ("this board answers only to its own address").
    name = "server"
    #: What a socket is told when the server stops.
    farewell = b"reedboard stopped"
    #: The program serving it, as its server's journal lines begin ("reedboard run: web: ...").
    who = "reedboard run"
    #: Messages waiting for a slow client before it is dropped.
    backlog = 256
    #: Whether the messages that queued up for a client while it was being sent one go on as
    #: one websocket message, a JSON list (its first message always alone): under load a page
    #: then takes in a few large messages instead of many small ones.
    batch = False
    #: The app's own files, served at /static/.
    static: Path

    def __init__(self, token: str | None, host: str) -> None:
        self.token, self.host = token, host
        #: Each client's queue of messages, and its connection.
        self.queues: dict[asyncio.Queue, asyncio.Transport | None] = {}
        #: What a client's queue is given of a pushed message (absent: all of it).
        self.seen: dict[asyncio.Queue, Callable[[Message], Message | None]] = {}
        #: The open websockets, and their connections.
        self.sockets: dict[web.WebSocketResponse, asyncio.Transport | None] = {}
        self.loop: asyncio.AbstractEventLoop | None = None

    def app(self) -> web.Application:
        app = web.Application(middlewares=[security_headers, self._check_host])
        self.routes(app.router)
        app.router.add_static("/static", self.static)
        app.router.add_static("/shared", SHARED)
        app.router.add_get("/i18n.json", words)
        app.router.add_get("/controls.json", controls)
        app.on_startup.append(self._started)
        app.on_shutdown.append(self._close_sockets)
        return app

    def routes(self, router: web.UrlDispatcher) -> None:
        """Add the app's own routes."""

    def started(self) -> None:
        """Called in the server's loop once it serves."""

    def file(self, name: str) -> Handler:
        """A handler answering with the static file ``name``."""

        async def handler(_: web.Request) -> web.FileResponse:
            return web.FileResponse(self.static / name)

        return handler

    def authorised(self, request: web.Request) -> bool:
        """Does ``request`` carry the token (``?token=...``), or is none needed?"""
        if self.token is None:
            return True
        given = request.query.get("token", "")
        return hmac.compare_digest(given.encode(), self.token.encode())

    async def _started(self, _: web.Application) -> None:
        self.loop = asyncio.get_running_loop()
        self.started()

    async def _close_sockets(self, _: web.Application) -> None:
        """The server stops: tell every open socket at once; one that takes no more (a client
        that reads nothing) is cut off after CLOSE_SECONDS, so that none holds the server up."""
        await asyncio.gather(
            *(
                _close(ws, transport, WSCloseCode.GOING_AWAY, self.farewell)
                for ws, transport in list(self.sockets.items())
            )
        )

    @web.middleware
    async def _check_host(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Refuse a Host this server is not (DNS rebinding), before anything else."""
        if not host_allowed(request.headers.get("Host", ""), self.host):
            raise web.HTTPMisdirectedRequest(text=f"this {self.name} answers only to its own address\n")
        return await handler(request)

    # ------------------------------------------------------------------ websockets
    async def socket(
        self,
        request: web.Request,
        first: Callable[[], Iterable[Message]],
        answer: Callable[[WSMessage], Message | None],
        seen: Callable[[Message], Message | None] | None = None,
    ) -> web.WebSocketResponse:
        """Serve a websocket (refused from another site's page): the messages ``first()`` gives
        (read once the socket is open, so that none pushed meanwhile is missed), then every one
        pushed, as ``seen`` lets this client see it (None: not at all); each message the client
        sends goes to ``answer``, whose reply (if any) goes to this client alone."""
        same_origin(request)
        ws = web.WebSocketResponse(heartbeat=30, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        queue: asyncio.Queue = asyncio.Queue(self.backlog)
        for message in first():
            if (shown := (seen or _all)(message)) is not None:
                queue.put_nowait(shown)
        self.queues[queue] = self.sockets[ws] = request.transport
        if seen is not None:
            self.seen[queue] = seen
        sender = asyncio.create_task(_send_all(ws, queue, request.transport, self.batch))
        try:
            async for msg in ws:
                reply = answer(msg)
                if reply is not None and not queue.full():
                    queue.put_nowait(reply)
        finally:
            self.queues.pop(queue, None)
            self.seen.pop(queue, None)
            self.sockets.pop(ws, None)
            sender.cancel()
        return ws

    def push(self, message: Message) -> None:
        """Send ``message`` to every client (from any thread; never waits)."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.fan_out, message)

    def fan_out(self, message: Message) -> None:
        """:meth:`push`, in the server's loop: written as JSON once for all the clients that
        see it whole."""
        text = ""
        for queue, transport in list(self.queues.items()):
            if queue.full():  # a client that cannot keep up starts again from the full state
                del self.queues[queue]
                while not queue.empty():
                    queue.get_nowait()
                queue.put_nowait(None)
                if transport is not None:  # its sender may be stuck on it: cut it off in time
                    asyncio.get_running_loop().call_later(2 * CLOSE_SECONDS, transport.abort)
            elif (shown := self.seen.get(queue, _all)(message)) is not None:
                if shown is message:
                    text = text or _json(message)
                queue.put_nowait(text if shown is message else shown)


def _all(message: Message) -> Message:
    return message


def _json(message: Message) -> str:
    return json.dumps(message, separators=(",", ":"))


async def _send_all(
    ws: web.WebSocketResponse, queue: asyncio.Queue, transport: asyncio.Transport | None, batch: bool
) -> None:
    """Send the queued messages (each a message, or its JSON text) in order, with ``batch``
    those that queued up meanwhile as one JSON list after the first; ``None`` closes the
    socket."""
    message, first = "", True
    try:
        while message is not None and (message := await queue.get()) is not None:
            texts = [_text(message)]
            while batch and not first and not queue.empty():
                if (message := queue.get_nowait()) is None:
                    break
                texts.append(_text(message))
            first = False
            await ws.send_str(texts[0] if len(texts) == 1 else f"[{','.join(texts)}]")
    except ConnectionError:  # the client is gone, or was cut off
        return
    await _close(ws, transport)


def _text(message: Message | str) -> str:
    """A queued message as JSON text (it may be already)."""
    return message if isinstance(message, str) else _json(message)


async def _close(
    ws: web.WebSocketResponse,
    transport: asyncio.Transport | None,
    code: int = WSCloseCode.OK,
    message: bytes = b"",
) -> None:
    """Close ``ws``; a client that takes nothing more within CLOSE_SECONDS (it reads nothing)
    has its connection cut."""
    try:
        await asyncio.wait_for(ws.close(code=code, message=message), CLOSE_SECONDS)
    except asyncio.TimeoutError:
        if transport is not None:
            transport.abort()


# ---------------------------------------------------------------------- the server's thread
class OneLine(logging.Handler):
    """The web server's errors (a malformed request, a handler that failed) as one line on
    stderr each, naming ``who`` (the program), never a traceback; the same line at most once a
    second."""

    def __init__(self, who: str) -> None:
        super().__init__(logging.WARNING)
        self.who = who
        self._last: tuple[str, float] = ("", 0.0)

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage().splitlines()[0] if record.getMessage() else "error"
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            text += f": {type(exc).__name__}: {' '.join(str(exc).split())[:200]}"
        now = time.monotonic()
        if self._last[0] == text and now - self._last[1] < 1:
            return
        self._last = (text, now)
        print(f"{self.who}: web: {text}", file=sys.stderr)


def journal(who: str) -> logging.Logger:
    """The logger the servers of the program ``who`` report to (:class:`OneLine`)."""
    log = logging.getLogger(f"reedboard.web.{who}")
    if not log.handlers:
        log.addHandler(OneLine(who))
        log.propagate = False
    return log


class _Refused(asyncio.Protocol):
    """A connection past MAX_CONNECTIONS: answered 503 and closed."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.WriteTransport)  # a TCP server's always is
        transport.write(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        transport.close()


class CappedSite(web.TCPSite):
    """A TCP site that serves at most ``limit`` connections at once (counting those accepted
    whose handler has not started yet: a burst is accepted before any starts). ``sock``: a
    socket already listening on host:port, served instead of binding anew."""

    def __init__(
        self, runner: web.AppRunner, host: str, port: int, limit: int, sock: socket.socket | None = None
    ) -> None:
        super().__init__(runner, host, port)
        self.limit = limit
        self.starting = 0
        self.sock = sock

    async def start(self) -> None:
        await web.BaseSite.start(self)
        server = self._runner.server
        if server is None:
            raise RuntimeError("the runner is not set up")
        serve, made = server, server.connection_made

        def connection_made(handler, transport) -> None:
            self.starting = max(0, self.starting - 1)
            made(handler, transport)

        def factory() -> asyncio.Protocol:
            if len(serve.connections) + self.starting >= self.limit:
                return _Refused()
            self.starting += 1
            return serve()

        server.connection_made = connection_made  # type: ignore[method-assign]
        where = (
            {"sock": self.sock}
            if self.sock is not None
            else {"host": self._host, "port": self._port, "reuse_address": self._reuse_address}
        )
        self._server = await asyncio.get_running_loop().create_server(factory, backlog=self._backlog, **where)
        self._bound_port = self._server.sockets[0].getsockname()[1]


async def _shut(runner: web.AppRunner, seconds: float, deadline: float, said: futures.Future) -> None:
    """Close the server, then end what its pages left running (a socket's sender), so that
    stopping with a page open leaves no task to be destroyed pending. What is still under way
    after ``seconds`` is cut off, and the tasks left are cancelled and awaited up to
    ``deadline``; ``said`` is then given what was cut off (None: nothing was) and whether
    tasks were left. A task that does not take its cancellation by then keeps the loop running
    until it ends: cut off (the loop closed under it) it would be destroyed pending, which
    asyncio says."""
    cut = None
    try:
        async with asyncio.timeout(seconds):
            await runner.cleanup()
    except TimeoutError:
        connections = list(runner.server.connections) if runner.server is not None else []
        for handler in connections:
            if handler.transport is not None:
                handler.transport.abort()
        cut = f"{len(connections)} connection(s) cut off"
    except Exception as exc:  # raised by the stop, as it was before it waited for tasks left
        said.set_exception(exc)
        raise
    current = asyncio.current_task()
    pending = {task for task in asyncio.all_tasks() if task is not current}
    for task in pending:
        task.cancel()
    if pending:  # half the cut's time left for the answer to reach the stop (a busy machine is late)
        _, pending = await asyncio.wait(pending, timeout=max(0.0, until(deadline) - CUT_SECONDS / 2))
    if pending:
        cut = f"{cut or 'nothing cut off'}; {len(pending)} task(s) that do not end left running"
    said.set_result((cut, bool(pending)))
    if pending:
        await asyncio.wait(pending)


class WebServer:
    """Serves ``pages`` (a :class:`WebApp`) on ``host``:``port`` from a thread of its own until
    :meth:`stop`."""

    def __init__(self, pages: WebApp, host: str, port: int, sock: socket.socket | None = None) -> None:
        self.pages, self.host, self.port = pages, host, port
        #: A socket already listening on host:port (serve there rather than bind anew).
        self.sock = sock
        self.log = journal(pages.who)
        self._loop = asyncio.new_event_loop()
        self._loop.set_exception_handler(self._one_line)
        self._runner: web.AppRunner | None = None
        self._thread = Supervised("web", self._loop.run_forever)
        self._stopped = False

    def start(self) -> None:
        """Bind and start serving; OSError when the address is taken or not ours."""
        self._runner = runner = web.AppRunner(
            self.pages.app(),
            access_log=None,
            logger=self.log,
            keepalive_timeout=IDLE_SECONDS,
            shutdown_timeout=CLOSE_SECONDS,
        )
        try:
            self._complete(self._bind(runner))
        except BaseException:
            self._complete(runner.cleanup())
            self._loop.close()
            raise
        self._thread.start()

    def _complete(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` to its end on the server's loop, in a thread of its own: the caller's
        thread may be running a loop of its own (an embedding program's, a test's browser)."""
        failed: list[BaseException] = []

        def run() -> None:
            try:
                self._loop.run_until_complete(work)
            except BaseException as exc:  # handed to the caller
                failed.append(exc)

        helper = threading.Thread(target=run, name="web-bind")
        helper.start()
        helper.join()
        if failed:
            raise failed[0]

    async def _bind(self, runner: web.AppRunner) -> None:
        await runner.setup()
        site = CappedSite(runner, self.host, self.port, MAX_CONNECTIONS, self.sock)
        await site.start()
        if self.port == 0 and site._bound_port is not None:  # the OS chose one (tests): say which
            self.port = site._bound_port

    def _one_line(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """The event loop's own errors (a callback that raised) as one line, like the server's."""
        self.log.error(context.get("message", "error"), exc_info=context.get("exception"))

    def check(self) -> str | None:
        """Run the event loop in a new thread if its thread died: what happened, once."""
        return None if self._stopped else self._thread.check()

    def stop(self, within: float = STOP_SECONDS) -> None:
        """Stop serving within ``within`` s in all, never raising for a slow shutdown: what is
        still under way then is cut off (a loop held by a handler that does not return is
        left to end with the process), and said in the journal."""
        self._stopped = True
        if self._thread.thread is None or self._runner is None:  # never served
            return
        within = max(0.0, within)
        deadline, graceful = time.monotonic() + within, max(0.0, within - CUT_SECONDS)
        said: futures.Future[tuple[str | None, bool]] = futures.Future()
        shut = _shut(self._runner, graceful, deadline, said)
        if self._thread.alive():
            ending = asyncio.run_coroutine_threadsafe(shut, self._loop)
            ending.add_done_callback(lambda _: self._loop.call_soon_threadsafe(self._loop.stop))
            thread = self._thread.thread
        else:  # its thread died: the loop is idle, run it in a thread of the stop's own
            thread = threading.Thread(
                target=self._loop.run_until_complete, args=(shut,), name="web-stop", daemon=True
            )
            thread.start()
        try:
            cut, left = said.result(until(deadline))
        except futures.TimeoutError:
            self.log.warning(
                f"stopping took more than {round(within, 1):g} s: its loop still runs (held by a handler "
                "that does not return?); it is left to end with the process"
            )
            return
        if cut:
            self.log.warning(f"stopping took more than {round(graceful, 1):g} s: {cut}")
        if not left:  # else its loop runs the tasks left until they end
            thread.join(until(deadline))
            self._loop.close()

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"


async def controls(request: web.Request) -> web.Response:
    """``/controls.json``: the time controls a new game is offered on (the menu's, one list),
    each with its label in English (the pages translate it): ``{"controls": [{"control":
    "-", "label": "No clock"}, ...]}``."""
    return web.json_response({"controls": [{"control": c, "label": label} for c, label in CONTROLS.items()]})


async def words(request: web.Request) -> web.Response:
    """``/i18n.json?lang=de``: the page's words in a language (none named, or one the board
    lacks: the board's own), its counts' plural forms, and the languages to choose from."""
    code = request.query.get("lang", "")
    code = code if code in i18n.LANGUAGES else i18n.current()
    return web.json_response(
        {
            "language": code,
            "languages": i18n.LANGUAGES,
            "words": i18n.catalogue(code),
            "plurals": i18n.plurals(code),
        }
    )
