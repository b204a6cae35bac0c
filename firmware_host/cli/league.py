"""``reedboard league``: a league night from the command line (docs/league.md), on the café
dashboard's config (``--config``: its ``[archive]``, ``[mqtt]`` and ``[league] tables``).

    reedboard league new "Thursday league" --game anti-grid --size 6 --rounds 3 --control 300+3
    reedboard league player add Anna --tag ANN
    reedboard league register Anna Ben Cleo Dan
    reedboard league pair                 # and sends each board its table
    reedboard league result 3 1-0
    reedboard league standings --csv

Bad input gets one line naming what is wrong, and changes nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import threading
import time
from typing import Any, Sequence

from firmware_host.i18n import ngettext
from firmware_host.league.model import FORMATS, TIEBREAKS, Event, LeagueError, Pairing, table_command
from firmware_host.league.standings import as_csv
from firmware_host.store.config import Config, ConfigError, default_storage, load_config

#: Seconds ``pair`` waits for the boards' answers.
REPLY_WAIT = 5.0


def add_command(sub: argparse._SubParsersAction) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--config", help="the café dashboard's config ([archive], [mqtt], [league] tables)")
    common.add_argument("--state", metavar="DIR", help="where cafe.db is, unless [archive] url says")
    common.add_argument("--event", help="the event (default: the latest created)")
    league = sub.add_parser("league", help="league nights: players, events, pairings, standings")
    actions = league.add_subparsers(dest="action", metavar="ACTION", required=True)

    new = actions.add_parser("new", parents=[common], help="create an event")
    new.add_argument("name")
    new.add_argument("--game", required=True)
    new.add_argument("--size", type=int)
    new.add_argument("--variant")
    new.add_argument("--format", default="swiss", choices=FORMATS)
    new.add_argument("--rounds", type=int, default=3)
    new.add_argument("--control", help="the clock, as [clock] control (300+3; none: no clock)")
    new.add_argument("--tiebreaks", help=f"in order, comma-separated: {', '.join(TIEBREAKS)}")
    new.set_defaults(func=_new)

    player = actions.add_parser("player", parents=[common], help="add or list the café's players")
    player.add_argument("what", choices=("add", "list"))
    player.add_argument("name", nargs="?")
    player.add_argument("--tag", help="a short tag (1-8 characters)")
    player.set_defaults(func=_player)

    register = actions.add_parser("register", parents=[common], help="enter players in the event")
    register.add_argument("names", nargs="+")
    register.add_argument("--withdraw", action="store_true", help="withdraw them instead")
    register.set_defaults(func=_register)

    bye = actions.add_parser("bye", parents=[common], help="a player sits the next round out")
    bye.add_argument("name")
    bye.add_argument("--points", type=float, default=0.5, help="what the bye scores: 0, 0.5 (default) or 1")
    bye.set_defaults(func=_bye)

    pairing = actions.add_parser("pair", parents=[common], help="pair the next round and send the tables")
    pairing.add_argument("--again", action="store_true", help="pair the current round anew (no results yet)")
    pairing.add_argument("--no-send", action="store_true", help="pair, but send nothing to the boards")
    pairing.set_defaults(func=_pair)

    result = actions.add_parser("result", parents=[common], help="enter or correct a table's result")
    result.add_argument("table", type=int)
    result.add_argument("result", help="1-0, 0-1, 1/2-1/2, +- or -+ (forfeits), or the winner's name")
    result.add_argument("--round", type=int, help="default: the current round")
    result.set_defaults(func=_result)

    ratings = actions.add_parser("ratings", parents=[common], help="every rating, by game and size")
    ratings.add_argument("--json", action="store_true")
    ratings.set_defaults(func=_ratings)

    table = actions.add_parser("standings", parents=[common], help="the standings (and ratings)")
    shown = table.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true")
    shown.add_argument("--csv", action="store_true")
    table.set_defaults(func=_standings)


def _open(args: argparse.Namespace) -> tuple[Config, Any]:
    from firmware_host.league.store import LeagueStore

    config = load_config(args.config)
    state = args.state or os.path.dirname(default_storage())
    return config, LeagueStore.open(config.archive.url, state)


def _run(args: argparse.Namespace, action: Any) -> int:
    """``action(config, store)``, its refusal said in one line (exit 2)."""
    try:
        config, store = _open(args)
    except (ConfigError, LeagueError) as exc:
        return _fail(str(exc))
    try:
        return action(config, store) or 0
    except LeagueError as exc:
        return _fail(str(exc))
    finally:
        store.close()


def _new(args: argparse.Namespace) -> int:
    def act(_: Config, store: Any) -> None:
        tiebreaks = tuple(t.strip() for t in (args.tiebreaks or "").split(",") if t.strip())
        event = store.new_event(
            Event(
                args.name,
                args.game,
                args.size,
                args.variant,
                args.control,
                args.format,
                args.rounds,
                tiebreaks,
            )
        )
        rounds = ngettext("{n} round", "{n} rounds", event.rounds).format(n=event.rounds)
        print(f"{event.name}: {event.format}, {rounds} of {event.game} {event.size or ''}".rstrip())

    return _run(args, act)


def _player(args: argparse.Namespace) -> int:
    def act(_: Config, store: Any) -> None:
        if args.what == "add":
            if not args.name:
                raise LeagueError("player add: give the player's name")
            store.add_player(args.name, args.tag)
            print(f"Added {args.name} ({_players(len(store.players()))})")
            return
        players = store.players()
        for p in players:
            print(p["name"] + (f" [{p['tag']}]" if p["tag"] else ""))
        if not players:
            print("No players yet: reedboard league player add NAME")

    return _run(args, act)


def _register(args: argparse.Namespace) -> int:
    def act(_: Config, store: Any) -> None:
        if args.withdraw:
            for name in args.names:
                store.withdraw(args.event, name)
        else:
            store.register(args.event, args.names)
        entries = store.entries(args.event)
        print(f"{_players(len([n for n, out in entries.items() if not out]))} entered")

    return _run(args, act)


def _bye(args: argparse.Namespace) -> int:
    def act(_: Config, store: Any) -> None:
        round_no = store.bye(args.event, args.name, args.points)
        points = "point" if 0 < args.points <= 1 else "points"  # "1/2 point", "0 points"
        print(f"{args.name}: a bye in round {round_no} ({_num(args.points)} {points})")

    return _run(args, act)


def _pair(args: argparse.Namespace) -> int:
    def act(config: Config, store: Any) -> int:
        if not args.no_send and config.mqtt.host is None:
            raise LeagueError("no broker to send the tables to: [mqtt] host in the config (or --no-send)")
        event = store.event(args.event)
        boards = None if args.no_send else _Boards(config)  # the broker first: nothing paired without it
        try:
            tables = store.pair(event.name, config.league.tables, again=args.again)
            for p in tables:
                print(_line(p))
            sent = [
                (p.board, table_command(event, p, secrets.token_hex(3)))
                for p in tables
                if p.board and p.points is None
            ]
            return boards.send(sent) if boards else 0
        finally:
            if boards:
                boards.close()

    return _run(args, act)


def _result(args: argparse.Namespace) -> int:
    def act(_: Config, store: Any) -> None:
        print(_line(store.set_result(args.event, args.table, args.result, args.round)))

    return _run(args, act)


def _standings(args: argparse.Namespace) -> int:
    def act(_: Config, store: Any) -> None:
        event = store.event(args.event)
        store.collect(event.name)
        rows = store.standings(event.name)
        if args.json:
            print(
                json.dumps({"event": event.name, "round": store.current_round(event.name), "standings": rows})
            )
        elif args.csv:
            print(as_csv(rows, event.tiebreaks), end="")
        else:
            print(f"{event.name}, round {store.current_round(event.name)} of {event.rounds}")
            print(f"{'':>4} {'player':<24} {'pts':>4}  {'  '.join(event.tiebreaks)}  rating ± uncertainty")
            for r in rows:
                rating = r["rating"]
                shown = f"  {rating['mu']:.1f} ± {rating['sigma']:.1f}" if rating else "  -"
                breaks = "  ".join(
                    f"{r[t]:>{len(t)}g}" if r[t] is not None else f"{'-':>{len(t)}}" for t in event.tiebreaks
                )
                out_ = " (withdrawn)" if r["withdrawn"] else ""
                print(f"{r['rank']:>3}. {r['name']:<24} {r['points']:>4g}  {breaks}{shown}{out_}")

    return _run(args, act)


def _ratings(args: argparse.Namespace) -> int:
    def act(_: Config, store: Any) -> None:
        rated = store.ratings()
        if args.json:
            print(json.dumps(rated))
        elif not rated:
            print("No rated games yet: ratings come with the first result")
        for key, players in rated.items() if not args.json else ():
            print(key)
            for n, r in enumerate(players, 1):
                played = ngettext("{n} game", "{n} games", r["games"]).format(n=r["games"])
                print(f"{n:>4}. {r['player']:<24} {r['mu']:5.1f} ± {r['sigma']:.1f}  ({played})")

    return _run(args, act)


class _Boards:
    """The boards on the broker of ``config``: connected at once (LeagueError if the broker
    does not answer within :data:`REPLY_WAIT`), listening to their answers."""

    def __init__(self, config: Config) -> None:
        from firmware_host.net.mqtt import topics
        from firmware_host.net.mqtt.link import Link

        self.topics = topics
        self.link = Link(
            config.mqtt, f"reedboard-league-{os.getpid()}-{secrets.token_hex(3)}", who="reedboard league"
        )
        self.answers: dict[object, dict] = {}
        self.answered = threading.Condition()
        self.link.subscribe(topics.topic("+", "reply"), self._replied)
        self.link.start()
        if not self.link.connected.wait(REPLY_WAIT):
            self.close()
            raise LeagueError(
                f"the broker ({self.link.host}:{self.link.port}) did not answer: nothing was paired"
            )
        time.sleep(0.2)  # the subscription made before any command goes

    def _replied(self, topic: str, payload: bytes) -> None:
        try:
            answer = json.loads(payload)
        except ValueError:
            return
        if isinstance(answer, dict) and isinstance(answer.get("id"), str):
            with self.answered:
                self.answers[answer["id"]] = answer
                self.answered.notify_all()

    def send(self, commands: Sequence[tuple[str, dict]]) -> int:
        """Publish each board's ``table`` command and print its answer (waiting
        :data:`REPLY_WAIT` at most); 1 if a board refused or did not answer."""
        for board, command in commands:
            topic = self.topics.topic(board, "command")
            self.link.client.publish(topic, json.dumps(command), qos=1).wait_for_publish(REPLY_WAIT)
        ids = {command["id"] for _, command in commands}
        with self.answered:
            self.answered.wait_for(lambda: ids <= set(self.answers), REPLY_WAIT)
        failed = 0
        for board, command in commands:
            answer = self.answers.get(command["id"])
            said = (
                "no answer"
                if answer is None
                else "ok"
                if answer.get("ok")
                else f"refused: {answer.get('error')}"
            )
            failed += said != "ok"
            print(f"{board}: table {command['table']} sent, {said}")
        return 1 if failed else 0

    def close(self) -> None:
        self.link.stop()


def _line(p: Pairing) -> str:
    """A pairing as the command prints it.

    >>> _line(Pairing(1, 2, ("Anna", "Ben"), (1.0, 0.0), board="table-2"))
    'round 1 table 2 (table-2): Anna – Ben  1-0'
    >>> _line(Pairing(1, 3, ("Cleo",), (1.0,)))
    'round 1 table 3: Cleo bye'
    """
    where = f" ({p.board})" if p.board else ""
    if p.bye:
        return f"round {p.round} table {p.table}{where}: {p.names[0]} bye"
    result = (
        ""
        if p.points is None
        else "  " + "-".join(_num(x) for x in p.points) + (" forfeit" if p.forfeit else "")
    )
    return f"round {p.round} table {p.table}{where}: {' – '.join(p.names)}{result}"


def _num(x: float | None) -> str:
    return "" if x is None else "1/2" if x == 0.5 else f"{x:g}" if x == int(x) else f"{x:.2f}"


def _players(n: int) -> str:
    """``n`` players, by the language's plural forms.

    >>> _players(1), _players(12)
    ('1 player', '12 players')
    """
    return ngettext("{n} player", "{n} players", n).format(n=n)


def _fail(message: str) -> int:
    print(f"reedboard league: {message}", file=sys.stderr)
    return 2
