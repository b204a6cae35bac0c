"""What every game says when a move is refused, and how it says a game ended.

Text that names no move of the game is an InvalidMove (its notation, or a square the board does
not have); a move that reads but is not allowed here is an IllegalMove and not an InvalidMove.
A caller that refuses both alike catches IllegalMove, which an InvalidMove also is. A finished
game's outcome names its winner (a side or DRAW) and its Result, both written as before.
"""

from __future__ import annotations

import json
import random

import pytest

from engines import GAME_NAMES, new_game
from engines.ai import profile_of
from engines.core import DRAW, IllegalMove, InvalidMove, Result

#: Game -> (size, unreadable texts, texts naming what the board lacks, opening, readable moves
#: the opening does not allow).
CASES = {
    "antipalos": (12, ["xyz", "B4", "*B4*"], ["M13*", "B2* - Z3*"], [], ["B2* - B3*"]),
    "antipode": (None, ["c4e3", "c4-e3", ""], ["a6:a1", "c4:z9"], [], ["a1:e5", "c4:e9", ":e3"]),
    "antipod": (6, ["zz", "f"], ["a7", "f5+"], [], ["f6", "a1"]),
    "anti-grid": (6, ["zz", "a1-"], ["z1-z2", "a2-a3"], [], ["b2-b4", "a3-a5", "ok"]),
    "phalanx": (None, ["zz", "a1-a3"], ["a1ne-a2sw", "i1se-i2se"], [], ["a1se-b5sw", "h8nw-h7ne", "xd4se"]),
}


def test_every_game_has_its_cases():
    assert set(CASES) == set(GAME_NAMES)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_unreadable_text_is_an_invalid_move_and_still_an_illegal_one(game):
    size, unreadable, lacking, _, _ = CASES[game]
    state = new_game(game, size)
    for text in unreadable + lacking:
        with pytest.raises(InvalidMove) as refused:
            state.play(text)
        assert isinstance(refused.value, IllegalMove) and refused.value.reason, text
        assert state == new_game(game, size)  # nothing changed


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_readable_move_the_rules_refuse_is_illegal_not_invalid(game):
    size, _, _, opening, refused = CASES[game]
    state = new_game(game, size)
    for text in opening:
        state = state.play(text)
    for text in refused:
        state.parse_move(text)  # it reads
        with pytest.raises(IllegalMove) as caught:
            state.play(text)
        assert not isinstance(caught.value, InvalidMove), (text, caught.value.reason)


def _finished(game: str, size: int | None, seed: int):
    rng, state = random.Random(seed), new_game(game, size)
    for _ in range(3000):
        if state.outcome() is not None:
            return state
        state = state.apply(state.random_move(rng))
    return None


@pytest.mark.parametrize(
    "game, size", [("antipalos", 4), ("antipode", None), ("antipod", 4), ("anti-grid", 6), ("phalanx", None)]
)
def test_an_outcome_names_a_side_or_a_draw_and_a_result_written_as_before(game, size):
    ended = [state for seed in range(6) if (state := _finished(game, size, seed)) is not None]
    assert ended, game
    for state in ended:
        outcome = state.outcome()
        assert isinstance(outcome.result, Result)
        assert outcome.winner in state.sides or outcome.winner is DRAW
        assert outcome.drawn == (outcome.winner == "draw")
        written = json.loads(json.dumps({"winner": outcome.winner, "result": outcome.result}))
        assert written == {"winner": str(outcome.winner), "result": outcome.result.value}


def test_each_game_has_its_own_search_profile():
    """The computer's tuning lives beside each game (its package's SEARCH), not on its state."""
    profiles = {game: profile_of(new_game(game)) for game in GAME_NAMES}
    assert {p.search for p in profiles.values()} == {"mcts", "alphabeta"}
    assert len({id(p) for p in profiles.values()}) == len(GAME_NAMES)
    for game in GAME_NAMES:
        state = new_game(game)
        assert not any(name.startswith("AI_") for name in dir(state)), game
