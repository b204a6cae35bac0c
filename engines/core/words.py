"""The words the games give the players (status lines, follow-up prompts), marked for the board's
catalogues: :func:`N_` marks a template, which the engine fills with ``.format()``, so that the
daemon can word the text again in the player's language (``firmware_host.i18n.reword``) by the
template that made it. A count's words (:func:`ngettext`) are marked in both forms, English's
singular and plural, so that the daemon words them by the count in a language's plural forms.

>>> N_("White {white} Black {black}").format(white=3, black=4)
'White 3 Black 4'
>>> ngettext("Pool: {n} token", "Pool: {n} tokens", 1).format(n=1)
'Pool: 1 token'
>>> "Pool: {n} tokens" in TEMPLATES, PLURALS["Pool: {n} tokens"]
(True, ('Pool: {n} token', 'Pool: {n} tokens'))
"""

from __future__ import annotations

#: Every template marked so far (the texts an engine gave were made from these).
TEMPLATES: set[str] = set()
#: The templates of counts, either form -> (singular, plural); the count is their ``{n}``.
PLURALS: dict[str, tuple[str, str]] = {}


def N_(template: str) -> str:
    """``template``, kept in :data:`TEMPLATES`."""
    TEMPLATES.add(template)
    return template


def ngettext(singular: str, plural: str, n: int) -> str:
    """``singular`` for one thing, else ``plural`` (English's forms), both kept in
    :data:`TEMPLATES` and :data:`PLURALS`; each has the count as ``{n}``."""
    for template in (singular, plural):
        TEMPLATES.add(template)
        PLURALS[template] = (singular, plural)
    return singular if n == 1 else plural
