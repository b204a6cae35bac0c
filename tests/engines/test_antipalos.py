"""Antipalos rules (docs/games/antipalos.md, "Rulings"): geometry, both phases, wins and
scores, variants, notation, records, match play, the physical contract, and properties checked
against brute force."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines import new_game
from engines.antipalos import (
    COLOURS,
    INFO,
    AntipalosState,
    Match,
    Place,
    Record,
    Shift,
    Spot,
    new,
    read_record,
    write_record,
)
from engines.antipalos.board import parse_move
from engines.core import IllegalMove, OptionError
from engines.core.graph import UnionFind

# ---------------------------------------------------------------- helpers


def run(moves: str, size: int = 12, **options):
    state = new(size, **options)
    for move in moves.split(";"):
        state = state.play(move.strip())
    return state


def illegal(state, move: str) -> str:
    with pytest.raises(IllegalMove) as err:
        state.play(move)
    return err.value.reason


#: 12 placements on 4×4 (supply 6 each) that leave both sides unconnected: Phase Two follows.
FULL_4X4 = "A4*; B4*; *C2; *A1; B2*; D3*; *C3; B3*; *D2; *A2; *D1; *D4"


def isolated_placements(size: int, sides: int) -> list[str]:
    """Placements of whole supplies as isolated '/' Trirods (no connections, no win)."""
    squares = [(c, r) for r in range(size) for c in range(size) if c % 2 == 0 and r % 2 == 0]
    squares += [(c, r) for r in range(size) for c in range(size) if c % 2 and r % 2]
    supply = new(size).setup.supply
    return [str(Spot(c, r, 0)) for c, r in squares[: supply * sides]]


def brute_components(state) -> list[tuple[str, set[tuple[int, int, int]], set[str]]]:
    """Every component of every colour, found from coordinates alone: (side, pieces, borders)."""
    n = state.setup.size
    pieces = []
    for side in COLOURS[: state.setup.side_count]:
        for spot in state.trirods(side):
            c, r = spot.col, spot.row
            ends = {(c, r), (c + 1, r + 1)} if spot.diag == 0 else {(c, r + 1), (c + 1, r)}
            pieces.append((side, (c, r, spot.diag), ends))
    uf = UnionFind(len(pieces))
    for i, (side_i, _, ends_i) in enumerate(pieces):
        for j, (side_j, _, ends_j) in enumerate(pieces[:i]):
            if side_i == side_j and ends_i & ends_j:
                uf.union(i, j)
    groups: dict[int, list[int]] = {}
    for i in range(len(pieces)):
        groups.setdefault(uf.find(i), []).append(i)
    out = []
    for members in groups.values():
        borders = set()
        for i in members:
            for x, y in pieces[i][2]:
                borders |= {"W"} if x == 0 else set()
                borders |= {"E"} if x == n else set()
                borders |= {"S"} if y == 0 else set()
                borders |= {"N"} if y == n else set()
        out.append((pieces[members[0]][0], {pieces[i][1] for i in members}, borders))
    return out


def brute_winners(state) -> dict[str, set[str]]:
    """Side -> labels of its winning component(s), by brute force."""
    won: dict[str, set[str]] = {}
    for side, members, borders in brute_components(state):
        if {"W", "E"} <= borders or {"S", "N"} <= borders:
            won.setdefault(side, set()).update(str(Spot(*m)) for m in members)
    return won


def random_game(rng: random.Random, state, plies: int):
    """Random legal plies (listing legal moves: keep boards small). Yields every state."""
    yield state
    for _ in range(plies):
        if state.outcome():
            return
        state = state.play(rng.choice(state.legal_moves()))
        yield state


# ---------------------------------------------------------------- board, supply, options


def test_info_and_registry():
    assert INFO.name == "antipalos" and INFO.sizes == (12, 14, 16, 18, 20)
    assert INFO.default_size == 12 and INFO.size_range == (3, 26)
    assert INFO.variants == ("two", "team", "cut-throat-3", "cut-throat-4")
    state = new_game("antipalos")
    assert state.setup.size == 12 and state.setup.variant == "two"


@pytest.mark.parametrize("size, supply", [(12, 18), (14, 21), (16, 24), (18, 27), (20, 30)])
def test_supply_is_three_halves_of_the_size(size, supply):
    state = new(size)
    assert state.left == (supply, supply)
    assert state.status_lines()[0] == f"In hand: White {supply} · Black {supply}"


def test_a_smaller_equal_supply_can_be_chosen():
    assert new(12, supply=10).left == (10, 10)
    with pytest.raises(OptionError, match="supply must be 1 to 18"):
        new(12, supply=19)
    with pytest.raises(OptionError):
        new(12, supply=0)


def test_tiny_boards_get_a_supply_that_fits():
    assert new(3).setup.supply == 4
    assert new(4, "cut-throat-4").setup.supply == 4


@pytest.mark.parametrize("size, variant", [(2, "two"), (27, "two"), (12, "three")])
def test_bad_options(size, variant):
    with pytest.raises(OptionError):
        new(size, variant)


def test_288_first_moves_on_12x12():
    state = new(12)
    moves = state.legal_moves()
    assert state.legal_count() == len(moves) == 288
    assert len({str(m) for m in moves}) == 288
    assert {"A1*", "*A1", "L12*", "*L12", "F7*"} <= {str(m) for m in moves}


def test_sites_two_per_square_with_segments():
    sites = {s.label: s for s in new(12).sites()}
    assert len(sites) == 288
    b4 = sites["B4*"]
    assert (b4.x, b4.y, b4.shape) == (1.5, 3.5, ((1, 3), (2, 4)))
    assert sites["*B4"].shape == ((1, 4), (2, 3))


# ---------------------------------------------------------------- connection


def test_a_straight_chain_is_crossed_through_a_shared_vertex():
    # White's straight B2* C3* meets at vertex (2, 2); black's '\' line passes through it.
    state = run("B2*; *A4; C3*; *B3; A1*; *C2; *D4", size=4)
    assert state.outcome() is None
    won = state.play("*D1").outcome()
    assert won.winner == "black" and set(won.sites) == {"*A4", "*B3", "*C2", "*D1"}
    white = state.component(state.setup.geo.index["B2*"])
    assert {state.setup.geo.labels[s] for s in white} == {"A1*", "B2*", "C3*"}


def test_a_zig_zag_cannot_be_crossed():
    # Black's /\/\ fills B3..E3; no white path, even using both diagonals of every other square
    # of columns B..E, gets from rows 1-2 to rows 4-6.
    state = run("A6*; B3*; A5*; *C3; F6*; D3*; F5*; *E3", size=6)
    geo = state.setup.geo
    free = {s for s, spot in enumerate(geo.spots) if 1 <= spot.col <= 4 and not state.cells[s >> 1]}
    seen = {s for s in free if geo.spots[s].row <= 1}
    stack = list(seen)
    while stack:
        for n in geo.neighbours[stack.pop()]:
            if n in free and n not in seen:
                seen.add(n)
                stack.append(n)
    assert seen and not any(geo.spots[s].row >= 3 for s in seen)


def test_effective_blocking_diagram_11():
    # White's vertical chain comes down column E from the North; black has just played F2*.
    opening = "*E12; K12*; E11*; I12*; *E10; L9*; E9*; A10*; *E8; F2*"
    continuation = "*F7; H2*; F6*; D2*; E5*; B2*; *E4; *E2; *F3; *G2"
    state = run(opening + "; " + continuation)
    assert state.outcome() is None and state.ply == 20
    geo = state.setup.geo
    white = {geo.labels[s] for s in state.component(geo.index["*E12"])}
    assert white == {"*E12", "E11*", "*E10", "E9*", "*E8", "*F7", "F6*", "E5*", "*E4", "*F3"}
    black = {geo.labels[s] for s in state.component(geo.index["F2*"])}
    assert black == {"D2*", "*E2", "F2*", "*G2", "H2*"}
    # White is blocked: no white placement in rows 1-2 joins the chain.
    assert state.to_move == "white"
    for move in state.legal_moves():
        if move.to.row <= 1:
            after = state.play(move)
            assert geo.index["*F3"] not in after.component(geo.site_of(move.to)), move


# ---------------------------------------------------------------- phases


def test_phase_two_entry_and_move_count():
    state = run("; ".join(isolated_placements(12, 2)))
    assert state.phase == 2 and state.left == (0, 0) and state.outcome() is None
    assert state.to_move == "white" and state.ply == 36
    assert state.legal_count() == 18 * (2 * (144 - 36) + 1) == len(state.legal_moves()) == 3906
    assert state.status_lines() == ["Move or turn a Trirod"]


def test_phase_one_ends_only_when_every_supply_is_placed():
    moves = FULL_4X4.split("; ")
    state = run("; ".join(moves[:11]), size=4)
    assert state.phase == 1 and state.left == (0, 1)
    state = state.play(moves[11])
    assert state.phase == 2 and state.legal_count() == 6 * (2 * 4 + 1)


def test_phase_two_moves_anywhere_and_turns_in_place():
    state = run(FULL_4X4, size=4)
    moved = state.play("A4* - C1*")
    assert "C1*" in moved.occupied() and "A4*" not in moved.occupied()
    turned = state.play("A4* - *A4")
    assert "*A4" in turned.occupied() and "A4*" not in turned.occupied()
    assert turned.to_move == "black"


def test_no_passing_and_every_phase_two_move_is_a_move():
    state = run(FULL_4X4, size=4)
    assert all(isinstance(m, Shift) for m in state.legal_moves())
    assert all(m.src != m.to for m in state.legal_moves())


# ---------------------------------------------------------------- winning and match-play scores


@pytest.mark.parametrize(
    "moves, supply, score",
    [
        ("A2*; A4*; *B2; C4*; C2*; D3*; A1*; C3*; A1* - *D2", 4, 1),  # Phase Two, W-E
        ("A1*; A4*; *B1; C4*; C1*; D3*; *B3; C3*; *B3 - *D1", 4, 2),  # Phase Two, W S E
        ("A2*; A4*; *B2; C4*; C2*; D3*; *D2", None, 3),  # Phase One, W-E
        ("A1*; A4*; *B1; C4*; C1*; D3*; *D1", None, 4),  # Phase One, W S E
        ("B2*; *A4; C3*; *B3; A1*; *C2; *D4; *D1", None, 5),  # NW and SE corners
    ],
)
def test_match_play_categories(moves, supply, score):
    outcome = run(moves, size=4, supply=supply).outcome()
    assert outcome.result == "connection" and outcome.score == score


def test_category_five_in_phase_two():
    state = run("A1*; *A4; B2*; *A3; C3*; D1*; *B4; *C1", size=4, supply=4)
    assert state.phase == 2 and state.outcome() is None
    won = state.play("*B4 - D4*").outcome()
    assert (won.winner, won.score) == ("white", 5)
    assert won.sites == ("A1*", "B2*", "C3*", "D4*")


def test_winning_component_lists_every_connected_site_and_both_pairs():
    won = run("B2*; *A4; C3*; *B3; A1*; *C2; *D4; *D1", size=4)
    assert won.to_move is None and won.legal_count() == 0 and won.legal_moves() == ()
    assert won.outcome().sites == ("*D1", "*C2", "*B3", "*A4")
    assert illegal(won, "A2*") == "The game is over"


def test_either_pair_counts_for_either_side():
    north_south = run("B1*; A1*; *B2; A3*; B3*; *A4; *B4", size=4)
    assert north_south.outcome().winner == "white"
    west_east_black = run("B1*; A2*; *C4; *B2; A4*; C2*; *A3; *D2", size=4)
    assert west_east_black.outcome().winner == "black"


def test_a_phase_two_move_that_splits_a_chain_loses_it():
    state = run("A2*; A4*; *B2; C4*; C2*; D3*; A1*; C3*", size=4, supply=4)
    state = state.play("*B2 - *D2")  # D2 joins C2*, but B2 is gone: no W-E chain
    assert state.outcome() is None
    assert brute_winners(state) == {}


def test_third_repetition_is_a_draw_in_phase_two():
    state = run("B2*; *B3; C3*; *C2", size=4, supply=2)
    cycle = ["B2* - *B2", "*B3 - B3*", "*B2 - B2*", "B3* - *B3"]
    for move in cycle * 2:
        assert state.outcome() is None
        state = state.play(move)
    assert state.outcome().winner == "draw" and state.outcome().result == "repetition"
    assert state.ply == 12 and state.outcome().score is None


def test_repetition_draw_is_an_option():
    state = run("B2*; *B3; C3*; *C2", size=4, supply=2, repetition_draw=False)
    for move in ["B2* - *B2", "*B3 - B3*", "*B2 - B2*", "B3* - *B3"] * 3:
        state = state.play(move)
    assert state.outcome() is None
    assert "No repetition draw" in state.status_lines()


# ---------------------------------------------------------------- illegal moves


@pytest.mark.parametrize(
    "moves, move, reason",
    [
        ("F2*", "*F2", "F2 already holds a Trirod"),
        ("F2*", "F2* - F3*", "Phase One: place a Trirod, do not move one"),
        ("", "M1*", "No square M1 on a 12x12 board"),
        ("", "F2**", "Cannot read 'F2**'"),
        ("", "*F2*", "Cannot read '*F2*': one '*' before or after"),
        ("", "F2", "Cannot read 'F2': one '*' before or after"),
        ("", "xyz", "Cannot read 'xyz'"),
    ],
)
def test_illegal_phase_one_moves(moves, move, reason):
    state = run(moves) if moves else new(12)
    assert illegal(state, move) == reason


@pytest.mark.parametrize(
    "move, reason",
    [
        ("C1*", "Phase Two: move a Trirod (C1* - ...)"),
        ("C1* - D1*", "No Trirod on C1"),
        ("B4* - C1*", "B4 holds black's Trirod"),
        ("*A4 - C1*", "The Trirod on A4 lies A4*"),
        ("A4* - A4*", "A4* - A4* moves nothing"),
        ("A4* - B2*", "B2 already holds a Trirod"),  # white's own square
        ("A4* - *C2", "C2 already holds a Trirod"),
    ],
)
def test_illegal_phase_two_moves(move, reason):
    state = run(FULL_4X4, size=4)
    assert illegal(state, move) == reason


def test_check_refuses_foreign_values_and_off_board_spots():
    state = new(4)
    with pytest.raises(IllegalMove, match="Not an Antipalos move"):
        state.check("A1*")
    with pytest.raises(IllegalMove, match="No square E1"):
        state.check(Place(Spot(4, 0, 0)))


# ---------------------------------------------------------------- variants


def test_team_turn_order_and_shared_supply():
    state = new(12, "team")
    assert state.sides == ("white", "black") and state.left == (18, 18)
    seen = []
    for move in ["A1*", "C1*", "E1*", "G1*", "I1*"]:
        seen.append((state.player, state.to_move))
        assert f"Player {state.player} to move" in state.status_lines()
        state = state.play(move)
    assert seen == [("A1", "white"), ("B1", "black"), ("A2", "white"), ("B2", "black"), ("A1", "white")]
    assert state.left == (15, 16)


def test_team_phase_two_after_both_team_supplies():
    state = run("; ".join(isolated_placements(12, 2)), variant="team")
    assert state.phase == 2 and state.player == "A1"


def test_team_wins_as_one():
    state = run("A2*; A4*; *B2; C4*; C2*; D3*; *D2", size=4, variant="team")
    assert state.outcome().winner == "white"  # placed by A1, A2, A1, A2


@pytest.mark.parametrize(
    "variant, order",
    [("cut-throat-3", ["white", "black", "red"]), ("cut-throat-4", ["white", "black", "red", "blue"])],
)
def test_cut_throat_turn_order(variant, order):
    state = new(12, variant)
    assert state.sides == tuple(order) and state.left == (18,) * len(order)
    seen = []
    for c in range(2 * len(order)):
        seen.append(state.to_move)
        state = state.play(Place(Spot(c, 0, 0)))
    assert seen == order * 2


def test_cut_throat_phase_two_count():
    state = run("; ".join(isolated_placements(12, 3)), variant="cut-throat-3")
    assert state.phase == 2 and state.to_move == "white"
    assert state.legal_count() == 18 * (2 * (144 - 54) + 1) == len(state.legal_moves())


def test_any_side_may_begin():
    state = new(12, first="black")
    assert state.to_move == "black" and state.sides == ("black", "white")
    assert new(12, "team", first="black").player == "B1"
    with pytest.raises(OptionError):
        new(12, first="red")


# ---------------------------------------------------------------- notation and points of view


def test_canonical_notation():
    assert str(Place(Spot(1, 3, 0))) == "B4*" and str(Place(Spot(3, 1, 1))) == "*D2"
    assert str(Shift(Spot(1, 1, 0), Spot(1, 2, 0))) == "B2* - B3*"
    assert str(Shift(Spot(1, 1, 0), Spot(1, 1, 1))) == "B2* - *B2"
    for text in ["B2*-B3*", "B2* - B3*", "  b2 *  -b3* ", "B2*\u2013B3*"]:
        assert str(parse_move(text, 12)) == "B2* - B3*"


def test_notation_from_the_other_players_view():
    state = new(12)
    assert state.notation(Place(Spot.parse("A1*")), "black") == "L12*"
    assert state.notation(Place(Spot.parse("*B4")), "black") == "*K9"
    assert state.notation(parse_move("B2* - *B2", 12), "black") == "K11* - *K11"
    assert state.parse_move("L12*", view="black") == Place(Spot.parse("A1*"))
    assert state.notation(Place(Spot.parse("B4*")), "white") == "B4*"


def test_quarter_turn_views_swap_the_diagonal():
    state = new(12, "cut-throat-4")
    # Black sits on white's left: white's lower-right corner square is black's lower-left.
    assert state.notation(Place(Spot.parse("A12*")), "black") == "*A1"
    assert state.notation(Place(Spot.parse("L1*")), "blue") == "*A1"
    with pytest.raises(OptionError):
        state.notation(Place(Spot.parse("A1*")), "green")


def spots_for(size):
    return st.builds(Spot, st.integers(0, size - 1), st.integers(0, size - 1), st.integers(0, 1))


@st.composite
def sized_moves(draw):
    size = draw(st.integers(3, 26))
    spot = spots_for(size)
    move = draw(st.one_of(st.builds(Place, spot), st.builds(Shift, spot, spot)))
    return size, move


@given(sized_moves(), st.sampled_from(["two", "team", "cut-throat-3", "cut-throat-4"]), st.integers(0, 3))
def test_notation_round_trips_in_every_view(sized, variant, seat):
    size, move = sized
    state = new(size, variant)
    assert state.parse_move(str(move)) == move
    assert state.parse_move(str(move).lower().replace(" ", "")) == move
    view = state.setup.seats[seat % len(state.setup.seats)]
    seen = state.notation(move, view)
    assert state.parse_move(seen, view=view) == move
    assert state.from_view(state.to_view(move, view), view) == move


# ---------------------------------------------------------------- the physical contract


def test_contract_phase_one():
    state = run("F2*")
    assert state.occupied() == frozenset({"F2*"})
    (real,) = state.realisations(Place(Spot.parse("*G7")))
    assert real.emptied == frozenset() and real.filled == frozenset({"*G7"})
    [(move, found, done)] = state.moves_for_change(frozenset(), frozenset({"*G7"}))
    assert str(move) == "*G7" and found == real and done == 0
    assert state.moves_for_change(frozenset(), frozenset({"*F2"})) == []  # occupied square
    assert state.moves_for_change(frozenset({"F2*"}), frozenset({"F3*"})) == []
    assert state.moves_for_change(frozenset(), frozenset({"Z9*"})) == []
    assert state.targets("F2*") == frozenset()


def test_contract_phase_two():
    state = run(FULL_4X4, size=4)
    [(move, real, _)] = state.moves_for_change(frozenset({"A4*"}), frozenset({"*A4"}))
    assert str(move) == "A4* - *A4" and real.emptied == frozenset({"A4*"})
    [(move, _, _)] = state.moves_for_change(frozenset({"A4*"}), frozenset({"C1*"}))
    assert str(move) == "A4* - C1*"
    assert state.moves_for_change(frozenset({"B4*"}), frozenset({"C1*"})) == []  # black's
    assert state.moves_for_change(frozenset(), frozenset({"C1*"})) == []
    empty = {"C1*", "*C1", "B1*", "*B1", "A3*", "*A3", "C4*", "*C4"}
    assert state.targets("A4*") == frozenset(empty | {"*A4"})
    assert state.targets("B4*") == frozenset()  # black's Trirod, white to move
    assert state.targets("*A4") == frozenset()  # nothing there


@given(st.integers(0, 10**6))
def test_contract_agrees_with_the_default_enumeration(seed):
    rng = random.Random(seed)
    for state in random_game(rng, new(3, supply=3), 14):
        if state.outcome():
            break
        base = super(type(state), state)
        for site in state.occupied():
            assert state.targets(site) == base.targets(site)
        move = rng.choice(state.legal_moves())
        (real,) = state.realisations(move)
        assert state.moves_for_change(real.emptied, real.filled) == base.moves_for_change(
            real.emptied, real.filled
        )


# ---------------------------------------------------------------- display


def test_diagram_and_status():
    state = run("B2*; *A4", size=4)
    assert state.diagram().splitlines() == [
        "     A  B  C  D",
        " 4  b\\  .  .  .  4",
        " 3   .  .  .  .  3",
        " 2   . w/  .  .  2",
        " 1   .  .  .  .  1",
        "     A  B  C  D",
        "    w/ w\\ white  b/ b\\ black",
    ]
    assert state.status_lines() == ["In hand: White 5 · Black 5"]


# ---------------------------------------------------------------- properties vs brute force


@given(
    st.integers(0, 10**6),
    st.sampled_from([(3, 4), (4, 6), (5, 4), (6, 5)]),
    st.sampled_from(["two", "cut-throat-3"]),
)
def test_incremental_win_check_equals_brute_force_in_play(seed, board, variant):
    size, supply = board
    rng = random.Random(seed)
    supply = min(supply, new(size, variant).setup.supply)
    for state in random_game(rng, new(size, variant, supply=supply), 60):
        won = brute_winners(state)
        outcome = state.outcome()
        if outcome is None or outcome.winner == "draw":
            assert won == {}
        else:
            assert won == {outcome.winner: set(outcome.sites)}


@given(st.integers(3, 8), st.data())
def test_components_equal_brute_force_on_random_positions(size, data):
    cells = tuple(
        data.draw(st.lists(st.sampled_from([0, 0, 1, 2, 3, 4]), min_size=size * size, max_size=size * size))
    )
    state = AntipalosState(new(size).setup, cells, (0, 0), 0)
    geo = state.setup.geo
    for side, members, borders in brute_components(state):
        site = geo.site_of(Spot(*next(iter(members))))
        assert {geo.spots[s] for s in state.component(site)} == {Spot(*m) for m in members}
        joined = {"W", "E"} <= borders or {"S", "N"} <= borders
        assert (state.winning_component(site) is not None) == joined


@given(st.integers(0, 10**6))
def test_play_never_mutates_a_state(seed):
    rng = random.Random(seed)
    state = run("B2*; *B3; C3*", size=4, supply=3)
    for _ in range(20):
        if state.outcome():
            break
        before = copy.deepcopy(state)
        snapshot = (state.cells, state.left, state.turn, state.history, state.result)
        after = state.play(rng.choice(state.legal_moves()))
        assert state == before and hash(state) == hash(before)
        assert snapshot == (state.cells, state.left, state.turn, state.history, state.result)
        state = after


# ---------------------------------------------------------------- records and matches


def test_record_text_from_the_first_players_view():
    moves = tuple(parse_move(m, 4) for m in "B2*; *A4; C3*; *B3; A1*; *C2; *D4; *D1".split("; "))
    record = Record(size=4, moves=moves)
    text = write_record(record)
    assert text.splitlines() == [
        '[Game "Antipalos"]',
        '[Size "4"]',
        '[Variant "two"]',
        '[Supply "6"]',
        '[First "white"]',
        '[View "white"]',
        '[Result "black wins by connection, 5 points"]',
        "",
        "1. B2*; *A4",
        "2. C3*; *B3",
        "3. A1*; *C2",
        "4. *D4; *D1",
    ]
    black_view = write_record(record, view="black")
    assert "1. C3*; *D1" in black_view and '[View "black"]' in black_view
    assert read_record(black_view) == read_record(text) == record
    assert record.replay().outcome().score == 5


def test_bad_records():
    with pytest.raises(IllegalMove, match="Move 2: Cannot read 'B2'"):
        read_record("1. A1*; B2")
    with pytest.raises(OptionError):
        read_record('[Size "x"]\n1. A1*')
    with pytest.raises(OptionError):
        read_record('[Variant "solo"]')
    with pytest.raises(IllegalMove, match=r"Move 2 \(A1\*\): A1 already holds a Trirod"):
        read_record("1. A1*; A1*").replay()


@given(
    st.integers(0, 10**6),
    st.sampled_from(["two", "team", "cut-throat-3", "cut-throat-4"]),
    st.integers(0, 3),
    st.booleans(),
)
def test_records_round_trip(seed, variant, seat, black_first):
    rng = random.Random(seed)
    first = "black" if black_first else "white"
    start = new(4, variant, supply=3, first=first)
    moves = []
    state = start
    for _ in range(rng.randrange(20)):
        if state.outcome():
            break
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.play(move)
    record = Record(size=4, variant=variant, supply=3, first=first, moves=tuple(moves))
    view = start.setup.seats[seat % len(start.setup.seats)]
    text = write_record(record, view=view)
    assert read_record(text) == record
    assert write_record(read_record(text), view=view) == text
    assert record.replay() == state


def win(match: Match, moves: str):
    state = match.new_game()
    for move in moves.split("; "):
        state = state.play(move)
    return state


def test_match_totals_and_loser_begins():
    match = Match(target=6, size=4)
    assert match.first == "white" and match.totals == {"white": 0, "black": 0}
    match = match.record(win(match, "A2*; A4*; *B2; C4*; C2*; D3*; *D2"))  # white 3
    assert match.totals == {"white": 3, "black": 0} and match.first == "black"
    game = match.new_game()
    assert game.to_move == "black"
    # Black begins: black plays white's former moves.
    match = match.record(win(match, "A2*; A4*; *B2; C4*; C2*; D3*; *D2"))
    assert match.totals == {"white": 3, "black": 3} and match.first == "white"
    assert match.winner is None
    match = match.record(win(match, "A1*; A4*; *B1; C4*; C1*; D3*; *D1"))  # white 4
    assert match.winner == "white" and match.totals == {"white": 7, "black": 3}
    assert len(match.games) == 3
    with pytest.raises(OptionError, match="the match is over"):
        match.record(win(Match(size=4), "A2*; A4*; *B2; C4*; C2*; D3*; *D2"))


def test_match_refuses_wrong_games_and_targets():
    with pytest.raises(OptionError):
        Match(target=7)
    match = Match(target=9, size=4)
    with pytest.raises(OptionError, match="not finished"):
        match.record(match.new_game())
    with pytest.raises(OptionError, match="black begins"):
        match.record(win(match, "A2*; A4*; *B2; C4*; C2*; D3*; *D2")).record(
            win(match, "A2*; A4*; *B2; C4*; C2*; D3*; *D2")
        )


def test_match_after_a_draw_the_other_side_begins():
    match = Match(target=15, size=4, supply=2)
    state = match.new_game()
    for move in "B2*; *B3; C3*; *C2".split("; ") + ["B2* - *B2", "*B3 - B3*", "*B2 - B2*", "B3* - *B3"] * 2:
        state = state.play(move)
    match = match.record(state)
    assert match.totals == {"white": 0, "black": 0} and match.first == "black"


def test_a_win_by_the_last_placement_ends_in_phase_one():
    """Phase Two begins only when every supply is placed and nobody has won (ruling 6)."""
    record = "D2*; *A1; C1*; D4*; D3*; C4*; *A3; *A2; C2*; B2*; B3*"
    state = new_game("antipalos", 4)
    for move in record.split("; "):
        state = state.play(move)
    assert state.phase == 1 and sum(state.left) == 1
    won = state.play("C3*")
    assert won.outcome().winner == "black" and won.phase == 1
    other = state.play("A4*")  # the last placement, no win: Phase Two begins
    assert other.outcome() is None and other.phase == 2


def test_each_seat_plays_a_side_and_team_partners_share_theirs():
    """The league seats players by ``seat_sides``: one seat per side, or Team play's four
    players A1, B1, A2, B2 as white, black, white, black."""
    assert new_game("antipalos", 5, "two").seat_sides == ("white", "black")
    assert new_game("antipalos", 5, "cut-throat-3").seat_sides == ("white", "black", "red")
    assert new_game("antipalos", 5, "team").seat_sides == ("white", "black", "white", "black")
    assert new_game("anti-grid", 6, None).seat_sides == ("red", "blue")  # the default: its sides
