"""What the run loop tells systemd and asks of the machine: the STATUS= line, and the power-off
command a confirmed long MENU press runs (``poweroff_command``, by default ``systemctl poweroff``,
which logind carries out for the service user thanks to the polkit rule systemd/install.sh
installs; docs/raspberry-pi.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from firmware_host.board import Controls

if TYPE_CHECKING:  # started only to power off
    import subprocess

from firmware_host.board.game import result_text


def status_text(controller: Controls) -> str:
    """The game and the side to move, or the result: "Antipalos 12: white to move"."""
    title = controller.record.game.title
    outcome = controller.record.outcome
    if outcome:
        text = f"{title}: {result_text(outcome)}"
    else:
        side = controller.snapshot().to_act
        text = f"{title}: {side} to move"
    if controller.settings.idle and controller.settings.idle.attracting:
        text += " (idle)"
    return text


class PowerOffProcess:
    """The power-off command run without blocking the scan loop; :meth:`failure` says, once,
    why it did not work."""

    def __init__(self, command: Sequence[str]) -> None:
        self.command = tuple(command)
        self._proc: subprocess.Popen | None = None

    def start(self) -> str | None:
        """Start the command; why it could not start, if it could not."""
        import subprocess

        try:
            self._proc = subprocess.Popen(
                self.command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
                errors="replace",
            )
        except OSError as exc:
            return f"{self.command[0]}: {exc.strerror or exc}"
        return None

    def failure(self) -> str | None:
        """Why the command failed, when it has just ended in failure; else None."""
        if self._proc is None or self._proc.poll() is None:
            return None
        proc, self._proc = self._proc, None
        assert proc.stderr is not None  # started with stderr=PIPE
        why = proc.stderr.read().strip().splitlines()
        proc.stderr.close()
        if proc.returncode == 0:
            return None
        return why[-1] if why else f"{self.command[0]} ended with status {proc.returncode}"
