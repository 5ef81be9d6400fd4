"""Issue 35, point 1: names at `lagoon serve`, one person's or one computer's, across every key.

The lobby runs on a loop of its own over a real save file (`LobbyThread`);
sessions speak to it through bare links (`Terminal`), and Ana in the
session app (`SessionApp`) where a key is pressed. Over real ssh:
tests/tui/test_serve_ssh.py.
"""

from __future__ import annotations

import pytest

from lagoon_tui.app import LagoonApp
from lagoon_tui.link import Link
from lagoon_tui.remote import RemoteHost
from lagoon_tui.screens.end import EndScreen
from lagoon_tui.screens.lobby import LobbyScreen, NameForm, RenameForm
from lagoon_tui.screens.title import TitleScreen
from lagoon_tui.session_app import SessionApp
from rules.host import Host, load_content
from rules.simulate import random_game
from tests.helpers.drive import screen_text
from tests.helpers.lobby import LobbyThread, Terminal
from tests.helpers.rooms import until, until_shown

CONTENT = load_content()
TAKEN_ANA = (
    "Another player of this server is called Ana already (names that look the same count as one): pick another name."
)
TAKEN_BEN = "Another player of this server is called Ben already"


@pytest.fixture
def server(tmp_path):
    served = LobbyThread(tmp_path / "lagoon.db")
    yield served
    served.stop()


def named(server: LobbyThread, key: str, name: str) -> Terminal:
    terminal = Terminal(server.session(f"SHA256:{key}"))
    assert terminal.link.ask("name", {"name": name}) == {"name": name}
    return terminal


def test_a_second_key_may_not_take_a_name_in_use_nor_one_that_looks_the_same(server):
    named(server, "ana", "Ana")
    ben = Terminal(server.session("SHA256:ben"))
    assert ben.link.ask("name", {"name": "ana"}) == {"refused": TAKEN_ANA}
    assert ben.link.ask("name", {"name": "\u0410na"}) == {"refused": TAKEN_ANA}  # (a Cyrillic А)
    assert ben.link.ask("name", {"name": " Ana "}) == {
        "refused": "Another player of this server is called Ana already: pick another name."
    }
    assert ben.link.ask("create", {"seats": ["person", "person"]}) == {"refused": "Pick a name first."}
    assert ben.link.ask("name", {"name": "Ben"}) == {"name": "Ben"}
    # (the same key may say its own name again, in other capitals: it is still theirs)
    assert Terminal(server.session("SHA256:ana")).link.ask("name", {"name": "ANA"}) == {"name": "ANA"}


def test_a_player_renames_with_the_same_refusals_and_the_others_lobby_shows_the_new_name(server):
    ana, ben = named(server, "ana", "Ana"), named(server, "ben", "Ben")
    code = ana.link.ask("create", {"seats": ["person", "person"]})["code"]
    assert ben.link.ask("join", {"code": code}) == {"seat": 1, "waiting": True}
    assert ben.link.ask("rename", {"name": "ANA"}) == {"refused": TAKEN_ANA}
    assert ben.link.ask("rename", {"name": "Ben"}) == {"refused": "That is your name already."}
    assert ben.link.ask("rename", {"name": "Benedict"}) == {"name": "Benedict"}
    until(lambda: [s["name"] for s in ana.last("lobby")["mine"][0]["seats"]] == ["Ana", "Benedict"], "the new name")
    assert server.store.players()["SHA256:ben"] == "Benedict"  # (kept for the key)
    # the name Ben gave up is free again
    assert named(server, "bea", "Ben")


def test_a_game_begun_keeps_the_names_it_began_with(server):
    ana, ben = named(server, "ana", "Ana"), named(server, "ben", "Ben")
    code = ana.link.ask("create", {"seats": ["person", "person"]})["code"]
    ben.link.ask("join", {"code": code})
    assert ana.link.ask("start", {"code": code}) == {"started": True}
    assert ben.link.ask("rename", {"name": "Benedict"}) == {"name": "Benedict"}
    ben.remote = RemoteHost(ben.link)
    assert ben.link.ask("enter", {"code": code}) == {"seat": 1}
    until(lambda: ben.remote.ready, "Ben's first message")
    assert [p["name"] for p in ben.remote.message.view["players"]] == ["Ana", "Ben"]
    until(lambda: [s["name"] for s in ana.last("lobby")["mine"][0]["seats"]] == ["Ana", "Ben"], "as its board")
    # nobody else may take the name the game shows for him
    eve = Terminal(server.session("SHA256:eve"))
    assert eve.link.ask("name", {"name": "ben"}) == {
        "refused": f"{TAKEN_BEN} (names that look the same count as one): pick another name."
    }


def test_a_computer_never_carries_the_name_of_a_person_here_and_nobody_takes_a_computers(server):
    ana = named(server, "ana", "Ana")
    ben = named(server, "ben", "Ben")  # (a player at the server, not in Ana's room)
    code = ana.link.ask("create", {"seats": ["person", "hard"]})["code"]
    assert ana.link.ask("start", {"code": code}) == {"started": True}
    ana.remote = RemoteHost(ana.link)
    assert ana.link.ask("enter", {"code": code}) == {"seat": 0}
    until(lambda: ana.remote.ready, "Ana's first message")
    assert [p["name"] for p in ana.remote.message.view["players"]] == ["Ana", "Cleo"]  # (not Ben: he is here)
    ana.link.ask("leave", {})
    until(lambda: ana.last("lobby")["mine"][0]["seats"][1] == {"name": "Cleo", "computer": True, "level": "hard"})
    computers = "Cleo is a computer player's name here: pick another name."
    assert Terminal(server.session("SHA256:cleo")).link.ask("name", {"name": "cleo"}) == {"refused": computers}
    assert ben.link.ask("rename", {"name": "CLEO"}) == {"refused": computers}


async def test_r_in_the_lobby_renames_the_form_says_a_refusal_and_the_title_the_new_name(server):
    named(server, "ben", "Ben")
    app = SessionApp(Link(server.session("SHA256:ana")))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until_shown(pilot, lambda: isinstance(app.screen, NameForm), "the name form")
        await pilot.press(*"ben", "enter")
        await until_shown(pilot, lambda: TAKEN_BEN in screen_text(app), "the refusal")
        assert isinstance(app.screen, NameForm)
        await pilot.press("backspace", "backspace", "backspace", *"Ana", "enter")
        await until_shown(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await until_shown(pilot, lambda: "Lagoon · Ana · no game finished yet" in screen_text(app), "her record")
        await pilot.press("r")
        await until_shown(pilot, lambda: isinstance(app.screen, RenameForm), "the rename form")
        await pilot.press(*"ctrl+a ctrl+k".split(), *"BEN", "enter")
        await until_shown(pilot, lambda: TAKEN_BEN in screen_text(app), "the refusal")
        assert isinstance(app.screen, RenameForm)
        await pilot.press("escape")
        await until_shown(pilot, lambda: isinstance(app.screen, LobbyScreen), "back in the lobby")
        assert server.store.players()["SHA256:ana"] == "Ana"  # (nothing changed)
        await pilot.press("r")
        await until_shown(pilot, lambda: isinstance(app.screen, RenameForm), "the rename form")
        await pilot.press(*"ctrl+a ctrl+k".split(), *"Anabel", "enter")
        await until_shown(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby again")
        assert "Lagoon · Anabel" in screen_text(app)
        assert server.store.players()["SHA256:ana"] == "Anabel"


@pytest.mark.parametrize("levels", [{0: "hard", 1: "easy"}, {}])
async def test_the_end_screen_marks_a_computer_winner_as_a_computer_with_its_level(levels):
    """Issue 35, point 1, the end screen ("Cleo [G] wins with 42 VP" read as a person's win): a winning
    computer's name is followed by "(computer, Hard)"; a person's by nothing."""
    engine = random_game(CONTENT, 2, 3)[0]
    app = LagoonApp(CONTENT)
    async with app.run_test(size=(160, 50)) as pilot:
        await until_shown(pilot, lambda: isinstance(app.screen, TitleScreen), "the title")
        app.game_over(Host(engine, levels))
        await until_shown(pilot, lambda: isinstance(app.screen, EndScreen), "the end screen")
        (winner,) = [p for p in Host(engine).scene(None).results.ranking if p.place == 1]  # (one, at this seed)
        headline = app.screen.query_one("#end-winners").render().plain
        mark = f" (computer, {levels[winner.seat].capitalize()})" if levels else ""
        assert headline.startswith(f"{winner.name} [") and f"]{mark} wins with {winner.total} VP." in headline
