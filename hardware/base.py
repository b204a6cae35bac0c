"""The small interfaces between the daemon and the drivers. Channels are plain integers.

Nothing here knows a game: a scanner reports which sensor channels are closed, an LED sink takes
a frame of LED channel -> :class:`Led`, a display shows a PIL image, buttons report presses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Mapping, NamedTuple, Protocol, get_args

if TYPE_CHECKING:
    from PIL import Image

#: LED patterns a player can tell apart.
Pattern = Literal["steady", "slow", "fast", "pulse"]
PATTERNS: tuple[Pattern, ...] = get_args(Pattern)

#: Button names.
BUTTONS = ("ok", "back", "menu")


class Scan(NamedTuple):
    """One reading of the sensors.

    ``closed``: the closed channels. ``ambiguous``: channels whose reading cannot be trusted
    (a diode-less matrix where two rows share two or more closed columns); empty when the
    reading is sound. ``polarity``: on boards that sense which face of a token is up,
    channel -> True when the north face is up (closed channels only); None otherwise.
    """

    closed: frozenset[int]
    ambiguous: frozenset[int] = frozenset()
    polarity: Mapping[int, bool] | None = None

    @property
    def sound(self) -> bool:
        return not self.ambiguous


class Led(NamedTuple):
    """What one LED shows: an RGB colour and a pattern from :data:`PATTERNS`."""

    colour: tuple[int, int, int] = (255, 255, 255)
    pattern: Pattern = "steady"


class ButtonEvent(NamedTuple):
    """A press of ``button`` (one of :data:`BUTTONS`); ``long`` for a long press."""

    button: str
    long: bool = False


class Scanner(Protocol):
    """Reads the sensor matrix."""

    channels: int
    senses_polarity: bool

    def scan(self) -> Scan: ...

    def close(self) -> None: ...


#: LEDs or a panel whose write failed are tried again this often (seconds).
RETRY_SECONDS = 1.0


class LedSink(Protocol):
    """Shows LED frames. Channels missing from a frame are off. Implementations animate the
    patterns themselves, so the daemon only sends a frame when what it wants changes. One that
    writes on a thread of its own may say why it cannot (a ``failure`` string; the daemon
    reports it)."""

    channels: int

    def show(self, frame: Mapping[int, Led]) -> None: ...

    def close(self) -> None: ...


class Display(Protocol):
    """A small monochrome screen (128x64) showing PIL images (a ``failure`` as for LEDs)."""

    size: tuple[int, int]

    def show(self, image: Image.Image) -> None: ...

    def close(self) -> None: ...


class Buttons(Protocol):
    """Reports button presses since the last call."""

    def events(self) -> list[ButtonEvent]: ...

    def close(self) -> None: ...
