"""What the screen says besides the game: :class:`Notices` keeps the message line, a passing
flash, a notice (the daemon's, a question, a passing one) and the pager of a long screen.

>>> notes = Notices()
>>> notes.flash("Corrected to E5*", now=0)
>>> shown = notes.flashed
>>> notes.tick(FLASH_MS)
>>> shown, notes.flashed
('Corrected to E5*', None)
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from firmware_host.ui.screens import Screen
from hardware.base import ButtonEvent

#: How long a passing message ("Corrected to E5*") stays unless the board changes first.
FLASH_MS = 4000
#: How long a passing notice (IP address, today's games) stays unless the board changes first.
NOTICE_MS = 8000
#: A screen too long for the OLED shows its pages in turn, each this long (ms).
PAGE_MS = 3000


class Notices:
    """The message line (until replaced), the flash (until the board changes or FLASH_MS pass),
    the notice (until a button; a passing one also until the board changes or NOTICE_MS pass)
    with the answer a question waits for, and the pager of a long screen."""

    def __init__(self) -> None:
        self.message: str | None = None
        self.notice: Screen | None = None
        self.pager = Pager()
        self._flash: tuple[str, float] | None = None
        self._until: float | None = None
        self._answer: Callable[[bool], None] | None = None
        self._note: str | None = None  # the opponent's, as last shown

    @property
    def flashed(self) -> str | None:
        """The flash on show, if any."""
        return self._flash[0] if self._flash else None

    def say(self, text: str | None) -> None:
        """Show ``text`` on the message line (None: no more)."""
        self.message = text

    def heard(self, note: str | None) -> bool:
        """The opponent's ``note`` (shown as the error line): True if it changed."""
        changed, self._note = note != self._note, note
        return changed

    def flash(self, text: str, now: float) -> None:
        """Show ``text`` briefly."""
        self._flash = (text, now + FLASH_MS)

    def show(self, screen: Screen | None, answer: Callable[[bool], None] | None = None) -> None:
        """Show ``screen`` until a button (None: no more); ``answer`` is told whether it was OK."""
        self.notice, self._until, self._answer = screen, None, answer

    def pass_by(self, screen: Screen, now: float) -> None:
        """Show a passing notice: until a button, the next board change or NOTICE_MS."""
        self.notice, self._until = screen, now + NOTICE_MS

    def press(self, press: ButtonEvent) -> bool:
        """A button: it closes the notice on show (answering its question); True if there was one."""
        if self.notice is None:
            return False
        self.notice = self._until = None
        answer, self._answer = self._answer, None
        if answer:
            answer(press.button == "ok" and not press.long)
        return True

    def board_changed(self) -> None:
        """The board changed: the flash and a passing notice end."""
        self._flash = None
        if self._until is not None:
            self.notice = self._until = None

    def attract(self) -> None:
        """An idle spell began: the notice and its question end."""
        self.notice = self._answer = None

    def tick(self, now: float) -> None:
        """What time alone ends at ``now``: a flash, a passing notice."""
        if self._flash and now >= self._flash[1]:
            self._flash = None
        if self._until is not None and now >= self._until:
            self.notice = self._until = None


class Pager:
    """A screen too long for the panel, shown a page at a time for PAGE_MS each, from its first
    page whenever the screen changes.

    >>> pager = Pager()
    >>> pager.show(Screen("Title", ("one",)), now=0)
    ('Title', 'one')
    >>> pager.show(Screen("Title", ("one",)), now=10) is None
    True
    """

    def __init__(self) -> None:
        self.page = 0
        self._pages = 0
        self._shown: Screen | None = None
        self._at = 0.0
        self._lines: tuple[str, ...] = ()

    def show(self, screen: Screen, now: float) -> tuple[str, ...] | None:
        """Show ``screen`` at ``now``; the page's text when it changed, else None."""
        fresh = screen != self._shown
        if fresh:
            self._shown, self._at = screen, now
        page, self.page = self.page, int((now - self._at) // PAGE_MS)
        if not fresh and (page == self.page or self._pages <= 1):  # the same page shows
            return None
        paged = replace(screen, page=self.page)
        self._pages = len(paged.pages())
        lines = paged.text_lines()
        if lines == self._lines:
            return None
        self._lines = lines
        return lines
