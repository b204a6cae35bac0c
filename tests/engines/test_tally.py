"""engines.core.tally.Tally: a persistent repetition tally, checked against plain lists."""

from hypothesis import given
from hypothesis import strategies as st

from engines.core.tally import MAX_DEPTH, Tally

# Each step pushes a key onto one of the tallies made so far (branching from old ones too).
steps = st.lists(st.tuples(st.integers(0, 40), st.integers(0, 3)), max_size=60)


@given(steps)
def test_tally_counts_like_a_list_on_every_branch(script):
    tallies, lists = [Tally()], [[]]
    for pick, key in script:
        i = pick % len(tallies)
        tallies.append(tallies[i].push(key))
        lists.append(lists[i] + [key])
    for tally, keys in zip(tallies, lists):
        assert tally.keys() == tuple(keys)
        assert all(tally.count(k) == keys.count(k) for k in range(5))
        assert len(tally) == len(keys)


def test_pushing_on_an_old_tally_leaves_the_newer_one_alone():
    base = Tally().push("x")
    first = base.push("y").push("y")
    second = base.push("z")
    assert first.keys() == ("x", "y", "y") and second.keys() == ("x", "z")
    assert first.count("y") == 2 and second.count("y") == 0
    assert hash(Tally().push("x")) == hash(base) and Tally().push("x") == base


def test_a_line_branched_at_every_push_counts_like_a_list_past_the_flat_copies():
    """A search tries several moves from each state: every push after the first starts a
    branch; past MAX_DEPTH branches deep the line is copied flat, still counting right."""
    tally, keys = Tally(), []
    for step in range(3 * MAX_DEPTH + 5):
        tally.push("tried first")  # a sibling that took the log's end
        tally = tally.push(step % 7)
        keys.append(step % 7)
        assert tally.count(step % 7) == keys.count(step % 7)
    assert tally.keys() == tuple(keys) and tally.count("tried first") == 0
    assert tally._log.depth < MAX_DEPTH
