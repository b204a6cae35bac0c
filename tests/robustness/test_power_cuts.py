"""Short run of bench/robust/power_cuts.py: ``reedboard run --sim`` killed with SIGKILL
mid-game loses no acknowledged move and carries the stored game on after a restart."""

from bench.robust.power_cuts import run


def test_sigkill_mid_game_loses_no_acknowledged_move_and_resumes():
    figures = run(runs=2, seed=7, jobs=2)
    assert figures["moves_lost"] == 0
    assert figures["failed_to_resume"] == 0
    assert figures["ready_p50_s"] is not None
    assert figures["kills_before_first_move"] < figures["runs"]  # some kill hit a game in play
