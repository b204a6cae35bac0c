"""Streams the noisy-sensor bench (bench/robust/noisy.py) once got wrong, kept as they were
recorded: what the scans read, hand tremors and hovering magnets included."""

from testbed.streams import kinds, moves, of, run_file, shown


def test_ok_pressed_while_a_hand_hovers_ends_the_capture_chain_once_the_board_settles():
    # Blue captures j11, removes it, then presses OK while a hand brushes e11.
    events = run_file("noisy_antigrid_ok_while_hovering.jsonl", "anti-grid", 6, "chain")
    assert moves(events)[-2:] == ["l10-j10", "ok"]
    assert of(events, "move")[-1] == {"move": "ok", "side": "blue"}
    assert events[-1]["position"]["to_move"] == "red"


def test_a_flipped_token_brushing_its_switch_mid_flip_is_no_takeback():
    # Blue's flip of e4: lifted, touching its switch for 30 ms, lifted again for 430 ms (longer
    # than the settle time), then set down.
    events = run_file("noisy_antipode_flip_brushes_its_switch.jsonl", "antipode", variant="rulebook")
    assert moves(events) == ["e6:e6", "e8:e8", "e4:e1"]
    assert "takeback" not in kinds(events) and "out_of_sync" not in kinds(events)
    assert of(events, "guide")[-1] == {"action": "flip", "sites": ["e4"]}
    assert shown(events)[-1][1:3] == ["Red to move", "Place a token"]  # the flip is done


def test_a_piece_resting_where_it_self_phalanxes_then_moved_on_is_corrected():
    # Green's piece rests on b7ne (a self-phalanx: Red's turn is to remove it), then Green lifts
    # it again and sets it on e6ne, the move meant: the removal is undone and the move corrected.
    events = run_file("noisy_phalanx_rest_then_move_on.jsonl", "phalanx")
    assert of(events, "takeback") == [{"move": "xb7ne"}]
    assert of(events, "correction") == [{"move": "b3ne-e6ne", "replaces": "b3ne-b7ne", "side": "green"}]
    assert events[-1]["moves"][6:] == ["b3ne-e6ne", "e8ne-d7ne", "b1sw-b5sw", "g8sw-h7sw", "b5sw-a4sw"]
    assert any("Corrected to b3ne-e6ne" in lines for lines in shown(events))


def test_a_piece_slid_on_to_a_board_equal_to_an_earlier_one_is_a_correction_not_a_takeback():
    # Phase Two on the 3 board: Black's C2* rests on *C2, then slides on to C3*; the board then
    # equals the position three plies back, but the correction of the last move explains it.
    events = run_file("noisy_antipalos_slide_on_rather_than_takeback.jsonl", "antipalos", 3)
    assert "takeback" not in kinds(events)
    assert of(events, "correction")[-1] == {"move": "C2* - C3*", "replaces": "C2* - *C2", "side": "black"}
    assert events[-1]["moves"][-3:] == ["*A3 - C2*", "C3* - *A3", "C2* - C3*"]
