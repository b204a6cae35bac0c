"""The serial link over a pty pair, against both ends of the protocol: the simulated
microcontroller (Python) and the board's firmware in the emulator (``end`` is "python" or
"firmware"; testbed/serial_ends.py). Tests of the host alone use the Python end only."""

import time

import pytest

from hardware import protocol as p
from hardware.base import Led
from hardware.mcu_sim import SimMcu
from hardware.serial_link import SerialLeds, SerialLink, SerialScanner
from hardware.sim import SimBoard
from testbed.serial_ends import ENDS, make_end


def wait_for(predicate, timeout=5.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.002)
    return False


@pytest.fixture(params=ENDS)
def end(request, tmp_path):
    """A board on a pty with 64 channels sensing polarity and 300 LEDs, at either end."""
    board = make_end(request.param, str(tmp_path / "board"), 64, 300, polarity=True)
    yield board
    board.close()


@pytest.fixture
def rig(end):
    link = SerialLink(end.path, 64, 300, reopen_interval=0.02, stale_after=1.0)
    scanner, leds = SerialScanner(link), SerialLeds(link)
    assert wait_for(lambda: scanner.scan() is not None and link.connected)
    yield end, link, scanner, leds
    link.close()


def sees(scanner, closed):
    return wait_for(lambda: scanner.scan().closed == frozenset(closed))


def test_handshake_state_and_changes(rig):
    board, link, scanner, _ = rig
    assert link.info == p.BoardInfo(p.VERSION, 64, 300, True) and scanner.senses_polarity
    board.place(5, north=False)
    board.place(63)
    assert sees(scanner, {5, 63})
    board.flip(5)
    assert wait_for(lambda: scanner.scan().polarity == {5: True, 63: True})
    board.lift(63)
    assert sees(scanner, {5})


def test_led_frames_reach_the_board_in_chunks(rig):
    board, _, _, leds = rig
    frame = {ch: Led((ch % 256, 1, 2), "pulse") for ch in range(300)}
    leds.show(frame)
    assert wait_for(lambda: board.shows(frame))
    leds.show({})
    assert wait_for(board.dark)


def test_led_sink_refuses_bad_frames(rig):
    _, link, _, leds = rig
    with pytest.raises(ValueError, match="no LED channel 300"):
        leds.show({300: Led()})
    with pytest.raises(ValueError, match="colour"):
        leds.show({3: Led((256, 0, 0))})
    assert link.led_frame == {}


def test_garbage_bytes_are_dropped(rig):
    board, link, scanner, _ = rig
    board.send_raw(bytes(range(1, 256)) * 3 + b"\0\0\x07\x00")
    board.place(9)
    assert sees(scanner, {9})
    assert link.counters()["bad_cobs"] + link.counters()["short"] >= 1


def test_truncated_frame_is_dropped_and_the_next_one_read(rig):
    board, link, scanner, _ = rig
    wire = p.encode(p.Frame(p.CHANGE, 0, p.encode_changes({40: (True, True)})))
    board.send_raw(wire[:-3])
    board.place(12)
    assert sees(scanner, {12})
    assert link.counters().total() - link.counters()["frames"] >= 1
    assert 40 not in scanner.scan().closed


def test_bad_crc_is_dropped_and_counted(rig):
    board, link, scanner, _ = rig
    wire = bytearray(p.encode(p.Frame(p.CHANGE, 0, p.encode_changes({40: (True, True)}))))
    wire[-2] ^= 0x01 if wire[-2] != 1 else 0x03
    board.send_raw(bytes(wire))

    def dropped() -> int:
        return link.counters()["bad_crc"] + link.counters()["bad_cobs"]

    assert wait_for(lambda: link.poll() or dropped() == 1), link.counters()
    board.place(3)
    assert sees(scanner, {3})


def test_oversized_frame_is_dropped(rig):
    board, link, scanner, _ = rig
    board.send_raw(b"\x01" * 5000 + b"\0")
    assert wait_for(lambda: link.poll() or link.counters()["oversized"] == 1), link.counters()
    board.place(4)
    assert sees(scanner, {4})


def test_a_lost_change_triggers_a_resync(tmp_path):
    board = SimBoard(64)
    mcu = SimMcu(board, str(tmp_path / "board"), heartbeat=0.2)
    link = SerialLink(mcu.path, 64, reopen_interval=0.02, stale_after=1.0)
    scanner = SerialScanner(link)
    try:
        assert wait_for(lambda: scanner.scan() is not None and link.connected)
        with mcu._lock:
            mcu._seq += 3  # three frames "lost" on the wire
            board.place(20)
        assert sees(scanner, {20})
        assert link.counters()["resyncs"] >= 1
    finally:
        link.close()
        mcu.close()


def test_unplug_keeps_host_state_and_reconnects(rig):
    board, link, scanner, leds = rig
    board.place(7)
    frame = {2: Led((0, 255, 0), "slow")}
    leds.show(frame)
    assert sees(scanner, {7}) and wait_for(lambda: board.shows(frame))
    board.unplug()
    assert wait_for(lambda: scanner.scan() is not None and not link.connected)
    assert scanner.scan().closed == {7}  # last known state while away
    assert board.dark()  # the board lost power
    board.lift(7)
    board.place(8)
    board.plug()
    assert sees(scanner, {8}) and link.connected
    assert wait_for(lambda: board.shows(frame))  # resent without the daemon asking
    assert link.counters()["opened"] == 2 and link.counters()["lost_read"] == 1


@pytest.mark.parametrize("kind", ENDS)
def test_a_port_that_appears_later_is_opened(tmp_path, kind):
    path = str(tmp_path / "late")
    link = SerialLink(path, 8, reopen_interval=0.02)
    assert not link.connected and link.scan().closed == frozenset()
    board = make_end(kind, path, 8, 8)
    board.place(1)
    try:
        assert sees(SerialScanner(link), {1})
    finally:
        link.close()
        board.close()


@pytest.mark.parametrize("kind", ENDS)
def test_a_lost_hello_is_sent_again_until_the_board_answers(tmp_path, kind):
    board = make_end(kind, str(tmp_path / "board"), 64, 300, polarity=True)
    board.place(3)
    board.lose_from_host(1)  # the host's HELLO is lost; the board's heartbeats still come
    time.sleep(0.3)  # the board has started (the firmware announced itself to nobody)
    link = SerialLink(board.path, 64, 300, reopen_interval=0.02, stale_after=1.0)
    try:
        assert wait_for(lambda: link.scan().closed == {3} and link.connected)
        counters = link.counters()
        assert counters["hello_resent"] >= 1 and counters["opened"] == 1
        assert counters["before_handshake"] >= 1  # heard the board, but no INFO until again
    finally:
        link.close()
        board.close()


def test_hello_is_sent_again_with_a_growing_wait_while_nothing_answers():
    now = [0.0]
    link = SerialLink("loop://", 8, clock=lambda: now[0], stale_after=1e9)  # hears only itself
    resent = []
    for tenth in range(200):  # 20 s
        now[0] = tenth / 10
        before = link.counters()["hello_resent"]
        link.poll()
        if link.counters()["hello_resent"] > before:
            resent.append(now[0])
    assert resent == [0.5, 1.5, 3.5, 7.5, 11.5, 15.5, 19.5]  # 0.5 s, doubling up to 4 s
    link.close()


def test_a_silent_board_is_reopened(tmp_path):
    board = SimBoard(8)
    mcu = SimMcu(board, str(tmp_path / "b"), heartbeat=10)
    link = SerialLink(str(tmp_path / "b"), 8, reopen_interval=0.02, stale_after=0.2)
    try:
        assert wait_for(lambda: link.scan() is not None and link.counters()["lost_stale"] >= 1)
    finally:
        link.close()
        mcu.close()


def test_a_board_with_other_counts_is_refused(end):
    link = SerialLink(end.path, 65, 300, reopen_interval=0.02)
    try:
        assert wait_for(lambda: link.scan() is not None and link.error is not None)
        assert link.error == "board reports 64 sensor channels, config says 65"
        assert not link.connected and link.scan().closed == frozenset()
    finally:
        link.close()


@pytest.mark.parametrize(
    "kwargs, message",
    [({"version": 2}, "board speaks serial protocol v2, this host v1: run reedboard firmware flash")],
)
def test_mismatched_board_is_refused(tmp_path, kwargs, message):
    mcu = SimMcu(SimBoard(8), str(tmp_path / "b"), **kwargs)
    channels = 8 if kwargs else 9
    link = SerialLink(str(tmp_path / "b"), channels, reopen_interval=0.02)
    try:
        assert wait_for(lambda: link.scan() is not None and link.error == message)
        assert not link.connected
    finally:
        link.close()
        mcu.close()


def test_loopback_url_hears_only_itself():
    link = SerialLink("loop://", 8)
    link.poll()
    assert not link.connected and link.counters()["before_handshake"] == 1
    link.close()


def animation(frames, leds=800):
    """Full 800-LED frames, each different (~4 kB on the wire)."""
    return [{ch: Led((i % 256, ch % 256, 7), "steady") for ch in range(leds)} for i in range(frames)]


def test_led_frames_coalesce_on_a_slow_link_and_show_never_blocks(tmp_path):
    board = SimBoard(64, leds=800)
    mcu = SimMcu(board, str(tmp_path / "b"), heartbeat=0.1, read_rate=20_000)  # 5 frames/s
    link = SerialLink(str(tmp_path / "b"), 64, 800, reopen_interval=0.02, stale_after=1.0)
    leds = SerialLeds(link)
    try:
        assert wait_for(lambda: link.scan() is not None and link.connected)
        frames = animation(120)
        for frame in frames:  # 120 frames x 4 kB = 480 kB: 24 s at the board's pace
            leds.show(frame)
            time.sleep(0.002)
        # A show() that waited for the board would send every frame and leave none stale.
        assert wait_for(lambda: link.poll() or board.leds.frame == frames[-1], timeout=8)
        counters = link.counters()
        assert counters["leds_stale"] > 60
        assert counters["leds_sent"] + counters["leds_stale"] == len(frames)
        sent = counters["leds_sent"]
        assert sent <= board.leds.frames_shown <= sent + counters["leds_resent"]
        assert link.connected and counters["lost_write"] == 0
    finally:
        link.close()
        mcu.close()


def test_a_frame_not_yet_read_is_not_resent_by_every_heartbeat(tmp_path):
    board = SimBoard(8, leds=800)
    mcu = SimMcu(board, str(tmp_path / "b"), heartbeat=0.05, read_rate=8_000)  # 0.5 s a frame
    link = SerialLink(str(tmp_path / "b"), 8, 800, reopen_interval=0.02, stale_after=1.0)
    try:
        assert wait_for(lambda: link.scan() is not None and link.connected)
        frame = animation(1)[0]
        link.show(frame)
        assert wait_for(lambda: link.poll() or board.leds.frame == frame)
        assert link.counters()["leds_resent"] == 0 and board.leds.frames_shown == 1
    finally:
        link.close()
        mcu.close()


def send_whole(mcu: SimMcu, link: SerialLink, frame: bytes) -> None:
    """``frame`` from the board, sent again while the pty is full (a loaded machine moves its
    bytes late) and the host reads meanwhile: a flood of which no frame is lost."""
    while True:
        dropped = mcu.dropped_writes
        mcu.send_raw(frame)
        if mcu.dropped_writes == dropped:
            return
        link.poll()
        time.sleep(0.001)


def test_a_board_that_sends_bad_changes_and_never_reads_leaves_the_queue_small(tmp_path):
    """A board (broken, or an attacker on the cable) floods the host with CHANGE frames out of
    sequence and reads nothing: each asks for the board's state, but the host keeps one request
    waiting, not one per change (before: 53 -> 172 MB in 20 s). Once the board reads again, one
    state puts the host right."""
    board = SimBoard(64)
    mcu = SimMcu(board, str(tmp_path / "b"), heartbeat=60)
    link = SerialLink(str(tmp_path / "b"), 64, reopen_interval=0.02, stale_after=60)
    scanner = SerialScanner(link)
    try:
        assert wait_for(lambda: scanner.scan() is not None and link.connected)
        mcu.read_rate = 1e-9  # it reads nothing from now on
        change = p.encode_changes({5: (True, False)})
        for n in range(20_000):
            send_whole(mcu, link, p.encode(p.Frame(p.CHANGE, (n * 7 + 100) & 0xFF, change)))
            if n % 100 == 0:
                link.poll()
        assert wait_for(lambda: link.poll() or link.counters()["resyncs"] >= 19_000, timeout=20)
        assert link.waiting < 64  # one REQUEST_STATE at most, in bytes
        assert link.counters()["coalesced"] >= 18_000 and link.connected
        mcu.read_rate = None  # it reads again: the request asks for its state
        board.place(9)
        assert wait_for(lambda: link.poll() or 9 in scanner.scan().closed, timeout=10)
    finally:
        link.close()
        mcu.close()
