"""The league's wall page says when it was updated in the café's time (``[cafe] timezone``),
as every time the dashboard shows, not in the zone of the browser showing it."""

from __future__ import annotations

from firmware_host.cli.main import main
from testbed.docs_run import dashboard as cafe
from testbed.docs_run import serves, stop
from testbed.tools import free_port


def test_the_wall_says_the_cafe_s_time(tmp_path, page):
    config = tmp_path / "cafe.toml"
    config.write_text(
        f'[mqtt]\nhost = "127.0.0.1"\nport = {free_port()}\n\n[cafe]\ntimezone = "Asia/Tokyo"\n'
    )
    for words in (["new", "Thursday league", "--game", "anti-grid"], ["player", "add", "Anna"]):
        assert main(["league", *words, "--config", str(config), "--state", str(tmp_path)]) == 0
    port = free_port()
    dashboard = cafe(config, port, tmp_path)
    try:
        assert serves(dashboard, port, "/league") == 200
        page.goto(f"http://127.0.0.1:{port}/league")
        page.wait_for_selector("#updated:has-text('updated')")
        assert page.inner_text("#updated").endswith(" JST")  # the browser here keeps UTC
    finally:
        stop(dashboard)
