"""Two cafés whose brokers are bridged as docs/cafe.md ("Two cafés bridged") configures them:
two real Mosquittos on this machine, north's bridge logging in to south's TLS listener with its
own login and trusting a throwaway CA; each café's dashboard and a watcher on its broker."""

from __future__ import annotations

import io
import re
import subprocess
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from firmware_host.league.store import LeagueStore
from firmware_host.net.cafe.archive import Archive
from firmware_host.net.cafe.run import start
from firmware_host.store.config import Mqtt
from testbed.broker import Broker, Watcher
from testbed.tls import make_certificates

CAFE = Path(__file__).resolve().parents[1] / "docs" / "cafe.md"
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


@dataclass
class Cafes:
    """The two bridged cafés: their brokers, a watcher on each (``reedboard/#``) and each
    one's dashboard (its link and server), by name: ``north`` and ``south``."""

    brokers: dict[str, Broker]
    watchers: dict[str, Watcher] = field(default_factory=dict)
    served: dict[str, tuple[Any, Any]] = field(default_factory=dict)


@contextmanager
def bridged_cafes(folder: Path, database: str, league: tuple[str, ...] = ()) -> Iterator[Cafes]:
    """:func:`bridged`'s cafés, each with a watcher and a dashboard writing to the archive
    ``database`` (and, given ``league``'s tables, running the league kept there), all stopped
    at the end."""
    north, south = bridged(folder)
    cafes = Cafes({"north": north, "south": south})
    try:
        for name, broker in cafes.brokers.items():
            cafes.watchers[name] = Watcher(broker.port, "reedboard/#")
            cafes.served[name] = start(
                Mqtt(),
                "127.0.0.1",
                broker.port,
                "127.0.0.1",
                0,
                None,
                io.StringIO(),
                Archive.open(database),
                league=(LeagueStore.open(database), league) if league else None,
            )
        yield cafes
    finally:
        for watcher in cafes.watchers.values():
            watcher.close()
        for link, server in cafes.served.values():
            link.stop()
            server.stop()
        north.stop()
        south.stop()
