"""The league's wall page says when it was updated in the café's time (``[cafe] timezone``),
as every time the dashboard shows, not in the zone of the browser showing it."""

from __future__ import annotations

from testbed.league_desk import league_pages


def test_the_wall_says_the_cafe_s_time(tmp_path, page):
    with league_pages(
        tmp_path,
        ["new", "Thursday league", "--game", "anti-grid"],
        ["player", "add", "Anna"],
        tables='\n[cafe]\ntimezone = "Asia/Tokyo"\n',
    ) as url:
        page.goto(f"{url}/league")
        page.wait_for_selector("#updated:has-text('updated')")
        assert page.inner_text("#updated").endswith(" JST")  # the browser here keeps UTC
