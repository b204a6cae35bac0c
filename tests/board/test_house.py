"""The controller stays small and typed, so that a newcomer finds where a behaviour lives: few
attributes (its parts own the rest), short methods, typed events, phases that answer for
themselves, and the board's game under ``mypy --strict``."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path
from typing import get_args, get_type_hints, is_typeddict

from firmware_host.board.controller import OUTSIDE, Controller
from firmware_host.board.events import Event
from firmware_host.board.game import Game
from testbed.drive import Drive

ROOT = Path(__file__).resolve().parents[2]
BOARD = ROOT / "firmware_host" / "board"
#: The modules that read where the game stands (the phase) besides board/phase.py.
PHASE_READERS = [*sorted(BOARD.glob("*.py")), ROOT / "firmware_host" / "net" / "web" / "story.py"]
#: Modules of board/ other helpers own that are not yet under --strict.
NOT_YET_STRICT = {"worker"}


def _class(path: Path, name: str) -> ast.ClassDef:
    tree = ast.parse(path.read_text())
    return next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)


def _mentions_phase(node: ast.expr) -> bool:
    return "phase" in ast.unparse(node)


def test_the_controller_keeps_at_most_15_attributes():
    """What it holds beyond that is its parts': settings, sensing, notices, output."""
    stored = {
        n.attr
        for n in ast.walk(_class(BOARD / "controller.py", "Controller"))
        if isinstance(n, ast.Attribute)
        and isinstance(n.ctx, ast.Store)
        and isinstance(n.value, ast.Name)
        and n.value.id == "self"
    }
    assert len(stored) <= 15, sorted(stored)


def _body_lines(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """A function's lines from its first statement after the docstring to its end (the
    signature, one parameter a line as the formatter lays a long one out, is not counted)."""
    body = function.body
    start = (
        body[1]
        if len(body) > 1
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
        else body[0]
    )
    return (function.end_lineno or start.lineno) - start.lineno + 1


def test_no_function_of_the_controller_module_is_over_30_lines():
    tree = ast.parse((BOARD / "controller.py").read_text())
    long = {
        n.name: _body_lines(n)
        for n in ast.walk(tree)
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and _body_lines(n) > 30
    }
    assert not long


def test_the_controller_s_events_are_a_union_of_typed_dicts():
    """The game's events (the setup wizard's, board/wizard.py, are its own)."""
    assert get_type_hints(Controller.step)["return"] == list[Event]
    assert all(is_typeddict(kind) for kind in get_args(Event))
    untyped = [
        p.name
        for p in BOARD.glob("*.py")
        if p.name != "wizard.py" and re.search(r"^Event = dict", p.read_text(), re.M)
    ]
    assert not untyped


def test_no_getattr_nor_isinstance_on_a_phase_outside_phase_py():
    """A phase answers for itself (board/phase.py); the judge and the view pick a phase's
    handler from their tables."""
    found = []
    for path in PHASE_READERS:
        if path.name == "phase.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "isinstance")
                and node.args
                and _mentions_phase(node.args[0])
            ):
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    assert not found


def test_the_board_s_modules_and_the_engines_are_checked_strictly():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    strict = next(o for o in config["overrides"] if o.get("disallow_untyped_defs"))
    board = {f"firmware_host.board.{p.stem}" for p in BOARD.glob("*.py") if p.stem != "__init__"}
    missing = board - set(strict["module"]) - {f"firmware_host.board.{m}" for m in NOT_YET_STRICT}
    assert not missing and {"engines", "engines.*"} <= set(strict["module"])


def test_other_rooms_use_only_the_controller_s_named_interface():
    used = {}
    for path in (ROOT / "firmware_host").rglob("*.py"):
        if path.parent.name == "board":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and ast.unparse(node.value).split(".")[-1] == "controller":
                used.setdefault(node.attr, f"{path.relative_to(ROOT)}:{node.lineno}")
    assert set(used) <= OUTSIDE, {name: where for name, where in used.items() if name not in OUTSIDE}
    ctl = Drive(Game.of("antipalos", 3)).ctl
    assert all(hasattr(ctl, name) for name in OUTSIDE)
