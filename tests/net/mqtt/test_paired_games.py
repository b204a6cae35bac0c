"""Two boards paired exactly as docs/cafe.md shows ("Pairing two boards": only the broker's
address and each board's games file and page port set for this machine), two real ``reedboard
run --sim`` daemons on a real Mosquitto, switched through all five games by a ``new_game``
command sent to one board and Home Assistant's game select of the other: in each, both boards
say the same who plays which side, a move made on the board whose players are to move is lit
on the other for its players to carry out, and each board's records name the other's side."""

from __future__ import annotations

import json
import re
import subprocess
from typing import Any

import engines
from firmware_host.store.layout import default_layout
from testbed.broker import Board, Watcher
from testbed.pairs import docs_pair, first, latest, on_this_machine
from testbed.tools import REEDBOARD

#: The games in the order the pair is switched through them (each one's sides differ from the
#: last one's; Antipalos, the configured game, last).
GAMES = ("phalanx", "antipode", "anti-grid", "antipod", "antipalos")


def marks(watcher: Watcher) -> dict[str, int]:
    """How many messages each topic has had so far."""
    return {topic: len(watcher.texts(topic)) for topic in {m[0] for m in watcher.messages}}


def channels(game: dict[str, Any] | str, sites: frozenset[str]) -> set[int]:
    """The sensors ``sites`` of ``game`` (a state, or a game's name: its default size) are
    on, on the simulated board (its default wiring: the games share its sensors)."""
    state = (
        engines.new_game(game)
        if isinstance(game, str)
        else engines.new_game(game["game"], game["size"], game["variant"])
    )
    sensor = default_layout(state.sites()).sensor
    return {sensor[site] for site in sites}


def set_up(
    watcher: Watcher, board: Board, name: str, game: str, pieces: set[int], since: int
) -> dict[str, Any]:
    """The players at ``name`` (the sensors ``pieces`` covered) put the pieces as its new game
    of ``game`` shows them: the pieces to put back and to take off are lit (its state says
    which); its state once they stand so."""
    topic = f"reedboard/{name}/state"
    start = channels(game, engines.new_game(game).occupied())
    if pieces != start:
        since, lit = first(watcher, topic, lambda s: s["game"] == game and s["sync"] == "out_of_sync", since)
        for site in lit["missing"]:
            board.place(site)
        for site in lit["extra"]:
            board.lift(site)
        pieces.clear()
        pieces.update(start)
    return latest(
        watcher, topic, lambda s: s["game"] == game and s["sync"] == "in_sync" and s["ply"] == 0, since
    )


def a_move(state: dict[str, Any]) -> tuple[str, frozenset[str], frozenset[str]]:
    """A legal first move of the game ``state`` names, made by hand alone (the pieces it
    empties and fills tell it from every other; nothing to remove, add or turn over after):
    its notation, the sites it empties and fills."""
    start = engines.new_game(state["game"], state["size"], state["variant"])
    for move in start.legal_moves():
        (way, *more) = start.realisations(move)
        if (
            not more
            and all(step.action == "pick" for step in way.follow_ups)
            and len(start.moves_for_change(way.emptied, way.filled)) == 1
        ):
            return start.notation(move), way.emptied, way.filled
    raise AssertionError(f"no plain first move in {state['game']}")


def test_paired_boards_as_the_docs_configure_them_agree_on_the_sides_in_every_game(
    tmp_path, broker, watcher, boards
):
    configs = docs_pair()
    running = {
        name: boards(on_this_machine(tmp_path, name, text, broker.port)) for name, text in configs.items()
    }
    for board in running.values():
        board.wait_running()
    other = {"home": "friend", "friend": "home"}
    pieces: dict[str, set[int]] = {name: set() for name in running}  # Antipalos begins empty
    for n, game in enumerate(GAMES):
        before = marks(watcher)
        at = lambda name, what: before.get(f"reedboard/{name}/{what}", 0)  # noqa: E731
        if n % 2 == 0:  # a new game sent to home's command topic
            watcher.publish("reedboard/home/command", json.dumps({"command": "new_game", "game": game}))
        else:  # friend's game chosen in Home Assistant: its select as the board announces it
            select = json.loads(watcher.wait("homeassistant/select/reedboard_friend/game/config"))
            title = next(option for option in select["options"] if option.split()[0].lower() == game)
            watcher.publish(select["command_topic"], select["command_template"].replace("{{ value }}", title))
        for name in running:  # the board asked begins it, the other follows
            latest(
                watcher,
                f"reedboard/{name}/events",
                lambda e: e["event"] == "new_game" and e["game"] == game,
                at(name, "events"),
            )
        states = {
            name: set_up(watcher, board, name, game, pieces[name], at(name, "state"))
            for name, board in running.items()
        }
        sides = tuple(states["home"]["sides"])
        assert tuple(engines.new_game(game).sides) == sides
        # home's config: friend takes the second seat; friend's: home takes the first
        assert states["home"]["opponent"] == f"board friend, {sides[1]}"
        assert states["friend"]["opponent"] == f"board home, {sides[0]}"
        tokens = {
            name: latest(
                watcher,
                f"reedboard/{name}/moves",
                lambda m: m["game"] == game and bool(m["token"]),
                at(name, "moves"),
            )["token"]
            for name in running
        }
        assert tokens["home"] == tokens["friend"], f"{game}: the boards play different games"

        to_move = states["home"]["to_move"]
        mover = "home" if to_move == sides[0] else "friend"
        move, emptied, filled = a_move(states[mover])
        before = marks(watcher)
        for site in emptied:
            running[mover].lift(site)
        for site in filled:
            running[mover].place(site)
        pieces[mover] = (pieces[mover] - channels(states[mover], emptied)) | channels(states[mover], filled)
        latest(watcher, f"reedboard/{mover}/state", lambda s: s["game"] == game and s["moves"] == [move])
        asked = latest(
            watcher,
            f"reedboard/{other[mover]}/events",
            lambda e: e["event"] == "expect",
            at(other[mover], "events"),
        )
        assert asked["move"] == move, f"{game}: {other[mover]} was asked {asked['move']}"
        said = latest(
            watcher,
            f"reedboard/{other[mover]}/events",
            lambda e: (
                e["event"] == "display" and any(f"Opponent plays {move}" in line for line in e["lines"])
            ),
            at(other[mover], "events"),
        )
        assert said

    for name, seat in (("home", 1), ("friend", 0)):  # each game's record names the other board's side
        exported = subprocess.run(
            [*REEDBOARD, "export", "--config", str(tmp_path / f"{name}.toml")],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        named = re.findall(r'\[Game "([^"]+)"\].*?\[Opponent "([^"]+)"\]', exported, re.S)
        for game in GAMES:
            side = engines.new_game(game).sides[seat]
            assert (game, f"board {other[name]}, {side}") in named, (name, game, named)


def test_a_takeback_asked_again_after_the_asking_board_restarts_reaches_the_other_board(
    tmp_path, broker, watcher, boards
):
    """Home asks to take back its move, friend's players say no, home restarts and asks again:
    friend's players are asked again (before, home said at once that the opponent refused).
    Home restarts once more while friend's players are being asked: the request stands, and
    friend's OK takes the move back on both boards."""
    paths = {name: on_this_machine(tmp_path, name, text, broker.port) for name, text in docs_pair().items()}
    home, friend = boards(paths["home"]), boards(paths["friend"])
    home.wait_running()
    friend.wait_running()
    home.place("A1*")  # White's move at home, carried out at friend
    watcher.wait("reedboard/friend/events", lambda t: '"expect"' in t and "A1*" in t)
    friend.place("A1*")
    watcher.state("friend", lambda s: s["moves"] == ["A1*"])

    def asked_of_friend() -> None:
        since = len(watcher.texts("reedboard/friend/events"))
        watcher.publish("reedboard/home/command", '{"command": "takeback"}')
        latest(
            watcher,
            "reedboard/friend/events",
            lambda e: e["event"] == "display" and "Take back?" in e["lines"],
            since,
        )

    def restart(board: Board) -> Board:
        assert board.stop() == 0
        again = boards(paths["home"])
        again.wait_running()
        return again

    asked_of_friend()
    friend.press("back")  # no
    watcher.wait("reedboard/home/events", lambda t: "refused the take back" in t)
    home = restart(home)
    asked_of_friend()  # asked again, after the restart: friend's players are asked
    since, states = len(watcher.texts("reedboard/friend/events")), len(watcher.texts("reedboard/home/state"))
    events = len(watcher.texts("reedboard/home/events"))
    home = restart(home)  # while they think: home still waits for their answer
    latest(
        watcher,
        "reedboard/home/state",
        lambda s: any("wait for the opponent's OK" in line for line in s["screen"]),
        states,
    )
    friend.press("ok")
    for name in ("home", "friend"):  # taken back on both
        latest(
            watcher,
            f"reedboard/{name}/events",
            lambda e: e["event"] == "takeback",
            since if name == "friend" else events,
        )
    assert not [t for t in watcher.texts("reedboard/friend/events")[since:] if "no longer asks" in t]
