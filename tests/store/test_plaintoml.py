"""Plain TOML read without tomllib: what it reads is tomllib's reading, to the type; anything
else, valid or not, it declines (and tomllib reads it, or says what is wrong)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.store.plaintoml import parse
from firmware_host.store.tomlfile import ConfigError, read_toml
from tests.store.toml_fuzz import VALUES, toml_document

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "config.example.toml"

#: Pieces of lines, plain and not, that random documents are made of.
PIECES = (
    *("a", "b", "web", "port", "x-y_1", "a.b", '"a"', "tr", "true", "false", "nan", "inf"),
    *(" ", "\t", "=", " = ", "\n", "\r\n", "\r", "#", "# c", "[", "]", "[[", ",", "'", '"', '"""'),
    *("0", "7", "-", "+", "12", "00", "1.5", ".", "1e3", "1_000", "0x1f", "-0", "-0.0", "1979-05-27"),
    *("\\", "\\n", "\\u00e9", "é", "\x00", "\x7f", "\x0b", "\u2028", "\ufeff", "{", "}", "a = {b = 1}"),
)
DOCUMENTS = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)
LINES = st.lists(
    st.sampled_from(("[web]", "[sound]", "[a]", "a = ", "b=", "port = ", "c =", "# note", "")).flatmap(
        lambda head: st.sampled_from(PIECES).map(lambda tail: head + tail)
    ),
    max_size=8,
).map("\n".join)


def same_as_tomllib(text: str) -> None:
    """``parse`` declines ``text`` or reads exactly what tomllib reads (a bool is no int, an
    int no float)."""
    got = parse(text)
    try:
        expected = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        assert got is None, f"invalid TOML read: {text!r}"
        return
    assert got is None or repr(got) == repr(expected), text


def test_the_example_config_is_plain_and_read_as_tomllib_reads_it():
    text = EXAMPLE.read_text(encoding="utf-8")
    assert parse(text) is not None
    same_as_tomllib(text)


def test_what_is_not_plain_is_declined():
    for text in (
        'a = "\\u00e9"',  # an escape
        "a = 1_000",
        "a = 1e3",
        "a = 1979-05-27",
        "a = [1,\n2]",  # an array over lines
        "a = {b = 1}",
        "a.b = 1",
        '"a" = 1',
        "[[sites]]",
        "[a.b]",
        'a = """x"""',
        "a = 1\r\n",
        "a = [[1], [2]]",  # arrays in arrays
        "a = " + "[" * 100_000,
    ):
        assert parse(text) is None, text


def test_invalid_documents_are_declined():
    for text in (
        "a = 1\na = 2",
        "[a",
        "a = 1\n[a]",
        "[a]\n[a]",
        "a = 01",
        "a = 1.",
        "a = -",
        "a = [1 2]",
        "a = tru",
    ):
        assert parse(text) is None, text


@given(st.dictionaries(st.text("abcdeklnoprst_", min_size=1, max_size=8), VALUES, max_size=4))
def test_documents_tomli_w_writes_are_read_as_tomllib_reads_them(data):
    same_as_tomllib(toml_document(data))


@given(DOCUMENTS)
def test_random_text_is_read_as_tomllib_reads_it_or_declined(text):
    same_as_tomllib(text)


@given(LINES)
def test_random_lines_are_read_as_tomllib_reads_them_or_declined(text):
    same_as_tomllib(text)


def test_a_deep_array_is_still_a_config_error_naming_the_file(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("a = " + "[" * 100_000)
    with pytest.raises(ConfigError, match=f"^{re.escape(str(path))}: not valid TOML"):
        read_toml(str(path))
