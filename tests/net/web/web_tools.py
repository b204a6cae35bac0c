"""What the web tests share besides fixtures: where screenshots go."""

from __future__ import annotations

from pathlib import Path

#: Screenshots for a person to look at (gitignored).
OUTPUT = Path(__file__).resolve().parents[3] / "test-output"


def screenshot(page, name: str) -> None:
    """Save a Playwright page's screenshot as test-output/NAME.png."""
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"{name}.png"))
