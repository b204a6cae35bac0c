"""Playing by ear on the board's page: with "speak" on, the browser says what the board says
(its say events); with "cues" on, it plays the board's cue for each moment."""

from __future__ import annotations

from tests.net.web.test_web_browser import open_panel, site, wait_event


def test_the_page_speaks_the_boards_sentences_and_plays_its_cues(serve, page):
    served = serve("antipalos", 5)
    page.goto(served.url)
    page.wait_for_selector('[data-site="B2*"]')
    open_panel(page, "sound")
    page.get_by_label("speak").check()
    page.get_by_label("cues").check()
    site(page, "B2*").click()
    assert wait_event(page, "say")[-1]["text"] == "White places on B 2 star"
    page.wait_for_function("() => view.heard.said.length > 0")
    assert page.evaluate("() => view.heard.said") == ["White places on B 2 star"]
    site(page, "*B2").click()  # a second Trirod on B2: refused
    wait_event(page, "illegal")
    page.wait_for_function("() => view.heard.cues.includes('refused')")
    assert page.evaluate("() => view.heard.cues")[:2] == ["move", "move"]  # the switch's own, B2*'s
    page.reload()  # the choice is kept in this browser
    page.wait_for_selector('[data-site="B2*"]')
    assert page.get_by_label("speak").is_checked() and page.get_by_label("cues").is_checked()


def test_a_silent_page_says_nothing(serve, page):
    served = serve("antipalos", 5)
    page.goto(served.url)
    page.wait_for_selector('[data-site="B2*"]')
    site(page, "B2*").click()
    wait_event(page, "say")
    assert page.evaluate("() => [view.heard.said, view.heard.cues]") == [[], []]
