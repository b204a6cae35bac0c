"""One command vocabulary: the menu, the simulator page and the café's broker ask the board
for the same things with the same values, and the controller carries each out the same way."""

from __future__ import annotations

from firmware_host.actions.commands import HouseRule, NewGame, SetBrightness, TakeBack
from firmware_host.net.mqtt import commands as broker
from firmware_host.net.web import commands as page
from firmware_host.runtime.session import configured_game, open_controller
from firmware_host.store.config import Config
from firmware_host.store.storage import Storage
from firmware_host.ui.menu import GameChoice, Menu
from hardware.base import ButtonEvent, Scan


def _controller(tmp_path, game="anti-grid", size=6):
    config = Config(game=game, size=size, storage=str(tmp_path / "g.db"))
    return open_controller(config, Storage(config.storage), configured_game(config))


def _menu_action(menu: Menu, label: str):
    """The command the menu gives when its item ``label`` is chosen."""
    menu.press(ButtonEvent("menu"))
    while not menu.screen().text_lines()[menu._pages[-1].cursor + 1].startswith(f"> {label}"):
        menu.press(ButtonEvent("menu"))
    return menu.press(ButtonEvent("ok"))


def test_a_take_back_is_the_same_command_from_the_menu_the_page_and_the_broker():
    current = GameChoice.of("antipod", 4, "standard")
    from_menu = _menu_action(Menu([current], current), "Take back")
    assert from_menu == page.parse('{"type": "takeback"}', ()) == broker.parse('{"command": "takeback"}')[0]
    assert from_menu == TakeBack()


def test_a_new_game_is_the_same_command_from_the_menu_the_page_and_the_broker():
    current = GameChoice.of("antipod", 4, "standard")
    from_menu = _menu_action(Menu([current], current), "New game")
    message = '"new_game", "game": "antipod", "size": 4'
    from_page = page.parse(f'{{"type": {message}}}', ())
    from_broker, _ = broker.parse(f'{{"command": {message}}}')
    assert from_menu == from_page == from_broker
    assert from_menu == NewGame("antipod", 4, "standard")


def test_a_brightness_from_the_broker_shows_on_the_menu_as_one_from_the_page_does(tmp_path):
    controller = _controller(tmp_path)
    command, _ = broker.parse('{"command": "brightness", "value": 0.3}')
    controller.command(command)
    assert controller.brightness == 0.3
    controller.step(0, Scan(frozenset()), [ButtonEvent("menu")])
    assert "Brightness 25%" in controller.menu.screen().text_lines()
    controller.step(10, Scan(frozenset()), [ButtonEvent("back")])
    controller.command(SetBrightness(0.8))  # the page's
    controller.step(20, Scan(frozenset()), [ButtonEvent("menu")])
    assert "Brightness 75%" in controller.menu.screen().text_lines()


def test_a_house_rule_from_the_page_holds_from_the_next_new_game(tmp_path):
    controller = _controller(tmp_path)
    assert controller.state.to_move == "red"
    rule = page.parse('{"type": "rules", "game": "anti-grid", "name": "first", "value": "blue"}', ())
    assert rule == HouseRule("anti-grid", "first", "blue")
    controller.command(rule)
    assert controller.state.to_move == "red"  # the game in progress keeps its rules
    controller.command(NewGame("anti-grid", 6, "plain"))
    assert controller.state.to_move == "blue"
    assert controller.house_rules["anti-grid"] == {"first": "blue"}
