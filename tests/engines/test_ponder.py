"""Pondering (engines/ai/ponder.py): the computer goes on thinking over the players' turn; when
they play a move it pondered, its answer comes from what it kept (a bigger tree, a deeper
search), and any other move gets the answer a fresh search gives."""

import random

import pytest

from bench import ponder as bench_ponder
from bench import ponder_moves as bench_ponder_moves
from engines.ai import alphabeta, budget, choose, ponder
from tests.engines.play_tools import reached

NEVER = lambda: False  # noqa: E731 - the caller's stop, never asked to stop


def pondered(game, size, level=3, plies=6):
    """(the position, the computer's choice there, its pondering grown to the cap)."""
    state = reached(game, size, 11, plies)
    choice = choose(state, level, seed=1)
    thought = ponder.start(state, choice, level, seed=1)
    assert thought is not None
    while thought.grow(max(200, thought.least), NEVER):
        pass
    assert thought.spent >= ponder.TIMES[level - 1] * budget(state, level)
    return state, choice, thought


@pytest.mark.parametrize("game,size", [("antipod", 4), ("antipode", None)])
def test_an_expected_move_is_answered_from_the_kept_tree_with_more_visits(game, size):
    state, choice, thought = pondered(game, size)
    at = thought.state  # the players to move
    expected = max(thought.tree.children, key=lambda m: thought.tree.n.get(m, 0))
    after = at.apply(expected)
    reply = thought.reply(after, expected, seed=5)
    fresh = choose(after, 3, seed=5)
    after.check(reply.move)
    assert reply.tree is thought.tree.children[expected]  # searched on, not started again
    assert reply.tree.visits > fresh.tree.visits  # the same budget on top of what it kept
    assert reply.work <= budget(after, 3) + fresh.work  # no more work of its own than a level's


@pytest.mark.parametrize("game,size", [("antipod", 4), ("antipode", None)])
def test_a_move_the_tree_never_reached_gets_the_fresh_searchs_answer(game, size):
    state = reached(game, size, 11, 6)
    choice = choose(state, 3, seed=1)
    thought = ponder.start(state, choice, 3, seed=1)
    thought.grow(3, NEVER)  # a glimpse: few moves reached
    at = thought.state
    unseen = next(m for m in at.legal_moves() if m not in thought.tree.children)
    after = at.apply(unseen)
    reply, fresh = thought.reply(after, unseen, seed=5), choose(after, 3, seed=5)
    assert (reply.move, reply.count, reply.work) == (fresh.move, fresh.count, fresh.work)


@pytest.mark.parametrize("game,size", [("anti-grid", 6), ("phalanx", None), ("antipalos", 8)])
def test_alpha_beta_answers_a_reply_it_pondered_by_searching_on_what_it_kept(game, size):
    state, choice, thought = pondered(game, size)
    # the expected reply, and as many more as the rest of the cap has a level's work for
    others = round((1 - ponder.FIRST) * ponder.TIMES[2])
    assert len(thought.replies) == min(1 + others, len(thought.state.legal_moves()))
    assert list(thought.answers) == thought.replies
    assert thought.replies[0] == choice.reply  # its own search's expected reply first
    for move in thought.replies[:2]:  # expected or not
        after = thought.state.apply(move)
        answer = thought.answers[move]
        kept, fresh = answer.run.nodes, choose(after, 3, seed=5)
        reply = thought.reply(after, move, seed=5)
        after.check(reply.move)
        assert reply.pondered == kept >= budget(state, 3)  # a level's work pondered at least
        assert 0 < reply.work <= budget(after, 3) + 1  # its own work: a level's, on top of pondering's
        assert answer.run.nodes == kept + reply.work  # searched on, not started again
        assert reply.move == answer.move and kept + reply.work > fresh.work


@pytest.mark.parametrize("game,size", [("anti-grid", 6), ("phalanx", None), ("antipalos", 8)])
def test_alpha_beta_deepens_the_expected_reply_first_and_furthest(game, size):
    """The players play the reply the computer's search expected far more often than any
    other: its answer is pondered first, on its own, until it has ``FIRST`` of the cap (a
    short think is all spent on it), and ends the deepest; the rest go to the others in turn."""
    state = reached(game, size, 11, 6)
    choice = choose(state, 3, seed=1)
    thought = ponder.start(state, choice, 3, seed=1)
    half = ponder.FIRST * thought.cap
    while thought.grow(thought.least, NEVER) and thought.spent < half:
        assert list(thought.answers) in ([], [choice.reply])  # only the expected reply's answer
    while thought.grow(thought.least, NEVER):
        pass
    expected = thought.answers[choice.reply]
    assert expected.run.nodes >= half or expected.done
    others = [thought.answers[m].run.nodes for m in thought.replies[1:]]
    assert others and max(others) <= half / len(others) + 2 * thought.budget
    assert all(expected.depth >= thought.answers[m].depth for m in thought.replies[1:])


def test_alpha_beta_answers_a_reply_its_own_search_did_not_expect_deeper_than_a_fresh_search():
    """The players seldom play the reply the computer's search expected: pondering answers its
    likeliest replies in turn, so one it did not expect is answered with more than a level's
    work and at least as deep as the level's own search goes."""
    state, choice, thought = pondered("anti-grid", 6)
    unexpected = thought.replies[1]
    assert unexpected != choice.reply
    after = thought.state.apply(unexpected)
    reply, fresh = thought.reply(after, unexpected, seed=5), choose(after, 3, seed=5)
    deep = alphabeta.Deepening(after, budget(after, 3), random.Random(5), False, 0.02)
    deep.deepen(budget(after, 3), NEVER)
    assert reply.pondered >= budget(after, 3) and reply.work == fresh.work  # a level's, and its own
    assert thought.answers[unexpected].depth >= deep.depth
    assert thought.answers[unexpected].run.width >= deep.run.width  # as many moves a node, or more


@pytest.mark.parametrize("game,size", [("anti-grid", 6), ("phalanx", None)])
def test_alpha_beta_answers_a_reply_it_did_not_ponder_with_a_fresh_search(game, size):
    state, choice, thought = pondered(game, size)
    other = next(m for m in thought.state.legal_moves() if m not in thought.answers)
    after = thought.state.apply(other)
    if after.outcome() is not None:
        pytest.skip("that move ended the game")
    reply, fresh = thought.reply(after, other, seed=5), choose(after, 3, seed=5)
    assert (reply.move, reply.count, reply.work, reply.pondered) == (fresh.move, fresh.count, fresh.work, 0)


def test_a_stopped_slice_keeps_what_it_searched_and_the_cap_ends_pondering():
    state = reached("anti-grid", 6, 11, 6)
    thought = ponder.start(state, choose(state, 3, seed=1), 3, seed=1)
    slice_ = thought.least
    assert thought.grow(slice_, NEVER) and thought.replies  # the players' likeliest replies
    thought.grow(slice_, lambda: True)  # stopped at once: the first answer's first iteration unfinished
    (first,) = thought.answers.values()
    assert first.move is None and 0 < first.run.nodes <= 32
    for _ in thought.replies:  # the replies take turns; then the first goes on from there
        thought.grow(slice_, NEVER)
    assert first.move is not None
    while thought.grow(slice_, NEVER):
        pass
    assert thought.spent >= thought.cap or all(a.done for a in thought.answers.values())
    assert not thought.grow(slice_, NEVER)


@pytest.mark.parametrize("game,size", [("anti-grid", 6), ("phalanx", None), ("antipalos", 8)])
def test_a_slice_never_makes_more_than_asked_nor_passes_the_cap(game, size):
    """The caller asks for work as the players' time allows: alpha-beta's slice (a level's work
    at most, its look at the players' replies as an answer's) makes no more positions than
    asked, and the last one ends at the cap."""
    state = reached(game, size, 11, 6)
    thought = ponder.start(state, choose(state, 3, seed=1), 3, seed=1)
    rng = random.Random(3)
    while True:
        asked, before = rng.randint(1, 2 * thought.budget), thought.spent
        more = thought.grow(asked, NEVER)
        assert 0 < thought.spent - before <= asked
        assert thought.spent <= thought.cap
        if not more:
            break
    assert thought.spent == thought.cap


def test_a_slice_stops_within_32_positions_of_the_players_moving():
    """The worker asks ``stop`` as it ponders: once the players have moved, the slice ends
    at its next look (every 32 positions made), in the look at their replies as in an
    answer's first iteration."""
    state = reached("phalanx", None, 11, 6)
    thought = ponder.start(state, choose(state, 3, seed=1), 3, seed=1)
    for look in range(4):
        asked = []
        before = thought.spent
        more = thought.grow(
            thought.least, lambda: asked.append(1) or len(asked) >= 2
        )  # they move at the 2nd look
        assert thought.spent - before <= 2 * 32 and more  # not done: on at the next turn
        if look == 0:
            assert thought.replies is None  # the look at their replies was stopped
            thought.grow(thought.least, NEVER)  # and looked at again
            assert thought.replies


def test_alpha_beta_ponders_on_the_reply_its_own_search_expected_first():
    """The players' reply the computer's search found is the first pondering answers: at equal
    time (as much pondering as a move's search) what the look at their replies leaves of a
    level's work goes to its answer, so that reply is answered with nearly twice a level's
    search."""
    state = reached("anti-grid", 6, 11, 6)
    choice = choose(state, 3, seed=1)
    after = state.apply(choice.move)
    assert choice.reply in after.legal_moves()
    thought = ponder.start(state, choice, 3, seed=1)
    assert thought.expected == choice.reply
    while thought.spent < thought.budget and thought.grow(thought.budget - thought.spent, NEVER):
        pass
    assert list(thought.answers) == [choice.reply] and thought.spent == thought.budget
    reply = thought.reply(after.apply(choice.reply), choice.reply, seed=2)
    assert reply.pondered >= thought.budget * 3 // 4
    assert 0 < reply.work <= thought.budget + 1


def test_no_pondering_when_the_computers_move_ends_the_game():
    state = reached("antipod", 4, 3, 0)
    while state.winning_move() is None:
        state = state.apply(state.legal_moves()[0])
        assert state.outcome() is None
    choice = choose(state, 3, seed=1)  # it takes the win
    assert ponder.start(state, choice, 3, seed=1) is None


@pytest.mark.parametrize("game", ["antipod", "anti-grid"])
def test_the_equal_time_bench_ponders_as_much_work_as_the_other_side_thought(game):
    """bench/ponder.py in short: a few short games at a small budget, each counted once, the
    pondering side pondering the other side's work (one playout or first iteration over at
    most) and answering some moves from it."""
    got = bench_ponder.games(game, bench_ponder.Rules(3, 60), first=0, count=2, plies=16)
    assert got.games == got.wins + got.draws + got.losses == 2
    assert got.moves >= 2 * 8 - 1 and 0 < got.other_work <= got.pondered <= 1.5 * got.other_work
    assert got.hits <= got.moves and got.gain >= got.hits  # a hit has at least its own search
    figures = (got + got).figures()
    assert figures["games"] == 4 and figures["ponder_over_other"] == round(got.pondered / got.other_work, 3)
    low, high = figures["interval"]
    assert low <= figures["score"] <= high
    began, second = figures["began"], figures["second"]  # per seat: the pondering side began, or not
    assert sum(began[:3]) == sum(second[:3]) == 2  # seats swapped every game
    assert [b + s for b, s in zip(began[:3], second[:3])] == [
        figures["wins"],
        figures["draws"],
        figures["losses"],
    ]


@pytest.mark.parametrize("game,size", [("phalanx", None), ("anti-grid", 6), ("antipalos", 8)])
def test_an_alpha_beta_iteration_pondering_cut_short_goes_on_where_it_stopped(game, size, monkeypatch):
    """Pondering cuts an answer's iteration where a slice ends; started again, the iteration
    goes on where it stopped, so the answer is the same search's in one go: the same move,
    and no more work than a few positions a cut (the path to where it stopped, made again).
    Before, it took the moves in another order, and searched again much of what it had
    finished."""
    monkeypatch.setattr(alphabeta, "MAX_DEPTH", 3)  # on to the third ply's end, no further
    state = reached(game, size, 11, 6)

    def finished(slices):
        deep = alphabeta.Deepening(state, 1224, random.Random(1), False, 0.02, keep=True)
        for work in slices:
            deep.deepen(work, NEVER, abandon=True)
        deep.deepen(10**6, NEVER)
        assert deep.done and deep.depth == 3
        return deep.move, deep.run.nodes

    move, nodes = finished([])
    cuts = [700, 300, 300, 300, 300]
    cut_move, cut_nodes = finished(cuts)
    assert cut_move == move
    assert nodes <= cut_nodes <= nodes + 4 * len(cuts)


@pytest.mark.parametrize("game", ["antipode", "phalanx"])
def test_pondering_to_its_cap_thinks_as_long_as_the_other_side_at_the_caps_times(game):
    """The cap counts a move's work as the move counts it: an MCTS move's tactics after the
    tree (Antipode's) too, so with the other side thinking 16 times its work, pondering
    thinks about as much in either search (before: Antipode's stopped at half of it)."""
    times = ponder.TIMES[2]
    got = bench_ponder.games(game, bench_ponder.Rules(3, 60, times), first=0, count=2, plies=16)
    assert 0.85 * times <= got.pondered / got.other_work <= times


def test_the_per_move_bench_judges_the_three_answers_to_each_reply_pondering_answered():
    """bench/ponder_moves.py in short: on the replies pondering answered, the plain, pondered
    and twice-the-work answers, each judged by a deeper search's values: none loses less than
    nothing, and the summary counts them."""
    records = bench_ponder_moves.game("anti-grid", 0, share=0.1, deep=4, plies=8)
    assert records  # some replies were answered
    for record in records:
        assert record["plain"]["as_plain"] and record["depth"] >= 1
        assert all(record[k]["loss"] >= 0 and record[k]["depth"] >= 1 for k in bench_ponder_moves.ANSWERS)
    got = bench_ponder_moves.summary(records)
    assert got["positions"] == len(records) and got["plain"]["as_plain"] == 1.0
    assert got["worse_than_plain"] + got["better_than_plain"] <= len(records)


def test_the_bench_can_answer_pondering_s_hits_with_the_control_s_search():
    """bench/ponder.py --hits-control: the same pondering, but each move it answered gets a
    fresh search of twice the work instead (the pondered answer's search, without its cuts)."""
    rules = bench_ponder.Rules(3, 60, 16.0, hits_control=True)
    got = bench_ponder.games("anti-grid", rules, first=0, count=1, plies=16)
    assert got.games == 1 and 0 < got.hits <= got.moves and got.gain == 2.0 * got.hits


def test_the_per_move_bench_compares_an_answer_cut_and_gone_on_with_one_in_one_go():
    """bench/ponder_moves.py --resumed in short: the answer's search cut where a pondering
    slice ends and gone on has the move of the same search in one go, and finishes as much."""
    records = bench_ponder_moves.resumed("phalanx", 0, share=0.2, plies=6)
    got = bench_ponder_moves.resumed_summary(records)
    assert got["positions"] == len(records) == 6
    assert got["cut_same"] == 1.0 and got["depth"]["cut"] == got["depth"]["one"] >= got["depth"]["plain"]
    assert got["next_ply"]["cut"] <= got["next_ply"]["one"]
