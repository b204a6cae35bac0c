"""A league set up as an arbiter sets it up with ``reedboard league`` (docs/league.md), for the
tests of its pages and its tables on boards: the commands run in this process, the café's
dashboard (``reedboard cafe``) in one of its own."""

from __future__ import annotations

import io
from contextlib import contextmanager, redirect_stdout
from pathlib import Path
from typing import Iterable, Iterator

from firmware_host.cli.main import main
from testbed.docs_run import dashboard, serves, stop
from testbed.tools import free_port


def arbiter(config: Path, *commands: Iterable[str], state: Path | None = None) -> str:
    """``reedboard league COMMAND... --config config`` for each of ``commands`` (``--state``
    too, given ``state``), each expected to succeed; what they printed."""
    said = io.StringIO()
    kept = ["--state", str(state)] if state is not None else []
    with redirect_stdout(said):
        for words in commands:
            assert main(["league", *words, "--config", str(config), *kept]) == 0, words
    return said.getvalue()


def one_table(config: Path, event: str, names: tuple[str, str] = ("Anna", "Ben")) -> str:
    """A league ``event`` of one round of Antipalos 3 for ``names``, paired and its table sent
    (``[league] tables`` of ``config``): what ``reedboard league pair`` said."""
    arbiter(
        config,
        ["new", event, "--game", "antipalos", "--size", "3", "--rounds", "1"],
        *(["player", "add", name] for name in names),
        ["register", *names],
    )
    return arbiter(config, ["pair"])


@contextmanager
def league_pages(folder: Path, *commands: Iterable[str], top: str = "", tables: str = "") -> Iterator[str]:
    """A café's dashboard config in ``folder`` (``top``: its top-level keys, ``tables``: tables
    after its ``[mqtt]``, on a broker nobody runs), the league ``commands`` run with it, then
    ``reedboard cafe`` serving its league pages: their address, until the end."""
    config = folder / "cafe.toml"
    config.write_text(f'{top}[mqtt]\nhost = "127.0.0.1"\nport = {free_port()}\n{tables}')
    arbiter(config, *commands, state=folder)
    port = free_port()
    cafe = dashboard(config, port, folder)
    try:
        assert serves(cafe, port, "/league") == 200
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(cafe)
