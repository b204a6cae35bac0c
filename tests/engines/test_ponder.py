"""Pondering (engines/ai/ponder.py): the computer goes on thinking over the players' turn; when
they play a move it pondered, its answer comes from what it kept (a bigger tree, a deeper
search), and any other move gets the answer a fresh search gives."""

import pytest

from engines.ai import budget, choose, ponder
from tests.engines.play_tools import reached

NEVER = lambda: False  # noqa: E731 - the caller's stop, never asked to stop


def pondered(game, size, level=3, plies=6):
    """(the position, the computer's choice there, its pondering grown to the cap)."""
    state = reached(game, size, 11, plies)
    choice = choose(state, level, seed=1)
    thought = ponder.start(state, choice, level, seed=1)
    assert thought is not None
    while thought.grow(200, NEVER):
        pass
    assert thought.spent >= ponder.TIMES * budget(state, level)
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
def test_alpha_beta_answers_the_move_it_expected_with_its_deeper_search(game, size):
    state, choice, thought = pondered(game, size)
    after = thought.state.apply(thought.expected)
    reply = thought.reply(after, thought.expected, seed=5)
    after.check(reply.move)
    assert reply.work >= 2 * budget(after, 3)  # at least twice a level's search
    assert (reply.move, reply.work) == thought.answer


@pytest.mark.parametrize("game,size", [("anti-grid", 6), ("phalanx", None)])
def test_alpha_beta_answers_any_other_move_with_a_fresh_search(game, size):
    state, choice, thought = pondered(game, size)
    other = next(m for m in thought.state.legal_moves() if m != thought.expected)
    after = thought.state.apply(other)
    if after.outcome() is not None:
        pytest.skip("that move ended the game")
    reply, fresh = thought.reply(after, other, seed=5), choose(after, 3, seed=5)
    assert (reply.move, reply.count, reply.work) == (fresh.move, fresh.count, fresh.work)


def test_a_stopped_slice_keeps_no_half_search_and_the_cap_ends_pondering():
    state = reached("anti-grid", 6, 11, 6)
    thought = ponder.start(state, choose(state, 3, seed=1), 3, seed=1)
    thought.grow(200, lambda: True)  # an answer stopped at once is not kept
    assert thought.answer is None
    assert thought.grow(200, NEVER) and thought.answer is not None
    while thought.grow(200, NEVER):
        pass
    assert not thought.grow(200, NEVER)


def test_alpha_beta_ponders_on_the_reply_its_own_search_expected():
    """The players' reply the computer's search found is the move pondering answers: its first
    slice already searches the answer, at the level's budget, so at equal time (as much
    pondering as a move's search) the players' expected move is answered at once."""
    state = reached("anti-grid", 6, 11, 6)
    choice = choose(state, 3, seed=1)
    after = state.apply(choice.move)
    assert choice.reply in after.legal_moves()
    thought = ponder.start(state, choice, 3, seed=1)
    assert thought.expected == choice.reply
    while thought.spent < thought.budget and thought.grow(thought.budget - thought.spent, NEVER):
        pass
    reply = thought.reply(after.apply(choice.reply), choice.reply, seed=2)
    assert (reply.move, reply.work) == thought.answer and reply.work >= thought.budget


def test_no_pondering_when_the_computers_move_ends_the_game():
    state = reached("antipod", 4, 3, 0)
    while state.winning_move() is None:
        state = state.apply(state.legal_moves()[0])
        assert state.outcome() is None
    choice = choose(state, 3, seed=1)  # it takes the win
    assert ponder.start(state, choice, 3, seed=1) is None
