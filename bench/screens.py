"""How long the OLED's screens take to lay out and draw: the scan loop waits for it whenever
the screen changes.

    bench/screens.py [--quick]

For each game at its default size and at its largest, the status screens of positions from a
seeded random game, each three ways: the plain screen; a board that differs from the game (an
error line above the instruction, the screen then often too long for one page); and the
computer's move to carry out on a board that differs. Each is laid out as pages (the controller
does that in its step, before the LED frame goes out) and its first page drawn on luma's dummy
device (the daemon does that after the frame): "in play", one after the other with what the
layout measured for the screens before still known (as in a running daemon: the title and most
rows repeat), and "cold", from nothing (every cache emptied). Beside them, in the same run, a
bare loop of 100,000 additions: the ratio tells a loaded machine from a slower layout. A Pi Zero
2 W is some 20 times slower than the machines these figures come from.

Then sending: how long the scan loop waits in ``display.show`` for a changed screen on luma's
real ssd1306 driver over an I2C bus that takes a transfer's time at 100 and 400 kHz, with the
panel written in the loop (``thread=False``, before 27 Nov 2026) and by its own thread (now).
"""

from __future__ import annotations

import argparse
import json
import random
import time

from luma.core.device import dummy
from luma.core.interface.serial import i2c
from luma.oled.device import ssd1306

from bench.timing import percentile
from engines import GAME_NAMES, game_info
from firmware_host.board.game import Game
from firmware_host.ui import screens
from hardware.oled import LumaDisplay
from testbed.recorders import I2cBus

DIFFERS = "Board differs: put back 2, take off 1"


def boards() -> list[Game]:
    """Each game at its default size and at the largest its menu offers."""
    found = []
    for name in GAME_NAMES:
        info = game_info(name)
        for size in dict.fromkeys((info.default_size, max(info.sizes, default=None))):
            found.append(Game.of(name, size))
    return found


def positions(game: Game, rng: random.Random, count: int) -> list:
    """``count`` positions spread over a random game of at most 60 moves."""
    state, seen = game.new(), []
    while state.outcome() is None and len(seen) < 60:
        seen.append(state)
        state = state.apply(rng.choice(state.legal_moves()))
    return seen[:: max(1, len(seen) // count)][:count]


def screens_of(game: Game, state) -> list[screens.Screen]:
    """The plain screen, the board differs, and the computer's move on a board that differs."""
    move = state.notation(state.legal_moves()[0])
    args = (game.title, game.shown_variant, state.to_move, None, state.phase, state.status_lines())
    return [
        screens.status_screen(*args, "Put it on a lit site", None, None),
        screens.status_screen(*args, "Put it on a lit site", DIFFERS, None),
        screens.status_screen(*args, f"Computer plays {move}: move it", DIFFERS, None),
    ]


def layout_ms(screen: screens.Screen, cold: bool) -> tuple[float, float, int]:
    """(ms to lay out ``screen``, a screen not shown before, as pages; ms to draw its first
    page; its pages), from nothing when ``cold``."""
    screens.paginate.cache_clear()
    if cold:
        screens._wrap.cache_clear()
        screens._width.cache_clear()
        screens._ink.cache_clear()
    began = time.perf_counter()
    pages = screen.pages()
    laid = time.perf_counter()
    pages[0].render(dummy(*screens.SIZE, mode="1"))
    return (laid - began) * 1e3, (time.perf_counter() - laid) * 1e3, len(pages)


def bare_loop_ms() -> float:
    began = time.perf_counter()
    total = 0
    for i in range(100_000):
        total += i
    return (time.perf_counter() - began) * 1e3


def send_ms(images: list, hz: int, thread: bool) -> list[float]:
    """ms each ``show`` of ``images`` (each differs from the one before) keeps its caller, on an
    ssd1306 over a bus of ``hz``; a thread's panel is given the time a frame takes between them."""
    bus = I2cBus(hz)
    panel = LumaDisplay(ssd1306(i2c(bus=bus)), thread=thread)
    frame_s = 1100 * 9 / hz
    samples = []
    for image in images:
        began = time.perf_counter()
        panel.show(image)
        samples.append((time.perf_counter() - began) * 1e3)
        if thread:
            time.sleep(frame_s)
    panel.close()
    return samples


def bench_send(figures: dict, images: list, loop: float) -> None:
    for hz in (100_000, 400_000):
        for thread in (False, True):
            samples = send_ms(images, hz, thread)
            key = f"send_{hz // 1000}khz_{'thread' if thread else 'in_loop'}"
            figures[f"{key}_p50_ms"] = round(percentile(samples, 0.5), 2)
            figures[f"{key}_max_ms"] = round(max(samples), 2)
            print(
                f"{key:<24} p50 {figures[key + '_p50_ms']:>6.2f} ms  max {max(samples):>6.2f} "
                f"ms  (max / bare loop: {max(samples) / loop:.1f})"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="4 positions a board, not 12")
    args = parser.parse_args()
    count = 4 if args.quick else 12
    rng = random.Random(1)
    figures: dict = {"bench": "screens"}
    times: dict[tuple[str, bool], list[float]] = {}
    loops = []
    print("Laying out (ms):")
    print(
        f"{'board':<16}{'screens':>8}{'paged':>7}{'in play p50':>13}{'p99 ms':>8}"
        f"{'cold p50':>10}{'p99 ms':>8}"
    )
    for game in boards():
        shown = [s for state in positions(game, rng, count) for s in screens_of(game, state)]
        row: dict = {"screens": len(shown), "paged": 0}
        for cold in (False, True):
            samples = []
            for screen in shown:
                ms, drawn, pages = layout_ms(screen, cold)
                samples.append(ms)
                times.setdefault(("paged" if pages > 1 else "one_page", cold), []).append(ms)
                times.setdefault(("draw", cold), []).append(drawn)
                row["paged"] += pages > 1 and not cold
                loops.append(bare_loop_ms())
            key = "cold" if cold else "in_play"
            row[f"{key}_p50_ms"] = round(percentile(samples, 0.5), 2)
            row[f"{key}_p99_ms"] = round(percentile(samples, 0.99), 2)
        name = f"{game.name} {game.size or ''}".strip()
        figures[name] = row
        print(
            f"{name:<16}{row['screens']:>8}{row['paged']:>7}{row['in_play_p50_ms']:>13.2f}"
            f"{row['in_play_p99_ms']:>8.2f}{row['cold_p50_ms']:>10.2f}{row['cold_p99_ms']:>8.2f}"
        )
    loop = percentile(loops, 0.5)
    figures["bare_loop_ms"] = round(loop, 2)
    for (kind, cold), samples in sorted(times.items()):
        key = f"{kind}_{'cold' if cold else 'in_play'}"
        figures[f"{key}_p50_ms"] = round(percentile(samples, 0.5), 2)
        figures[f"{key}_max_ms"] = round(max(samples), 2)
        print(
            f"{key:<18} p50 {figures[key + '_p50_ms']:>6.2f} ms  max {max(samples):>6.2f} ms  "
            f"(max / bare loop: {max(samples) / loop:.1f})"
        )
    print("Sending a changed screen to an ssd1306 (ms the loop waits):")
    images = [screen.render() for screen in shown[:8]]
    bench_send(figures, images, loop)
    print(f"bare loop of 100,000 additions: {loop:.2f} ms")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
