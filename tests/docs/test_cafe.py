"""docs/cafe.md followed as a café owner does, on one machine: Mosquitto started with the docs'
conf, password commands and ACL; a board (``reedboard run --sim``) with the docs' ``[mqtt]``
config and login; the state it publishes read with the dashboard's login and compared with the
docs' example; the docs' commands (the table's and ``mosquitto_pub``/``mosquitto_sub``'s)
answered; the dashboard started as the docs start it, its page in Chromium; two boards paired
as the docs pair them. Adapted only in hosts, ports and paths."""

from __future__ import annotations

import json
import queue
import re
import shlex
import shutil
import subprocess
import threading
import time
import tomllib

import pytest

from testbed import stopping
from testbed.broker import Broker, Watcher
from testbed.docs import ROOT, all_blocks, commands, docs
from testbed.docs_run import Sandbox, password, serves, stop
from testbed.running import Lines, send
from testbed.tools import require, wait_until
from tests.docs.test_examples import EXAMPLE, columns, json_examples, same_shape

pytestmark = pytest.mark.broker
BLOCKS = [b for b in all_blocks() if not b.skip]
#: The time between two new games a board takes (docs/cafe.md: "one new game every 1 s at
#: most"), with a margin.
NEW_GAMES = 1.2
#: The piece the docs put on the simulated board first (docs/daemon.md's stdin example).
PIECE = {"site": "B4*"}


def block(kind: str, test=lambda b: True):
    found = [b for b in BLOCKS if b.kind == kind and test(b)]
    assert found, f"the docs show no {kind} block"
    return found


def lines(program: str) -> list[str]:
    """The docs' command lines that run ``program`` (``sudo`` off), in the docs' order."""
    return [
        re.sub(r"^sudo ", "", c)
        for b in block("shell")
        for c in commands(b.text)
        if re.match(rf"(sudo )?{program} ", c)
    ]


def inline_commands() -> list[dict]:
    """The board commands the docs write inline, ``{"command": ...}``."""
    found = []
    for path in docs():
        for code in re.findall(r"`(\{\"command\"[^`]*\})`", path.read_text(encoding="utf-8")):
            found.append(json.loads(code))
    return found


class Cafe:
    """The café's machine: Mosquitto with the docs' conf, logins (:attr:`users`) and ACL."""

    def __init__(self, sandbox: Sandbox) -> None:
        self.sandbox = sandbox
        (conf,) = block("mosquitto")  # (the bridge to a central broker says why it is not run)
        self.users = self._passwords()
        acl = "".join(b.text + "\n" for b in block("acl"))
        named = dict(re.findall(r"^(acl_file|password_file) (\S+)$", conf.text, re.M))
        sandbox.mapped(named["acl_file"]).write_text(acl)
        extra = sandbox.text(
            "".join(line + "\n" for line in conf.text.splitlines() if not line.startswith("listener "))
        )
        folder = sandbox.mapped("/etc/mosquitto/conf.d")
        folder.mkdir(parents=True, exist_ok=True)
        self.broker = Broker(folder, extra).start()
        sandbox.broker_port = self.broker.port

    def _passwords(self) -> list[str]:
        """Run the docs' ``mosquitto_passwd`` commands, typing each login's password."""
        users = []
        for line in lines("mosquitto_passwd"):
            users.append(shlex.split(line)[-1])
            run = subprocess.run(
                ["bash", "-c", self.sandbox.text(line)],
                capture_output=True,
                text=True,
                input=f"{password(users[-1])}\n" * 2,
                timeout=30,
            )
            assert run.returncode == 0, run.stderr
        return users

    def close(self) -> None:
        self.broker.stop()


@pytest.fixture(scope="module")
def cafe(tmp_path_factory):
    require(shutil.which("mosquitto_passwd") is not None, "mosquitto_passwd (Debian's mosquitto)")
    sandbox = Sandbox(tmp_path_factory.mktemp("cafe"))
    place = Cafe(sandbox)
    yield place
    place.close()
    sandbox.close()


def config_of(name: str) -> str:
    """The docs' config with an ``[mqtt]`` table written as the file ``name``."""
    (found,) = block("toml", lambda b: b.file == name and "[mqtt]" in b.text)
    return found.text


def login(text: str) -> dict[str, str]:
    """The ``[mqtt]`` login a config of the docs names."""
    username = re.search(r'^username = "(.+)"', text, re.M)[1]
    return {"username": username, "password": password(username)}


class Board:
    """``reedboard run --sim`` with a config, in the sandbox; stdin moves its pieces. Both of
    its pipes are drained from the start (testbed/running.py's :class:`Lines`): a board that
    says much never stalls on a full pipe."""

    def __init__(self, sandbox: Sandbox, config) -> None:
        self.proc = sandbox.start(f"exec reedboard run --sim --config {config}", stdin=subprocess.PIPE)
        self.events, self.journal = Lines(self.proc.stdout), Lines(self.proc.stderr)

    def send(self, obj: dict) -> None:
        send(self.proc, **obj)

    def stop(self) -> int:
        """SIGTERM; its exit status once it has ended (testbed/stopping.py)."""
        return stopping.stop(self.proc)

    def said(self) -> str:
        """All it said on stderr, once stopped."""
        return self.journal.text(drained=True)


def test_a_board_on_the_docs_broker_with_the_docs_logins(cafe, page):
    sandbox = cafe.sandbox
    text = config_of("/etc/reedboard/config.toml")
    config = sandbox.config(text, "/etc/reedboard/config.toml", tomllib.loads(EXAMPLE))
    board = tomllib.loads(config.read_text())["mqtt"]["board"]
    assert login(text)["username"] in cafe.users, "the board's login is not among the docs' logins"
    dashboard = config_of("/etc/reedboard/cafe.toml")
    assert login(dashboard)["username"] in cafe.users
    seen = Watcher(cafe.broker.port, "reedboard/#", **login(dashboard))
    home = Watcher(
        cafe.broker.port,
        "homeassistant/#",
        "reedboard/+/state",
        **{"username": "homeassistant", "password": password("homeassistant")},
    )
    one = Board(sandbox, config)
    try:
        seen.wait(f"reedboard/{board}/availability", lambda t: t == "online", timeout=30)
        state = seen.state(board, lambda s: "games" in s)  # once the games are listed
        ((where, shown),) = [(b.where, j) for b, j in json_examples() if "sync" in j]
        same_shape(shown, state, where)
        ((where, listed),) = [(b.where, j) for b, j in json_examples() if "playable" in j]
        same_shape(listed, json.loads(seen.wait(f"reedboard/{board}/games")), where)
        # Home Assistant's login reads the boards and their announcements.
        home.wait(f"reedboard/{board}/state")
        home.wait(f"homeassistant/select/reedboard_{board}/game/config")
        # The docs' mosquitto_sub hears the answer to the docs' mosquitto_pub.
        one.send({**PIECE, "on": True})
        seen.state(board, lambda s: s["ply"] == 1)
        replies = _mosquitto_clients(sandbox, cafe.broker.port)
        assert replies and all(json.loads(r)["ok"] for r in replies), replies
        # The piece taken back off, and the state example's first move played.
        _after(
            seen,
            board,
            lambda: one.send({**PIECE, "on": False}),
            lambda s: s["ply"] == 0 and s["sync"] == "in_sync",
        )
        _after(
            seen,
            board,
            lambda: one.send({"site": shown["moves"][0], "on": True}),
            lambda s: s["ply"] == 1 and s["sync"] == "in_sync",
        )
        # The table's commands the docs list, each answered ok (new games last: they end the
        # game the others act on; one a second, the docs' limit; then the arbiter's clock
        # commands, which need the clock a new game named).
        listed = sorted(inline_commands(), key=lambda c: {"new_game": 1, "clock": 2}.get(c["command"], 0))
        assert len(listed) >= 3
        for n, command in enumerate(listed):
            if n and command["command"] == listed[n - 1]["command"] == "new_game":
                time.sleep(NEW_GAMES)
            seen.publish(f"reedboard/{board}/command", json.dumps({**command, "id": n}))
            reply = json.loads(
                seen.wait(f"reedboard/{board}/reply", lambda t, n=n: json.loads(t).get("id") == n)
            )
            assert reply["ok"], (command, reply)
        _dashboard(sandbox, board, page)
    finally:
        one.stop()
        seen.close()
        home.close()
    assert one.proc.returncode == 0, one.said()


def _after(seen: Watcher, board: str, action, test) -> None:
    """Do ``action``, then wait until a state of ``board`` from then on passes ``test``."""
    before = len(seen.texts(f"reedboard/{board}/state"))
    action()
    assert wait_until(
        lambda: any(test(json.loads(t)) for t in seen.texts(f"reedboard/{board}/state")[before:]), 15
    ), [
        {k: json.loads(t)[k] for k in ("ply", "sync", "missing", "extra", "status")}
        for t in seen.texts(f"reedboard/{board}/state")[-4:]
    ]


def _press_until(seen: Watcher, board: str, one: Board, button: str, until: str) -> None:
    """Press ``button`` until a line of the board's screen begins with ``until`` (20 presses at
    most)."""
    for _ in range(20):
        before = len(seen.texts(f"reedboard/{board}/state"))
        one.send({"button": button})
        shown = seen.texts(f"reedboard/{board}/state")
        assert wait_until(lambda: len(seen.texts(f"reedboard/{board}/state")) > before, 15), shown[-1:]
        if any(
            line.startswith(until)
            for line in json.loads(seen.texts(f"reedboard/{board}/state")[-1])["screen"]
        ):
            return
    raise AssertionError(f"no {until!r} on {board}'s screen")


def _mosquitto_clients(sandbox: Sandbox, port: int) -> list[str]:
    """Run the docs' ``mosquitto_sub``, then their ``mosquitto_pub``; the replies heard."""
    require(shutil.which("mosquitto_pub") is not None, "mosquitto_pub (Debian's mosquitto-clients)")

    def adapted(line: str) -> str:
        return _adapted(sandbox, port, line)

    subscriber = sandbox.start(adapted(lines("mosquitto_sub")[0]))
    heard = _heard(subscriber)
    try:
        _subscribed(heard, port, lines("mosquitto_sub")[0])
        for line in lines("mosquitto_pub"):
            run = sandbox.run(adapted(line))
            assert run.returncode == 0, run.stderr
            sent = json.loads(shlex.split(line)[-1])
        said = _read_until(heard, f'"id": {json.dumps(sent["id"])}')
    finally:
        stop(subscriber)
    return [line.split(" ", 1)[1] for line in said if "/reply " in line and "/probe/" not in line]


def _adapted(sandbox: Sandbox, port: int, line: str) -> str:
    """A docs' ``mosquitto_pub``/``mosquitto_sub`` line for this machine: its host, its login's
    password, the broker's port."""
    user = re.search(r"-u (\S+)", line)[1]
    return sandbox.text(line).replace("-P ...", f"-P {password(user)}") + f" -p {port}"


def test_the_cafe_s_players_reach_the_menu_of_a_board_on_the_docs_acl(cafe):
    """The café publishes its players as the docs write it, with the docs' logins and ACL; a
    board configured as the docs show offers them for its seats (MENU → Names)."""
    sandbox = cafe.sandbox
    (publish,) = re.findall(
        r"`(mosquitto_pub [^`]*reedboard/cafe/players[^`]*)`", (ROOT / "docs" / "cafe.md").read_text("utf-8")
    )
    run = sandbox.run(_adapted(sandbox, cafe.broker.port, publish))
    assert run.returncode == 0, run.stderr
    names = json.loads(shlex.split(publish)[-1])
    text = config_of("/etc/reedboard/config.toml")
    config = sandbox.config(text, "/etc/reedboard/config.toml", tomllib.loads(EXAMPLE))
    board = tomllib.loads(config.read_text())["mqtt"]["board"]
    seen = Watcher(cafe.broker.port, "reedboard/#", **login(config_of("/etc/reedboard/cafe.toml")))
    one = Board(sandbox, config)
    try:
        first = seen.state(board)["sides"][0]
        for button, until in (("menu", "> Names"), ("ok", f"> {first}:"), ("ok", "")):
            _press_until(seen, board, one, button, until)
        # the café's players offered for the first seat, not "Player 1" ...
        screen = json.loads(seen.texts(f"reedboard/{board}/state")[-1])["screen"]
        assert names[-1] in " ".join(screen) and "Player 1" not in " ".join(screen), screen
    finally:
        one.stop()
        seen.close()
    assert one.proc.returncode == 0, one.said()


def _heard(proc: subprocess.Popen) -> queue.Queue:
    """The lines ``proc`` prints, as they come (read in a thread of their own)."""
    heard: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [heard.put(line.strip()) for line in proc.stdout], daemon=True).start()
    return heard


def _subscribed(heard: queue.Queue, port: int, command: str) -> None:
    """Wait until the docs' ``mosquitto_sub`` hears its topic: a probe published there (as the
    dashboard's login, which may) until one comes back."""
    user = re.search(r"-u (\S+)", command)[1]
    probe = Watcher(port, **{"username": user, "password": password(user)})
    try:
        for n in range(30):
            probe.publish("reedboard/probe/reply", f'{{"probe": {n}}}')
            try:
                while f'{{"probe": {n}}}' not in heard.get(timeout=1):
                    pass
                return
            except queue.Empty:
                continue
        raise AssertionError("the docs' mosquitto_sub never heard its topic")
    finally:
        probe.close()


def _read_until(heard: queue.Queue, text: str, timeout: float = 30) -> list[str]:
    said: list[str] = []
    while text not in (said[-1] if said else ""):
        try:
            said.append(heard.get(timeout=timeout))
        except queue.Empty:
            raise AssertionError(f"mosquitto_sub heard no {text}: {said}") from None
    return said


def _dashboard(sandbox: Sandbox, board: str, page) -> None:
    """``reedboard cafe`` as the docs start it: its pages answer, the table's tile shows in
    Chromium, its archive is where the docs say."""
    text = config_of("/etc/reedboard/cafe.toml")
    sandbox.config(text, "/etc/reedboard/cafe.toml")
    (command,) = [c for b in block("shell") for c in commands(b.text) if c.startswith("reedboard cafe")]
    shell, port = sandbox.command(command)
    proc = sandbox.start(shell)
    try:
        assert serves(proc, port) == 200
        assert serves(proc, port, f"/tables/{board}") == 200
        for path in ("/", f"/watch/{board}"):
            page.goto(f"http://127.0.0.1:{port}{path}")
            page.locator(f'article[data-board="{board}"]').wait_for()
    finally:
        out, err = stop(proc)
    assert proc.returncode == 0, err
    # The archive where the docs say it is by default.
    assert (sandbox.home / ".local" / "state" / "reedboard" / "cafe.db").is_file()


def test_two_boards_paired_as_the_docs_configure_them(cafe, tmp_path_factory):
    """docs/cafe.md's two configs side by side, each on a machine of its own, on the café's
    broker with the docs' logins and ACL: a move made on the board whose side moves first is
    carried out on the other, and each board's export names its opponent as the docs show."""
    (pair,) = block("toml", lambda b: "[opponent]" in b.text and 'kind = "remote"' in b.text)
    machines, boards, states = {}, {}, {}
    seen = Watcher(cafe.broker.port, "reedboard/#", **login(config_of("/etc/reedboard/cafe.toml")))
    try:
        for text in columns(pair.text):
            assert login(text)["username"] in cafe.users, "a paired board's login is not in the docs"
            sandbox = Sandbox(tmp_path_factory.mktemp("pair"))
            sandbox.broker_port = cafe.broker.port
            config = sandbox.config(text, "board.toml")
            data = tomllib.loads(config.read_text())
            name = data["mqtt"]["board"]
            machines[name] = (sandbox, config, data["opponent"])
            boards[name] = Board(sandbox, config)
        for name, (_, _, opponent) in machines.items():
            states[name] = json.loads(
                seen.wait(f"reedboard/{name}/state", lambda t: json.loads(t)["opponent"], 30)
            )
            assert opponent["board"] in states[name]["opponent"], states[name]
        # Who plays which side, as each board says of the other: "board home, white".
        plays = dict(re.fullmatch(r"board (\S+), (.+)", s["opponent"]).groups() for s in states.values())
        (first,) = [n for n in machines if states[n]["to_move"] in plays[n]]
        (other,) = set(machines) - {first}
        ((_, shown),) = [(b, j) for b, j in json_examples() if "sync" in j]
        site = shown["moves"][0]
        _after(seen, first, lambda: boards[first].send({"site": site, "on": True}), lambda s: s["ply"] == 1)
        seen.state(other, lambda s: site in " ".join(s["screen"]))  # "Opponent plays B2*: ..."
        _after(
            seen,
            other,
            lambda: boards[other].send({"site": site, "on": True}),
            lambda s: s["ply"] == 1 and s["sync"] == "in_sync",
        )
        opponent = re.search(
            r'`(\[Opponent "board (\S+), .*?"\])`', (ROOT / pair.doc).read_text(encoding="utf-8")
        )
        (named,) = [n for n, (_, _, o) in machines.items() if o["board"] == opponent[2]]
        sandbox, config, _ = machines[named]
        export = sandbox.run(f"reedboard export --config {config}")
        assert opponent[1] in export.stdout.splitlines(), export.stdout + export.stderr
    finally:
        for board in boards.values():
            board.stop()
        for sandbox, _, _ in machines.values():
            sandbox.close()
        seen.close()
    for board in boards.values():
        assert board.proc.returncode == 0, board.said()
