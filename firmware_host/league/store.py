"""The league's tables in the café archive's database (SQLite or PostgreSQL, as ``[archive]
url`` says): players, events, registrations, rounds and their pairings with results, ratings.

The schema grows by numbered migrations (:data:`MIGRATIONS`), each run once, in order, and
counted in ``league_schema``. A board's finished league game is found in the archive's
``games`` table by its event, round and table (:meth:`LeagueStore.collect`).

>>> store = LeagueStore.open("sqlite://:memory:")
>>> for name in ("Anna", "Ben", "Cleo"):
...     store.add_player(name)
>>> event = store.new_event(Event("Thursday", "anti-grid", 6, rounds=2))
>>> store.register("Thursday", ["Anna", "Ben", "Cleo"])
>>> [(p.table, p.names) for p in store.pair("Thursday")]
[(1, ('Anna', 'Ben')), (2, ('Cleo',))]
>>> store.set_result("Thursday", 1, "1-0").points
(1.0, 0.0)
>>> [(r["name"], r["points"]) for r in store.standings("Thursday")]
[('Cleo', 1.0), ('Anna', 1.0), ('Ben', 0.0)]
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence

from engines.core import DRAW
from firmware_host.i18n import _, ngettext
from firmware_host.league.model import Event, LeagueError, Pairing, check_name, read_result
from firmware_host.league.pairing import BYE_POINTS, pair
from firmware_host.league.ratings import rate
from firmware_host.league.standings import standings

#: The schema, migration by migration (each a transaction; the same SQL in both dialects).
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        "CREATE TABLE league_players (name TEXT PRIMARY KEY, tag TEXT, added TEXT NOT NULL)",
        "CREATE TABLE league_events (name TEXT PRIMARY KEY, seq INTEGER NOT NULL, game TEXT NOT NULL, "
        "size INTEGER, variant TEXT, control TEXT, format TEXT NOT NULL, rounds INTEGER NOT NULL, "
        "tiebreaks TEXT NOT NULL, created TEXT NOT NULL)",
        "CREATE TABLE league_entries (event TEXT NOT NULL, player TEXT NOT NULL, seed INTEGER NOT NULL, "
        "withdrawn INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (event, player))",
        "CREATE TABLE league_pairings (event TEXT NOT NULL, round INTEGER NOT NULL, tab INTEGER NOT NULL, "
        "board TEXT, names TEXT NOT NULL, points TEXT, forfeit INTEGER NOT NULL DEFAULT 0, game_key TEXT, "
        "PRIMARY KEY (event, round, tab))",
        "CREATE TABLE league_ratings (rating TEXT NOT NULL, player TEXT NOT NULL, mu REAL NOT NULL, "
        "sigma REAL NOT NULL, games INTEGER NOT NULL, PRIMARY KEY (rating, player))",
    ),
    # byes asked for ahead of a round (a player away for it): their points, FIDE's half-point bye
    (
        "CREATE TABLE league_byes (event TEXT NOT NULL, round INTEGER NOT NULL, player TEXT NOT NULL, "
        "points REAL NOT NULL, PRIMARY KEY (event, round, player))",
    ),
)


def database(url: str | None, state_dir: str | None = None) -> tuple[Callable[[], Any], str, tuple]:
    """How to connect to the archive's database at ``url`` (as ``[archive] url``: default
    SQLite ``cafe.db`` in ``state_dir``), its dialect and the exceptions that say it is away;
    LeagueError for an address it cannot use."""
    if url and url.startswith(("postgresql://", "postgres://")):
        try:
            import psycopg
        except ImportError:
            raise LeagueError("[archive] url names PostgreSQL: install psycopg") from None
        return (
            lambda: psycopg.connect(url, autocommit=True, connect_timeout=3),
            "postgresql",
            (psycopg.OperationalError, psycopg.InterfaceError, OSError),
        )
    if url and not url.startswith("sqlite://"):
        raise LeagueError(f"[archive] url must be postgresql://... or sqlite:///path (got {url[:40]!r})")
    path = url[len("sqlite://") :] if url else os.path.join(state_dir or ".", "cafe.db")
    if path != ":memory:":
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)

    def connect() -> sqlite3.Connection:
        db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=5)
        db.execute("PRAGMA journal_mode=WAL")
        return db

    return connect, "sqlite", (sqlite3.OperationalError, OSError)


class LeagueStore:
    """The league in one database connection, made when first needed and again after the
    database was away (used under a lock: the dashboard's threads share it). Every change is
    checked first: a refused one (LeagueError, one line) changes nothing; LeagueError too while
    the database is away."""

    def __init__(
        self, connect: Callable[[], Any], dialect: str, away: tuple = (OSError,), where: str = ""
    ) -> None:
        self.connect, self.dialect, self.away, self.where = connect, dialect, away, where
        self.db: Any = None
        self._lock = threading.RLock()

    @classmethod
    def open(cls, url: str | None, state_dir: str | None = None) -> "LeagueStore":
        """The league at ``url``, connected at once if the database answers (a dashboard
        started before its database connects later)."""
        store = cls(*database(url, state_dir), where=(url or "cafe.db").split("@")[-1])
        try:
            store._connected()
        except LeagueError:
            pass
        return store

    def close(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None

    # ------------------------------------------------------------------ players and events
    def add_player(self, name: str, tag: str | None = None) -> None:
        name = check_name(name)
        if tag is not None and not 1 <= len(tag.strip()) <= 8:
            raise LeagueError(_("--tag: 1 to 8 characters (got {got})").format(got=repr(tag)))
        with self._lock:
            if self._rows("SELECT name FROM league_players WHERE lower(name) = lower(?)", (name,)):
                raise LeagueError(_("a player is called {name} already").format(name=repr(name)))
            self._run("INSERT INTO league_players (name, tag, added) VALUES (?, ?, ?)", (name, tag, _now()))

    def players(self) -> list[dict[str, Any]]:
        return self._rows("SELECT name, tag FROM league_players ORDER BY lower(name)")

    def new_event(self, event: Event) -> Event:
        if not 1 <= len(event.name.strip()) <= 80:
            raise LeagueError(_("an event's name is 1 to 80 characters"))
        with self._lock:
            if self._rows("SELECT name FROM league_events WHERE name = ?", (event.name,)):
                raise LeagueError(_("an event is called {name} already").format(name=repr(event.name)))
            seq = self._rows("SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM league_events")[0]["n"]
            self._run(
                "INSERT INTO league_events (name, seq, game, size, variant, control, format, rounds, "
                "tiebreaks, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    event.name,
                    seq,
                    event.game,
                    event.size,
                    event.variant,
                    event.control,
                    event.format,
                    event.rounds,
                    ",".join(event.tiebreaks),
                    _now(),
                ),
            )
        return event

    def events(self) -> list[str]:
        """The events' names, the latest first."""
        return [r["name"] for r in self._rows("SELECT name FROM league_events ORDER BY seq DESC")]

    def event(self, name: str | None = None) -> Event:
        """Event ``name`` (None: the latest); LeagueError if there is none."""
        rows = self._rows(
            "SELECT * FROM league_events " + ("WHERE name = ?" if name else "ORDER BY seq DESC LIMIT 1"),
            (name,) if name else (),
        )
        if not rows:
            raise LeagueError(
                _("no event called {name}").format(name=repr(name))
                if name
                else _("no event yet: reedboard league new NAME --game G")
            )
        r = rows[0]
        return Event(
            r["name"],
            r["game"],
            r["size"],
            r["variant"],
            r["control"],
            r["format"],
            r["rounds"],
            tuple(t for t in r["tiebreaks"].split(",") if t),
        )

    # ------------------------------------------------------------------ registrations
    def register(self, event_name: str | None, names: Sequence[str]) -> None:
        """Enter ``names`` (players of the café) in the event, in that order after those
        entered before; a withdrawn player comes back."""
        event = self.event(event_name)
        known = {r["name"].lower(): r["name"] for r in self.players()}
        missing = [n for n in names if n.strip().lower() not in known]
        if missing:
            raise LeagueError(
                _("no player called {name}: reedboard league player add {name}").format(name=repr(missing[0]))
            )
        with self._lock:
            entered = self._entries(event.name)
            seed = len(entered)
            for name in (known[n.strip().lower()] for n in names):
                if name in entered:
                    self._run(
                        "UPDATE league_entries SET withdrawn = 0 WHERE event = ? AND player = ?",
                        (event.name, name),
                    )
                else:
                    seed += 1
                    self._run(
                        "INSERT INTO league_entries (event, player, seed) VALUES (?, ?, ?)",
                        (event.name, name, seed),
                    )
                    entered[name] = False

    def bye(self, event_name: str | None, name: str, points: float = 0.5) -> int:
        """``name`` sits the next round out with ``points`` (0, 0.5 or 1: a bye asked for
        ahead, FIDE's half-point bye by default); the round it is for."""
        event = self.event(event_name)
        entries = self._entries(event.name)
        if entries.get(name, True):
            raise LeagueError(_("{name} is not playing in {event}").format(name=repr(name), event=event.name))
        if points not in (0, 0.5, 1):
            raise LeagueError(_("--points: a bye scores 0, 1/2 or 1 (got {got:g})").format(got=points))
        coming = self.current_round(event.name) + 1  # the next round to pair
        if coming > event.rounds:
            raise LeagueError(
                ngettext(
                    "{event}: its {n} round is paired", "{event}: all {n} rounds are paired", event.rounds
                ).format(event=event.name, n=event.rounds)
            )
        with self._transaction():
            self._run(
                "DELETE FROM league_byes WHERE event = ? AND round = ? AND player = ?",
                (event.name, coming, name),
            )
            self._run(
                "INSERT INTO league_byes (event, round, player, points) VALUES (?, ?, ?, ?)",
                (event.name, coming, name, float(points)),
            )
        return coming

    def _byes(self, event: str, round_no: int) -> dict[str, float]:
        rows = self._rows(
            "SELECT player, points FROM league_byes WHERE event = ? AND round = ?", (event, round_no)
        )
        return {r["player"]: r["points"] for r in rows}

    def withdraw(self, event_name: str | None, name: str) -> None:
        """``name`` is paired no more (their games so far count)."""
        event = self.event(event_name)
        if name not in self._entries(event.name):
            raise LeagueError(_("{name} is not entered in {event}").format(name=repr(name), event=event.name))
        self._run(
            "UPDATE league_entries SET withdrawn = 1 WHERE event = ? AND player = ?", (event.name, name)
        )

    def entries(self, event_name: str | None = None) -> dict[str, bool]:
        """The event's players in seeding order, each True if withdrawn."""
        return self._entries(self.event(event_name).name)

    def _entries(self, event: str) -> dict[str, bool]:
        rows = self._rows(
            "SELECT player, withdrawn FROM league_entries WHERE event = ? ORDER BY seed", (event,)
        )
        return {r["player"]: bool(r["withdrawn"]) for r in rows}

    # ------------------------------------------------------------------ rounds
    def pairings(self, event_name: str | None = None, round_no: int | None = None) -> list[Pairing]:
        """The event's pairings (of one round), in round and table order."""
        event = self.event(event_name)
        rows = self._rows(
            "SELECT * FROM league_pairings WHERE event = ?"
            + (" AND round = ?" if round_no else "")
            + " ORDER BY round, tab",
            (event.name, round_no) if round_no else (event.name,),
        )
        return [
            Pairing(
                r["round"],
                r["tab"],
                tuple(json.loads(r["names"])),
                None if r["points"] is None else tuple(json.loads(r["points"])),
                bool(r["forfeit"]),
                r["board"],
            )
            for r in rows
        ]

    def current_round(self, event_name: str | None = None) -> int:
        """The last round paired (0: none yet)."""
        return max((p.round for p in self.pairings(event_name)), default=0)

    def pair(
        self, event_name: str | None = None, boards: Sequence[str] = (), again: bool = False
    ) -> list[Pairing]:
        """Pair the next round (``again``: the current one anew, while none of its games has a
        result), its tables on ``boards`` in order (none: the tables are numbers only); a bye
        scores at once. LeagueError if the round before is unfinished or the event is over."""
        event = self.event(event_name)
        with self._lock:
            self.collect(event.name)
            done = self._before(event, again)
            entries = self._entries(event.name)
            round_no = max((p.round for p in done), default=0) + 1
            away = self._byes(event.name, round_no) if event.format != "round-robin" else {}
            # a round robin keeps its Berger numbers: a withdrawn player's games are forfeited
            players = [
                n for n, out in entries.items() if event.format == "round-robin" or not (out or n in away)
            ]
            tables = pair(event, players, done, round_no)
            tables += [
                Pairing(round_no, len(tables) + n, (name,), (points,))
                for n, (name, points) in enumerate(away.items(), 1)
            ]
            games = [p for p in tables if not p.bye]
            if boards and len(boards) < len(games):
                raise LeagueError(
                    ngettext(
                        "{event}: {n} table needed, [league] tables names {boards}",
                        "{event}: {n} tables needed, [league] tables names {boards}",
                        len(games),
                    ).format(event=event.name, n=len(games), boards=len(boards))
                )
            seated = [
                Pairing(
                    p.round,
                    p.table,
                    p.names,
                    *_unplayed(p, entries),
                    None if p.bye or not boards else boards[p.table - 1],
                )
                for p in tables
            ]
            with self._transaction():
                self._run(
                    "DELETE FROM league_pairings WHERE event = ? AND round = ?", (event.name, tables[0].round)
                )
                for p in seated:
                    self._save(event.name, p)
            self._rerate()
        return seated

    def _before(self, event: Event, again: bool) -> list[Pairing]:
        """The rounds the next pairing follows (``again``: those before the current one, which
        must have no result yet); LeagueError when the last round is unfinished or the event
        is over."""
        done = self.pairings(event.name)
        current = max((p.round for p in done), default=0)
        if again:
            if not current:
                raise LeagueError(_("{event}: no round to pair again").format(event=event.name))
            if any(p.points is not None and not p.bye for p in done if p.round == current):
                raise LeagueError(
                    _("{event}: round {round} has results: it cannot be paired again").format(
                        event=event.name, round=current
                    )
                )
            return [p for p in done if p.round < current]
        open_ = [str(p.table) for p in done if p.points is None]
        if open_:
            raise LeagueError(
                _("{event}: round {round} is not over (table {tables} has no result)").format(
                    event=event.name, round=current, tables=", ".join(open_)
                )
            )
        if current >= event.rounds:
            raise LeagueError(
                ngettext(
                    "{event}: its {n} round is paired", "{event}: all {n} rounds are paired", event.rounds
                ).format(event=event.name, n=event.rounds)
            )
        return done

    def set_result(
        self, event_name: str | None, table: int, result: str, round_no: int | None = None
    ) -> Pairing:
        """Table ``table``'s result (``read_result``'s words; +- and -+ are forfeits), in the
        current round unless ``round_no``: entered, or corrected."""
        event = self.event(event_name)
        with self._lock:
            round_no = round_no or self.current_round(event.name)
            found = [p for p in self.pairings(event.name, round_no) if p.table == table]
            if not found:
                raise LeagueError(
                    _("{event}: round {round} has no table {table}").format(
                        event=event.name, round=round_no, table=table
                    )
                )
            old = found[0]
            if old.bye:
                raise LeagueError(
                    _("{event}: table {table} is {name}'s bye").format(
                        event=event.name, table=table, name=old.names[0]
                    )
                )
            points = read_result(result, old.names, event)
            forfeit = result.strip() in ("+-", "-+", "--")
            new = Pairing(old.round, old.table, old.names, points, forfeit, old.board)
            self._save(event.name, new)
            self._rerate()
        return new

    def record_game(self, game: dict[str, Any]) -> Pairing | None:
        """A board's finished game (an archive row or a checked record) with its ``league``
        event, round and table: that table's result, unless it has one already; None if it
        names no pairing of the store or is no result."""
        where = _league_of(game)
        if where is None or game.get("winner") is None:
            return None
        event_name, round_no, table = where
        try:
            event = self.event(event_name)
        except LeagueError:
            return None
        with self._lock:
            found = [p for p in self.pairings(event.name, round_no) if p.table == table and not p.bye]
            if not found or found[0].points is not None:
                return None
            p = found[0]
            players = _players_of(game)
            if players and tuple(players) != p.names:
                return None  # not the players paired there: the arbiter enters it
            if game["winner"] == DRAW:
                points = tuple(1 / event.sides for _seat in p.names)
            else:
                points = tuple(
                    1.0 if event.side_of(i) == game["winner"] else 0.0 for i in range(len(p.names))
                )
            new = Pairing(p.round, p.table, p.names, points, False, p.board)
            self._save(event.name, new, game.get("key"))
            self._rerate()
        return new

    def collect(self, event_name: str | None = None) -> int:
        """Record every game the archive has for the event's open tables (by its event, round
        and table); how many it recorded."""
        event = self.event(event_name)
        if not self._has_games():
            return 0
        rows = self._rows(
            "SELECT key, winner, players, league_event, league_round, league_table FROM games "
            "WHERE league_event = ? ORDER BY finished",
            (event.name,),
        )
        return sum(self.record_game(row) is not None for row in rows)

    # ------------------------------------------------------------------ standings and ratings
    def standings(self, event_name: str | None = None) -> list[dict[str, Any]]:
        """The event's standings with its tie-breaks, and each player's rating in its game
        (``mu``, ``sigma``, ``games`` and its ``history``: event, round, mu and sigma after each
        rated game; None before the first)."""
        event = self.event(event_name)
        entries = self._entries(event.name)
        rows = standings(
            list(entries),
            self.pairings(event.name),
            event.tiebreaks,
            [n for n, out in entries.items() if out],
        )
        ratings = self._rated().get((event.game, event.size), {})
        for row in rows:
            rating = ratings.get(row["name"])
            row["rating"] = (
                None if rating is None else {k: rating[k] for k in ("mu", "sigma", "games", "history")}
            )
        return rows

    def history(self, name: str) -> dict[str, Any]:
        """A player's games, event by event (round, table, opponents, points scored) and their
        rating after each rated game, by game and size; LeagueError for no such player."""
        known = {r["name"].lower(): r for r in self.players()}
        player = known.get(name.strip().lower())
        if player is None:
            raise LeagueError(_("no player called {name}").format(name=repr(name)))
        name = player["name"]
        games = [
            {
                "event": event,
                "round": p.round,
                "table": p.table,
                "opponents": list(p.opponents(name)),
                "bye": p.bye,
                "forfeit": p.forfeit,
                "points": None if p.points is None else p.points[p.names.index(name)],
            }
            for event in reversed(self.events())
            for p in self.pairings(event)
            if name in p.names
        ]
        ratings = {
            _rating_key(game, size): players[name]["history"]
            for (game, size), players in self._rated().items()
            if name in players
        }
        return {"name": name, "tag": player["tag"], "games": games, "ratings": ratings}

    def ratings(self) -> dict[str, list[dict[str, Any]]]:
        """Every rating, by game and size ("anti-grid 6"), the highest ``mu - 3 sigma`` first."""
        out: dict[str, list[dict[str, Any]]] = {}
        for r in self._rows("SELECT * FROM league_ratings ORDER BY rating, mu - 3 * sigma DESC, player"):
            out.setdefault(r["rating"], []).append({k: r[k] for k in ("player", "mu", "sigma", "games")})
        return out

    def _rated(self) -> dict[tuple[str, Any], dict[str, dict[str, Any]]]:
        """Every rating from every game played over the board, in the order played (the
        events in the order created, each round by round)."""
        events = [self.event(name) for name in reversed(self.events())]
        games = [(e.game, e.size, e.name, p) for e in events for p in self.pairings(e.name)]
        return rate(games, {e.name: e.seat_sides for e in events})

    def _rerate(self) -> None:
        """The ratings kept again, computed from every game."""
        table = self._rated()
        with self._transaction():
            self._run("DELETE FROM league_ratings")
            for (game, size), players in table.items():
                for name, r in players.items():
                    self._run(
                        "INSERT INTO league_ratings (rating, player, mu, sigma, games) "
                        "VALUES (?, ?, ?, ?, ?)",
                        (_rating_key(game, size), name, r["mu"], r["sigma"], r["games"]),
                    )

    # ------------------------------------------------------------------ the database
    def _save(self, event: str, p: Pairing, key: str | None = None) -> None:
        self._run(
            "DELETE FROM league_pairings WHERE event = ? AND round = ? AND tab = ?", (event, p.round, p.table)
        )
        self._run(
            "INSERT INTO league_pairings (event, round, tab, board, names, points, forfeit, game_key) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                event,
                p.round,
                p.table,
                p.board,
                json.dumps(p.names),
                None if p.points is None else json.dumps(p.points),
                int(p.forfeit),
                key,
            ),
        )

    def _migrate(self) -> None:
        """Run the migrations this database has not had, each in one transaction."""
        with self._lock:
            self._run("CREATE TABLE IF NOT EXISTS league_schema (version INTEGER NOT NULL)")
            rows = self._rows("SELECT version FROM league_schema")
            version = rows[0]["version"] if rows else 0
            for n, statements in enumerate(MIGRATIONS[version:], version + 1):
                with self._transaction():
                    for statement in statements:
                        self._run(statement)
                    self._run("DELETE FROM league_schema")
                    self._run("INSERT INTO league_schema (version) VALUES (?)", (n,))

    def _has_games(self) -> bool:
        """The archive's games table is there, with the columns a league game fills."""
        try:
            cursor = self._run("SELECT * FROM games WHERE 1 = 0")
        except Exception as exc:  # noqa: BLE001 - no games table yet (the dashboard never ran here)
            if not _missing_table(exc):
                raise
            return False
        return "league_event" in {d[0] for d in cursor.description}

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        with self._lock:
            if self.dialect == "postgresql":
                with self._connected().transaction():
                    yield
                return
            self._run("BEGIN")
            try:
                yield
            except BaseException:
                if self.db is not None:
                    self.db.execute("ROLLBACK")
                raise
            self._run("COMMIT")

    def _connected(self) -> Any:
        """The connection, made (and the schema migrated) if there is none."""
        with self._lock:
            if self.db is None:
                try:
                    self.db = self.connect()
                except self.away as exc:
                    raise LeagueError(
                        _("the archive ({where}) is unavailable: {why}").format(
                            where=self.where, why=_line(exc)
                        )
                    ) from None
                try:
                    self._migrate()
                except BaseException:
                    self.close()
                    raise
            return self.db

    def _run(self, statement: str, args: tuple = ()) -> Any:
        with self._lock:
            cursor = self._connected().cursor()
            try:
                cursor.execute(
                    statement.replace("?", "%s") if self.dialect == "postgresql" else statement, args
                )
            except self.away as exc:
                if not _missing_table(exc):
                    self.close()
                    raise LeagueError(
                        _("the archive ({where}) is unavailable: {why}").format(
                            where=self.where, why=_line(exc)
                        )
                    ) from None
                raise
            return cursor

    def _rows(self, statement: str, args: tuple = ()) -> list[dict[str, Any]]:
        with self._lock:
            cursor = self._run(statement, args)
            names = [d[0] for d in cursor.description]
            return [dict(zip(names, row)) for row in cursor.fetchall()]


def _unplayed(p: Pairing, entries: dict[str, bool]) -> tuple[tuple[float, ...] | None, bool]:
    """A new table's result before it is played, and whether it is a forfeit: a bye's point,
    a win for the player whose opponent withdrew (none for two withdrawn), else none yet.

    >>> _unplayed(Pairing(2, 1, ("A", "B")), {"A": False, "B": True})
    ((1.0, 0.0), True)
    """
    if p.bye:
        return p.points or (BYE_POINTS,), False
    out = [entries.get(n, False) for n in p.names]
    if any(out):
        return tuple(0.0 if gone else 1.0 for gone in out), True
    return None, False


def _league_of(game: dict[str, Any]) -> tuple[str, int, int] | None:
    """(event, round, table) of an archived game or a board's record, None if none."""
    if game.get("league_event"):
        return game["league_event"], game["league_round"], game["league_table"]
    league = game.get("league")
    return (league["event"], league["round"], league["table"]) if league else None


def _players_of(game: dict[str, Any]) -> list[str]:
    players = game.get("players") or []
    return json.loads(players) if isinstance(players, str) else list(players)


def _missing_table(exc: BaseException) -> bool:
    """Does ``exc`` say a table is missing (SQLite's words, PostgreSQL's SQLSTATE 42P01)?"""
    return "no such table" in str(exc) or getattr(exc, "sqlstate", None) == "42P01"


def _rating_key(game: str, size: int | None) -> str:
    """The name of a game's ratings: its game and size.

    >>> _rating_key("anti-grid", 6), _rating_key("phalanx", None)
    ('anti-grid 6', 'phalanx')
    """
    return game if size is None else f"{game} {size}"


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200]
