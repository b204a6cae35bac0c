"""The menu, driven by pressing its buttons."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import engines
from firmware_host.actions.commands import NewGame, SetBrightness, SetPlayers, ShowIP, TakeBack
from firmware_host.board.playable import Playable
from firmware_host.store.layout import Layout
from firmware_host.ui.menu import BRIGHTNESS_LEVELS, HELP, GameChoice, Menu, game_choices
from hardware.base import BUTTONS, ButtonEvent, Scan
from testbed.broker import wired_for
from testbed.language import speaking

CHOICES = (
    GameChoice("alpha", 8, "plain", "Alpha"),
    GameChoice("alpha", 8, "chain", "Alpha"),
    GameChoice("alpha", 10, "plain", "Alpha"),
    GameChoice("alpha", 10, "chain", "Alpha"),
    GameChoice("beta", None, "standard", "Beta"),
    GameChoice("gamma", None, "one", "Gamma"),
    GameChoice("gamma", None, "two", "Gamma"),
)
CURRENT = CHOICES[1]


def press(menu: Menu, *buttons: str):
    """Press the buttons in turn; the actions that came out (Nones left out)."""
    actions = [menu.press(ButtonEvent(b)) for b in buttons]
    return [a for a in actions if a is not None]


def shown(menu: Menu) -> tuple[str, ...]:
    """The menu's title and items (the help rows left out)."""
    screen = menu.screen()
    return screen.text_lines()[: len(screen.text_lines()) - len(screen.footer)]


def test_the_first_page_says_what_the_three_buttons_do():
    menu = Menu(CHOICES, CURRENT)
    press(menu, "menu")
    help_rows = menu.screen().text_lines()[-2:]
    assert help_rows == HELP and all(name in " ".join(help_rows) for name in ("MENU", "OK", "BACK"))
    press(menu, "menu")
    assert menu.screen().footer == ()  # once the player moves on, the items have the room
    press(menu, "ok")  # Choose game: a page below the first, no help
    assert menu.screen().title != "Menu" and menu.screen().footer == ()


def test_back_after_menu_steps_back_then_goes_up():
    """MENU then BACK returns to the item before (the menu stays open); BACK with no MENU
    press to step back over goes up a level, and from the first page closes the menu."""
    menu = Menu(CHOICES, CURRENT)
    press(menu, "menu", "menu", "menu")
    assert shown(menu)[3] == "> Take back"
    press(menu, "back")
    assert menu.is_open and shown(menu)[2] == "> Choose game"
    press(menu, "ok", "menu", "back")  # the game page: MENU then BACK stays on it
    assert shown(menu)[:2] == ("Game", "> Alpha")
    press(menu, "back")
    assert menu.is_open and shown(menu)[2] == "> Choose game"  # up a level, where it was
    press(menu, "back")
    assert not menu.is_open


def test_menu_opens_with_menu_and_lists_everything():
    menu = Menu(CHOICES, CURRENT)
    assert not menu.is_open
    assert press(menu, "menu") == [] and menu.is_open
    assert shown(menu) == (
        "Menu",
        "> New game",
        "Choose game",
        "Take back",
        "Brightness 50%",
        "Show IP address",
        "Players",
        "Clock",
        "Names",
        "Language",
        "Exit",
    )


def test_ok_and_back_belong_to_the_game_while_the_menu_is_closed():
    menu = Menu(CHOICES, CURRENT)
    assert press(menu, "ok", "back") == [] and not menu.is_open


def test_new_game_restarts_the_current_game():
    menu = Menu(CHOICES, CURRENT)
    assert press(menu, "menu", "ok") == [NewGame("alpha", 8, "chain")]
    assert not menu.is_open


def test_menu_moves_down_and_wraps_around():
    menu = Menu(CHOICES, CURRENT)
    press(menu, "menu", *["menu"] * 10)
    assert shown(menu)[1] == "> New game"
    press(menu, "menu", "menu")
    assert shown(menu)[3] == "> Take back"
    assert press(menu, "ok") == [TakeBack()] and not menu.is_open


def test_show_ip():
    menu = Menu(CHOICES, CURRENT)
    assert press(menu, "menu", "menu", "menu", "menu", "menu", "ok") == [ShowIP()]


def test_brightness_cycles_levels_and_the_menu_stays_open():
    menu = Menu(CHOICES, CURRENT, brightness=0.3)
    press(menu, "menu", "menu", "menu", "menu")
    assert shown(menu)[4] == "> Brightness 25%"
    assert press(menu, "ok", "ok") == [SetBrightness(0.5), SetBrightness(0.75)]
    assert menu.is_open and shown(menu)[4] == "> Brightness 75%"
    assert press(menu, "ok", "ok") == [SetBrightness(1.0), SetBrightness(BRIGHTNESS_LEVELS[0])]


def test_exit_and_back_close_the_menu():
    menu = Menu(CHOICES, CURRENT)
    press(menu, "menu", *["menu"] * 9)
    assert shown(menu)[-1] == "> Exit"
    assert press(menu, "ok") == [] and not menu.is_open
    press(menu, "menu", "back")
    assert not menu.is_open


def test_choose_game_then_size_then_variant_with_the_current_one_preselected():
    menu = Menu(CHOICES, CURRENT)
    press(menu, "menu", "menu", "ok")
    assert shown(menu) == ("Game", "> Alpha", "Beta", "Gamma")
    press(menu, "ok")
    assert shown(menu) == ("Alpha size", "> Size 8", "Size 10")
    press(menu, "menu", "ok")
    assert shown(menu) == ("Alpha variant", "plain", "> chain")
    assert press(menu, "menu", "ok") == [NewGame("alpha", 10, "plain")]
    assert menu.current == CHOICES[2] and not menu.is_open
    assert press(menu, "menu", "ok") == [NewGame("alpha", 10, "plain")]


def test_a_game_with_one_choice_starts_at_once_and_back_goes_up_a_level():
    menu = Menu(CHOICES, CURRENT)
    press(menu, "menu", "menu", "ok", "menu", "menu", "ok")
    assert shown(menu) == ("Gamma variant", "> one", "two")
    press(menu, "back")
    assert shown(menu)[0] == "Game"
    assert press(menu, "back", "back") == [] and not menu.is_open
    assert press(menu, "menu", "menu", "ok", "menu", "ok") == [NewGame("beta", None, "standard")]


def test_kiosk_offers_only_games():
    menu = Menu(CHOICES, CURRENT, kiosk=True)
    press(menu, "menu")
    assert shown(menu) == ("Menu", "> New game", "Choose game", "Exit")


def test_without_takebacks_or_other_games_those_items_are_gone():
    menu = Menu(CHOICES[:1], CHOICES[0], takebacks=False)
    press(menu, "menu")
    assert shown(menu) == (
        "Menu",
        "> New game",
        "Brightness 50%",
        "Show IP address",
        "Players",
        "Clock",
        "Names",
        "Language",
        "Exit",
    )


def test_long_menu_press_is_reserved():
    menu = Menu(CHOICES, CURRENT)
    assert menu.press(ButtonEvent("menu", long=True)) is None and not menu.is_open
    press(menu, "menu")
    assert menu.press(ButtonEvent("menu", long=True)) is None and shown(menu)[1] == "> New game"


def test_current_game_outside_the_choices_can_still_restart():
    odd = GameChoice("delta", 3, "x", "Delta")
    assert press(Menu(CHOICES, odd), "menu", "ok") == [NewGame("delta", 3, "x")]


@given(st.lists(st.tuples(st.sampled_from(BUTTONS), st.booleans()), max_size=40))
def test_any_presses_give_only_offered_actions_and_a_screen(presses):
    menu = Menu(CHOICES, CURRENT, takebacks=False)
    for button, long in presses:
        action = menu.press(ButtonEvent(button, long))
        assert action is None or isinstance(action, (NewGame, SetBrightness, ShowIP, SetPlayers))
        if isinstance(action, SetPlayers):  # these made-up games have no sides to give away
            assert action.computer is None
        if isinstance(action, NewGame):
            assert GameChoice(action.game, action.size, action.variant, menu.current.title) in CHOICES
        lines = menu.screen().text_lines()
        assert sum(line.startswith("> ") for line in lines) == 1


# ---------------------------------------------------------------- choices from the engines
def test_default_layouts_offer_every_game_size_and_variant():
    choices = game_choices()
    for game in engines.GAME_NAMES:
        info = engines.game_info(game)
        offered = {(c.size, c.variant) for c in choices if c.game == game}
        sizes = info.sizes or (info.default_size,)
        assert offered == {(s, v) for s in sizes for v in info.variants}


def two_games_layout(folder) -> str:
    """A board wired for Antipalos 5 and Anti-Grid 6: its layout file."""
    return str(wired_for(folder, ("antipalos", 5), ("anti-grid", 6)))


def board_menu(tmp_path, top: str = ""):
    """The menu of ``reedboard run`` with a config file (Antipalos 5, ``top`` more keys)."""
    from firmware_host.runtime.session import configured_game, open_controller
    from firmware_host.store.config import load_config
    from firmware_host.store.storage import Storage

    path = tmp_path / "config.toml"
    path.write_text(f'game = "antipalos"\nsize = 5\nstorage = "{tmp_path / "g.db"}"\n{top}')
    config = load_config(str(path))
    controller = open_controller(config, Storage(config.storage), configured_game(config))
    return controller.menu


def pick(menu: Menu, label: str):
    """MENU until ``label`` is under the cursor, then OK: the actions that came out."""
    for _ in range(60):
        if shown(menu)[menu._pages[-1].cursor + 1] == f"> {label}":
            return press(menu, "ok")
        press(menu, "menu")
    raise AssertionError(f"no {label!r} in {shown(menu)}")


def test_a_board_offers_every_size_its_layout_covers(tmp_path):
    """A board wired for Antipalos 5 and Anti-Grid 6: Choose game offers those two; Antipalos
    offers sizes 3 to 5 (5 is no size of the usual menu), Anti-Grid only its size 6."""
    menu = board_menu(tmp_path, f'layout = "{two_games_layout(tmp_path)}"\n')
    press(menu, "menu")
    pick(menu, "Choose game")
    assert shown(menu) == ("Game", "> Antipalos", "Anti-Grid")
    pick(menu, "Antipalos")
    assert shown(menu) == ("Antipalos size", "Size 3", "Size 4", "> Size 5")
    pick(menu, "Size 5")
    assert shown(menu)[0] == "Antipalos variant" and "cut-throat-3" in " ".join(shown(menu))
    assert pick(menu, "two") == [NewGame("antipalos", 5, "two")]
    press(menu, "menu")
    pick(menu, "Choose game")
    pick(menu, "Anti-Grid")
    assert shown(menu) == ("Anti-Grid variant", "> plain", "chain")  # size 6 only: no size page
    assert pick(menu, "chain") == [NewGame("anti-grid", 6, "chain")]


def test_a_board_without_a_layout_offers_the_usual_sizes(tmp_path):
    menu = board_menu(tmp_path)
    press(menu, "menu")
    pick(menu, "Choose game")
    pick(menu, "Antipalos")
    sizes = engines.game_info("antipalos").sizes
    assert [line.lstrip("> ") for line in shown(menu)[1:]] == [f"Size {size}" for size in sizes]


def test_a_paired_board_offers_only_games_of_two_sides(tmp_path):
    menu = board_menu(
        tmp_path,
        f'layout = "{two_games_layout(tmp_path)}"\n'
        '[mqtt]\nhost = "127.0.0.1"\nboard = "home"\n'
        '[opponent]\nkind = "remote"\nboard = "friend"\nside = "black"\n',
    )
    press(menu, "menu")
    pick(menu, "Choose game")
    pick(menu, "Antipalos")
    pick(menu, "Size 5")
    assert shown(menu) == ("Antipalos variant", "> two", "team")  # no cut-throat for three or four


def test_a_layout_of_unknown_sites_offers_nothing():
    assert Playable(Layout({"zz": 0}, {"zz": 0})).choices() == ()


def test_house_rules_from_the_menu_hold_from_the_next_new_game(tmp_path):
    """MENU > House rules: OK steps a yes/no or word option to its next value the game takes;
    it holds from the next new game (and for every later one the menu starts)."""
    from firmware_host.runtime.session import configured_game, open_controller
    from firmware_host.store.config import Config
    from firmware_host.store.storage import Storage

    config = Config(game="anti-grid", size=6, storage=str(tmp_path / "g.db"))
    controller = open_controller(config, Storage(config.storage), configured_game(config))
    menu = controller.menu
    press = lambda button: controller.step(0, Scan(frozenset()), [ButtonEvent(button)])  # noqa: E731
    press("menu")
    labels = list(menu.screen().text_lines())
    assert "> New game" in labels and any("House rules" in line for line in labels)
    while "House rules" not in menu.screen().text_lines()[menu._pages[-1].cursor + 1]:
        press("menu")
    press("ok")
    assert menu.screen().text_lines()[1:3] == ("> first: red", "trapped: yes")
    press("ok")  # first: blue
    assert menu.screen().text_lines()[1] == "> first: blue"
    assert controller.state.to_move == "red"  # the game in progress keeps its rules
    press("back")
    press("back")
    controller.command(NewGame("anti-grid", 6, "plain"))
    assert controller.state.to_move == "blue" and menu.rules == {"anti-grid": {"first": "blue"}}


def test_the_rules_page_offers_only_sides_the_variant_has():
    menu = Menu([GameChoice.of("antipalos", 5, "two")], current=GameChoice.of("antipalos", 5, "two"))
    page = menu._rules_page()
    assert [item.label for item in page.items] == ["first: white", "repetition-draw: yes"]
    menu._pages = [page]
    page = menu._next_rule(engines.game_info("antipalos").options[1], 0)
    assert page.items[0].label == "first: black"
    menu._pages = [page]
    page = menu._next_rule(engines.game_info("antipalos").options[1], 0)
    assert page.items[0].label == "first: white"  # red and blue are not sides of a two-player game


def test_players_choose_the_computer_for_a_side_and_its_level():
    current = GameChoice.of("antipod", 4, "")
    menu = Menu([current], current, players=(None, 2))
    press(menu, "menu")
    labels = [line.lstrip("> ") for line in shown(menu)[1:]]
    press(menu, *["menu"] * labels.index("Players"), "ok")
    assert shown(menu) == ("Players", "> Two at the table", "Computer: white", "Computer: black", "Level 2")
    assert press(menu, "menu", "menu", "menu", "ok") == []  # the level steps, the page stays
    assert shown(menu)[0] == "Players" and shown(menu)[-1] == "> Level 3"
    assert press(menu, "menu", "menu", "menu", "ok") == [SetPlayers("black", 3)] and not menu.is_open
    press(menu, "menu", *["menu"] * labels.index("Players"), "ok")
    assert shown(menu)[3] == "> Computer: black"  # the cursor on who plays now


def test_the_language_chosen_on_the_menu_is_spoken_from_then_on():
    """MENU down to Language, OK: the languages, each named in its own words; OK on Deutsch
    closes the menu and the menu speaks German from then on."""
    menu = Menu(CHOICES, CURRENT)
    with speaking("en"):
        press(menu, "menu", *["menu"] * 8, "ok")
        assert shown(menu) == ("Language", "> English", "Deutsch", "Français")
        assert press(menu, "menu", "ok") == [] and not menu.is_open
        press(menu, "menu")
        assert shown(menu)[:3] == ("Menü", "> Neue Partie", "Spiel wählen")
        press(menu, *["menu"] * 8, "ok")
        assert shown(menu)[:3] == ("Sprache", "English", "> Deutsch")
