"""The ``reedboard`` command line.

``reedboard run`` with only its own options (systemd's ``reedboard run --config FILE``) starts
without argparse (:func:`~firmware_host.cli.daemon_cli.quick_run`): argparse, its messages'
gettext and the parser of every command cost some 5 ms of the start to READY here. Anything
else, help and mistakes too, goes through the full parser (:mod:`firmware_host.cli.parser`),
and the garbage collector waits for READY (:mod:`firmware_host.cli.starting`).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from firmware_host.cli import starting

if TYPE_CHECKING:
    import argparse


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; given the ``command`` named, only the modules it needs.

    >>> "cafe" in build_parser("run")._subparsers._group_actions[0].choices
    False
    >>> "cafe" in build_parser()._subparsers._group_actions[0].choices
    True
    """
    from firmware_host.cli import parser

    return parser.build_parser(command)


def _parsed(argv: list[str]) -> Any:
    """``argv`` read by the full parser; None when there was no command (help printed)."""
    from firmware_host.cli.parser import parse

    parser = build_parser(argv[0] if argv else None)
    args = parse(parser, argv)
    if args.command is None:
        parser.print_help()
        return None
    _forget_locale()
    return args  # the parser's memory is reused by what the command loads next


def _forget_locale() -> None:
    """Let go of ``locale``, which argparse's messages load (gettext imports it to read $LANG;
    its tables are about 0.2 MB): what a command loads next reuses the memory, and ``import
    locale`` loads it again where something needs it."""
    sys.modules.pop("locale", None)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["run"]:
        starting.hold()  # released at READY (cli/run.py), or here if the command ends before
    try:
        from firmware_host.cli.daemon_cli import quick_run

        args = quick_run(argv) or _parsed(argv)
        return 0 if args is None else args.func(args)
    except BrokenPipeError:  # e.g. `reedboard games | head`: the reader has gone, not an error
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130
    finally:
        starting.release(freeze=False)


if __name__ == "__main__":
    sys.exit(main())
