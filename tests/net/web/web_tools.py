"""What the web tests share besides fixtures: where screenshots go."""

from __future__ import annotations

from pathlib import Path

#: Screenshots for a person to look at (gitignored).
OUTPUT = Path(__file__).resolve().parents[3] / "test-output"


def screenshot(page, name: str) -> None:
    """Save a Playwright page's screenshot as test-output/NAME.png."""
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"{name}.png"))


#: A click on a site and a key pressed at once, as a quick player does: both through the page's
#: own handlers in one task, so that both messages leave together.
CLICK_THEN_KEY = """([label, key]) => {
    const hit = document.querySelector(`[data-site="${label}"]:not(g), g[data-site="${label}"] > *`);
    const r = hit.getBoundingClientRect();
    const at = {bubbles: true, button: 0, isPrimary: true,
                clientX: r.x + r.width / 2, clientY: r.y + r.height / 2};
    hit.dispatchEvent(new PointerEvent("pointerdown", at));
    hit.dispatchEvent(new PointerEvent("pointerup", at));
    document.body.dispatchEvent(new KeyboardEvent("keydown", {key, bubbles: true}));
}"""


def click_then_key(page, label: str, key: str) -> None:
    """Click ``label`` and at once press ``key`` (Enter: OK, m: MENU, Backspace: BACK)."""
    page.evaluate(CLICK_THEN_KEY, [label, key])
