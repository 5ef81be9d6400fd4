"""Names show who someone is, and text from files prints as text (issue 32, points 6 and 8).

The tester's names that rendered as nothing or as someone else: the Hangul
fillers U+3164 and U+115F, the blank braille pattern U+2800, a lone accent
U+0301, a lone variation selector U+FE0F; Cyrillic "Вen" beside "Ben"; "José"
typed composed and decomposed as two players; "A  B" with two spaces. Each is
refused, or made one name, wherever names come in: the New game form
(`check_settings`), `lagoon play`, an import and the SSH lobby.
"""

from __future__ import annotations

import json
import re
import shutil
import unicodedata
from pathlib import Path

import pytest

from lagoon_tui.serve.lobby import Lobby, Refused
from lagoon_tui.settings import check_settings, computer_names
from rules import Engine, load_content
from rules.confusables import data_version, skeleton
from rules.names import (
    LINE_SHOWN,
    MARKS_MOST,
    name_key,
    name_problem,
    names_problems,
    normal_name,
    printable,
    showable,
    shown_safely,
)
from rules.saves import Store
from rules.saves.recorder import record_new
from tests.helpers.commands import lagoon, no_traceback, unshowable

CONTENT = load_content()
JOSE_NFC = "Jos\u00e9"
JOSE_NFD = "Jose\u0301"
CYRILLIC_BEN = "\u0412en"  # Cyrillic capital VE, then Latin "en"

INVISIBLE = {
    "hangul filler": "\u3164",
    "braille blank": "\u2800",
    "hangul choseong filler": "\u115f",
    "lone combining acute": "\u0301",
    "lone variation selector 16": "\ufe0f",
    "fillers around nothing": "\u3164\u115f\u3164",
    "accents only": "\u0301\u0300\u0302",
    "a filler between letters": "Ana\u3164Ben",
    "combining grapheme joiner": "Ana\u034fBen",
    "variation selector after a letter": "Ana\ufe0f",
    "variation selector 17": "Ana\U000e0100",
    "mongolian variation selector": "Ana\u180b",
    "accent first": "\u0301Ana",
}
LOOK_ALIKE = {
    "cyrillic B": ("Ben", CYRILLIC_BEN),
    "composed and decomposed": (JOSE_NFC, JOSE_NFD),
    "capitals": ("Ana", "ANA"),
    "greek capitals": ("ANA", "\u0391\u039d\u0391"),  # Alpha, Nu, Alpha
    "one and small L": ("Al1", "All"),
    "two spaces": ("A B", "A  B"),
    "digit zero": ("Bob", "B0b"),
    "spaced letters": ("Ana", "A n a"),
    "a full stop": ("Ana", "Ana."),
    "an underscore": ("Ana", "Ana_"),
    "quotes": ("Ana", "'Ana'"),
    "a hyphen": ("Ana Maria", "Ana-Maria"),
}


def form(*names: str) -> dict[str, str]:
    """The New game form's problems for these names (colours and the rest as the form would have them)."""
    colours = ["red", "yellow", "green", "blue"][: len(names)]
    return check_settings(list(names), colours, "", None)[1]


@pytest.mark.parametrize("name", INVISIBLE.values(), ids=INVISIBLE.keys())
def test_a_name_that_shows_as_nothing_is_refused_with_a_sentence(name):
    problem = name_problem(normal_name(name))
    assert problem is not None and problem.endswith(".")
    assert "name-0" in form(name, "Ben")


@pytest.mark.parametrize("name", ["Ana", "\u2764\ufe0f", "Zo\u00eb", "\u0645\u0631\u064a\u0645", "A B", JOSE_NFC])
def test_a_name_with_a_character_that_shows_is_a_name(name):
    assert name_problem(name) is None and form(name, "Ben") == {}


ZALGO = "Z\u0351\u0320\u0337\u0361a\u0322\u0353l\u035bgo"
"""Marks stacked on one letter (four on the Z) until they cross the lines above and below."""


def test_a_name_with_marks_stacked_on_a_letter_is_refused():
    assert name_problem(normal_name(ZALGO)) == f"A name has at most {MARKS_MOST} marks on one letter."
    assert "name-0" in form(ZALGO, "Ben")
    # as many marks as a letter of a living script carries are a name: Vietnamese, Devanagari, Thai
    for name in ("Nguy\u1ec5n", "q\u0302\u0323\u0301", "\u0915\u094d\u0937\u093f", "\u0e19\u0e49\u0e33"):
        assert name_problem(normal_name(name)) is None, name


@pytest.mark.parametrize("first, second", LOOK_ALIKE.values(), ids=LOOK_ALIKE.keys())
def test_two_names_that_look_the_same_are_one_name(first, second):
    assert name_key(first) == name_key(second)
    problems = form(first, second)
    assert set(problems) == {"name-1"} and problems["name-1"].startswith(f"Seat 1 is already called {first}")


@pytest.mark.parametrize(
    "first, second", [("Ana", "Ben"), ("Ben", "Bea"), ("Ana", "Ana B"), ("Eli", "Ely"), ("?!", "!?")]
)
def test_names_that_differ_to_the_eye_are_two_names(first, second):
    assert name_key(first) != name_key(second) and form(first, second) == {}


def test_a_name_is_saved_in_its_normal_form():
    settings, problems = check_settings(["  A   B ", JOSE_NFD], ["red", "yellow"], "", None)
    assert problems == {} and settings.names == ("A B", JOSE_NFC)
    assert all(unicodedata.is_normalized("NFC", name) for name in settings.names)


def test_a_name_not_in_its_normal_form_is_refused_where_it_cannot_be_normalised():
    """(An import: its names are in its events too, so they are checked as the file gives them.)"""
    assert name_problem("A  B") == "A name has one space between words, not two."
    assert "composed" in name_problem(JOSE_NFD)
    assert names_problems(["Ben", CYRILLIC_BEN]) == {
        1: f"Seat 1 is already called Ben, too like {CYRILLIC_BEN} to tell apart."
    }


def test_a_computer_is_not_given_a_name_like_a_persons():
    assert computer_names([CYRILLIC_BEN], 1) == ("Ana",)  # not "Ben", which would look like the person
    assert computer_names(["\u0391na"], 1) == ("Ben",)  # (Greek capital Alpha, then "na")


def test_lagoon_play_normalises_names_and_refuses_look_alikes():
    from lagoon_tui.cli import build_parser, play_settings

    def settings(*names: str):
        return play_settings(build_parser().parse_args(["play", *names]), CONTENT)

    assert settings("A  B", JOSE_NFD).names == ("A B", JOSE_NFC)
    assert settings(JOSE_NFC, JOSE_NFD) == f"player 2: Seat 1 is already called {JOSE_NFC}."
    assert settings("Ben", CYRILLIC_BEN).startswith("player 2: Seat 1 is already called Ben")
    assert settings("\u3164", "Ben").startswith("player 1: A name holds")


@pytest.fixture
def export(tmp_path):
    """A game of Ana and Ben exported to a file, and the file's document."""
    db = tmp_path / "lagoon.db"
    with Store(db) as store:
        engine = Engine.new(CONTENT, ["Ana", "Ben"], seed=5)
        record_new(store, engine)
        for _ in range(5):
            engine.choose(engine.legal_ids()[0])
    path = tmp_path / "game.json"
    assert lagoon("--db", str(db), "export", "1", str(path)).returncode == 0
    return path, json.loads(path.read_text())


@pytest.mark.slow
@pytest.mark.parametrize(
    "names", [["Ben", CYRILLIC_BEN], [JOSE_NFC, JOSE_NFD], ["A  B", "Ben"], ["\u3164", "Ben"], ["Ana", "\ufe0f"]]
)
def test_an_import_with_names_that_show_as_nothing_or_alike_is_refused(names, export, tmp_path):
    path, doc = export
    doc["seats"] = [{**seat, "name": name} for seat, name in zip(doc["seats"], names)]
    path.write_text(json.dumps(doc))
    db = tmp_path / "other.db"
    result = lagoon("--db", str(db), "import", str(path))
    no_traceback(result)
    assert result.returncode == 2 and "is refused" in result.stderr
    assert not db.exists() or not Store(db).games()


def test_the_ssh_lobby_normalises_names_and_gives_look_alikes_to_one_key_only(tmp_path):
    with Store(tmp_path / "lagoon.db") as store:
        lobby = Lobby(store, CONTENT)
        assert lobby._answer("one", "name", {"name": "  Ben "}) == {"name": "Ben"}
        assert lobby._answer("two", "name", {"name": "A  B"}) == {"name": "A B"}
        for invisible in ("\u3164", "\u0301", "\u2800"):
            with pytest.raises(Refused):
                lobby._answer("three", "name", {"name": invisible})
        taken = "Another player of this server is called Ben already"  # (across keys: issue 35)
        with pytest.raises(Refused, match=taken):
            lobby._answer("two", "name", {"name": CYRILLIC_BEN})
        assert lobby._answer("two", "name", {"name": "Bea"}) == {"name": "Bea"}


@pytest.mark.parametrize("name", ["Computer", "Bo (computer)", "C0MPUTER", "Cоmputer Ana", "Ana [R]", "Bo (Hard)"])
def test_at_a_server_no_person_takes_a_name_that_reads_as_a_computer_or_carries_a_colour(name, tmp_path):
    """A person called "Bo (computer)" read as a computer on the board, in the log and in `lagoon list`."""
    with Store(tmp_path / "lagoon.db") as store:
        lobby = Lobby(store, CONTENT)
        with pytest.raises(Refused, match="A name here"):
            lobby._answer("one", "name", {"name": name})
        assert lobby._answer("one", "name", {"name": "Compton"}) == {"name": "Compton"}
        with pytest.raises(Refused, match="A name here"):  # (nor by renaming)
            lobby._answer("one", "name", {"name": name})
        assert lobby._answer("one", "name", {"name": "Bo"}) == {"name": "Bo"}


# -- printing text from files ----------------------------------------------------------------------------


HOSTILE = {
    "osc title": "\x1b]0;PWNED\x07",
    "clear screen": "\x1b[2J\x1b[H",
    "c1 csi and next line": "\x9b2J\x85",
    "delete": "a\x7fb",
    "right-to-left override": "\u202eevil",
    "isolates": "\u2066x\u2069",
    "zero-width": "a\u200b\u200c\u200d\u2060\ufeffb",
    "line breaks": "a\nb\rc\u2028d\u2029",
    "tag characters": "\U000e0001\U000e0041",
    "lone surrogate": "\ud800",
}


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_printable_text_holds_nothing_a_terminal_acts_on_and_shows_where_it_was(text):
    shown = printable(text)
    assert unshowable(shown) == [] and "\n" not in shown and ("\\u" in shown or "\\U" in shown)
    shown.encode("utf-8")  # (a lone surrogate could not even be written)


def test_printable_text_is_cut_to_the_stated_length_with_an_ellipsis():
    assert printable("k" * 500_000) == "k" * (LINE_SHOWN - 1) + "…"
    assert len(printable("\x1b" * 500_000)) <= LINE_SHOWN and printable("\x1b" * 500_000).endswith("\\u001B…")
    assert (
        printable("Ana Zo\u00eb \U0001f980 [bold]", 20) == "Ana Zo\u00eb \U0001f980 [bold]"
    )  # (markup is the caller's)
    assert printable("abcdef", 4) == "abc…"
    assert printable("ab\x1bcd", 5) == "ab…"  # (never half an escape)
    assert printable("abc", 1) == "…" and printable("abc", 0) == "…" and printable("", 0) == ""


def test_the_confusables_data_is_unicodes_current_release():
    assert data_version() == "17.0.0"
    assert skeleton("\u0412en") == skeleton("Ben") and skeleton("paypal") == skeleton("\u0440\u0430ypal")


SHOWS_AS_NOTHING = {
    "hangul filler": ("a\u3164b", "a\\u3164b"),
    "hangul choseong filler": ("\u115f", "\\u115F"),
    "hangul jungseong filler": ("x\u1160", "x\\u1160"),
    "halfwidth hangul filler": ("\uffa0x", "\\uFFA0x"),
    "blank braille": ("\u2800", "\\u2800"),
    "combining grapheme joiner": ("a\u034fb", "a\\u034Fb"),
    "lone variation selector 16": ("\ufe0f", "\\uFE0F"),
    "variation selector 16 after a letter": ("a\ufe0f", "a\\uFE0F"),
    "variation selector 1": ("\u2764\ufe00", "\u2764\\uFE00"),
    "variation selector 17": ("a\U000e0100", "a\\U000E0100"),
    "variation selector 256": ("\U000e01ef", "\\U000E01EF"),
    "mongolian variation selector": ("a\u180b", "a\\u180B"),
    "khmer inherent vowel": ("a\u17b4", "a\\u17B4"),
    "lone accent first": ("\u0301Ana", "\\u0301Ana"),
    "accent after an escape": ("\x1b\u0301", "\\u001B\\u0301"),
    "the reviewer's string": ("a\u3164b\u115f\u034f\ufe0f\U000e0100c", "a\\u3164b\\u115F\\u034F\\uFE0F\\U000E0100c"),
}


@pytest.mark.parametrize("text, shown", SHOWS_AS_NOTHING.values(), ids=SHOWS_AS_NOTHING.keys())
def test_printable_writes_a_character_that_shows_as_nothing_as_its_escape(text, shown):
    assert printable(text) == shown  # (short: what has no escape to write comes back as it is)
    assert not showable(text) and showable(shown)
    assert printable(text * 100, 50).endswith("…") and len(printable(text * 100, 50)) <= 50


@pytest.mark.parametrize(
    "text",
    [
        "\u2764\ufe0f",
        "\u2764\ufe0e",
        "Jose\u0301",
        "e\u0301\u0302",
        "\u0645\u064e\u0631\u0652",
        "Ana \U0001f980",
        "[/]",
    ],
)
def test_printable_leaves_what_shows_as_it_is(text):
    """A symbol drawn as a picture, accents on their letter (decomposed too), Arabic with its vowel marks."""
    assert printable(text) == text and showable(text) and shown_safely(text) == text


@pytest.mark.parametrize("text", [*(text for text, _ in SHOWS_AS_NOTHING.values()), *HOSTILE.values()])
def test_what_is_taken_out_of_a_name_in_the_game_is_what_printable_escapes(text):
    """One test of characters for both: `shown_safely` keeps exactly what `printable` shows as it is."""
    kept = shown_safely(text)
    assert printable(kept) == kept and showable(kept)
    assert re.sub(r"\\u[0-9A-F]{4}|\\U[0-9A-F]{8}", "", printable(text)) == kept  # (the escapes out: the same)


def test_an_old_name_that_showed_as_nothing_is_called_by_its_seat_in_the_game():
    engine = Engine.new(
        CONTENT, ["\u3164\u115f", "Ben\u034f", "\u0301Cy"], seed=2
    )  # (as saved before names were checked)
    assert [p.name for p in engine.state.players] == ["Seat 1", "Ben", "Cy"]


def test_check_content_prints_a_deck_key_of_hangul_fillers_as_escapes(tmp_path):
    """A deck key made of characters that show as nothing is named so its author can see it."""
    copy = tmp_path / "decks"
    shutil.copytree(Path(__file__).resolve().parents[1] / "content", copy)
    path = copy / "equipment.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("[[equipment]]\n", '[[equipment]]\n"\u3164\u3164" = 1\n', 1), encoding="utf-8")
    (copy / "\u3164.toml").write_text("a = 1\n", encoding="utf-8")
    result = lagoon("check-content", str(copy))
    no_traceback(result)
    assert result.returncode == 2
    assert "unknown key '\\u3164\\u3164'" in result.stdout + result.stderr
    assert "\\u3164.toml: not a content file" in result.stdout + result.stderr
    assert "\u3164" not in result.stdout + result.stderr
