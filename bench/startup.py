"""Start-up and memory of ``reedboard run``: start -> READY=1, resident memory, and what each
import costs, each beside a bare ``python -c pass`` measured in the same run.

Two configurations:

- ``sim``: ``reedboard run --sim`` with its page (the simulated board);
- ``hardware``: the hardware backends, the serial link to a simulated microcontroller on a pty
  (run by this process) and luma's dummy OLED, with the board's page (the default) or, as
  ``hardware-lean``, without it (``[web] enabled = false``).

For each: READY time (from ``Popen`` until READY=1 reaches a NOTIFY_SOCKET bound here), runs
interleaved with a bare interpreter's start (``ready_ratio``), and the CPU time the daemon had
used at READY beside a bare interpreter's whole CPU time (``cpu_ratio``: steadier than the wall
clock on a shared machine; the daemon's is its threads' run time in nanoseconds, where the
kernel keeps ``/proc/PID/task/*/schedstat``, else 10 ms ticks); the resident memory (VmRSS)
``SETTLE`` seconds after READY, once the first screen is drawn and the page served, beside a
bare interpreter's, and where it goes (``/proc/PID/smaps``: the interpreter's own libraries,
Pillow's, SQLite's, the other libraries, and the Python heap of objects and code), each beside
the same part of a bare interpreter sleeping; and one run under ``python -X importtime``: the
imports before READY and after it, the heaviest top-level ones named with their cumulative time.
And one start counting the classes ``dataclasses`` makes before READY and the CPU they take
(Python 3.11 compiles each one's methods one by one). Then each heavy module alone: its import
time and the memory it adds to a bare interpreter.

Each board starts with its games file there, as after a power cut (one start before the timed
ones makes it); ``--fresh`` removes it before every start instead, as at a board's very first
start, which also creates the file's tables (about 40 ms of disk syncs here, 3 ms of CPU). Each
checkout has a folder of its own (its config and games file).

The project's bytecode is compiled first (``compileall``), as ``pip install`` leaves an
installed package; ``--source`` instead removes it and runs with PYTHONDONTWRITEBYTECODE=1, so
that every start compiles the project's modules (an editable checkout that may not write).
``--compare DIR`` starts another checkout (e.g. ``git archive`` of an older commit) in turn with
this one, in the same runs; configurations it does not know never reach READY there.

``--instructions`` also counts, once each, the instructions the start executes to READY and a
bare ``python -c pass``'s (valgrind's callgrind, some 30 s a start): the same on every run and
at any load, where the times are not.

Usage: .venv/bin/python -m bench.startup [--quick] [--runs N] [--kinds K,K] [--compare DIR]
       [--source] [--fresh] [--instructions]
The last line is a JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.daemon import cpu_ticks, rss_mb
from firmware_host.runtime.notify import READY_MARK
from hardware.mcu_sim import SimMcu
from hardware.sim import SimBoard
from testbed.tools import free_port

ROOT = Path(__file__).resolve().parent.parent
#: Seconds after READY before the memory is read (the screen drawn, the page served).
SETTLE = 2.0
#: Channels of the hardware configuration's board (a 12x12 Antipalos board has 288 sites).
CHANNELS = 288
#: Modules whose cost alone is shown: what the daemon may load, heaviest first in the past.
MODULES = (
    "firmware_host.cli.main",
    "firmware_host.runtime.loop",
    "firmware_host.runtime.session",
    "firmware_host.store.config",
    "firmware_host.board.controller",
    "hardware.backends",
    "hardware.serial_link",
    "engines.antipalos",
    "engines.ai",
    "firmware_host.net.web",
    "aiohttp",
    "paho.mqtt.client",
    "PIL.Image",
    "luma.core.device",
    "hardware.oled",
    "serial",
    "sqlite3",
)
_LINE = re.compile(r"import time:\s+(-?\d+) \|\s+(-?\d+) \| ( *)(\S+)")


#: The project's packages (their bytecode compiled, or removed with --source).
PACKAGES = ("engines", "firmware_host", "hardware")


def bytecode(root: Path, source: bool) -> None:
    """Compile the project's modules under ``root`` (or, ``source``, remove their bytecode)."""
    for package in PACKAGES:
        if source:
            for cache in (root / package).rglob("__pycache__"):
                shutil.rmtree(cache)
        else:
            subprocess.run(
                [sys.executable, "-m", "compileall", "-q", str(root / package)],
                check=True,
                stdout=subprocess.DEVNULL,
            )


#: Remove the games file before every start (``--fresh``): a board's very first start.
FRESH = False


def write_config(tmp: Path, kind: str) -> tuple[list[str], SimMcu | None]:
    """The command line of ``reedboard run`` in configuration ``kind`` and the simulated
    microcontroller it talks to (None: the simulated board); its games file is kept from the
    last start (removed first if :data:`FRESH`)."""
    config = tmp / f"{kind}.toml"
    db = tmp / f"{kind}.db"
    if FRESH:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
    text = f'game = "antipalos"\nsize = 12\nstorage = "{db}"\n'
    args = ["run", "--config", str(config)]
    mcu = None
    if kind == "sim":
        text += f"[web]\nport = {free_port()}\n"
        args.append("--sim")
    else:
        port = str(tmp / f"board-{time.monotonic_ns()}")
        mcu = SimMcu(SimBoard(CHANNELS, leds=CHANNELS), port, interval=0.005)
        text += (
            f'[sensors]\nbackend = "serial"\nport = "{port}"\nchannels = {CHANNELS}\n'
            f'[leds]\nbackend = "serial"\nport = "{port}"\ncount = {CHANNELS}\n'
            f'[display]\nbackend = "dummy"\n[web]\nport = {free_port()}\n'
        )
        if kind == "hardware-lean":
            text += "enabled = false\n"
    config.write_text(text)
    return [sys.executable, "-m", "firmware_host.cli.main", *args], mcu


def ready_once(
    tmp: Path,
    kind: str,
    settle: float = 0.0,
    flags: tuple[str, ...] = (),
    root: Path = ROOT,
    cpu: list[float] | None = None,
    parts: dict[str, float] | None = None,
) -> tuple[float | None, float, str]:
    """Seconds to READY=1 of the checkout at ``root``, the RSS (MB) ``settle`` s later, and the
    stderr, READY marked in it (by the daemon under ``-X importtime``; else where READY=1
    arrived, a checkout from before the daemon marked it); the CPU seconds used by READY
    appended to ``cpu``, and where the memory goes (:func:`memory_parts`) into ``parts``."""
    command, mcu = write_config(tmp, kind)
    command[1:1] = flags
    address = str(tmp / "notify")
    if os.path.exists(address):
        os.unlink(address)
    err = tmp / "stderr"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock, open(err, "w") as errors:
        sock.bind(address)
        sock.settimeout(30)
        env = {**os.environ, "NOTIFY_SOCKET": address}
        began = time.perf_counter()
        proc = subprocess.Popen(
            command, cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors
        )
        try:
            while b"READY=1" not in sock.recv(4096):
                if proc.poll() is not None:
                    raise OSError("ended before READY")
            took: float | None = time.perf_counter() - began
            if cpu is not None:
                cpu.append(cpu_seconds(proc.pid))
            at_ready = err.stat().st_size
            time.sleep(settle)
            rss = rss_mb(proc.pid) if settle else float("nan")
            if settle and parts is not None:
                parts.update(memory_parts(proc.pid))
        except OSError:
            took, rss, at_ready = None, float("nan"), 0
        finally:
            proc.terminate()
            proc.wait(timeout=10)
            if mcu is not None:
                mcu.close()
    text = err.read_text()
    if READY_MARK not in text:
        text = f"{text[:at_ready]}\n{READY_MARK}\n{text[at_ready:]}"
    return took, rss, text


#: Run as the daemon (``python -c``, its arguments after): counts the dataclasses made and the CPU
#: they take until READY, then prints them with the CPU used by then and exits.
_DATACLASSES = """
import dataclasses, json, os, sys, time
from firmware_host.runtime import notify
made, spent, make = [0], [0.0], dataclasses._process_class
def counted(cls, *args):
    began = time.process_time()
    try:
        return make(cls, *args)
    finally:
        made[0] += 1
        spent[0] += time.process_time() - began
def ready(self, status):
    cpu = time.process_time()
    print(json.dumps({"made": made[0], "cpu_ms": round(spent[0] * 1000, 1), "of_ms": round(cpu * 1000, 1)}))
    os._exit(0)
dataclasses._process_class, notify.Notifier.ready = counted, ready
sys.argv[0] = "reedboard"
from firmware_host.cli.main import main
main()
"""


def dataclasses_made(tmp: Path, kind: str, root: Path = ROOT) -> dict:
    """The dataclasses configuration ``kind`` makes before READY, the CPU (ms) they take and
    the CPU used by READY (one start of the checkout at ``root``)."""
    command, mcu = write_config(tmp, kind)
    try:
        out = subprocess.run(
            [sys.executable, "-c", _DATACLASSES, *command[3:]],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        if mcu is not None:
            mcu.close()
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    return json.loads(lines[-1]) if lines else {"error": out.stderr.strip()[-200:]}


#: Run as the daemon (``python -c``, its arguments after): ends at READY.
_TO_READY = """
import os, sys
from firmware_host.runtime import notify
notify.Notifier.ready = lambda self, status: os._exit(0)
sys.argv[0] = "reedboard"
from firmware_host.cli.main import main
main()
"""


def instructions(command: list[str], root: Path = ROOT) -> float | None:
    """Millions of instructions ``command`` (a Python's command line) executes, counted by
    valgrind's callgrind (None if it cannot: no valgrind)."""
    if shutil.which("valgrind") is None:
        return None
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        cwd=root,
        env={**os.environ, "PYTHONHASHSEED": "0"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    found = re.search(r"Collected : (\d+)", out.stderr)
    return round(int(found[1]) / 1e6, 1) if found else None


def instructions_to_ready(tmp: Path, kind: str, root: Path = ROOT) -> float | None:
    """Millions of instructions configuration ``kind`` of the checkout at ``root`` executes
    until READY (one start)."""
    command, mcu = write_config(tmp, kind)
    try:
        return instructions([sys.executable, "-c", _TO_READY, *command[3:]], root)
    finally:
        if mcu is not None:
            mcu.close()


def cpu_seconds(pid: int) -> float:
    """The CPU seconds process ``pid`` has used: its threads' run time (``schedstat``, in
    nanoseconds), else its ``stat`` in 10 ms ticks."""
    try:
        tasks = Path(f"/proc/{pid}/task").iterdir()
        return sum(int((task / "schedstat").read_text().split()[0]) for task in tasks) / 1e9
    except (OSError, ValueError, IndexError):  # no schedstat, or a thread ended meanwhile
        return cpu_ticks(pid) / os.sysconf("SC_CLK_TCK")


def bare_once(cpu: list[float] | None = None) -> float:
    """Seconds a bare ``python -c pass`` takes; its CPU seconds appended to ``cpu``."""
    began = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    _, _, usage = os.wait4(proc.pid, 0)
    if cpu is not None:
        cpu.append(usage.ru_utime + usage.ru_stime)
    return time.perf_counter() - began


def bare_rss() -> float:
    """The resident memory (MB) of a bare interpreter."""
    out = subprocess.run([sys.executable, "-c", _RSS], capture_output=True, text=True, check=True)
    return float(out.stdout)


_RSS = (
    "import sys\nfor line in open('/proc/self/status'):\n"
    "    if line.startswith('VmRSS:'): print(int(line.split()[1]) / 1024)\n"
)


#: Where resident memory goes: a part's name and how a mapping's path is known to be in it
#: (the first that matches; anonymous memory and the heap are the Python objects and code).
PARTS = (
    ("Pillow", ("/PIL/", "pillow.libs")),
    ("SQLite", ("sqlite3",)),
    ("interpreter", ("libpython", "/python3", "libc.so", "libm.so", "ld-linux", "LC_")),
    ("Python heap", ("[heap]", "[anon]")),
    ("other libraries", ("",)),
)


def memory_parts(pid: int) -> dict[str, float]:
    """The resident memory (MB) of process ``pid`` in each of :data:`PARTS`."""
    mb = dict.fromkeys((name for name, _ in PARTS), 0.0)
    path = "[anon]"
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        head = line.split(maxsplit=5)
        if re.match(r"^[0-9a-f]+-[0-9a-f]+$", head[0]):
            path = head[5] if len(head) > 5 else "[anon]"
        elif head[0] == "Rss:":
            name = next(name for name, marks in PARTS if any(mark in path for mark in marks))
            mb[name] += int(head[1]) / 1024
    return {name: round(value, 2) for name, value in mb.items()}


def bare_parts() -> dict[str, float]:
    """:func:`memory_parts` of a bare interpreter (asleep)."""
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(5)"])
    try:
        time.sleep(0.5)
        return memory_parts(proc.pid)
    finally:
        proc.kill()
        proc.wait()


def imports(stderr: str) -> dict:
    """From a ``-X importtime`` log cut at READY: total ms before and after READY, and the
    top-level imports before READY (cumulative ms), heaviest first."""
    before, _, after = stderr.partition(READY_MARK)
    top: dict[str, float] = {}
    totals = []
    for part in (before, after):
        total = 0.0
        for self_us, cumulative_us, indent, name in _LINE.findall(part):
            total += int(self_us) / 1000
            if part is before and not indent:
                top[name] = top.get(name, 0.0) + int(cumulative_us) / 1000
        totals.append(total)
    heavy = dict(sorted(top.items(), key=lambda kv: -kv[1])[:12])
    return {
        "before_ready_ms": round(totals[0], 1),
        "after_ready_ms": round(totals[1], 1),
        "heaviest_before_ready_ms": {k: round(v, 1) for k, v in heavy.items()},
    }


def module_cost(name: str) -> dict:
    """One module imported alone in a fresh interpreter: its cumulative import time (ms) and
    the resident memory (MB) it adds."""
    code = f"{_RSS.replace('print(', 'a=(')}\nimport {name}\n{_RSS}"
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code], cwd=ROOT, capture_output=True, text=True
    )
    if out.returncode:
        return {"error": out.stderr.strip().splitlines()[-1]}
    cost = [int(c) for _, c, indent, n in _LINE.findall(out.stderr) if not indent and n == name]
    base = bare_rss()
    return {
        "import_ms": round(cost[-1] / 1000, 1) if cost else 0.0,
        "rss_mb": round(float(out.stdout) - base, 1),
    }


def measure(kind: str, runs: int, tmp: Path, roots: list[Path], counted: bool = False) -> list[dict]:
    """READY, memory and imports of configuration ``kind`` started from each of ``roots`` (each
    in a folder of its own, its games file made by a first start), their runs in turn with a
    bare interpreter's; with ``counted``, the instructions to READY too."""
    homes = [tmp / f"checkout-{i}" for i in range(len(roots))]
    for home, root in zip(homes, roots):
        home.mkdir(exist_ok=True)
        ready_once(home, kind, root=root)
    times: list[list[float | None]] = [[] for _ in roots]
    cpus: list[list[float]] = [[] for _ in roots]
    bare: list[float] = []
    bare_cpu: list[float] = []
    for _ in range(runs):
        bare.append(bare_once(bare_cpu))
        for home, root, got, cpu in zip(homes, roots, times, cpus):
            got.append(ready_once(home, kind, root=root, cpu=cpu)[0])
    out = []
    for home, root, got, cpu in zip(homes, roots, times, cpus):
        good = [t for t in got if t is not None]
        parts: dict[str, float] = {}
        _, rss, _ = ready_once(home, kind, settle=SETTLE, root=root, parts=parts)
        _, _, log = ready_once(home, kind, flags=("-X", "importtime"), root=root)
        made = dataclasses_made(home, kind, root)
        counts: dict[str, float | None] = {}
        if counted:
            counts["instructions_to_ready_m"] = got_ir = instructions_to_ready(home, kind, root)
            counts["bare_python_instructions_m"] = bare_ir = instructions([sys.executable, "-c", "pass"])
            counts["instructions_ratio"] = round(got_ir / bare_ir, 2) if got_ir and bare_ir else None
        out.append(
            {
                "never_ready": len(got) - len(good),
                "ready_median_s": round(statistics.median(good), 3) if good else None,
                "bare_python_median_s": round(statistics.median(bare), 3),
                "ready_ratio": round(statistics.median(good) / statistics.median(bare), 1) if good else None,
                "ready_cpu_s": round(statistics.median(cpu), 3) if cpu else None,
                "bare_python_cpu_s": round(statistics.median(bare_cpu), 3),
                "cpu_ratio": round(statistics.median(cpu) / statistics.median(bare_cpu), 1) if cpu else None,
                "rss_mb": round(rss, 1),
                "bare_python_rss_mb": round(bare_rss(), 1),
                "rss_parts_mb": parts,
                "bare_python_parts_mb": bare_parts(),
                "dataclasses_before_ready": made,
            }
            | counts
            | imports(log)
        )
    return out


def show(name: str, got: dict) -> None:
    if got["ready_median_s"] is None:
        print(f"{name}: never READY")
        return
    print(
        f"{name}: READY {got['ready_median_s']} s = {got['ready_ratio']}x a bare python "
        f"({got['bare_python_median_s']} s); CPU {got['ready_cpu_s']} s = {got['cpu_ratio']}x "
        f"({got['bare_python_cpu_s']} s); RSS {got['rss_mb']} MB (bare "
        f"{got['bare_python_rss_mb']} MB); imports {got['before_ready_ms']} ms before READY, "
        f"{got['after_ready_ms']} ms after"
    )
    if got.get("instructions_to_ready_m"):
        print(
            f"    instructions to READY {got['instructions_to_ready_m']}M = {got['instructions_ratio']}x "
            f"a bare python's ({got['bare_python_instructions_m']}M)"
        )
    made = got["dataclasses_before_ready"]
    if "made" in made:
        print(
            f"    {made['made']} dataclasses made before READY: {made['cpu_ms']} ms of {made['of_ms']} ms CPU"
        )
    for module, ms in got["heaviest_before_ready_ms"].items():
        print(f"    {ms:>7.1f} ms  {module}")
    bare = got["bare_python_parts_mb"]
    print("    resident memory by part, MB (a bare python's beside it):")
    for part, mb in got["rss_parts_mb"].items():
        print(f"    {mb:>7.2f}  ({bare.get(part, 0.0):.2f})  {part}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 runs of each (default 11)")
    parser.add_argument("--runs", type=int, help="READY runs of each configuration")
    parser.add_argument(
        "--kinds", default="sim,hardware,hardware-lean", help="configurations, comma-separated"
    )
    parser.add_argument(
        "--compare", metavar="DIR", type=Path, help="another checkout, started in turn with this one"
    )
    parser.add_argument(
        "--source", action="store_true", help="no bytecode: every start compiles the project's modules"
    )
    parser.add_argument(
        "--fresh", action="store_true", help="no games file: every start is a board's very first"
    )
    parser.add_argument(
        "--instructions", action="store_true", help="count the instructions to READY (valgrind)"
    )
    args = parser.parse_args()
    global FRESH
    FRESH = args.fresh
    runs = args.runs or (5 if args.quick else 11)
    figures: dict = {"bench": "startup", "runs": runs, "source": args.source, "fresh": args.fresh}
    figures["load_average"] = os.getloadavg()
    print("load average (1, 5, 15 min) at the start: {:.1f} {:.1f} {:.1f}".format(*figures["load_average"]))
    roots = [ROOT] + ([args.compare.resolve()] if args.compare else [])
    if args.source:
        os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
    for root in roots:
        bytecode(root, args.source)
    with tempfile.TemporaryDirectory(prefix="reedboard-startup-") as tmp:
        for kind in args.kinds.split(","):
            got = measure(kind, runs, Path(tmp), roots, args.instructions)
            figures[kind] = got[0]
            show(kind, got[0])
            if args.compare:
                figures[f"{kind} (compare)"] = got[1]
                show(f"{kind} ({args.compare})", got[1])
    figures["load_average_end"] = os.getloadavg()
    print("load average at the end: {:.1f} {:.1f} {:.1f}".format(*figures["load_average_end"]))
    print(f"{'module alone':<34}{'import ms':>10}{'+RSS MB':>9}")
    alone = figures["modules"] = {name: module_cost(name) for name in MODULES}
    for name, cost in alone.items():
        print(
            f"{name:<34}{cost.get('import_ms', '-'):>10}{cost.get('rss_mb', '-'):>9}  {cost.get('error', '')}"
        )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
