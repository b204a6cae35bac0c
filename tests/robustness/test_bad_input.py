"""Short run of bench/robust/bad_input.py: fuzzed config files, layout files, replay files, game
records, lines from outside, set-up progress files and archive records are each answered with a
result or one clear line, never a traceback."""

from bench.robust.bad_input import run


def test_fuzzed_inputs_never_end_in_a_traceback():
    figures = run(examples=40, seed_value=3)
    assert figures["inputs_tried"] == 280
    assert figures["first_tracebacks"] == []
    assert figures["tracebacks"] == 0
    for target in ("config", "layout", "replay", "record", "line", "progress", "archive"):
        assert figures[f"{target}_rejected"] > 0
