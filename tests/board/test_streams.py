"""Replayed sensor streams (tests/board/streams/*.jsonl) for every game, with the events the
daemon must answer them with."""

from testbed.streams import kinds, moves, of, run_file


def test_antipalos_whole_game_then_a_new_one_by_clearing_the_board():
    events = run_file("antipalos_game.jsonl", "antipalos", 3)
    assert moves(events) == ["A1*", "A3*", "B2*", "C1*", "C3*", "B2*"]
    assert of(events, "game_over") == [
        {"winner": "white", "result": "connection", "sites": ["A1*", "B2*", "C3*"]}
    ]
    assert of(events, "move")[:2] == [
        {"move": "A1*", "side": "white"},
        {"move": "A3*", "side": "black"},
    ]
    end = events[-1]
    assert end["event"] == "end" and end["moves"] == ["B2*"]
    assert end["position"]["ply"] == 1 and end["position"]["to_move"] == "black"
    assert "out_of_sync" not in kinds(events)


def test_antipalos_slides_across_three_sites_make_one_move_each():
    events = run_file("antipalos_slide.jsonl", "antipalos", 3)
    assert moves(events)[0] == "*A2"
    assert moves(events)[-1] == "*A2 - C2*"
    assert len(moves(events)) == 9
    lifted = of(events, "targets")
    assert lifted == [{"sites": ["A2*", "C2*", "*C2"]}]
    assert "out_of_sync" not in kinds(events)
    assert events[-1]["position"]["phase"] == 2
    assert events[-1]["position"]["winner"] == "white"


def test_antipalos_bumped_neighbour_comes_back_or_is_put_back():
    events = run_file("antipalos_bump.jsonl", "antipalos", 3)
    assert moves(events) == ["B2*", "A1*", "C3*"]
    # White's C3* is legal: only the knocked Trirod is flagged, not the mover's own placement
    assert of(events, "out_of_sync") == [{"missing": ["B2*"], "extra": ["*B2"]}]
    shown = [e["lines"] for e in events if e["event"] == "display"]
    assert any("Put B2* back, take *B2 off" in lines for lines in shown)
    assert kinds(events)[-3:] == ["in_sync", "move", "end"]


def test_antipalos_bouncing_contact():
    events = run_file("antipalos_bounce.jsonl", "antipalos", 3)
    assert moves(events) == ["B2*"]
    assert kinds(events) == ["move", "end"]


def test_antipalos_illegal_placement_and_recovery():
    events = run_file("antipalos_illegal.jsonl", "antipalos", 3)
    assert kinds(events) == ["move", "out_of_sync", "illegal", "in_sync", "move", "end"]
    assert of(events, "illegal") == [{"reason": "B2 already holds a Trirod", "sites": ["*B2"]}]
    assert of(events, "out_of_sync") == [{"missing": [], "extra": ["*B2"]}]
    shown = [e["lines"] for e in events if e["event"] == "display"]
    assert any("B2 already holds a Trirod · Take *B2 off" in lines for lines in shown)
    assert moves(events) == ["B2*", "A1*"]


def test_antipalos_takebacks_of_one_and_two_moves():
    events = run_file("antipalos_takeback.jsonl", "antipalos", 3)
    assert kinds(events) == [
        "move", "move", "takeback", "move", "move", "takeback", "takeback", "end",
    ]  # fmt: skip
    assert of(events, "takeback") == [{"move": "A1*"}, {"move": "A3*"}, {"move": "C1*"}]
    assert events[-1]["moves"] == ["B2*"]


def test_antipode_flips_by_lifting_then_a_tap_then_picks_by_buttons():
    events = run_file("antipode_pick.jsonl", "antipode")
    assert of(events, "guide") == [
        {"action": "flip", "sites": ["a1"]},  # the placement's neighbour, lifted and set back
        {"action": "pick", "sites": ["a1", "b1"]},
        {"action": "flip", "sites": ["b1"]},  # the token the pawn passed
        {"action": "flip", "sites": ["i9"]},
        {"action": "pick", "sites": ["h9", "i9"]},  # OK stood in for a flip without lifting
        {"action": "flip", "sites": ["h9"]},
    ]
    assert moves(events) == ["b1:a1", "h9:i9"]
    shown = [e["lines"] for e in events if e["event"] == "display"]
    assert any("Tap the token your pawn lands on: a1 or b1 · OK: a1, BACK: next" in lines for lines in shown)
    assert any("Flip of a1 counted" in lines for lines in shown)  # a1 is both: the flip comes first
    assert any("Flip b1" in lines for lines in shown)
    assert events[-1]["position"]["to_move"] == "blue"


def test_antipode_in_the_rules_order_without_ok():
    """Blue places b1, flips its neighbour a1 by lifting it, taps the landing b1; Red places h9,
    flips i9, taps i9, flips h9 which the pawn passed. No button is pressed."""
    events = run_file("antipode_natural.jsonl", "antipode")
    assert [(e["event"], e.get("move") or e.get("sites")) for e in events
            if e["event"] in ("guide", "move")] == [
        ("guide", ["a1"]), ("guide", ["a1", "b1"]), ("move", "b1:b1"),
        ("guide", ["i9"]), ("guide", ["h9", "i9"]), ("move", "h9:i9"), ("guide", ["h9"]),
    ]  # fmt: skip
    assert of(events, "move")[1] == {"move": "h9:i9", "side": "red"}
    assert "out_of_sync" not in kinds(events)
    assert events[-1]["position"]["to_move"] == "blue"
    assert events[-2]["lines"][1] == "Blue to move"


def test_antipode_next_side_begins_before_the_path_flip():
    """Blue lands on a1 and should flip b1; Red places h9 at once: the flip is taken as done."""
    events = run_file("antipode_next_side.jsonl", "antipode")
    assert moves(events) == ["b1:a1"]
    assert of(events, "guide")[-3:] == [
        {"action": "flip", "sites": ["b1"]},
        {"action": "flip", "sites": ["i9"]},
        {"action": "pick", "sites": ["h9", "i9"]},
    ]
    assert "out_of_sync" not in kinds(events)
    assert events[-1]["position"]["to_move"] == "red"


def test_antipode_ok_stands_in_for_flips_made_without_lifting():
    events = run_file("antipode_ok_fallback.jsonl", "antipode")
    assert moves(events) == ["b1:a1"]
    assert [g["action"] for g in of(events, "guide")] == ["flip", "pick", "flip"]
    assert events[-1]["position"]["to_move"] == "red"


def test_antipod_twin_is_lit_until_filled():
    events = run_file("antipod_twin.jsonl", "antipod")
    assert kinds(events) == ["move", "guide", "move", "end"]
    assert of(events, "guide") == [{"action": "twin", "sites": ["k19"]}]
    assert moves(events) == ["k8", "f4"]


def test_antigrid_capture_pawn_moved_first():
    events = run_file("antigrid_capture_move_first.jsonl", "anti-grid")
    assert moves(events) == ["a9-c9", "l2-e2", "a3-e3"]
    assert of(events, "guide") == [{"action": "remove", "sites": ["e2"]}]
    assert "out_of_sync" not in kinds(events)
    shown = [e["lines"] for e in events if e["event"] == "display"]
    assert any("Take e2 off" in lines for lines in shown)  # named
    assert shown[-1][1] == "Blue to move"


def test_antigrid_capture_captured_pawn_lifted_first():
    events = run_file("antigrid_capture_remove_first.jsonl", "anti-grid")
    assert moves(events) == ["a9-c9", "l2-e2", "a3-e3"]
    assert "out_of_sync" not in kinds(events)  # Blue's pawn lifted: its own correction, maybe
    assert "guide" not in kinds(events)
    assert kinds(events)[-2:] == ["move", "end"]


def test_phalanx_two_site_piece_and_its_removal():
    events = run_file("phalanx_capture.jsonl", "phalanx")
    assert moves(events) == ["d2nw-b4nw", "f7ne-h5ne", "c2ne-g6ne", "h8se-g7se"]
    assert of(events, "guide") == [{"action": "remove", "sites": ["g6ne"]}]
    assert "out_of_sync" not in kinds(events)
    assert events[-1]["position"]["to_move"] == "green"
    shown = [e["lines"] for e in events if e["event"] == "display"]
    assert any("Remove the lit Auxiliary: g6ne" in lines for lines in shown)  # the piece, named


def test_antigrid_chain_capture_guided_then_ok_ends_the_chain():
    events = run_file("antigrid_chain_ok.jsonl", "anti-grid", variant="chain")
    assert moves(events)[-2:] == ["a9-f9", "ok"]
    assert of(events, "guide") == [
        {"action": "remove", "sites": ["f8"]},
        {"action": "confirm", "sites": []},
    ]
    shown = [e["lines"] for e in events if e["event"] == "display"]
    assert any("OK ends the turn" in lines for lines in shown)
    assert events[-1]["position"]["to_move"] == "blue"


def test_antipod_win_lights_both_sites_of_every_edge_point_in_the_chain():
    from engines import new_game
    from testbed.streams import Stream, run

    state = new_game("antipod", 4)
    sphere = state.sphere
    centres = set(sphere.centres)
    free = {p for p, label in enumerate(sphere.graph.labels) if label not in state.occupied()}
    path = sphere.graph.path(*sphere.centres, allowed=free | centres)
    black = [sphere.graph.labels[p] for p in path if p not in centres]
    stream = Stream()
    for point in black:
        spare = next(str(m) for m in state.legal_moves() if str(m) not in black)
        for move in (spare, point):
            real = state.realisations(state.parse_move(move))[0]
            stream.place(*real.filled)
            for step in real.follow_ups:
                stream.place(*step.sites)
            stream.settle()
            state = state.play(move)
    events = run(stream.text(), "antipod", 4)
    (over,) = of(events, "game_over")
    assert over["winner"] == "black" and over["result"] == "connection"
    edge = [p for p in black if len(state.sites_of(p)) == 2]
    assert edge and all(set(state.sites_of(p)) <= set(over["sites"]) for p in edge)


def test_antipalos_a_trirod_slid_on_after_resting_corrects_the_last_move_until_the_next_side_moves():
    """White's Trirod rests on A1* (read as a move), then goes on to A2*: corrected. Black changes
    its mind from C3* to C2*: corrected. White then moving A2* is refused: Black has moved."""
    events = run_file("antipalos_correction.jsonl", "antipalos", 3)
    assert [e["event"] for e in events if e["event"] in ("move", "correction")] == [
        "move",
        "correction",
        "move",
        "correction",
    ]
    assert of(events, "correction") == [
        {"move": "A2*", "replaces": "A1*", "side": "white"},
        {"move": "C2*", "replaces": "C3*", "side": "black"},
    ]
    shown = [e["lines"] for e in events if e["event"] == "display"]
    corrected = ["Antipalos 3", "Black to move", "Corrected to A2*", "Phase 1 · In hand: White 3 · Black 4"]
    assert corrected in shown
    assert "Corrected to A2*" not in shown[shown.index(corrected) + 1]
    # B1* alone would be a legal placement for White: only A2* is flagged
    assert of(events, "out_of_sync") == [{"missing": ["A2*"], "extra": []}]
    assert ["Antipalos 3", "White to move", "Put A2* back", "Phase 1 · In hand: White 3 · Black 3"] in shown
    assert events[-1]["moves"] == ["A2*", "C2*"]


def test_antigrid_a_pawn_paused_on_the_way_is_corrected_when_it_goes_on():
    events = run_file("antigrid_correction.jsonl", "anti-grid", 6)
    assert moves(events) == ["c1-c3"]
    assert of(events, "correction") == [{"move": "c1-c5", "replaces": "c1-c3", "side": "red"}]
    assert events[-1]["moves"] == ["c1-c5"]
    assert "out_of_sync" not in kinds(events)


def test_antipode_a_placement_without_a_pawn_move_is_refused_with_the_engines_reason():
    events = run_file("antipode_illegal.jsonl", "antipode")
    assert kinds(events) == ["out_of_sync", "illegal", "in_sync", "guide", "end"]
    assert of(events, "illegal") == [{"reason": "c3 leaves the pawn no move", "sites": ["c3"]}]
    shown = [e["lines"] for e in events if e["event"] == "display"]
    assert any(
        "c3 leaves the pawn no move · Take c3 off" in lines for lines in shown
    )  # the reason, and what to do about it
    assert of(events, "guide") == [{"action": "flip", "sites": ["a1"]}]


def test_antigrid_the_opponents_move_ending_a_capture_chain_names_its_own_side():
    """Red captures and could go on; Blue moves instead (ending the chain): the move is Blue's."""
    events = run_file("antigrid_chain_ended_by_opponent.jsonl", "anti-grid", variant="chain")
    assert of(events, "move")[-2:] == [
        {"move": "a9-f9", "side": "red"},
        {"move": "j2-j3", "side": "blue"},
    ]
    assert "out_of_sync" not in kinds(events)
    assert events[-1]["position"]["to_move"] == "red"


def test_phalanx_archer_moved_off_a_line_is_refused_with_the_reason():
    from testbed.streams import Stream, run

    stream = Stream().lift("h1ne", "h1sw").place("b3ne", "b3sw").settle()
    events = run(stream.text(), "phalanx")
    (illegal,) = of(events, "illegal")
    assert illegal["reason"] == "Not a straight line"
    assert sorted(illegal["sites"]) == ["b3ne", "b3sw", "h1ne", "h1sw"]
    shown = [e["lines"] for e in events if e["event"] == "display"]
    assert any(any(line.startswith("Not a straight line · ") for line in lines) for lines in shown)
    assert moves(events) == []


def test_antipode_landing_tapped_before_the_placement_counts_in_the_rules_order():
    """A player moves the pawn and taps its landing a1 before placing b1, then flips a1 (the
    placement's neighbour): two touches on a1, taken in the rules' order (the flip, then the
    landing), so b1:a1 is recorded, the screen saying which came first, and the token the pawn
    passed is asked for next."""
    from testbed.streams import Stream, run

    stream = Stream().lift("a1").wait(100).place("a1").settle()  # the pawn on a1, its token tapped
    stream.place("b1").settle()
    placed = run(stream.text(), "antipode")
    assert moves(placed) == [] and "Flip of a1 counted" in placed[-2]["lines"]
    assert of(placed, "guide")[-1] == {"action": "pick", "sites": ["a1", "b1"]}
    stream.lift("a1").wait(300).place("a1").settle()  # the flip of a1, done second
    events = run(stream.text(), "antipode")
    assert moves(events) == ["b1:a1"] and "out_of_sync" not in kinds(events)
    assert of(events, "guide")[-1] == {"action": "flip", "sites": ["b1"]}
