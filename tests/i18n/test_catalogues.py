"""Every word the code shows is in every language's catalogue: extracted as a translator's
`pybabel extract` would (babel.cfg), each message translated in German and French, none fuzzy,
none left over, with the same placeholders ("{sites}") and every plural form; a count is worded
by plural forms ("1 channel seen"), by each language's own plural rule."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from firmware_host import i18n

ROOT = Path(__file__).resolve().parents[2]
#: The keywords the code marks its words with (docs/i18n.md's extract command names them too).
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None, "t": None}


def extracted() -> dict[str, tuple[str, ...]]:
    """msgid -> (msgid, plural) as the code marks them, by babel.cfg."""
    with open(ROOT / "babel.cfg") as f:
        method_map, options_map = parse_mapping_cfg(f, "babel.cfg")
    found: dict[str, tuple[str, ...]] = {}
    for _file, _line, message, _comments, _context in extract_from_dir(
        ROOT, method_map, options_map, keywords=KEYWORDS
    ):
        texts = (message,) if isinstance(message, str) else tuple(m for m in message if m)
        found[texts[0]] = texts
    return found


MESSAGES = extracted()


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def catalogue(code: str):
    with open(i18n.LOCALE / code / "LC_MESSAGES" / f"{i18n.DOMAIN}.po", "rb") as f:
        return read_po(f, locale=code)


def test_the_code_marks_its_words():
    assert len(MESSAGES) > 100
    assert "Place the twin on {sites}" in MESSAGES and "New game" in MESSAGES


@pytest.mark.parametrize("code", [c for c in i18n.LANGUAGES if c != i18n.DEFAULT])
def test_every_message_is_translated_whole(code):
    po = catalogue(code)
    entries = {m.id if isinstance(m.id, str) else m.id[0]: m for m in po if m.id}
    assert sorted(set(MESSAGES) - set(entries)) == [], "not in the catalogue"
    assert sorted(set(entries) - set(MESSAGES)) == [], "in the catalogue, no longer in the code"
    nplurals = po.num_plurals
    for msgid, texts in MESSAGES.items():
        entry = entries[msgid]
        assert not entry.fuzzy, msgid
        words = (entry.string,) if isinstance(entry.string, str) else tuple(entry.string)
        assert all(words), f"{msgid!r} untranslated"
        if len(texts) > 1:
            assert len(words) == nplurals, msgid
        wanted = set().union(*(placeholders(t) for t in texts))
        for said in words:
            assert placeholders(said) == wanted, (msgid, said)


def test_a_language_the_board_lacks_is_refused():
    with pytest.raises(KeyError):
        i18n.translations("xx")


@pytest.mark.parametrize("code", list(i18n.LANGUAGES))
def test_the_words_a_language_gives_are_its_own(code):
    """Spot checks that the catalogues load as gettext reads them (plural forms included)."""
    words = i18n.translations(code)
    said = words.ngettext("{n} game", "{n} games", 2).format(n=2)
    assert said == {"en": "2 games", "de": "2 Partien", "fr": "2 parties"}[code]
    assert re.fullmatch(r"\S.*", words.gettext("New game"))


def test_the_pages_catalogue_holds_words_only():
    """The catalogue's header (msgid "") is no word: the page would put it in every gap."""
    for code in i18n.LANGUAGES:
        assert all(msgid and said for msgid, said in i18n.catalogue(code).items())


#: A count before a noun in English's plural ("{n} channels seen"): such words need plural forms.
COUNTED = re.compile(r"\{(n|count)\} \w+s\b")


def test_every_count_is_worded_by_plural_forms():
    """ "1 channels seen" is what a message with one form says of one thing: every message that
    counts things has a singular and a plural (ngettext, in the daemon and in the pages)."""
    single = [msgid for msgid, texts in MESSAGES.items() if len(texts) == 1 and COUNTED.search(msgid)]
    assert single == []
    counted = [texts for texts in MESSAGES.values() if len(texts) > 1]
    assert ("{n} channel seen", "{n} channels seen") in counted and ("{n} move", "{n} moves") in counted
    assert ("{n} player", "{n} players") in counted  # reedboard league's ("1 player entered")


@pytest.mark.parametrize("code", [c for c in i18n.LANGUAGES if c != i18n.DEFAULT])
def test_each_catalogue_counts_by_its_language_s_rule(code):
    """Each count takes its language's form: French says "0 canal vu", German "0 Kanäle
    gesehen"; and the page is served the same forms, in gettext's order."""
    words = i18n.translations(code)
    counted = [texts for texts in MESSAGES.values() if len(texts) > 1]
    for singular, plural in counted:
        forms = [words.ngettext(singular, plural, n) for n in range(3)]
        assert i18n.plurals(code)[singular] == [forms[1], forms[2]], singular
    said = {n: words.ngettext("{n} channel seen", "{n} channels seen", n).format(n=n) for n in (0, 1, 2)}
    assert (
        said
        == {
            "de": {0: "0 Kanäle gesehen", 1: "1 Kanal gesehen", 2: "2 Kanäle gesehen"},
            "fr": {0: "0 canal vu", 1: "1 canal vu", 2: "2 canaux vus"},
        }[code]
    )
