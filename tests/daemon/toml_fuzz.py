"""Hypothesis strategies for fuzzing the TOML loaders (config and layout), and a tiny writer."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

#: Scalar TOML values of every kind a loader might be handed where it expects another.
SCALARS = st.one_of(
    st.integers(-3, 70000),
    st.booleans(),
    st.text(max_size=4),
    st.floats(allow_nan=True, allow_infinity=True),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text("abcdeklnoprst_", min_size=1, max_size=8), inner, max_size=3),
    max_leaves=6,
)


def toml_key(key: str) -> str:
    return json.dumps(key)


def toml_value(value: Any) -> str:
    """``value`` as an inline TOML value (floats in Python's repr, which TOML reads)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(map(toml_value, value)) + "]"
    return json.dumps(value)


def toml_table(name: str | None, entries: dict[str, Any]) -> str:
    head = f"[{toml_key(name)}]\n" if name else ""
    return head + "".join(f"{toml_key(k)} = {toml_value(v)}\n" for k, v in entries.items())


def toml_document(data: dict[str, Any]) -> str:
    """A TOML document: top-level keys first, then one table per dict value."""
    scalars = {k: v for k, v in data.items() if not isinstance(v, dict)}
    tables = "".join("\n" + toml_table(k, v) for k, v in data.items() if isinstance(v, dict))
    return toml_table(None, scalars) + tables
