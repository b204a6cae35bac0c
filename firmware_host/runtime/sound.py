"""What the board says and plays after each step (:class:`Speaker`): the step's events in
words, as ``say`` events (the sentences come from ``firmware_host.ui.speech``), spoken by the
voice when ``[sound] speech`` is on, and the step's cue on the buzzer and the audio out. A long
BACK press says the whole position. The outputs work in threads of their own
(``hardware.sound``), each keeping only the newest sentence or cue not begun, so speech never
lags the game and nothing here waits.
"""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from firmware_host import i18n
from firmware_host.board import Controls
from firmware_host.board.events import Event, Said
from firmware_host.store.config import SoundConfig
from firmware_host.ui import speech
from hardware.base import ButtonEvent

if TYPE_CHECKING:
    from hardware.sound import Voice

#: eSpeak NG's voice for each language the board speaks.
VOICES = {"en": "en", "de": "de", "fr": "fr-fr"}
#: The cues by importance: a step plays its most important one.
CUE_ORDER = ("over", "refused", "opponent", "follow_up", "turn", "move", "low_time")
#: The cue of each kind of event that has one (a move's depends on who made it).
EVENT_CUES = {"illegal": "refused", "guide": "follow_up", "expect": "opponent", "game_over": "over"}


#: How each kind of event that is said is put in words, given the controller (a move's sites
#: are read from the position before it) and the event.
SAYS: dict[str, Callable[[Controls, Any], str]] = {
    "illegal": lambda c, e: speech.refused(e["reason"]),
    "waiting": lambda c, e: speech.waiting(e["reason"]),
    "move": lambda c, e: move_said(c, e["move"], e["side"]),
    "correction": lambda c, e: speech.corrected(move_said(c, e["move"], e["side"])),
    "guide": lambda c, e: speech.asked(e["action"], e["sites"]),
    "expect": lambda c, e: speech.opponent_moves(e["empty"], e["fill"]),
    "takeback": lambda c, e: speech.taken_back(e["move"]),
    "game_over": lambda c, e: speech.result(e["winner"], e["result"]),
    "new_game": lambda c, e: speech.new_game(e["game"]),
    "hint": lambda c, e: speech.hint(e["move"]),
}


def sentences(controller: Controls, events: Iterable[Event]) -> list[str]:
    """The step's events in words, one sentence each that is said; a refusal says what to put
    right with it.

    >>> sentences(None, [{"t": 0, "event": "guide", "action": "remove", "sites": ["c3"]}])
    ['Remove the piece on c 3']
    """
    said: list[str] = []
    fix = ""
    for event in events:
        if event["event"] == "out_of_sync":
            fix = speech.put_right(event["missing"], event["extra"])
            said += [fix] if fix else []
        elif say := SAYS.get(event["event"]):
            text = say(controller, event)
            if event["event"] in ("illegal", "waiting") and fix and said[-1:] == [fix]:
                said[-1] = f"{text}. {fix}"
            else:
                said.append(text)
    return said


def move_said(controller: Controls, text: str, side: str | None) -> str:
    """A recorded move in words: the sites its piece left and reached, those its notation
    names (a piece of several sites by the site that names it)."""
    moves: Sequence[str] = controller.record.moves
    index = max((i for i, m in enumerate(moves) if m == text), default=None)
    if index is None:
        return speech.moved(side, [], [text])
    before = controller.record.states[index]
    real = before.realisations(before.parse_move(text))[0]
    named = set(re.findall(r"[\w*]+", text))
    emptied, filled = (sorted(s & named or s) for s in (real.emptied, real.filled))
    return speech.moved(side, emptied, filled, [s.label for s in before.sites() if s.label in named])


def position_said(state: Any) -> str:
    """The whole position in words: who moves, each side's pieces, the game's notes."""
    pieces: dict[str, dict[str, list[str]]] = {side: {} for side in state.sides}
    for figure in state.figures():
        pieces.setdefault(figure.side, {}).setdefault(figure.kind, []).append(figure.sites[0])
    if not state.figures() and state.occupied():
        pieces = {"": {"piece": sorted(state.occupied())}}
    return speech.position(state.to_move, pieces, state.status_lines())


def cue_of(controller: Controls, events: Iterable[Event]) -> str | None:
    """The step's most important cue (None: none)."""
    opponent = controller.opponent
    theirs = opponent.side_in(controller.record.state) if opponent is not None else None
    cues = set()
    for event in events:
        kind = event["event"]
        if event["event"] == "move":
            cues.add("turn" if theirs is not None and event["side"] == theirs else "move")
        cues.add(EVENT_CUES.get(kind, ""))
    return next((cue for cue in CUE_ORDER if cue in cues), None)


class Speaker:
    """The board's sound: ``say`` events for every step, spoken by ``voice`` (None: silent),
    and cues on ``outputs`` (each with ``cue(name)``); ``low_time`` ms left on the running
    clock sounds the low-time cue once a turn."""

    def __init__(
        self,
        voice: Voice | None = None,
        outputs: Sequence[Any] = (),
        low_time: float = 10_000,
        speaking: str = "",
    ) -> None:
        self.voice = voice
        #: eSpeak NG's voice ("": the one of the language the board speaks at the time).
        self.speaking = speaking
        self.outputs = list(outputs)
        self.low_time = low_time
        self._warned: tuple[str, float] | None = None  # the run of a clock cued low

    @classmethod
    def configured(cls, sound: SoundConfig, err: Any = None) -> "Speaker":
        """The speaker ``[sound]`` asks for; a buzzer that cannot be opened is said and left out."""
        if sound.buzzer is None and not sound.audio and not sound.speech:
            return cls(None, (), sound.low_time * 1000)  # silent: the players load nothing
        from hardware.sound import AudioCues, Buzzer, Voice

        outputs: list[Any] = []
        if sound.buzzer is not None:
            try:
                outputs.append(Buzzer(sound.buzzer, sound.tonal, err=err))
            except Exception as exc:  # noqa: BLE001 - no GPIO here: the game goes on silent
                print(
                    f"reedboard run: [sound] buzzer: cannot open GPIO {sound.buzzer} ({exc})",
                    file=err or sys.stderr,
                )
        if sound.audio:
            outputs.append(AudioCues(err=err))
        voice = Voice(sound.voice or "en", sound.rate, err=err) if sound.speech else None
        return cls(voice, outputs, sound.low_time * 1000, sound.voice)

    def step(
        self, now: float, controller: Controls, events: list[Event], presses: Iterable[ButtonEvent] = ()
    ) -> list[Said]:
        """After a controller step at ``now`` ms: its ``say`` events, said and cued."""
        if not events and not presses:
            if self.outputs and (cue := self._low_time(now, controller)):
                self._cue(cue)
            return []
        said = sentences(controller, events)
        if any(p.button == "back" and p.long for p in presses):
            said.append(position_said(controller.record.state))
        if said and self.voice is not None:
            self.voice.say(". ".join(said), self.speaking or VOICES[i18n.current()])
        if self.outputs and (cue := cue_of(controller, events) or self._low_time(now, controller)):
            self._cue(cue)
        return [Said(t=now, event="say", text=text) for text in said]

    def _cue(self, name: str) -> None:
        for output in self.outputs:
            output.cue(name)

    def _low_time(self, now: float, controller: Controls) -> str | None:
        """The low-time cue, once per run of a clock that has less than ``low_time`` left."""
        clocks = controller.clock.clocks
        if clocks is None or clocks.running is None or not self.low_time:
            return None
        run = (clocks.running, clocks.since)
        if run == self._warned or clocks.shown(now)[clocks.running] > self.low_time:
            return None
        self._warned = run
        return "low_time"

    def check(self) -> str | None:
        """An output's thread that died is started again: why (None: all run)."""
        players = [p.player for p in (self.voice, *self.outputs) if p is not None]
        return next((why for p in players if (why := p.check()) is not None), None)

    def close(self) -> None:
        for part in (self.voice, *self.outputs):
            if part is not None:
                part.close()
