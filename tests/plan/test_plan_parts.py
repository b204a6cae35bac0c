"""`reedboard plan --parts` read as a maker orders from it: the pieces to make for each game
and the magnets in each, the parts each scanner and LED chain takes (and none it does not), the
pins of the whole build against the Pi's and the Mega's, and the pitch at which a magnet would
close its neighbour's switch."""

import math
import re

import pytest

import engines
from firmware_host.cli.main import main

GAMES = [("antipalos", 12), ("antipode", None), ("antipod", 6), ("anti-grid", 6), ("phalanx", None)]
SCANNERS = ["gpio-matrix", "mcp23017", "74hc165", "serial"]
LEDS = ["ws2812", "serial", "max7219"]


def run(capsys, *args):
    status = main(["plan", *args, "--parts"])
    out = capsys.readouterr()
    assert status == 0, out.err
    return out.out


def counts(text):
    """Part name -> count, from the lines ``  N x name (note)`` and ``  N x piece, sides (...)``."""
    found = {}
    for line in text.splitlines():
        if m := re.match(r"  (\d+) x ([^(,]+?)\s*(\(|,|$)", line):
            found[m.group(2)] = found.get(m.group(2), 0) + int(m.group(1))
    return found


def section(text, heading):
    """The lines of a section of the parts list, by the start of its heading."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(heading))
    end = next((i for i in range(start + 1, len(lines)) if not lines[i]), len(lines))
    return lines[start + 1 : end]


def pins(text):
    """host -> (pins it says it uses, pins listed, whether it fits)."""
    found, host = {}, None
    for line in section(text, "Pins"):
        if m := re.match(r"  (\S.*): (\d+) of (\d+) pins( - DOES NOT FIT)?$", line):
            host = m.group(1)
            found[host] = [int(m.group(2)), [], not m.group(4)]
        elif line.startswith("    ") and ": " in line and line.strip()[0] not in "!-":
            listed = line.rsplit(": ", 1)[1].split(", ")
            prefix = listed[0].split()[0] if listed[0].startswith("GPIO") else ""
            found[host][1] += [n if n.startswith(("GPIO", "D", "A")) else f"{prefix} {n}" for n in listed]
    return found


def sites(game, size):
    return len(engines.new_game(game, size, None).sites())


def size_args(size):
    return ["--size", str(size)] if size else []


def piece_lines(text):
    """kind -> (per side, sides, magnets each, the line)."""
    found = {}
    for line in section(text, "Pieces"):
        m = re.match(r"  (\d+) x (\S+), (.+?) \((\d+) in all\): (.*)", line)
        magnets = re.search(r"(\d+) magnets? each", line)
        found[m.group(2)] = (
            int(m.group(1)),
            m.group(3).split(" and "),
            int(magnets.group(1)) if magnets else 0,
            line,
        )
    return found


def test_each_game_says_which_pieces_to_make_and_the_magnets_in_each(capsys):
    """The counts are the rules' (a side's supply or set-up), the magnets where the switches
    are: a Trirod lies either way round over a switch a quarter along its square's diagonal."""
    pitch = 30
    text = run(capsys, "antipalos", "--size", "12", "--pitch", str(pitch))
    trirod = piece_lines(text)["trirod"]
    assert trirod[:3] == (18, ["white", "black"], 2)  # 3N/2 a side
    assert f"a rod {math.sqrt(2) * pitch - 2:.0f} mm long" in trirod[3]
    assert counts(text)["magnet"] == 36 * 2

    text = run(capsys, "antipode")
    found = piece_lines(text)
    assert found["token"][:3] == (61, ["blue/red"], 1) and "two-faced" in found["token"][3]
    assert found["pawn"][:3] == (1, ["blue", "red"], 0)  # no switch reads a pawn
    assert counts(text)["magnet"] == 61

    text = run(capsys, "anti-grid", "--size", "6")
    assert piece_lines(text)["pawn"][:3] == (11, ["red", "blue"], 1)
    assert counts(text)["magnet"] == 22

    text = run(capsys, "phalanx", "--pitch", str(pitch))
    found = piece_lines(text)
    per_side = {kind: (n, magnets) for kind, (n, _, magnets, _) in found.items()}
    # 15 a side; a piece has a magnet over each triangle it covers.
    assert per_side == {"Auxiliary": (8, 1), "Archer": (4, 2), "Hoplite": (2, 3), "Syntagma": (1, 2)}
    assert "left-handed" in found["Hoplite"][3]
    assert f"{pitch - 2} x {pitch - 2} mm" in found["Archer"][3]
    assert counts(text)["magnet"] == 2 * (8 + 4 * 2 + 2 * 3 + 2)

    # Antipod: a side never needs more stones than its start, a stone for each of its turns
    # and a twin for each edge point it takes (6 x 5 = 30 edge points at radius 6).
    text = run(capsys, "antipod", "--size", "6")
    points, edge = 152, 30
    white_turns = math.ceil((points - 8) / 2)
    most = 12 + white_turns + min(white_turns, edge - 6)
    assert piece_lines(text)["stone"][:3] == (most, ["white", "black"], 1)


@pytest.mark.parametrize("leds", LEDS)
@pytest.mark.parametrize("scanner", SCANNERS)
@pytest.mark.parametrize("game,size", GAMES)
def test_every_build_lists_the_parts_it_uses_and_no_other(tmp_path, capsys, game, size, scanner, leds):
    config = tmp_path / "config.toml"
    config.write_text(
        f'game = "{game}"\n[leds]\nbackend = "{leds}"\n'
        + ('port = "/dev/ttyACM0"\n' if leds == "serial" else "")
    )
    n = sites(game, size)
    text = run(capsys, game, *size_args(size), "--config", str(config), "--scanner", scanner)
    found = counts(text)
    assert found["reed switch"] == n
    # More switches than eight MCP23017s' inputs: their inputs are a matrix's columns.
    matrix = scanner in ("gpio-matrix", "serial") or (scanner == "mcp23017" and n > 128)
    assert found.get("1N4148 diode", 0) == (n if matrix else 0)
    assert found.get("74HC165 shift register", 0) == (math.ceil(n / 8) if scanner == "74hc165" else 0)
    assert found.get("10 kΩ resistor", 0) == (8 * math.ceil(n / 8) if scanner == "74hc165" else 0)
    assert ("MCP23017 I2C expander" in found) == (scanner == "mcp23017")
    mega = scanner == "serial" or leds == "serial"
    assert found.get("Arduino Mega 2560", 0) == (1 if mega else 0)
    ws2812 = leds in ("ws2812", "serial")
    assert found.get("WS2812B LED", 0) == (n if ws2812 else 0)
    assert ("1000 µF capacitor" in found) == ws2812
    assert any(name.startswith("5 V supply") for name in found) == ws2812
    # The level shifter and GPIO 18 only where the Pi drives the LEDs itself.
    assert ("74AHCT125 level shifter" in found) == (leds == "ws2812")
    budget = pins(text)
    led_data = [line for line in section(text, "Pins") if "GPIO 18" in line and "LED" in line]
    assert bool(led_data) == (leds == "ws2812")
    assert found.get("330 Ω resistor", 0) == (
        math.ceil(n / 100) if leds == "serial" else 1 if leds == "ws2812" else 0
    )
    assert found.get("MAX7219 8x8 LED module", 0) == (math.ceil(n / 64) if leds == "max7219" else 0)
    # Every pin is listed once, and the count is of the pins listed.
    for host, (used, listed, fits) in budget.items():
        assert len(listed) == len(set(listed))
        if fits:
            assert used == len(listed)
    assert ("Arduino Mega 2560" in budget) == mega


def test_a_gpio_matrix_that_needs_more_pins_than_the_pi_has_says_what_to_add(tmp_path, capsys):
    """Phalanx's 128 switches as a GPIO matrix take 10 + 13 pins; with the OLED's two, three
    buttons and the LEDs' GPIO 18 that is 29 of the Pi's 26."""
    text = run(capsys, "phalanx", "--scanner", "gpio-matrix")
    used, _, fits = pins(text)["Raspberry Pi"]
    assert not fits and used == 29
    advice = [line for line in section(text, "Pins") if line.strip().startswith("->")]
    assert "add an MCP23017: 8 rows on the Pi" in advice[0]
    assert "74HC165 chain: 16 registers" in advice[1]
    # It is not drawn for soldering: one line says why.
    assert (
        main(["plan", "phalanx", "--scanner", "gpio-matrix", "--pitch", "30", "--out", "/nonexistent/x.svg"])
        == 2
    )
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "29 pins needed" in err and "MCP23017" in err
    # The part it names fits: eight rows on the Pi, the columns on one chip.
    config = tmp_path / "config.toml"
    table = re.search(r"\(\[sensors\] (backend = .*), (rows = \[.*\])\)", advice[0])
    config.write_text("[sensors]\n" + "\n".join(table.groups()) + "\n")
    text = run(capsys, "phalanx", "--config", str(config))
    assert pins(text)["Raspberry Pi"][2]
    assert counts(text)["MCP23017 I2C expander"] == 1
    assert "8 rows x 16 columns" in text


def test_a_small_gpio_matrix_gets_pins_the_other_parts_leave(capsys):
    text = run(capsys, "antipode", "--scanner", "gpio-matrix")
    used, listed, fits = pins(text)["Raspberry Pi"]
    assert fits and used == 8 + 8 + 2 + 3 + 1
    for taken in ("GPIO 2", "GPIO 3", "GPIO 17", "GPIO 27", "GPIO 22", "GPIO 18"):
        assert listed.count(taken) == 1


def test_a_mega_build_uses_the_firmwares_matrix_and_led_pins(capsys):
    text = run(capsys, "antipalos", "--size", "12", "--scanner", "serial")
    assert "16 x 18 matrix" in text  # the firmware's default, 288 switches
    mega = section(text, "Pins")
    rows = next(line for line in mega if "rows 0-15" in line)
    assert rows.endswith("D22, D23, D24, D25, D26, D27, D28, D29, D37, D36, D35, D34, D33, D32, D31, D30")
    assert any(line.endswith("LED chain 0 (L0-L95): D6") for line in mega)
    assert "ROW_PINS 22, 23" in text and "LED_PINS 6, 7, 8 and LED_COUNT 288" in text
    assert counts(text)["330 Ω resistor"] == 3  # a chain of 96 LEDs is written in 2.9 ms


def test_a_chain_of_registers_beside_max7219s_takes_the_other_chip_select(tmp_path, capsys):
    config = tmp_path / "config.toml"
    config.write_text('game = "antipode"\n[leds]\nbackend = "max7219"\n')
    text = run(capsys, "antipode", "--config", str(config), "--scanner", "74hc165")
    lines = section(text, "Pins")
    assert pins(text)["Raspberry Pi"][2], lines
    assert any(line.endswith("MAX7219 CS (CE0): GPIO 8") for line in lines)
    assert any(line.endswith("CLK INH (chip select): GPIO 7") for line in lines)


def test_parts_follow_the_config(tmp_path, capsys):
    config = tmp_path / "config.toml"
    config.write_text("""
game = "antipode"
[sensors]
backend = "mcp23017"
addresses = [0x20, 0x21]
rows = [5, 6]
diodes = true
[leds]
backend = "ws2812"
count = 61
brightness = 0.25
max_current_ma = 1500
[display]
backend = "sh1106"
[buttons]
backend = "gpio"
ok = 23
back = 24
menu = 25
""")
    text = run(capsys, "antipode", "--config", str(config))
    found = counts(text)
    assert found["MCP23017 I2C expander"] == 2 and found["1N4148 diode"] == 61
    assert "  1 x OLED 128x64, SH1106, I2C (address 0x3c)" in text and found["push button"] == 3
    assert "at brightness 25%: 0.9 A" in text and "at most 0.9 A" in text  # 61 x 60 mA / 4
    listed = pins(text)["Raspberry Pi"][1]
    assert {"GPIO 5", "GPIO 6", "GPIO 23", "GPIO 24", "GPIO 25"} <= set(listed)
    assert "GPIO 17" not in listed


def test_a_pitch_that_puts_a_magnet_within_a_neighbours_reach_is_warned_of(tmp_path, capsys):
    """Phalanx's two triangles of a square have their switches 0.47 of a pitch apart: at 20 mm
    a magnet is 9.4 mm from the other switch, within the 13 mm a switch may close at."""
    text = run(capsys, "phalanx", "--pitch", "20")
    warning = next(line for line in text.splitlines() if "WARNING" in line)
    assert "9.4 mm" in warning and "use a pitch of 28 mm or more" in warning
    out = tmp_path / "p.svg"
    assert main(["plan", "phalanx", "--pitch", "20", "--out", str(out)]) == 0
    assert "use a pitch of 28 mm or more" in capsys.readouterr().err
    # At the pitch it names, and with a switch of shorter reach, nothing is said.
    for args in (["--pitch", "28"], ["--pitch", "20", "--reach", "9"]):
        assert main(["plan", "phalanx", *args, "--out", str(out)]) == 0
        assert "WARNING" not in capsys.readouterr().err
    # A Trirod's magnet a quarter along its diagonal is half a pitch from the other
    # diagonal's switch: at 30 mm, 15 mm.
    text = run(capsys, "antipalos", "--size", "12", "--pitch", "30")
    assert "is 15.0 mm from" in text and "WARNING" not in text


def test_bad_requests_say_why_in_one_line(capsys):
    assert main(["plan", "antipode"]) == 2
    assert "--pitch MM is needed" in capsys.readouterr().err
    assert main(["plan", "antipode", "--pitch", "1"]) == 2
    assert "--pitch must be from 5 to 500 mm" in capsys.readouterr().err
    assert main(["plan", "antipode", "--parts", "--reach", "0"]) == 2
    assert "--reach must be from 1 to 100 mm" in capsys.readouterr().err
