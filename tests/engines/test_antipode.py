"""Antipode (docs/games/antipode.md, "Rulings"): every rule, the physical contract and the referee.

A small independent referee (``Ref``) written straight from the rulings text, sharing no code with
the engine, cross-checks the engine's turn lists, resulting positions and wins.
"""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines import game_info, new_game
from engines.antipode import AntipodeState, HouseRules, Turn, new
from engines.core import GameState, IllegalMove, OptionError, Outcome
from engines.core.hexgrid import cell_xy
from firmware_host.cli import play as referee

# ---------------------------------------------------------------- the independent referee
ROWS = "abcdefghi"
STEPS = ((0, 1), (0, -1), (-1, -1), (-1, 0), (1, 0), (1, 1))
OPPOSITE_CORNERS = (("a1", "i9"), ("a5", "i5"), ("e1", "e9"))


def ref_cells() -> list[str]:
    """Rows a..i hold 5,6,7,8,9,8,7,6,5 cells; position j in row i has column j+1+max(0, i-4)."""
    return [
        f"{ROWS[i]}{j + 1 + max(0, i - 4)}"
        for i, length in enumerate((5, 6, 7, 8, 9, 8, 7, 6, 5))
        for j in range(length)
    ]


CELLS = ref_cells()


def step(name: str, d: tuple[int, int]) -> str | None:
    i, c = ROWS.index(name[0]) + d[0], int(name[1:]) + d[1]
    there = f"{ROWS[i]}{c}" if 0 <= i < 9 else None
    return there if there in CELLS else None


def around(name: str) -> list[str]:
    return [n for n in (step(name, d) for d in STEPS) if n]


def other(colour: str) -> str:
    return "red" if colour == "blue" else "blue"


@dataclass
class Ref:
    """A position: board (cell -> face up), pawns (side -> cell), side to move."""

    board: dict
    pawns: dict
    side: str

    @classmethod
    def of(cls, state: AntipodeState) -> "Ref":
        side = ("blue", "red")[state.mover]
        return cls(dict(state.faces()), {s: state.pawn(s) for s in ("blue", "red")}, side)

    def placed(self, at: str | None) -> tuple[dict, list]:
        """Board after step 1, and the cells the placement flipped."""
        board, flipped = dict(self.board), []
        if at:
            board[at] = self.side
            for n in around(at):
                if n in board and n not in self.pawns.values():
                    board[n] = other(board[n])
                    flipped.append(n)
        return board, flipped

    def moves(self, board: dict) -> list[tuple[str, list]]:
        """(landing, cells passed) of every pawn move on ``board``."""
        out = []
        for d in STEPS:
            here, passed = self.pawns[self.side], []
            while (here := step(here, d)) and here != self.pawns[other(self.side)]:
                if board.get(here) == self.side:
                    out.append((here, list(passed)))
                passed.append(here)
        return out

    def turns(self, full_board_turn: bool = True) -> set[str]:
        spots = [c for c in CELLS if c not in self.board] or ([None] if full_board_turn else [])
        return {f"{at or ''}:{land}" for at in spots for land, _ in self.moves(self.placed(at)[0])}

    def play(self, turn: str) -> tuple["Ref", list]:
        """The next position and every flip made, in order (a cell may appear twice)."""
        at, land = turn.split(":")
        board, flips = self.placed(at or None)
        passed = dict(self.moves(board))[land]
        for c in passed:
            if c in board:
                board[c] = other(board[c])
                flips.append(c)
        return Ref(board, dict(self.pawns, **{self.side: land}), other(self.side)), flips

    def chain_exists(self, colour: str) -> bool:
        for a, b in OPPOSITE_CORNERS:
            seen, todo = set(), [a] if self.board.get(a) == colour else []
            while todo:
                c = todo.pop()
                if c not in seen:
                    seen.add(c)
                    todo += [n for n in around(c) if self.board.get(n) == colour]
            if b in seen:
                return True
        return False

    def winner(self) -> str | None:
        """Checked after a turn: the side that just moved first."""
        for colour in (other(self.side), self.side):
            if self.chain_exists(colour):
                return colour
        return None


# ------------------------------------------------------------------------------ helpers
START_CORNERS = {"e1": "blue", "a5": "blue", "i9": "blue", "a1": "red", "e9": "red", "i5": "red"}


def position(blue="", red="", pawns=("e1", "e9"), to_move="blue", rules=HouseRules()):
    return AntipodeState.setup(blue.split(), red.split(), pawns, to_move, rules=rules)


def full_board(rules=HouseRules()) -> AntipodeState:
    """Every cell filled; corners as at the start (so no chain can ever join opposite corners),
    Blue also on e2, Red everywhere else."""
    blue = ["e1", "a5", "i9", "e2"]
    red = [c for c in CELLS if c not in blue]
    return AntipodeState.setup(blue, red, rules=rules)


def random_state(rng: random.Random, turns: int, state: AntipodeState | None = None):
    state = state or new()
    for _ in range(turns):
        moves = state.legal_moves()
        if not moves:
            break
        state = state.play(rng.choice(moves))
    return state


random_states = st.builds(random_state, st.randoms(use_true_random=False), st.integers(0, 120))


def names(moves) -> set[str]:
    return {str(m) for m in moves}


# -------------------------------------------------------------------------------- board
def test_board_has_61_cells_named_by_rows_and_diagonals():
    state = new()
    labels = [s.label for s in state.sites()]
    assert labels == CELLS and len(labels) == 61
    assert labels[:5] == ["a1", "a2", "a3", "a4", "a5"]
    assert labels[-5:] == ["i5", "i6", "i7", "i8", "i9"]
    assert "e9" in labels and "e1" in labels and "a6" not in labels and "i4" not in labels


def test_neighbour_counts_corner_3_edge_4_interior_6():
    from engines.antipode.board import GRAPH

    degree = {label: len(ns) for label, ns in zip(GRAPH.labels, GRAPH.neighbours)}
    corners = {"a1", "a5", "e9", "i9", "i5", "e1"}
    assert {degree[c] for c in corners} == {3}
    assert sorted(degree.values()).count(4) == 18  # 6 sides x 3 cells between the corners
    assert sorted(degree.values()).count(6) == 37  # the inner hexagon of side 4
    for label, ns in zip(GRAPH.labels, GRAPH.neighbours):  # the graph is the rulings' one
        assert sorted(GRAPH.labels[n] for n in ns) == sorted(around(label))


def test_start_position_corners_pawns_and_blue_first():
    state = new()
    assert state.faces() == START_CORNERS
    assert state.occupied() == frozenset(START_CORNERS)
    assert (state.pawn("blue"), state.pawn("red")) == ("e1", "e9")
    assert state.to_move == "blue" and state.ply == 0 and state.phase is None
    assert state.sides == ("blue", "red")
    assert state.outcome() is None


# ------------------------------------------------------------------------ Blue's first turn
BLUE_FIRST_TURNS = {
    # Blue's pawn on e1 reaches e2..e8 (Red's pawn on e9 stops the row), d1 c1 b1 a1 and
    # f2 g3 h4 i5; its other three directions leave the board at once. It must land on a blue
    # token, and the only tokens on those lines are the red a1 and i5. So Blue lands either on the
    # token just placed (one turn per empty line cell: 13) or on a1 / i5 after the placement
    # flipped it, i.e. placing next to a1 (a2, b1, b2) or next to i5 (h4, h5, i6): 6 more.
    *(f"{c}:{c}" for c in "e2 e3 e4 e5 e6 e7 e8 d1 c1 b1 f2 g3 h4".split()),
    "a2:a1",
    "b1:a1",
    "b2:a1",
    "h4:i5",
    "h5:i5",
    "i6:i5",
}


def test_blue_has_19_first_turns_by_hand_and_by_the_reference():
    state = new()
    assert len(BLUE_FIRST_TURNS) == 19
    assert names(state.legal_moves()) == BLUE_FIRST_TURNS
    assert Ref.of(state).turns() == BLUE_FIRST_TURNS
    assert state.legal_count() == 19 == len(state.legal_moves())


# ------------------------------------------------------------------------------- flipping
def test_placement_flips_every_neighbour_but_not_a_token_under_a_pawn():
    state = position(blue="e1 f8", red="e9 d8 f9")
    after = state.play("e8:e8")
    faces = after.faces()
    assert faces["d8"] == "blue" and faces["f9"] == "blue"  # red -> blue
    assert faces["f8"] == "red"  # own colour flips too
    assert faces["e9"] == "red"  # under Red's pawn: protected
    assert after.realisations(Turn("e8", "e8")) == state.realisations(Turn("e8", "e8"))
    assert state.flips(Turn("e8", "e8")) == {"d8", "f9", "f8"}


def test_the_movers_own_pawn_token_is_protected_too():
    state = position(blue="e1", red="e9 d1")
    after = state.play("e2:d1")  # e2 flips d1 to blue; e1 (under Blue's pawn) does not flip
    assert after.faces()["e1"] == "blue" and after.faces()["d1"] == "blue"
    assert after.pawn("blue") == "d1"


def test_pawn_flips_passed_tokens_but_not_start_or_landing():
    state = position(blue="e1 e6", red="e9 e3 e4")
    after = state.play("a5:e6")  # a5 touches nothing; pawn passes e2 (empty), e3, e4, e5 (empty)
    faces = after.faces()
    assert faces["e3"] == faces["e4"] == "blue"
    assert faces["e1"] == "blue" and faces["e6"] == "blue"  # start and landing unchanged
    assert "e2" not in faces and "e5" not in faces  # empty cells passed stay empty


def test_pawn_passing_the_placed_token_flips_it():
    after = new().play("b1:a1")  # b1 flips a1 blue; the pawn then passes d1, c1, b1
    assert after.faces()["b1"] == "red" and after.faces()["a1"] == "blue"
    assert new().flips(Turn("b1", "a1")) == {"a1", "b1"}


def test_a_token_flipped_by_placement_and_path_ends_unchanged():
    state = position(blue="e1 e5", red="e9 e3")
    turn = state.parse_move("d3:e5")  # d3 flips e3 to blue; the pawn passes e3 and flips it back
    after = state.play(turn)
    assert after.faces()["e3"] == "red"
    assert "e3" not in state.flips(turn)
    assert "d3:e3" in names(state.legal_moves())  # e3 is blue once d3 is placed


# ------------------------------------------------------------------------------ pawn moves
def test_landing_only_on_own_colour_as_the_board_stands_after_placement():
    state = position(blue="e1 e4", red="e9 e6")
    legal = names(state.legal_moves())
    assert "a5:e4" in legal and "a5:e6" not in legal
    assert "e5:e4" not in legal  # placing e5 flips e4 red (and e6 blue)
    assert {"e5:e6", "e5:e5"} <= legal
    with pytest.raises(IllegalMove, match="e6 is not blue"):
        state.play("a5:e6")
    with pytest.raises(IllegalMove, match="e3 is empty"):
        state.play("a5:e3")
    with pytest.raises(IllegalMove, match="not in line"):
        state.play("e3:c3")
    with pytest.raises(IllegalMove, match="The pawn must move"):
        state.play("e3:e1")


def test_path_is_blocked_by_the_other_pawn():
    state = position(blue="e1 e7", red="e5", pawns=("e1", "e5"))
    legal = names(state.legal_moves())
    assert "a3:e7" not in legal and "e6:e6" not in legal
    assert "e3:e3" in legal
    with pytest.raises(IllegalMove, match="Red's pawn blocks the way"):
        state.play("e3:e7")
    with pytest.raises(IllegalMove, match="Red's pawn blocks the way"):
        state.play("e3:e5")  # cannot land on the other pawn either
    assert names(state.legal_moves()) == Ref.of(state).turns()


def stuck_blue(to_move="blue", empty=("e6",)) -> AntipodeState:
    """Red's pawn on e2 closes row e; every other cell on Blue's lines from e1 and every
    neighbour of those cells is red, so only placements next to those lines can help Blue."""
    blue = ["e1", "a5", "i9"]
    red = [c for c in CELLS if c not in blue and c not in empty]
    return AntipodeState.setup(blue, red, ("e1", "e2"), to_move)


def test_placement_rejected_when_no_pawn_move_follows():
    state = stuck_blue(empty=("e6", "b2"))
    with pytest.raises(IllegalMove, match="e6 leaves the pawn no move"):
        state.play("e6:e6")
    assert names(state.legal_moves()) == {"b2:a1", "b2:b1"} == Ref.of(state).turns()
    state.play("b2:b1")  # the other placement is fine


# ------------------------------------------------------------------------------------- wins
BENT_CHAIN = "a1 b2 c3 d4 e6 f7 g8 h9 i9"  # a1..i9 with a gap at e5 (bent there: d4-e5-e6)


def test_mover_wins_with_a_chain_joining_opposite_corners():
    # f5 touches the gap e5 but no other chain cell: placing it flips e5 to blue.
    state = position(blue=BENT_CHAIN + " i5 i6", red="e5 e9", pawns=("i5", "e9"))
    after = state.play("f5:i6")
    assert after.outcome() == Outcome(
        "blue", "connection", sites=tuple("a1 b2 c3 d4 e5 e6 f7 g8 h9 i9".split())
    )
    assert after.to_move is None and after.legal_moves() == () and after.legal_count() == 0
    with pytest.raises(IllegalMove, match="The game is over"):
        after.play("a2:a1")


def test_connection_must_survive_the_pawn_move():
    state = position(blue=BENT_CHAIN + " i5 c5", red="e5 e9", pawns=("i5", "e9"))
    after = state.play("f5:c5")  # the pawn passes f5 and e5 and flips e5 back to red
    assert after.faces()["e5"] == "red"
    assert after.outcome() is None and after.to_move == "red"


def test_movers_flips_can_win_the_game_for_the_opponent():
    state = position(blue="i5 i6 e5", red=BENT_CHAIN + " e9", pawns=("i5", "e9"))
    after = state.play("f5:i6")  # Blue's placement flips e5 red and completes Red's chain
    outcome = after.outcome()
    assert outcome.winner == "red" and outcome.result == "connection"
    assert outcome.sites == tuple("a1 b2 c3 d4 e5 e6 f7 g8 h9 i9".split())
    assert Ref.of(after).winner() == "red"


# --------------------------------------------------------------------------------- forfeit
def test_forfeit_when_the_side_to_move_has_no_legal_turn():
    state = stuck_blue()
    assert state.outcome() == Outcome("red", "forfeit")
    assert Ref.of(state).turns() == set()
    assert state.legal_moves() == () and state.to_move is None


def test_a_turn_that_leaves_the_opponent_stuck_wins_by_forfeit():
    state = stuck_blue(to_move="red", empty=("e6", "c4"))
    assert state.outcome() is None
    after = state.play("c4:e3")  # Red's pawn stays on row e, so Blue is still shut in
    assert after.outcome() == Outcome("red", "forfeit")


# -------------------------------------------------------------------------- full board
def test_full_board_turn_is_the_pawn_move_alone():
    state = full_board()
    assert names(state.legal_moves()) == Ref.of(state).turns() == {":e2"}
    with pytest.raises(IllegalMove, match="e3 already holds a token"):
        state.play("e3:e2")
    after = state.play(":e2")
    assert after.pawn("blue") == "e2" and after.occupied() == state.occupied()
    (real,) = state.realisations(Turn(None, "e2"))
    assert real.emptied == real.filled == frozenset()
    assert [f.action for f in real.follow_ups] == ["pick"]


def test_pawn_only_turn_is_refused_before_the_board_is_full():
    with pytest.raises(IllegalMove, match="Place a token first"):
        new().play(":a1")


def test_without_the_full_board_house_rule_a_full_board_is_a_forfeit():
    state = full_board(HouseRules(full_board_turn=False))
    assert state.outcome() == Outcome("red", "forfeit")
    assert Ref.of(state).turns(full_board_turn=False) == set()


# ------------------------------------------------------------------------------- repetition
SHUTTLE = [":e2", ":e8", ":e1", ":e9"]  # both pawns step out and back: no token flips


def test_third_repetition_is_a_draw():
    state = full_board()
    for turn in SHUTTLE * 2:
        assert state.outcome() is None
        state = state.play(turn)
    assert state.outcome() == Outcome("draw", "repetition")  # start, after 4, after 8 turns
    assert state.legal_moves() == ()


def test_repetition_draw_can_be_turned_off():
    state = full_board(HouseRules(repetition_draw=False))
    for turn in SHUTTLE * 3:
        state = state.play(turn)
    assert state.outcome() is None and state.ply == 12


def test_states_with_different_histories_compare_by_position():
    a = full_board()
    b = a
    for turn in SHUTTLE:
        b = b.play(turn)
    assert a == replace(b, turns=0) and hash(a) == hash(replace(b, turns=0))


# ---------------------------------------------------------------------- options and notation
def test_variants_name_the_house_rules():
    info = game_info("antipode")
    assert info.sizes == () and info.default_size is None and info.default_variant == "standard"
    assert new_game("antipode").rules == HouseRules(True, True)
    assert new_game("antipode", variant="rulebook").rules == HouseRules(False, False)
    assert new_game("antipode", variant="no-repetition-draw").rules.full_board_turn
    assert new_game("antipode", size=9).legal_count() == 19  # size is ignored
    with pytest.raises(OptionError, match="no variant"):
        new_game("antipode", variant="big")


@pytest.mark.parametrize(
    "text, turn",
    [("c4:e3", Turn("c4", "e3")), (" C4 : E3 ", Turn("c4", "e3")), (":e3", Turn(None, "e3"))],
)
def test_notation_reads_place_colon_landing(text, turn):
    assert new().parse_move(text) == turn
    assert str(turn) in ("c4:e3", ":e3")


@pytest.mark.parametrize(
    "text, reason",
    [
        ("c4e3", "Cannot read 'c4e3'"),
        ("c4:", "Cannot read 'c4:'"),
        ("", "Cannot read ''"),
        ("c4:e3:e4", "Cannot read 'c4:e3:e4'"),
        ("c4-e3", "Cannot read 'c4-e3'"),
        ("a6:e3", "No cell a6"),
        ("c4:j1", "No cell j1"),
        ("i4:e3", "No cell i4"),
    ],
)
def test_notation_errors(text, reason):
    with pytest.raises(IllegalMove) as err:
        new().play(text)
    assert err.value.reason == reason


def test_turn_values_with_unknown_cells_are_refused():
    with pytest.raises(IllegalMove, match="No cell z9"):
        new().play(Turn("z9", "e2"))
    with pytest.raises(IllegalMove, match="No cell E2"):
        new().play(Turn("e2", "E2"))


def test_occupied_cell_is_refused():
    with pytest.raises(IllegalMove, match="a1 already holds a token"):
        new().play("a1:a1")


def test_diagram_and_status():
    rows = new().diagram().splitlines()
    assert rows[0].split() == ["a1", "r", ".", ".", ".", "b"]
    assert rows[4].split() == ["e1", "B"] + ["."] * 7 + ["R"]
    assert new().status_lines() == ["Pawns: blue e1, red e9", "Pool: 55 tokens"]


# -------------------------------------------------------------------- physical contract
def test_sites_are_the_cells_with_hexagon_outlines():
    for site in new().sites():
        row, col = "abcdefghi".index(site.label[0]), int(site.label[1:])
        assert (site.x, site.y) == cell_xy(5, row, col)
        assert len(site.shape) == 6


def test_realisation_places_flips_the_neighbours_picks_the_landing_then_flips_the_path():
    (real,) = new().realisations(Turn("b1", "a1"))
    assert real.emptied == frozenset() and real.filled == {"b1"}
    placed, pick, path = real.follow_ups
    assert (placed.action, placed.sites) == ("flip", {"a1"})
    assert (pick.action, pick.sites) == ("pick", {"a1"})
    assert (path.action, path.sites) == ("flip", {"b1"})
    assert new().markers() == {"e1": "blue", "e9": "red"}


def test_moves_for_change_lists_every_landing_of_the_placement():
    state = new()
    found = state.moves_for_change(frozenset(), frozenset({"b1"}))
    assert {str(m) for m, _, _ in found} == {"b1:a1", "b1:b1"}
    assert all(done == 0 for _, _, done in found)
    assert state.moves_for_change(frozenset(), frozenset({"c3"})) == []  # no pawn move follows
    assert state.moves_for_change(frozenset({"a1"}), frozenset()) == []
    assert state.moves_for_change(frozenset(), frozenset({"b1", "c1"})) == []
    assert state.moves_for_change(frozenset(), frozenset()) == []
    assert {str(m) for m, _, _ in full_board().moves_for_change(frozenset(), frozenset())} == {":e2"}
    assert state.targets("a1") == frozenset()


# ---------------------------------------------------------------------------- properties
@given(random_states, st.randoms(use_true_random=False))
def test_engine_agrees_with_the_independent_referee(state, rng):
    ref = Ref.of(state)
    outcome = state.outcome()
    if outcome is None:
        assert names(state.legal_moves()) == ref.turns()
    if outcome and outcome.result == "connection":
        assert outcome.winner == ref.winner()
        cells = outcome.sites
        assert {(cells[0], cells[-1]), (cells[-1], cells[0])} & set(OPPOSITE_CORNERS)
        assert all(state.faces()[c] == outcome.winner for c in cells)
        assert all(b in around(a) for a, b in zip(cells, cells[1:]))
    elif outcome and outcome.result == "forfeit":
        assert ref.turns() == set() and ref.winner() is None
    if outcome is None:
        assert ref.winner() is None
        turn = rng.choice(state.legal_moves())
        after, _ = ref.play(str(turn))
        nxt = state.play(turn)
        assert nxt.faces() == after.board
        assert {s: nxt.pawn(s) for s in ("blue", "red")} == after.pawns


@given(random_states, st.randoms(use_true_random=False))
def test_flip_parity_and_the_realisations_flip_set(state, rng):
    if state.outcome():
        return
    turn = rng.choice(state.legal_moves())
    _, flips = Ref.of(state).play(str(turn))
    odd = {c for c in flips if flips.count(c) % 2}
    (real,) = state.realisations(turn)
    flip_sets = [f.sites for f in real.follow_ups if f.action == "flip"]
    flipped = [c for sites in flip_sets for c in sites]
    assert {c for c in flipped if flipped.count(c) % 2} == odd  # placement flips, then the path
    before = dict(state.faces())
    before.update({c: state.to_move for c in real.filled})  # the hand places it face up
    after = state.play(turn).faces()
    assert {c for c in after if after[c] != before[c]} == odd
    assert {str(m) for m, _, _ in state.moves_for_change(real.emptied, real.filled)} >= {str(turn)}


@given(random_states)
def test_notation_round_trips(state):
    for turn in state.legal_moves():
        assert state.parse_move(str(turn)) == turn
        assert state.parse_move(f" {str(turn).upper()} ") == turn


@given(random_states, st.randoms(use_true_random=False))
def test_play_never_mutates_the_state(state, rng):
    if state.outcome():
        return

    def snapshot():
        return (state.tokens, state.blue, state.pawns, state.mover, state.turns, state.history)

    before = snapshot()
    faces, moves, key = dict(state.faces()), state.legal_moves(), hash(state)
    state.play(rng.choice(moves))
    assert snapshot() == before
    assert state.faces() == faces and state.legal_moves() == moves and hash(state) == key


@given(random_states)
def test_moves_for_change_agrees_with_the_generic_default(state):
    rng = random.Random(state.ply)
    empty = sorted(set(CELLS) - state.occupied())
    for filled in [frozenset(), *(frozenset({c}) for c in rng.sample(empty, min(3, len(empty))))]:
        mine = state.moves_for_change(frozenset(), filled)
        generic = GameState.moves_for_change(state, frozenset(), filled)
        assert sorted(mine, key=lambda x: str(x[0])) == sorted(generic, key=lambda x: str(x[0]))


# ----------------------------------------------------------------------------- referee
WIN_RECORD = (
    "b1:a1; a4:a5; i6:i9; b2:e9; g9:i5; f2:e1; d7:i9; e8:e8; d4:i5; h7:d7; h5:h5; c1:a4; "
    "c5:i5; h9:d7; c4:h5; f4:e8; e5:i5; b3:d7; a2:e5; g5:h7; b5:d4; f5:d7; f6:a4"
)
WIN_CHAIN = "a5 b5 c5 c4 d4 e5 f5 g5 h5 i5".split()
KEYS = ["game", "ply", "to_move", "phase", "legal_moves", "winner", "result", "score", "chain"]


def run(moves: str, *flags: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = referee.play(
        "antipode",
        moves=moves,
        as_json="--json" in flags,
        trace="--trace" in flags,
        legal="--legal" in flags,
        out=out,
        err=err,
    )
    return status, out.getvalue(), err.getvalue()


def test_referee_reports_a_won_game_with_its_chain():
    status, out, _ = run(WIN_RECORD, "--json")
    summary = json.loads(out)
    assert status == 0 and list(summary) == KEYS
    assert summary == {
        "game": "antipode",
        "ply": 23,
        "to_move": None,
        "phase": None,
        "legal_moves": 0,
        "winner": "blue",
        "result": "connection",
        "score": None,
        "chain": WIN_CHAIN,
    }
    ref = Ref.of(new())  # the independent referee replays the record to the same win
    for turn in WIN_RECORD.split("; "):
        assert turn in ref.turns()
        ref, _ = ref.play(turn)
    assert ref.winner() == "blue" and all(ref.board[c] == "blue" for c in WIN_CHAIN)
    assert all(b in around(a) for a, b in zip(WIN_CHAIN, WIN_CHAIN[1:]))


def test_referee_start_position_lists_the_legal_turns():
    status, out, _ = run("", "--json", "--legal")
    summary = json.loads(out)
    assert status == 0 and summary["legal_moves"] == 19 and summary["to_move"] == "blue"
    assert summary["legal"] == sorted(BLUE_FIRST_TURNS)


@pytest.mark.parametrize(
    "moves, reason, ply, bad",
    [
        ("e5:e5; e5:e6", "e5 already holds a token", 1, "e5:e6"),
        ("e5:e5\nxyz", "Cannot read 'xyz'", 1, "xyz"),
        ("c3:c3", "c3 leaves the pawn no move", 0, "c3:c3"),
        ("e5:e5; e8:a1", "a1 is not in line with the pawn", 1, "e8:a1"),
    ],
)
def test_referee_stops_at_an_illegal_move(moves, reason, ply, bad):
    status, out, err = run(moves, "--json")
    assert status == 1
    assert json.loads(out.splitlines()[-1]) == {"error": reason, "ply": ply, "move": bad}
    assert err.count("\n") == 1 and reason in err


def test_referee_trace_and_text_output():
    status, out, _ = run("b1:a1; e8:e8", "--trace")
    lines = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and [line["ply"] for line in lines] == [0, 1, 2]
    assert lines[0] == {"ply": 0, "move": None, "to_move": "blue", "legal_moves": 19, "winner": None}
    assert [line["move"] for line in lines[1:]] == ["b1:a1", "e8:e8"]
    status, out, _ = run(WIN_RECORD)
    assert status == 0 and "Blue wins by connection after 23 moves." in out
    assert "Chain: " + " ".join(WIN_CHAIN) in out


def test_reedboard_play_antipode_subprocess():
    exe = Path(sys.executable).parent / "reedboard"
    done = subprocess.run(
        [str(exe), "play", "antipode", "--json", "--moves", WIN_RECORD],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["chain"] == WIN_CHAIN
    bad = subprocess.run(
        [str(exe), "play", "antipode", "--json", "--moves", "b1:a1; a1:a1"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 1
    assert json.loads(bad.stdout.splitlines()[-1]) == {
        "error": "a1 already holds a token",
        "ply": 1,
        "move": "a1:a1",
    }
    assert bad.stderr.strip() == "reedboard play: move 2 (a1:a1): a1 already holds a token"


@given(st.integers(0, 2**20), st.integers(0, 90))
def test_the_turns_listed_are_each_placements_landings_in_cell_order(seed, plies):
    """legal_moves() works out what its placements share once (the searches list turns all the
    time); it lists exactly the landings each placement allows, each turn legal."""
    from engines.antipode.board import TURNS, indices
    from tests.engines.play_tools import reached

    state = reached("antipode", None, seed, plies)
    listed = state.legal_moves()
    assert listed == tuple(TURNS[p][land] for p in state.placements() for land in indices(state._landings(p)))
    assert len(listed) == state.legal_count()
    for turn in listed[:: max(1, len(listed) // 5)]:
        state.check(turn)
