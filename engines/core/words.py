"""The words the games give the players (status lines, follow-up prompts), marked for the board's
catalogues: :func:`N_` marks a template, which the engine fills with ``.format()``, so that the
daemon can word the text again in the player's language (``firmware_host.i18n.reword``) by the
template that made it.

>>> N_("Pool: {n} tokens").format(n=55)
'Pool: 55 tokens'
>>> "Pool: {n} tokens" in TEMPLATES
True
"""

from __future__ import annotations

#: Every template marked so far (the texts an engine gave were made from these).
TEMPLATES: set[str] = set()


def N_(template: str) -> str:
    """``template``, kept in :data:`TEMPLATES`."""
    TEMPLATES.add(template)
    return template
