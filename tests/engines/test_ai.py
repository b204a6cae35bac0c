"""The computer opponent (engines/ai): legal, deterministic, finds wins, and (briefly) strong.

The full strength ladder is bench/ai.py; here a few seeded games on small boards.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import GAME_NAMES, game_info, new_game
from engines.ai import alphabeta, budget, choose, mcts, profile_of
from engines.ai.arena import duel, level_player
from engines.ai.baseline import one_ply, random_player
from tests.engines.play_tools import reached

#: Every game at each size it offers (Antipalos also at 3x3, where Phase Two comes quickly).
BOARDS = [(g, s) for g in GAME_NAMES for s in (game_info(g).sizes or (None,))] + [("antipalos", 3)]


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(BOARDS),
    st.integers(0, 2**20),
    st.integers(0, 60),
    st.integers(20, 120),
    st.sampled_from([3, 5]),
)
def test_the_ai_always_returns_a_legal_move_and_takes_an_immediate_win(board, seed, plies, work, level):
    state = reached(*board, seed, plies)
    choice = choose(state, level, seed=seed, work=work)  # level 5 searches selectively
    state.check(choice.move)
    side = state.to_move
    winning = [
        m
        for m in state.legal_moves()[:400]
        if (state.apply(m).outcome() or 0) and state.apply(m).outcome().winner == side
    ]
    if winning and state.legal_count() <= 400:
        assert state.apply(choice.move).outcome().winner == side


def test_a_seeded_search_gives_the_same_move():
    for game, size in (("antipod", 4), ("anti-grid", 6)):
        state = new_game(game, size)
        first = choose(state, level=2, seed=5)
        again = choose(state, level=2, seed=5)
        assert (first.move, first.count, first.work) == (again.move, again.count, again.work)


def test_random_moves_are_the_draws_of_random_move_with_the_moves_listed_once():
    """Listing them per draw made a node of a 488-point Antipod (radius 10, wider than the
    searches' 400 moves) cost as much as ~40 playouts; the draws themselves are unchanged."""
    state = new_game("antipod", size=10)
    rng = random.Random(3)
    assert state.random_moves(random.Random(3), 50) == [state.random_move(rng) for _ in range(50)]


def test_budgets_grow_with_the_level_and_a_stop_ends_the_search_early():
    state = new_game("antipod", size=6)
    budgets = [budget(state, level) for level in (1, 2, 3, 4, 5)]
    assert budgets == sorted(budgets) and budgets[0] < budgets[-1]
    stopped = choose(state, level=5, stop=lambda: True)
    assert stopped.count <= 16 and stopped.work < budgets[-1]
    state.check(stopped.move)


@pytest.mark.parametrize("game,size", [("antipode", None), ("antipod", 6), ("phalanx", None)])
def test_a_search_whose_time_is_up_still_answers_with_less_work(game, size):
    """The caller's stop is how a level's wall-clock limit ends a search on a slow machine
    (a clock that runs out after some looks here): a legal move, less work than the level's.
    Antipode's tactics after its search stop too."""
    state = reached(game, size, 5, 10)
    looks = iter(range(3))
    stopped = choose(state, 5, seed=1, stop=lambda: next(looks, None) is None)
    state.check(stopped.move)
    assert stopped.work < choose(state, 5, seed=1).work


def test_antipode_s_level_5_gives_a_leaf_to_every_root_move_the_lower_levels_to_few():
    """Levels 1 to 4 pay for each move a descent weighs (the profile's ``scan_cost``), so at a root of a
    hundred moves and more their few descents reach few of them: breadth is what sets them
    apart. Level 5's scans are free, so every root move gets a leaf; with the same work charged
    for scans it would reach a tenth as many."""
    state = reached("antipode", None, 3, 30)
    moves = state.legal_count()
    assert moves >= 100 and state.winning_move() is None
    assert profile_of(state).scan_cost == (2, 2, 2, 2, 0)
    stop, work = (lambda: False), budget(state, 5)
    _, wide, _ = mcts.search(state, work, random.Random(1), stop, scan=0)
    _, narrow, _ = mcts.search(state, work, random.Random(1), stop, scan=2)
    assert wide >= moves and narrow * 10 < wide
    assert choose(state, 5, seed=1).count == wide  # level 5 searches as the wide search did
    assert work < 2 * budget(state, 4)  # wide leaves cost more CPU: 0.7 of its second


def test_the_ai_refuses_a_finished_game():
    state = new_game("antipod", size=4)
    rng = random.Random(3)
    while state.outcome() is None:
        state = state.apply(state.random_move(rng))
    try:
        choose(state)
    except ValueError as exc:
        assert "over" in str(exc)
    else:
        raise AssertionError("a finished game got a move")


def test_level_1_never_loses_to_random_play_on_small_boards():
    for game, size in (("antipod", 4), ("anti-grid", 6), ("antipalos", 8)):
        result = duel(lambda: new_game(game, size), level_player(1), random_player, games=2, max_plies=60)
        assert result.losses == 0, (game, result)


def test_a_search_whose_tree_holds_only_finished_games_still_ends_on_its_budget():
    """Four moves left, none winning at once, every reply ending the game: once the tree holds
    them all a descent makes no position; it still counts, so the budget ends the search
    (it used to run until the caller's wall-clock cap)."""
    rng, state = random.Random(1), new_game("antipod", size=4)
    while state.legal_count() > 4:
        state = state.apply(state.random_move(rng))
    assert state.outcome() is None and state.winning_move() is None
    calls = []

    def stop() -> bool:
        calls.append(1)
        assert len(calls) < 10_000, "the search ran on past its budget"
        return False

    for level in (2, 5):
        choice = choose(state, level, seed=0, stop=stop)
        assert choice.move in state.legal_moves() and choice.work <= budget(state, level) + 20


def test_a_duel_counts_the_wins_of_whichever_player_began():
    """Antipod's second player wins most games between levels: the bench shows it beside each
    pairing's wins, so a ladder is read knowing what the seats give."""
    result = duel(lambda: new_game("antipod", size=4), random_player, random_player, games=8, seed=3)
    began = [index % 2 == 0 for index in range(8)]  # ``first`` begins the even games
    assert result.wins_beginning <= result.wins and result.wins_beginning <= began.count(True)
    lost_when_second = result.beginner_won - result.wins_beginning
    assert 0 <= lost_when_second <= result.losses
    assert (
        result.beginner_won
        + (result.wins - result.wins_beginning)
        + (result.losses - lost_when_second)
        + result.unfinished
        == result.games
    )


@pytest.mark.slow  # tens of seconds of search: in the whole suite, not the quick run
def test_level_3_beats_the_one_ply_baseline_in_short_games():
    for game, size in (("antipod", 4), ("antipalos", 8), ("antipode", None)):
        result = duel(lambda: new_game(game, size), level_player(3), one_ply, games=2, max_plies=120)
        assert result.wins == 2, (game, result)


def _searched(state, move, depth):
    """``move``'s value for the side to move in ``state``, searched ``depth`` plies in all."""
    child = state.apply(move)
    if child.outcome() is not None:
        return alphabeta.final(child.outcome().winner, state.to_move, depth - 1)
    run = alphabeta.Search(10**7, random.Random(0), lambda: False, mobility=profile_of(state).mobility)
    value = run.negamax(child, depth - 1, -3 * alphabeta.WIN, 3 * alphabeta.WIN)
    return value if child.to_move == state.to_move else -value


@pytest.mark.slow  # tens of seconds of search: in the whole suite, not the quick run
def test_a_cut_short_alpha_beta_iteration_only_trades_its_move_for_a_better_one():
    """Levels 4 and 5 of the capture games finish two plies and part of a third: a root move
    the cut-short iteration finished replaces the last full one's choice only when it is better
    at the new depth."""
    replaced = 0
    for game, size in (("phalanx", None), ("anti-grid", 6)):
        for seed in range(3, 6):
            state = reached(game, size, seed, 10 + 10 * seed % 40)
            for work in (900, 2400):
                move = alphabeta.search(state, work, random.Random(1), lambda: False)[0]
                run = alphabeta.Search(
                    work, random.Random(1), lambda: False, mobility=profile_of(state).mobility
                )
                depth, window = 0, (-2 * alphabeta.WIN, 2 * alphabeta.WIN)
                try:  # the same seeded search, up to its last full iteration
                    while True:
                        run.limited = depth > 0
                        value = run.negamax(state, depth + 1, *window)
                        depth, last = depth + 1, run.best[state]
                        if abs(value) >= alphabeta.WIN:
                            break
                except alphabeta.OutOfBudget:
                    pass
                if move != last:
                    replaced += 1
                    assert _searched(state, move, depth + 1) >= _searched(state, last, depth + 1)
    assert replaced >= 3


def _finished_plies(state, work: int, selective: bool) -> int:
    """How many plies a seeded alpha-beta search of ``work`` nodes finishes."""
    run = alphabeta.Search(
        work, random.Random(1), lambda: False, selective, mobility=profile_of(state).mobility
    )
    run.root, depth = state, 0
    try:
        while depth < 6:
            run.limited = depth > 0
            run.negamax(state, depth + 1, -2 * alphabeta.WIN, 2 * alphabeta.WIN)
            depth += 1
    except alphabeta.OutOfBudget:
        pass
    return depth


@pytest.mark.slow  # tens of seconds of search: in the whole suite, not the quick run
def test_antipalos_level_5_searches_only_moves_to_contested_squares_and_reaches_deeper():
    """Level 5 looks only at the moves that bring a Trirod to a square on a cheapest connection
    (or turn one in place), and on its budget finishes more plies than a full search would."""
    state, deeper = new_game("antipalos", size=8), 0
    for ply in range(19):  # Phase One of a game level 3 plays against itself
        if ply % 4 == 2:
            move = choose(state, 5, seed=ply).move
            assert move in state.search_moves(random.Random(0), 10**6)
            full, narrow = (_finished_plies(state, budget(state, 5), s) for s in (False, True))
            assert narrow >= full
            deeper += narrow > full
        state = state.apply(choose(state, 3, seed=ply).move)
    assert deeper >= 2


def test_antipod_level_1_is_loose_only_where_it_is_well_ahead_and_careful_elsewhere():
    """Black, who holds both centres, wins most board-filling playouts at the start; White, on
    the seat random play could beat it on, searches with level 2's budget instead."""
    start = new_game("antipod", size=4)
    as_white = [choose(start, level=1, seed=seed) for seed in range(12)]
    assert not any(choice.loose for choice in as_white)
    assert all(budget(start, 2) <= choice.work <= 1.05 * budget(start, 2) for choice in as_white)
    after = start.play("c6")
    as_black = [choose(after, level=1, seed=seed) for seed in range(12)]
    loose = [choice for choice in as_black if choice.loose]
    assert len(loose) >= 9 and all(choice.count == 0 for choice in loose)  # 8 playouts decide
    assert len({choice.move for choice in loose}) > 3  # any move that hands over no win
    hints = [choose(after, level=1, seed=seed, gentle=False) for seed in range(4)]
    assert not any(hint.loose for hint in hints)


def test_a_loose_move_is_the_best_scored_of_the_safe_moves_it_drew():
    """Drawing as many as there are moves, a loose move is the safe move whose leaf (Antipode:
    its graded connection distances) scores best for the mover; drawing one, any safe move."""
    state = reached("antipode", None, 2, 40)
    side, moves = state.to_move, state.legal_moves()
    scores = {}
    for move in moves:
        after = state.apply(move)
        if after.outcome() is None and after.winning_move() is None:
            scores[move] = mcts.reward(after.playout(random.Random(0), 1)[0], side)
    assert 0 < len(scores) < len(moves)  # some moves hand a win over
    move, leaves, _ = mcts.sample(state, random.Random(3), len(moves))
    assert leaves == len(scores) and scores[move] == max(scores.values())
    drawn = {mcts.sample(state, random.Random(seed), 1)[0] for seed in range(30)}
    assert drawn <= scores.keys() and len(drawn) > 10


def test_antipode_level_1_is_gentle_most_moves_loose_yet_it_takes_a_win_at_once():
    state = reached("antipode", None, 2, 40)
    choices = [choose(state, level=1, seed=seed) for seed in range(40)]
    loose = [choice for choice in choices if choice.loose]
    assert 22 <= len(loose) <= 37  # three in four
    assert all(choice.count == 2 for choice in loose)  # the better of two safe moves, one ply
    assert all(state.apply(choice.move).winning_move() is None for choice in loose)
    assert len({choice.move for choice in loose}) > 5
    for choice in choices:
        state.check(choice.move)
    hints = [choose(state, level=1, seed=seed, gentle=False) for seed in range(40)]
    assert not any(hint.loose for hint in hints)  # a hint is the search's own move
    winning = reached("antipode", None, 1, 40)  # the side to move can win at once
    assert winning.winning_move() is not None
    choices = [choose(winning, level=1, seed=seed) for seed in range(20)]
    assert any(choice.loose for choice in choices)
    for choice in choices:
        after = winning.apply(choice.move)
        assert after.outcome() is not None and after.outcome().winner == winning.to_move


def test_alpha_beta_draws_a_wide_node_s_moves_only_as_it_searches_them(monkeypatch):
    """Antipalos 12 opens with 288 placements, of which a level 3 node looks at a share; a node
    cut off after its first moves (the killer, its best) draws no more: about a draw a node made
    in all, where drawing every node's share first drew 28 times as many (14,803 for 526)."""
    state = new_game("antipalos", size=12)
    kind, asked = type(state), []
    drawn = kind.random_moves

    def counted(self, rng, count):
        asked.append(count)
        return drawn(self, rng, count)

    monkeypatch.setattr(kind, "random_moves", counted)
    choice = choose(state, 3, seed=1)
    state.check(choice.move)
    width = budget(state, 3) // 4
    assert width < state.legal_count() and 0 < sum(asked) < 2 * choice.count  # about one a node
