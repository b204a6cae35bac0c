"""Two cafés whose brokers are bridged as docs/cafe.md ("Two cafés bridged") configures them:
two real Mosquittos on this machine, north's bridge logging in to south's TLS listener with its
own login and trusting a throwaway CA made for the test; a board behind north paired with a
board behind south (docs/cafe.md's pair) plays a game to its end, each café's dashboard shows
both tables, and the one archive both dashboards write to keeps both boards' records."""

from __future__ import annotations

import io
import json
import re
import subprocess
import time
from pathlib import Path

from firmware_host.net.cafe.archive import Archive
from firmware_host.net.cafe.run import start
from firmware_host.store.config import Mqtt
from testbed.broker import Broker, Watcher
from testbed.tls import make_certificates
from tests.net.mqtt.test_paired_games import docs_pair, latest, on_this_machine

CAFE = Path(__file__).resolve().parents[3] / "docs" / "cafe.md"
#: Antipalos 3: White (home, behind north) wins by connection on the fifth move.
MOVES = ("A1*", "A3*", "B2*", "C1*", "C3*")
SECRET = "north-bridge-secret"


def docs_blocks() -> tuple[str, str, str]:
    """South's TLS listener, its ACL for the cafés, and north's bridge, as the section shows."""
    text = CAFE.read_text(encoding="utf-8")
    section = text[text.index("### Two cafés bridged") : text.index("## Home Assistant")]
    listener, acl, bridge = re.findall(r"```\n(.*?)```", section, re.S)
    return listener, acl, bridge


def on_loopback(text: str, files: dict[str, Path], tls_port: int | None = None) -> str:
    """A block with this machine's files (by their names) and ports in place of the café's."""
    text = re.sub(r"(/etc/mosquitto/\S+)", lambda m: str(files[Path(m.group(1)).name]), text)
    if tls_port is not None:
        text = re.sub(r"^address \S+$", f"address 127.0.0.1:{tls_port}", text, flags=re.M)
    return text.replace("remote_password ...", f"remote_password {SECRET}")


def bridged(folder: Path) -> tuple[Broker, Broker]:
    """North and south started in ``folder``: south's TLS listener and north's bridge to it,
    with a throwaway CA, as the section shows them."""
    listener, acl, bridge = docs_blocks()
    certs = make_certificates(folder / "certs", "south")
    passwords, rules = folder / "cafes.passwd", folder / "cafes.acl"
    rules.write_text(acl)
    user = re.search(r"^remote_username (\S+)$", bridge, re.M)[1]
    subprocess.run(["mosquitto_passwd", "-c", "-b", str(passwords), user, SECRET], check=True)
    files = {
        "south.pem": certs.cert,
        "south.key": certs.key,
        "south-ca.pem": certs.ca,
        "cafes.passwd": passwords,
        "cafes.acl": rules,
    }
    (folder / "south").mkdir()
    (folder / "north").mkdir()
    south = Broker(folder / "south", tls=on_loopback(listener, files)).start()
    north = Broker(folder / "north", on_loopback(bridge, files, south.tls_port)).start()
    return north, south


def test_a_paired_game_across_two_bridged_cafes(tmp_path, boards, postgres):
    north, south = bridged(tmp_path)
    served = []
    try:
        watchers = {"north": Watcher(north.port, "reedboard/#"), "south": Watcher(south.port, "reedboard/#")}
        database = postgres.database()
        for broker in (north, south):
            served.append(
                start(
                    Mqtt(),
                    "127.0.0.1",
                    broker.port,
                    "127.0.0.1",
                    0,
                    None,
                    io.StringIO(),
                    Archive.open(database),
                )
            )
        configs = docs_pair()
        behind = {"home": north, "friend": south}
        running = {}
        for name, broker in behind.items():
            path = on_this_machine(tmp_path, name, configs[name], broker.port)
            path.write_text("size = 3\n" + path.read_text())
            running[name] = boards(path)
        for board in running.values():
            board.wait_running()
        for cafe, watcher in watchers.items():  # each café sees both boards, paired
            for name in behind:
                state = watcher.state(name, lambda s: s["size"] == 3 and s["opponent"] is not None)
                assert state["opponent"].startswith("board ")
        for ply, move in enumerate(MOVES, 1):
            mover, other = ("home", "friend") if ply % 2 else ("friend", "home")
            running[mover].place(move)
            watchers["north"].state(mover, lambda s, ply=ply: s["ply"] == ply)
            asked = latest(
                watchers["south"],
                f"reedboard/{other}/events",
                lambda e, move=move: e.get("move") == move and e["event"] == "expect",
            )
            assert asked["move"] == move
            running[other].place(move)
            watchers["south"].state(other, lambda s, ply=ply: s["ply"] == ply)
        for watcher in watchers.values():
            for name in behind:
                over = watcher.state(name, lambda s: s["winner"] is not None)
                assert over["winner"] == "white" and over["moves"] == list(MOVES)
        # A command sent in south reaches the board behind north, and both cafés see its answer.
        players = {"command": "players", "names": ["Anna", "Ben"], "id": "from-south"}
        watchers["south"].publish("reedboard/home/command", json.dumps(players))
        for watcher in watchers.values():
            assert watcher.state("home", lambda s: s["players"] == ["Anna", "Ben"])["winner"] == "white"
        views = [{v["id"] for v in server.pages.fleet.views()} for _, server in served]
        assert views == [{"home", "friend"}, {"home", "friend"}]  # each café's dashboard, both tables
        archive = Archive.open(database)
        deadline = time.monotonic() + 15
        while set(archive.boards()) != {"home", "friend"}:
            assert time.monotonic() < deadline, archive.boards()
            time.sleep(0.2)
        for name in behind:
            (game,) = archive.games(name)
            assert game["winner"] == "white" and game["plies"] == len(MOVES)
    finally:
        for link, server in served:
            link.stop()
            server.stop()
        north.stop()
        south.stop()
