"""Text fields hold at most their length (widgets/field.py): a paste keeps what fits, a key past the
length is refused, and every field of the forms has a length (issue 36, point 2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events
from textual.app import App
from textual.widgets import Input

import lagoon_tui
from lagoon_tui.screens.lobby import CodeForm, NameForm, RoomForm
from lagoon_tui.screens.new_game import NewGameScreen
from lagoon_tui.screens.replay import RoundScreen
from lagoon_tui.widgets.field import CODE_FIELD, NAME_FIELD

STYLESHEET = Path(lagoon_tui.__file__).parent / "lagoon.tcss"


class FormApp(App):
    CSS_PATH = STYLESHEET

    def __init__(self, make) -> None:
        super().__init__()
        self.make = make

    def on_mount(self) -> None:
        self.push_screen(self.make())


@pytest.mark.parametrize(
    "form",
    [NewGameScreen, NameForm, CodeForm, lambda: RoomForm(["easy", "normal"]), lambda: RoundScreen([1, 2, 3])],
    ids=["new game", "name", "code", "room", "round"],
)
async def test_every_field_of_a_form_has_a_length(form):
    app = FormApp(form)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        fields = list(app.screen.query(Input))
        assert fields and all(field.max_length for field in fields), [(f.id, f.max_length) for f in fields]


async def paste(pilot, field: Input, text: str) -> None:
    """`text` pasted into `field`, as Textual reads a terminal's bracketed paste."""
    field.post_message(events.Paste(text))
    await pilot.pause()


async def test_a_paste_of_100000_characters_keeps_what_fits_and_a_key_past_the_length_is_refused():
    app = FormApp(NameForm)
    async with app.run_test(size=(80, 24)) as pilot:
        name = app.screen.query_one("#name", Input)
        await pilot.press("A", "n", "a")  # (the form's one field has the focus)
        await paste(pilot, name, "x" * 100_000)
        assert name.value == "Ana" + "x" * (NAME_FIELD - 3)
        await pilot.press("home", "z")  # full: a key is refused wherever it goes
        assert name.value == "Ana" + "x" * (NAME_FIELD - 3)
        await pilot.press("shift+end")  # a paste over a selection takes its room
        await paste(pilot, name, "Ben" * 50)
        assert name.value == ("Ben" * 50)[:NAME_FIELD]


async def test_a_room_code_pasted_twice_over_and_more_keeps_the_length_of_the_field():
    app = FormApp(CodeForm)
    async with app.run_test(size=(80, 24)) as pilot:
        code = app.screen.query_one("#code", Input)
        await paste(pilot, code, "ABC234" * 1000)
        assert code.value == ("ABC234" * 1000)[:CODE_FIELD]


async def test_keys_that_come_together_are_taken_in_their_order():
    """Letters, backspace and arrows that reach the app at once (one read of the terminal: typed fast over a
    slow link) change the field in the order they were typed: "Zed", backspace, "x", left, "y" is "Zeyx"."""
    app = FormApp(NameForm)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        keys = [*"Zed", "backspace", "x", "left", "y"]
        for key in keys:  # (all posted before the app handles any: as its driver posts the keys of one read)
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await pilot.pause()
        assert app.screen.query_one(Input).value == "Zeyx"
