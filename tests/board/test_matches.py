"""Match play on the board: storage, the controller's score and events, resume, config, menu."""

from __future__ import annotations

import io
import json

import pytest

from engines.core import OptionError
from firmware_host.actions.commands import NewGame
from firmware_host.board.game import Game
from firmware_host.runtime.replay import Replayer, parse
from firmware_host.runtime.session import configured_game, open_controller
from firmware_host.store.config import Config, ConfigError, load_config
from firmware_host.store.export import record_text
from firmware_host.store.storage import Storage
from firmware_host.ui.menu import GameChoice, Menu
from hardware.base import ButtonEvent
from testbed.streams import SETTLE, Stream, kinds, of, run, shown


# -------------------------------------------------------------------------------- storage
def test_a_match_s_games_share_the_first_game_s_id(tmp_path):
    db = Storage(str(tmp_path / "games.db"))
    single = db.start("phalanx", None, "standard")
    first = db.start("antipalos", 3, "two", match_target=6)
    db.finish(first, "white wins by connection", "white")
    other = db.start("antipalos", 3, "two", match_target=9)
    second = db.start("antipalos", 3, "two", match_of=first, match_target=6)
    db.add_move(second, 1, "A1*")
    assert [g.id for g in db.match_games(first)] == [first, second]
    assert [g.id for g in db.match_games(other)] == [other]
    record = db.unfinished()
    assert (record.id, record.match_of, record.match_target, record.moves) == (second, first, 6, ("A1*",))
    assert db.games(single)[0].match_of is None and db.games(single)[0].match_target is None


# ----------------------------------------------------------- the controller, through streams
#: Game 1 (white begins): white wins by connection, 3 points (Chart A, docs/games/antipalos.md: Phase One).
GAME_1 = ["B1*", "A1*", "*B2", "C1*", "B3*"]
#: Game 2 (black, the loser, begins): white wins again, 3 points: 6-0 ends a match to 6.
GAME_2 = ["A1*", "B1*", "C1*", "*B2", "A2*", "B3*"]
CONFIG = Config(match=6)
#: Menu items (not kiosk, more than one game to choose): MENU presses from "New game".
TO_TAKE_BACK = 4


def play(stream: Stream, moves) -> Stream:
    for move in moves:
        stream.place(move).settle()
    return stream


def clear(stream: Stream, moves) -> Stream:
    """Put the start position (an empty board) back after a game over."""
    return stream.lift(*moves).settle()


class Replayed:
    """A controller from ``open_controller`` on a simulated board with a virtual clock."""

    def __init__(self, storage: Storage, config: Config = CONFIG) -> None:
        game = configured_game(config, "antipalos", 3)
        self.ctl = open_controller(config, storage, game)
        self.out = io.StringIO()
        self.replayer = Replayer(self.ctl, config.timing.scan_hz, self.out, channels=1024)
        for site in self.ctl.boards[-1]:  # the board holds the game's position
            self.replayer.board.place(self.ctl.layout.sensor[site])

    def run(self, stream: Stream) -> list[dict]:
        labels = [s.label for s in self.ctl.state.sites()]
        for item in parse(stream.text().splitlines(), labels):
            self.replayer.apply(item)
        self.replayer.run_until(stream.t)
        return [json.loads(line) for line in self.out.getvalue().splitlines()]


def test_a_match_to_6_scored_on_the_screen_the_loser_begins_the_next_game():
    stream = clear(play(Stream(), GAME_1), GAME_1)
    events = run(play(stream, GAME_2).text(), "antipalos", 3, config=CONFIG)
    assert shown(events)[0] == [
        "Antipalos 3",
        "White to move",
        "Place a trirod",
        "Phase 1 · In hand: White 4 · Black 4",
        "Match 0-0 (to 6)",
    ]
    assert kinds(events)[5:8] == ["game_over", "match", "new_game"]
    assert of(events, "match") == [
        {"totals": {"white": 3, "black": 0}, "target": 6, "winner": None},
        {"totals": {"white": 6, "black": 0}, "target": 6, "winner": "white"},
    ]
    over = shown(events)[5]
    assert over[:3] == ["Antipalos 3", "White wins: connection", "Match 3-0 (to 6)"]
    assert shown(events)[6][1:2] == ["Black to move"] and "Match 3-0 (to 6)" in shown(events)[6]
    assert of(events, "move")[5] == {"move": "A1*", "side": "black"}
    assert shown(events)[-1][:3] == ["Antipalos 3", "White wins the match 6-0", "Set up to play again"]
    assert not any(line.startswith("Match") for line in shown(events)[-1])
    assert events[-1]["position"]["winner"] == "white"


def test_after_a_won_match_the_next_game_begins_a_new_match_to_the_same_target(tmp_path):
    db = Storage(str(tmp_path / "games.db"))
    board = Replayed(db)
    stream = clear(play(clear(play(Stream(), GAME_1), GAME_1), GAME_2), GAME_2)
    events = board.run(stream)
    assert kinds(events)[-2:] == ["match", "new_game"]
    assert shown(events)[-1][1] == "White to move" and "Match 0-0 (to 6)" in shown(events)[-1]
    first, second, third = db.games()
    assert first.match_of == second.match_of == first.id and third.match_of == third.id
    assert [g.winner for g in db.games()] == ["white", "white", None]


def test_menu_new_game_mid_game_is_not_scored_and_the_same_side_begins_again():
    stream = clear(play(Stream(), GAME_1), GAME_1)
    stream = play(stream, GAME_2[:2]).press("menu").press("ok").settle()
    events = run(stream.text(), "antipalos", 3, config=CONFIG)
    assert shown(events)[-1][2] == f"New game: take {', '.join(GAME_2[:2])} off"
    stream = clear(stream, GAME_2[:2])
    events = run(stream.text(), "antipalos", 3, config=CONFIG)
    assert kinds(events).count("new_game") == 2 and len(of(events, "match")) == 1
    assert shown(events)[-1][1] == "Black to move" and "Match 3-0 (to 6)" in shown(events)[-1]


def test_a_takeback_after_game_over_unscores_the_game():
    stream = play(Stream(), GAME_1).press("menu")
    for _ in range(TO_TAKE_BACK):
        stream.press("menu", after=50)
    stream.press("ok").settle()  # the menu is now on "Take back"
    stream.lift("B3*").settle()
    stream.place("B3*").settle()
    events = run(stream.text(), "antipalos", 3, config=CONFIG)
    assert kinds(events)[5:] == [
        "game_over",
        "match",
        "takeback",
        "match",
        "out_of_sync",
        "in_sync",
        "move",
        "game_over",
        "match",
        "end",
    ]
    assert [m["totals"] for m in of(events, "match")] == [
        {"white": 3, "black": 0},
        {"white": 0, "black": 0},
        {"white": 3, "black": 0},
    ]


def test_resume_in_game_2_rebuilds_the_score_without_abandoned_games(tmp_path):
    path = str(tmp_path / "games.db")
    stream = clear(play(Stream(), GAME_1), GAME_1)
    stream = play(stream, GAME_2[:1]).press("menu").press("ok").wait(SETTLE)
    Replayed(Storage(path)).run(play(stream.lift("A1*").settle(), GAME_2[:2]))
    # the process dies here: every move is already committed

    db = Storage(path)
    board = Replayed(db)
    assert board.ctl.moves == GAME_2[:2] and board.ctl.state.to_move == "black"
    assert board.ctl.match.score == "3-0 (to 6)"
    assert "Match 3-0 (to 6)" in board.ctl.screen().text_lines()
    events = board.run(play(Stream(), GAME_2[2:]))
    assert of(events, "match") == [{"totals": {"white": 6, "black": 0}, "target": 6, "winner": "white"}]
    assert [g.result for g in db.games()] == [
        "white wins by connection",
        "abandoned",
        "white wins by connection",
    ]


def test_export_names_the_match_of_a_match_game(tmp_path):
    db = Storage(str(tmp_path / "games.db"))
    Replayed(db).run(play(clear(play(Stream(), GAME_1), GAME_1), GAME_2[:1]))
    first, second = db.games()
    assert '[First "black"]\n[Match "1"]\n[MatchTarget "6"]' in record_text(second)
    assert '[First "white"]' in record_text(first)
    assert second.moves == ("A1*",) and first.match_of == second.match_of == first.id
    single = Storage(":memory:")
    assert "Match" not in record_text(single.games(single.start("antipalos", 3, "two"))[0])


def test_a_single_game_is_resumed_without_a_match(tmp_path):
    path = str(tmp_path / "games.db")
    Replayed(Storage(path), Config()).run(play(Stream(), GAME_1[:2]))
    board = Replayed(Storage(path), Config())
    assert board.ctl.match is None and board.ctl.moves == GAME_1[:2]
    assert not any(line.startswith("Match") for line in board.ctl.screen().text_lines())


def test_game_validates_its_match_target():
    assert Game.of("antipalos", 3, match=9) == Game("antipalos", 3, "two", 9)
    with pytest.raises(OptionError, match="not 7"):
        Game.of("antipalos", match=7)
    with pytest.raises(OptionError, match="phalanx has no match play"):
        Game.of("phalanx", match=6)


# --------------------------------------------------------------------------------- config
def config_file(tmp_path, text: str) -> str:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    "text, message",
    [
        ("match = 7\n", "match: antipalos matches go to 6, 9 or 15 points, not 7 (0: single games)"),
        ('game = "phalanx"\nmatch = 6\n', "match: phalanx has no match play (0: single games)"),
        ('match = "6"\n', "match must be an integer (got '6')"),
        ("match = true\n", "match must be an integer (got True)"),
    ],
)
def test_config_match_must_be_a_target_the_game_offers(tmp_path, text, message):
    path = config_file(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value) == f"{path}: {message}"


def test_config_match_reaches_the_game_it_offers_and_only_that(tmp_path):
    config = load_config(config_file(tmp_path, "match = 9\n"))
    assert config.match == 9 and configured_game(config).match == 9
    assert configured_game(config, "antipalos", 3).match == 9
    assert configured_game(config, "phalanx").match == 0  # another game: single games
    assert configured_game(Config()).match == 0


# ----------------------------------------------------------------------------------- menu
ANTIPALOS = GameChoice.of("antipalos", 12, "two")
OTHERS = (GameChoice.of("antipalos", 14, "two"), GameChoice.of("phalanx", None, "standard"))


def press(menu: Menu, *buttons: str):
    actions = [menu.press(ButtonEvent(b)) for b in buttons]
    return [a for a in actions if a is not None]


def test_menu_match_play_page_offers_single_games_and_the_targets():
    menu = Menu((ANTIPALOS, *OTHERS), ANTIPALOS, match=6)
    press(menu, "menu", "menu", "menu", "ok")
    assert menu.screen().text_lines() == (
        "Match play",
        "Single games",
        "> Match to 6",
        "Match to 9",
        "Match to 15",
    )
    assert press(menu, "menu", "ok") == [NewGame("antipalos", 12, "two", match=9)]
    assert menu.match == 9 and not menu.is_open
    assert press(menu, "menu", "ok") == [NewGame("antipalos", 12, "two", match=9)]
    press(menu, "menu", "menu", "menu", "ok")
    assert "> Match to 9" in menu.screen().text_lines()
    assert press(menu, "menu", "menu", "ok") == [NewGame("antipalos", 12, "two")]
    assert menu.match == 0


def test_menu_choosing_a_game_keeps_the_match_only_for_the_same_game():
    menu = Menu((ANTIPALOS, *OTHERS), ANTIPALOS, match=15)
    assert press(menu, "menu", "menu", "ok", "ok", "menu", "ok") == [
        NewGame("antipalos", 14, "two", match=15)
    ]
    assert press(menu, "menu", "menu", "ok", "menu", "ok") == [NewGame("phalanx", None, "standard")]
    assert menu.match == 0 and "Match play" not in menu.screen().text_lines()


def test_menu_has_no_match_play_in_kiosk_mode_or_for_games_without_it():
    assert "Match play" in Menu((ANTIPALOS,), ANTIPALOS).screen().text_lines()
    assert "Match play" not in Menu((ANTIPALOS,), ANTIPALOS, kiosk=True).screen().text_lines()
    phalanx = OTHERS[1]
    assert "Match play" not in Menu((phalanx,), phalanx).screen().text_lines()


def test_menu_new_game_follows_a_game_started_elsewhere(tmp_path):
    board = Replayed(Storage(str(tmp_path / "games.db")), Config())
    board.ctl.new_game(Game.of("antipod", 4))  # as the simulator page's picker does
    events = board.run(Stream().press("menu").press("ok"))
    assert of(events, "new_game")[-1] == {"game": "antipod", "size": 4, "variant": "standard"}
