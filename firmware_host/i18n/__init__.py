"""The board's words in the players' language: gettext catalogues (``locale/<lang>/LC_MESSAGES/
reedboard.po``, extracted with Babel: ``babel.cfg``), read when a language is first used.

English is the source language: its words are the messages themselves. The ``.po`` files are
read at run time with Babel (compiled to gettext's binary form in memory), so nothing generated
is kept in the repository and a fresh ``pip install -e .`` speaks every language; a catalogue
of some 300 messages reads in a few milliseconds, once. Every process speaks one language at a
time (:func:`use`: the config's ``language``, or the menu's); :func:`catalogue` gives any
language's words as a dict (the page's, which may differ).

>>> use("de"); _("Place the twin on {sites}").format(sites="c12")
'Zwilling auf c12 setzen'
>>> ngettext("{n} game", "{n} games", 2).format(n=2)
'2 Partien'
>>> use("en"); _("Place the twin on {sites}").format(sites="c12")
'Place the twin on c12'
"""

from __future__ import annotations

import io
import re
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

if TYPE_CHECKING:  # gettext loads with the first language other than English
    from gettext import NullTranslations

#: The catalogues' folder and domain.
LOCALE = Path(__file__).parent / "locale"
DOMAIN = "reedboard"
#: The languages the board speaks, by code, each named in its own words (the menu's and the
#: page's choice); English is the messages themselves.
LANGUAGES = {"en": "English", "de": "Deutsch", "fr": "Français"}
DEFAULT = "en"

_current: NullTranslations | None = None  # None: English, the messages as they are
_code = DEFAULT
#: A reader's own language for the work of one request (:func:`speaking`), else the process's.
_reader: ContextVar[tuple[NullTranslations | None] | None] = ContextVar("reader", default=None)


def use(code: str) -> None:
    """Speak ``code`` (one of :data:`LANGUAGES`) from now on, in this process."""
    global _current, _code
    if code not in LANGUAGES:
        raise KeyError(code)
    _current, _code = None if code == DEFAULT else translations(code), code


def current() -> str:
    """The language spoken now."""
    return _code


@lru_cache(maxsize=None)
def translations(code: str) -> NullTranslations:
    """The catalogue of ``code`` (English: the messages as they are). KeyError for a language
    the board does not speak."""
    import gettext

    if code not in LANGUAGES:
        raise KeyError(code)
    if code == DEFAULT:
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with open(_po(code), "rb") as f:
        catalog = read_po(f, locale=code, domain=DOMAIN)
    binary = io.BytesIO()
    write_mo(binary, catalog)
    binary.seek(0)
    return gettext.GNUTranslations(binary)


def _po(code: str) -> Path:
    return LOCALE / code / "LC_MESSAGES" / f"{DOMAIN}.po"


@contextmanager
def speaking(code: str) -> Iterator[None]:
    """Speak ``code`` (a language the board speaks, else the process's) inside the block, in
    this context only (an answer to one reader; threads started with the context's copy, such
    as ``asyncio.to_thread``'s, speak it too); the process's language stays.

    >>> use("de")
    >>> with speaking("fr"): _("New game")
    'Nouvelle partie'
    >>> _("New game"), use("en")
    ('Neue Partie', None)
    """
    token = _reader.set((translations(code) if code != DEFAULT else None,) if code in LANGUAGES else None)
    try:
        yield
    finally:
        _reader.reset(token)


def _speaker() -> NullTranslations | None:
    reader = _reader.get()
    return _current if reader is None else reader[0]


def _(message: str) -> str:
    """``message`` in the language spoken now."""
    speaker = _speaker()
    return message if speaker is None else speaker.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """``singular`` or ``plural`` for ``n`` things, by the language's plural rule."""
    speaker = _speaker()
    if speaker is None:
        return singular if n == 1 else plural
    return speaker.ngettext(singular, plural, n)


def reword(text: str) -> str:
    """A game's ``text`` in the language spoken: made from a template the engine marked
    (``engines.core.words``), it is made again from that template's translation, the values
    kept but for the sides' names (:data:`SIDE_WORDS`), which are translated too.

    >>> from engines.core.words import N_ as marked
    >>> text = marked("In hand: {counts}").format(counts="White 17 · Black 18")
    >>> use("de"); reword(text), reword("Move or turn a Trirod"), reword("not marked")
    ('In der Hand: Weiß 17 · Schwarz 18', 'Trirod ziehen/drehen', 'not marked')
    >>> from engines.core.words import ngettext as counted
    >>> reword(counted("Pool: {n} token", "Pool: {n} tokens", 1).format(n=1))
    'Vorrat: 1 Plättchen'
    >>> use("fr"); reword(counted("{n} empty point", "{n} empty points", 0).format(n=0))
    '0 point libre'
    >>> use("en"); reword(text)
    'In hand: White 17 · Black 18'
    """
    return text if _current is None else _reworded(_code, text)


#: The sides' names a game's values may hold ("White 17"), translated in them.
SIDE_WORDS = frozenset({"white", "black", "red", "blue", "green", "yellow"})


@lru_cache(maxsize=1024)
def _reworded(code: str, text: str) -> str:
    said = _(text)
    if said != text:
        return said
    from engines.core.words import PLURALS, TEMPLATES  # the engine that gave ``text`` marked them

    for template, pattern in _patterns(len(TEMPLATES)):
        found = pattern.fullmatch(text)
        if found:
            values = {name: re.sub(r"[A-Za-z]+", _side, value) for name, value in found.groupdict().items()}
            if template in PLURALS and values["n"].isdigit():
                return ngettext(*PLURALS[template], int(values["n"])).format(**values)
            return _(template).format(**values)
    return text


def _side(word: re.Match[str]) -> str:
    text = word.group(0)
    if text.lower() not in SIDE_WORDS:
        return text
    said = _(text.lower())
    return said[:1].upper() + said[1:] if text[:1].isupper() else said


@lru_cache(maxsize=4)
def _patterns(known: int) -> list[tuple[str, re.Pattern[str]]]:
    """The engines' templates with fields, as patterns, the most literal first (``known``:
    how many there are, so that templates marked since make new ones)."""
    from engines.core.words import TEMPLATES

    found = []
    for template in TEMPLATES:
        parts = re.split(r"\{(\w+)\}", template)
        if len(parts) == 1 or len(set(parts[1::2])) < len(parts) // 2:
            continue
        pattern = "".join(
            re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)" for i, part in enumerate(parts)
        )
        found.append((len("".join(parts[::2])), template, re.compile(pattern)))
    return [(template, pattern) for _, template, pattern in sorted(found, reverse=True)]


def N_(message: str) -> str:
    """Marks ``message`` for the catalogues where it is defined (a constant), translated where
    it is shown (``_(CONSTANT)``)."""
    return message


@lru_cache(maxsize=None)
def catalogue(code: str) -> dict[str, str]:
    """Every message of ``code`` with its words (the page's catalogue; English: empty, the
    messages are the words); the counts' words are :func:`plurals`. Read once.

    >>> catalogue("fr")["New game"]
    'Nouvelle partie'
    """
    return {m.id: m.string for m in _messages(code) if isinstance(m.id, str) and isinstance(m.string, str)}


@lru_cache(maxsize=None)
def plurals(code: str) -> dict[str, list[str]]:
    """The counts' words of ``code``, by the English singular: its plural forms, in gettext's
    order (the page's; English: empty, the page has both forms).

    >>> plurals("fr")["{n} table"]
    ['{n} table', '{n} tables']
    """
    return {m.id[0]: list(m.string) for m in _messages(code) if isinstance(m.id, tuple)}


def _messages(code: str) -> list[Any]:
    """The translated messages of ``code``'s catalogue (none for English), header left out."""
    if code == DEFAULT:
        return []
    from babel.messages.pofile import read_po

    with open(_po(code), "rb") as f:
        catalog = read_po(f, locale=code, domain=DOMAIN)
    return [m for m in catalog if m.id and m.string and all(m.string)]
