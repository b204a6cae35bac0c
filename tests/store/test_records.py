"""Records round trip: what ``reedboard export`` writes, ``reedboard play --moves-file`` reads
back to the same position, for every game and variant, from every view a game has."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from engines import GAME_NAMES, game_info, new_game
from firmware_host.cli.play import play
from firmware_host.store.export import export
from firmware_host.store.records import has_views
from firmware_host.store.storage import Storage

CASES = [(name, variant) for name in GAME_NAMES for variant in game_info(name).variants]
SMALL = {"antipalos": 5, "antipod": 4, "anti-grid": 6}


def random_game(name, variant, seed, first=None, plies=40):
    options = {"first": first} if first else {}
    state = new_game(name, SMALL.get(name), variant, options)
    rng, moves = random.Random(seed), []
    while state.outcome() is None and len(moves) < plies:
        move = rng.choice(state.legal_moves())
        moves.append(state.notation(move))
        state = state.play(move)
    return state, moves


def referee(path: Path, name: str) -> dict:
    out, err = io.StringIO(), io.StringIO()
    assert play(name, moves_file=str(path), as_json=True, out=out, err=err) == 0, err.getvalue()
    return json.loads(out.getvalue())


@pytest.mark.parametrize("name, variant", CASES)
def test_export_reads_back_from_every_view(name, variant, tmp_path):
    first = "black" if name == "antipalos" and variant == "two" else None
    state, moves = random_game(name, variant, seed=len(name) + len(variant), first=first)
    db = Storage(str(tmp_path / "games.db"))
    game_id = db.start(name, SMALL.get(name), variant, first=first)
    for ply, move in enumerate(moves, 1):
        db.add_move(game_id, ply, move)
    records = db.games(game_id)
    db.close()
    views = [None, *state.sides] if has_views(state) else [None]
    for view in views:
        path = tmp_path / f"{view}.txt"
        path.write_text(export(records, view), encoding="utf-8")
        summary = referee(path, name)
        assert summary["ply"] == len(moves) and summary["winner"] == (
            state.outcome().winner if state.outcome() else None
        )
        assert summary["to_move"] == (None if state.outcome() else state.to_move)


def test_a_record_black_began_is_written_from_blacks_view(tmp_path):
    """Records are written from the first player's view (docs/games/antipalos.md, "Rulings"):
    Black's A1* reads L12*."""
    db = Storage(str(tmp_path / "games.db"))
    game_id = db.start("antipalos", 12, "two", first="black")
    db.add_move(game_id, 1, "A1*")
    text = export(db.games(game_id))
    db.close()
    assert '[First "black"]' in text and '[View "black"]' in text and "1. L12*" in text
    turned = export(Storage(str(tmp_path / "games.db"), read_only=True).games(game_id), "white")
    assert '[View "white"]' in turned and "1. A1*" in turned


def test_antipod_records_mark_edge_points(tmp_path):
    db = Storage(str(tmp_path / "games.db"))
    game_id = db.start("antipod", 6, "standard")
    for ply, move in enumerate(["a3", "f5", "a4"], 1):
        db.add_move(game_id, ply, move)
    text = export(db.games(game_id))
    db.close()
    assert text.endswith("\n1. a3+; f5\n2. a4+\n") and "Variant" not in text
    path = tmp_path / "g.txt"
    path.write_text(text, encoding="utf-8")
    assert referee(path, "antipod")["ply"] == 3


def test_a_record_of_another_game_is_refused(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text('[Game "phalanx"]\n\n1. a1se-a2sw\n', encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert play("antipalos", moves_file=str(path), out=out, err=err) == 2
    assert err.getvalue() == "reedboard play: the record is a game of phalanx, not antipalos\n"


def test_a_game_played_with_house_rules_records_them_and_reads_back(tmp_path):
    from firmware_host.runtime.session import configured_game, open_controller
    from firmware_host.store.config import Config

    config = Config(
        game="antipalos",
        size=4,
        storage=str(tmp_path / "games.db"),
        options={"antipalos": {"supply": 2, "repetition-draw": False}},
    )
    storage = Storage(config.storage)
    controller = open_controller(config, storage, configured_game(config))
    assert controller.state.setup.supply == 2
    for ply, move in enumerate(["B2*", "*B3", "C3*", "*C2", "B2* - *B2"], 1):
        storage.add_move(controller.game_id, ply, move)  # Phase Two after 2 Trirods each
    (record,) = storage.games(controller.game_id)
    storage.close()
    assert record.options == "repetition-draw=no, supply=2"
    text = export([record])
    assert '[Options "repetition-draw=no, supply=2"]' in text
    path = tmp_path / "g.txt"
    path.write_text(text, encoding="utf-8")
    summary = referee(path, "antipalos")
    assert summary["ply"] == 5 and summary["phase"] == 2
