"""Hypothesis strategies for fuzzing the TOML loaders (config and layout), written with tomli-w."""

from __future__ import annotations

from typing import Any

import tomli_w
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
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text("abcdeklnoprst_", min_size=1, max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)


def toml_table(name: str | None, entries: dict[str, Any]) -> str:
    """``entries`` as a TOML table ``name`` (top-level keys when None)."""
    return tomli_w.dumps({name: entries} if name else entries)


def toml_document(data: dict[str, Any]) -> str:
    """A TOML document of ``data`` (dict values become tables)."""
    return tomli_w.dumps(data)
