"""What the board plays: short cues on a buzzer (gpiozero) or the audio out (aplay), and a
voice (eSpeak NG). Each works in a thread of its own, so nothing here holds up the scan loop,
and each keeps only the newest thing it was given that it has not begun: a cue or a sentence
that would come late is dropped, never queued behind the game.

A cue is a few notes, (frequency in Hz, ms); a frequency of 0 is a rest:

>>> CUES["refused"]
((220, 120), (0, 60), (220, 120))
>>> len(wav(CUES["move"])) > 44  # a RIFF header and its samples
True
"""

from __future__ import annotations

import io
import math
import os
import struct
import sys
import threading
import time
import wave
from typing import Any, Callable, Sequence

from hardware.supervise import Supervised, describe

Note = tuple[int, int]

#: The cues by name: what the board plays when it happens.
CUES: dict[str, tuple[Note, ...]] = {
    "move": ((880, 60),),  # a move taken
    "refused": ((220, 120), (0, 60), (220, 120)),  # a move refused
    "turn": ((660, 60), (0, 40), (880, 60)),  # your turn (the opponent's move carried out)
    "opponent": ((880, 60), (0, 40), (660, 60), (0, 40), (880, 60)),  # the computer's move to make
    "follow_up": ((990, 50), (0, 50), (990, 50)),  # a step of the move asked for
    "over": ((523, 150), (659, 150), (784, 300)),  # game over
    "low_time": ((1320, 40), (0, 80), (1320, 40), (0, 80), (1320, 40)),  # a clock running low
}
#: Samples per second of the generated cue sounds.
RATE = 16000


def wav(notes: Sequence[Note], rate: int = RATE) -> bytes:
    """``notes`` as a mono 16-bit WAV file's bytes (square-ish tones, soft edges)."""
    frames = bytearray()
    for freq, ms in notes:
        count = rate * ms // 1000
        for i in range(count):
            edge = min(1.0, i / 80, (count - i) / 80)
            level = math.copysign(0.3, math.sin(2 * math.pi * freq * i / rate)) if freq else 0.0
            frames += struct.pack("<h", int(level * edge * 32767))
    out = io.BytesIO()
    with wave.open(out, "wb") as file:
        file.setnchannels(1)
        file.setsampwidth(2)
        file.setframerate(rate)
        file.writeframes(bytes(frames))
    return out.getvalue()


class Latest:
    """A one-place mailbox: :meth:`put` replaces what was not yet taken; :meth:`take` waits.

    >>> box = Latest(); box.put("old"); box.put("new"); box.take(0)
    'new'
    """

    def __init__(self) -> None:
        self._item: Any = None
        self._ready = threading.Condition()

    def put(self, item: Any) -> None:
        with self._ready:
            self._item = item
            self._ready.notify()

    def take(self, timeout: float | None = None) -> Any:
        """The newest item (None after ``timeout`` s with none)."""
        with self._ready:
            self._ready.wait_for(lambda: self._item is not None, timeout)
            item, self._item = self._item, None
            return item


class Player:
    """A thread that plays what it is given with ``play(item)``, the newest first; what it
    could not play is said once on ``err`` (``problem`` keeps it) and it goes on."""

    def __init__(self, name: str, play: Callable[[Any], None], err: Any = None) -> None:
        self._play, self._err = play, err
        self.box = Latest()
        #: What went wrong last (None: nothing).
        self.problem: str | None = None
        self._closed = False
        self.helper = Supervised(name, self._run)
        self.helper.start()

    def give(self, item: Any) -> None:
        self.box.put(item)

    def check(self) -> str | None:
        """A thread that died is started again: why (None: it runs)."""
        return self.helper.check()

    def _run(self) -> None:
        while not self._closed:
            item = self.box.take(0.5)
            if item is None or self._closed:
                continue
            try:
                self._play(item)
            except Exception as exc:  # noqa: BLE001 - any output's failure: said once
                self.failed(describe(exc))

    def failed(self, why: str) -> None:
        if why != self.problem:
            print(f"reedboard run: {self.helper.name}: {why}", file=self._err or sys.stderr)
        self.problem = why

    def close(self) -> None:
        self._closed = True
        self.box.put(())
        self.helper.join(2)


class Buzzer:
    """Cues on a buzzer at GPIO ``pin``: a TonalBuzzer (``tonal``, a passive buzzer playing the
    notes) or a Buzzer (an active one, on for each note)."""

    def __init__(self, pin: int, tonal: bool = False, pin_factory: Any = None, err: Any = None) -> None:
        from gpiozero import Buzzer as OnOff
        from gpiozero import TonalBuzzer

        if tonal:
            self.device: Any = TonalBuzzer(pin, octaves=3, pin_factory=pin_factory)
        else:
            self.device = OnOff(pin, pin_factory=pin_factory)
        self.tonal = tonal
        self.player = Player("buzzer", self._play, err)

    def cue(self, name: str) -> None:
        self.player.give(CUES[name])

    def _play(self, notes: Sequence[Note]) -> None:
        for freq, ms in notes:
            if freq and self.tonal:
                self.device.play(min(max(freq, 110), 1760))
            elif freq:
                self.device.on()
            time.sleep(ms / 1000)
            self.device.stop() if self.tonal else self.device.off()

    def close(self) -> None:
        self.player.close()
        self.device.close()


class AudioCues:
    """Cues on the audio out: each cue a WAV file made once, played by ``aplay``."""

    def __init__(self, command: Sequence[str] = ("aplay", "-q"), err: Any = None) -> None:
        import tempfile  # here: a board without sound loads none of this (its memory)

        self.dir = tempfile.TemporaryDirectory(prefix="reedboard-cues-")
        self.files = {}
        for name, notes in CUES.items():
            self.files[name] = os.path.join(self.dir.name, f"{name}.wav")
            with open(self.files[name], "wb") as file:
                file.write(wav(notes))
        self.command = tuple(command)
        self.player = Player("audio cues", self._play, err)

    def cue(self, name: str) -> None:
        self.player.give(self.files[name])

    def _play(self, path: str) -> None:
        import subprocess

        done = subprocess.run([*self.command, path], capture_output=True, timeout=10, check=False)
        if done.returncode:
            why = done.stderr.decode(errors="replace").strip().splitlines() or [f"status {done.returncode}"]
            self.player.failed(f"{self.command[0]} failed: {why[-1]}")

    def close(self) -> None:
        self.player.close()
        self.dir.cleanup()


#: The speech engine.
ESPEAK = "espeak-ng"


class Voice:
    """Sentences said by eSpeak NG in ``voice`` (or the one each asks for) at ``rate`` words a
    minute: its sound goes to
    ``sink(chunk)`` as it comes (None: played by ``aplay``). The newest sentence not begun
    replaces an older one. Without espeak-ng the board says so once and stays silent."""

    def __init__(
        self,
        voice: str = "en",
        rate: int = 170,
        sink: Callable[[bytes], None] | None = None,
        err: Any = None,
    ) -> None:
        self.voice, self.rate = voice, rate
        self.sink = sink
        import shutil

        missing = [m for m in (ESPEAK, None if sink else "aplay") if m and shutil.which(m) is None]
        self.available = not missing
        self.player = Player("voice", self._say, err)
        if missing:
            package = {"aplay": "alsa-utils"}.get(missing[0], missing[0])
            self.player.failed(
                f"{missing[0]} is not installed: the board stays silent (apt-get install {package})"
            )

    def say(self, text: str, voice: str | None = None) -> None:
        """``text`` said, in ``voice`` (None: the one this was set up with)."""
        if self.available:
            self.player.give((text, voice or self.voice))

    def _say(self, item: tuple[str, str]) -> None:
        import subprocess

        text, voice = item
        args = (ESPEAK, "-v", voice, "-s", str(self.rate), "--stdout")
        speak = subprocess.Popen(
            args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        assert speak.stdin is not None and speak.stdout is not None
        speak.stdin.write(text.encode())  # on stdin: no sentence is read as an option
        speak.stdin.close()
        if self.sink is None:
            play = subprocess.run(["aplay", "-q"], stdin=speak.stdout, capture_output=True, check=False)
            if play.returncode:
                lines = play.stderr.decode(errors="replace").strip().splitlines() or ["no sound"]
                self.player.failed(f"aplay failed: {lines[-1]}")
        else:
            while chunk := os.read(speak.stdout.fileno(), 4096):
                self.sink(chunk)
        speak.stdout.close()
        speak.wait()

    def close(self) -> None:
        self.player.close()
