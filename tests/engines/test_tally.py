"""engines.core.tally.Tally: a persistent repetition tally, checked against History."""

from hypothesis import given
from hypothesis import strategies as st

from engines.core.history import History
from engines.core.tally import Tally

# Each step pushes a key onto one of the tallies made so far (branching from old ones too).
steps = st.lists(st.tuples(st.integers(0, 40), st.integers(0, 3)), max_size=60)


@given(steps)
def test_tally_counts_like_history_on_every_branch(script):
    tallies, histories = [Tally()], [History()]
    for pick, key in script:
        i = pick % len(tallies)
        tallies.append(tallies[i].push(key))
        histories.append(histories[i].push(key))
    for tally, history in zip(tallies, histories):
        assert tally.keys() == history.keys()[::-1]
        assert all(tally.count(k) == history.count(k) for k in range(5))
        assert len(tally) == history.size


def test_pushing_on_an_old_tally_leaves_the_newer_one_alone():
    base = Tally().push("x")
    first = base.push("y").push("y")
    second = base.push("z")
    assert first.keys() == ("x", "y", "y") and second.keys() == ("x", "z")
    assert first.count("y") == 2 and second.count("y") == 0
    assert hash(Tally().push("x")) == hash(base) and Tally().push("x") == base
