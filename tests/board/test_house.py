"""The controller stays small and typed, so that a newcomer finds where a behaviour lives: few
attributes (its parts own the rest), short methods, typed events, phases that answer for
themselves, and the board's game under ``mypy --strict``."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path
from typing import get_args, get_type_hints, is_typeddict

from firmware_host.board import Controls, Recorded
from firmware_host.board.controller import Controller
from firmware_host.board.events import Event
from firmware_host.board.game import Game
from testbed.drive import Drive

ROOT = Path(__file__).resolve().parents[2]
BOARD = ROOT / "firmware_host" / "board"
#: The modules that read where the game stands (the phase) besides board/phase.py.
PHASE_READERS = [*sorted(BOARD.glob("*.py")), ROOT / "firmware_host" / "net" / "web" / "story.py"]


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
    missing = board - set(strict["module"])
    assert not missing and {"engines", "engines.*"} <= set(strict["module"])


def _members(protocol: type) -> set[str]:
    """The names a protocol class declares (methods, properties, attributes)."""
    tree = _class(BOARD / "__init__.py", protocol.__name__)
    return {
        n.name if isinstance(n, ast.FunctionDef) else ast.unparse(n.target)
        for n in tree.body
        if isinstance(n, (ast.FunctionDef, ast.AnnAssign))
    }


def _outside() -> list[Path]:
    return [p for p in (ROOT / "firmware_host").rglob("*.py") if p.parent.name != "board"]


def test_the_board_s_interface_to_other_rooms_is_small():
    """Stepped and shown, told, and read: at most 20 names, and a read-only view of the game."""
    assert len(_members(Controls)) <= 20 and len(_members(Recorded)) <= 8
    ctl = Drive(Game.of("antipalos", 3)).ctl
    assert all(hasattr(ctl, name) for name in _members(Controls))
    assert all(hasattr(ctl.record, name) for name in _members(Recorded))


def test_other_rooms_use_only_the_board_s_named_interface():
    """Outside board/, a controller is a ``Controls`` (so mypy checks every use; only the
    session that builds one names the class), and what is used of one is in it."""
    allowed = {"controller": _members(Controls), "record": _members(Recorded)}
    used, builders = {}, []
    for path in _outside():
        text = path.read_text()
        if re.search(r"^from firmware_host\.board\.controller import", text, re.M):
            builders.append(path.relative_to(ROOT).as_posix())
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.Attribute):
                continue
            chain = ast.unparse(node.value).split(".")
            of = "record" if chain[-2:] == ["controller", "record"] else chain[-1]
            if of in allowed and (of == "controller" or chain[-2:-1] == ["controller"]):
                if node.attr not in allowed[of]:
                    used.setdefault(f"{of}.{node.attr}", f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not used
    assert builders == ["firmware_host/runtime/session.py"]


#: What the judge may import: the rules of the games, what a settled board means to the engine,
#: the phases and turns (values), the decisions it returns and the words it says.
JUDGE_IMPORTS = {
    "engines.core",
    "firmware_host.board",
    "firmware_host.board.decisions",
    "firmware_host.board.events",
    "firmware_host.board.opponent",
    "firmware_host.board.phase",
    "firmware_host.board.recognise",
    "firmware_host.board.turn",
    "firmware_host.i18n",
}
#: What the judge reads of the game record, of the settings and of the opponent.
RECORD_READS = {"board", "boards", "earlier", "game", "moves", "sorted", "state", "states"}
SETTINGS_READS = {"idle", "takebacks"}


def _imports(path: Path) -> dict[str, set[str]]:
    """Each module ``path`` imports from (within the project) and the names it takes."""
    found: dict[str, set[str]] = {}
    for node in ast.walk(ast.parse(path.read_text())):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.module.split(".")[0]
            in (
                "engines",
                "firmware_host",
                "hardware",
            )
        ):
            found.setdefault(node.module, set()).update(a.name for a in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in ("engines", "firmware_host", "hardware"):
                    found.setdefault(alias.name, set())
    return found


def test_the_judge_imports_nothing_that_acts():
    """The judge returns what should happen: it imports no controller, part, storage nor
    screen, and of the opponent only its answer to a takeback (a value)."""
    imported = _imports(BOARD / "judge.py")
    assert set(imported) <= JUDGE_IMPORTS, set(imported) - JUDGE_IMPORTS
    assert imported.get("firmware_host.board.opponent", set()) <= {"Asked"}


def _reads(protocol: ast.ClassDef) -> tuple[set[str], set[str]]:
    """(properties, methods) a protocol class declares."""
    props, methods = set(), set()
    for n in protocol.body:
        if isinstance(n, ast.FunctionDef):
            decorated = any(ast.unparse(d) == "property" for d in n.decorator_list)
            (props if decorated else methods).add(n.name)
    return props, methods


def test_what_the_judge_reads_is_only_read():
    """Its view of the game (``decisions.View``) has properties and the engine's answers about
    the position, and the judge uses of the view, the record, the settings and the opponent
    only what is read."""
    props, methods = _reads(_class(BOARD / "decisions.py", "View"))
    assert methods == {"touchable", "captures", "targets_of"}
    rival, asked = _reads(_class(BOARD / "decisions.py", "Rival"))
    assert asked == {"side_in"}
    allowed = {
        "": props | methods,
        "record": RECORD_READS,
        "settings": SETTINGS_READS,
        "opponent": rival | asked,
    }
    used = set()
    for node in ast.walk(ast.parse((BOARD / "judge.py").read_text())):
        if isinstance(node, ast.Attribute):
            chain = ast.unparse(node.value).split(".")
            if chain[0] == "c" and len(chain) <= 2:
                of = chain[1] if len(chain) == 2 else ""
                if of in allowed and node.attr not in allowed[of]:
                    used.add(f"c.{of + '.' if of else ''}{node.attr}")
    assert not used


def test_the_judge_s_functions_are_short():
    tree = ast.parse((BOARD / "judge.py").read_text())
    long = {
        n.name: _body_lines(n)
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef) and _body_lines(n) > 30
    }
    assert not long


def test_every_decision_is_applied_in_one_place():
    """``Controller.apply`` carries out each of the judge's decisions (``Then`` asks again)."""
    from firmware_host.board import controller, decisions

    kinds = set(get_args(decisions.Decision))
    assert kinds - set(controller.APPLIED) == {decisions.Then}


def _unfolded(view, decided):
    """The decisions, each ``Then`` asked at once (right where nothing before it acts)."""
    from firmware_host.board.decisions import Then

    out = []
    for decision in decided:
        out += _unfolded(view, decision.judged(view)) if isinstance(decision, Then) else [decision]
    return out


def test_the_judge_decides_and_the_controller_alone_acts():
    """A board that shows a move, judged: nothing changes (no move, no event, the same picture)
    and the answer is that move saved; applied by the controller, it is played and told."""
    from firmware_host.board import judge
    from firmware_host.board.decisions import Accept, InSync
    from tests.board.toy_game import ToyGame, move

    script = ((move("m", ["s0"], ["s1"]),), (move("n", [], ["s5"]),))
    d = Drive(ToyGame("toy", script=script, start=frozenset({"s0"}))).run(500)
    before, told = d.ctl.snapshot(), len(d.events)
    decided = judge.settled(d.ctl, frozenset({"s1"}))
    assert d.ctl.snapshot() == before and d.ctl.record.moves == [] and len(d.events) == told
    found = _unfolded(d.ctl, decided)
    assert [type(x) for x in found] == [InSync, Accept] and found[1].turn.move.name == "m"
    d.ctl.apply(decided)
    assert d.ctl.record.moves == ["m"] and d.ctl.output.take()[0]["event"] == "move"
