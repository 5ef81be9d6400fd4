"""The `lagoon` command line: check-content, simulate and argument handling."""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lagoon_tui.cli import build_parser, main, play_settings
from rules import load_content

CONTENT_DIR = Path(__file__).resolve().parents[1] / "content"
REPORT_KEYS = {
    "players",
    "games",
    "seed",
    "mean_rounds",
    "end_reasons",
    "score_mean",
    "score_stdev",
    "score_min",
    "score_max",
    "win_share",
    "mean_decisions",
}
INTEGER_LINE = re.compile(r"^(\s*(\w+)\s*=\s*)(\d+)(\s*(#.*)?)$", re.MULTILINE)


def broken_copy(tmp_path: Path) -> tuple[Path, str]:
    """Copy the shipped decks and turn one number into a word.

    Prefers a `vp = N` line (every deck has VP); returns the copy and the name
    of the file that was broken.
    """
    copy = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, copy)
    candidates = []
    for path in sorted(copy.glob("*.toml")):
        for match in INTEGER_LINE.finditer(path.read_text(encoding="utf-8")):
            candidates.append((match.group(2) != "vp", path, match))
    assert candidates, "no integer setting found in any deck"
    _, path, match = min(candidates, key=lambda c: c[0])
    text = path.read_text(encoding="utf-8")
    broken = text[: match.start(3)] + '"lots"' + text[match.end(3) :]
    path.write_text(broken, encoding="utf-8")
    return copy, path.name


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_play_refuses_bad_seats_before_opening_the_app(capsys):
    """`lagoon play` checks its arguments and explains; the app is not started."""
    code, _, err = run(capsys, "play", "Ana")
    assert code == 2 and "give 2 to 4 players, people and computers together (got 1)" in err
    code, _, err = run(capsys, "play", "Ana", "Ana")
    assert code == 2 and "player 2: Seat 1 is already called Ana." in err  # (the New game form's words)
    code, _, err = run(capsys, "play", "Ana", "Ben", "--start", "3")
    assert code == 2 and "--start must be a seat from 1 to 2" in err


def test_play_against_computers_seats_them_after_the_people(capsys):
    """`lagoon play Ana --vs hard,normal`: Ana, then a computer at each level, named with the default
    names Ana did not take; bad levels and too many seats are refused before the app opens."""
    content = load_content()

    def settings(*argv):
        return play_settings(build_parser().parse_args(["play", *argv]), content)

    solo = settings("Ana", "--vs", "hard,normal")
    assert solo.names == ("Ana", "Ben", "Cleo") and solo.computers == {1: "hard", 2: "normal"}
    assert settings("--vs", "Easy").names == ("Ana", "Ben")  # (Ana plays by default; levels in any case)
    assert settings("--vs", "Easy").computers == {1: "easy"}
    assert settings("Ben", "Cleo").computers == {}
    assert settings("Ben", "--vs", "normal").names == ("Ben", "Ana")
    assert settings("Ana", "--vs", "expert") == "--vs: no computer level 'expert'; the levels are easy, normal, hard"
    assert settings("Ana", "Ben", "--vs", "hard,hard,hard") == (
        "give 2 to 4 players, people and computers together (got 5)"
    )
    assert settings("Ana", "--vs", "hard", "--pace", "-1") == "--pace must be from 0 to 10 seconds"
    code, _, err = run(capsys, "play", "Ana", "--vs", "expert")
    assert code == 2 and "no computer level 'expert'" in err


def test_check_content_accepts_the_shipped_decks(capsys):
    code, out, _ = run(capsys, "check-content")
    assert code == 0
    assert out.startswith("OK: ")


def test_check_content_accepts_an_explicit_folder(capsys):
    code, out, _ = run(capsys, "check-content", str(CONTENT_DIR))
    assert code == 0
    assert out.startswith(f"OK: {CONTENT_DIR}")


def test_check_content_names_the_broken_file(tmp_path, capsys):
    broken, filename = broken_copy(tmp_path)
    code, out, err = run(capsys, "check-content", str(broken))
    assert code == 2
    assert filename in out + err
    assert "Traceback" not in out + err


def test_global_content_option_is_checked_too(tmp_path, capsys):
    broken, filename = broken_copy(tmp_path)
    code, out, err = run(capsys, "--content", str(broken), "check-content")
    assert code == 2
    assert filename in out + err


def test_check_content_rejects_a_missing_folder(tmp_path, capsys):
    code, out, err = run(capsys, "check-content", str(tmp_path / "nowhere"))
    assert code == 2
    assert "nowhere" in out + err


def test_simulate_json_is_repeatable_for_a_seed(capsys):
    argv = ("simulate", "--players", "2", "--games", "3", "--seed", "11", "--json")
    first = run(capsys, *argv)
    second = run(capsys, *argv)
    assert first[0] == 0
    assert first == second
    report = json.loads(first[1])
    assert set(report) >= REPORT_KEYS
    assert (report["players"], report["games"], report["seed"]) == (2, 3, 11)
    assert sum(report["end_reasons"].values()) == 3
    assert len(report["win_share"]) == 2


def test_simulate_with_bots_scores_far_above_random_play(capsys):
    """The bots play to win: their games end higher than random legal play's, often by the 30 VP goal."""
    argv = ("simulate", "--players", "2", "--games", "4", "--seed", "3", "--json")
    random_play = json.loads(run(capsys, *argv)[1])
    bots = json.loads(run(capsys, *argv, "--bots")[1])
    assert (random_play["players_are"], bots["players_are"]) == ("random", "bots")
    assert bots["score_mean"] > random_play["score_mean"] + 10
    assert bots["score_max"] >= 30


def test_simulate_seats_levels_turn_about_and_reports_wins_by_level_and_seat(capsys):
    """`--bots normal,easy`: each level takes every seat in turn; the report gives each level's share
    of its seat-games and each seat's share; the table says it too. A level that does not exist is
    refused before any game."""
    argv = ("simulate", "--players", "2", "--games", "4", "--seed", "5", "--bots", "normal,easy")
    report = json.loads(run(capsys, *argv, "--json")[1])
    assert report["players_are"] == "levels" and report["levels"] == ["normal", "easy"]
    by_level = report["by_level"]
    assert by_level["normal"]["seat_games"] == by_level["easy"]["seat_games"] == 4
    assert by_level["normal"]["wins"] + by_level["easy"]["wins"] == pytest.approx(4)
    assert sum(report["win_share"]) == pytest.approx(1)
    code, out, _ = run(capsys, *argv)
    assert code == 0 and "Wins, normal" in out and "Wins, easy" in out and "Wins, seat 2" in out
    code, _, err = run(capsys, "simulate", "--bots", "normal,expert")
    assert code == 2 and "--bots: no computer level 'expert'; the levels are easy, normal, hard and random" in err


def test_simulate_prints_a_table_by_default(capsys):
    code, out, _ = run(capsys, "simulate", "--players", "3", "--games", "1", "--seed", "2")
    assert code == 0
    assert "Mean rounds" in out
    assert "seat 3" in out


def test_simulate_refuses_broken_content_without_a_traceback(tmp_path, capsys):
    broken, filename = broken_copy(tmp_path)
    code, out, err = run(capsys, "--content", str(broken), "simulate", "--games", "1")
    assert code == 2
    assert filename in out + err
    assert "Traceback" not in out + err


@pytest.mark.parametrize(
    "argv, hint",
    [
        (["simulate", "--players", "1"], "--players"),
        (["simulate", "--players", "5"], "--players"),
        (["simulate", "--games", "0"], "--games"),
        (["simulate", "--players", "three"], "--players"),
        (["simulate", "--content", "/no/such/folder"], "/no/such/folder"),
        (["deal-cards"], "invalid choice"),
        (["serve", "--port", "70000"], "--port must be from 0 to 65535"),
        (["serve", "--per-address", "0"], "--per-address must be at least 1"),
        (["serve", "--per-key", "0"], "--per-key must be at least 1"),
        (["serve", "--max-players", "0"], "--max-players must be at least 1"),
        (["serve", "--stand-in-after", "-1"], "--stand-in-after must be from 0 (at once)"),
        (["serve", "--stand-in-after", "nan"], "--stand-in-after must be from 0 (at once)"),
        (["serve", "--quiet", "--verbose"], "not allowed with"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(capsys, argv, hint):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert hint in err
    assert out == ""


def test_python_dash_m_runs_the_command_line():
    result = subprocess.run(
        [sys.executable, "-m", "lagoon_tui", "simulate", "--players", "2", "--games", "2", "--seed", "5", "--json"],
        cwd=CONTENT_DIR.parent,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["games"] == 2
    assert result.stderr == ""  # no progress bar when stderr is not a terminal


def test_serve_refuses_a_host_key_file_that_is_not_a_key_and_leaves_it_alone(tmp_path, capsys):
    """A file given as the server's key that holds something else is named, and neither used nor replaced."""
    key = tmp_path / "host_key"
    key.write_text("my notes, not a key\n")
    code, out, err = run(capsys, "serve", "--port", "0", "--db", str(tmp_path / "lagoon.db"), "--host-key", str(key))
    assert code == 2 and str(key) in err and "Traceback" not in err
    assert key.read_text() == "my notes, not a key\n"


# -- text from a deck is printed as text (issue 32, point 6) ----------------------------------------------

HOSTILE_KEYS = {
    "osc title": "a\x1b]0;PWNED\x07",
    "clear screen": "b\x1b[2J\x1b[H",
    "c1 and delete": "c\x85\x9b31m\x7f",
    "bidi override": "d\u202eevil\u2066",
    "zero-width": "e\u200b\u200d\ufeffzw",
    "half a million": "k" * 500_000,
}
HOSTILE_FILE = "x\x1b]0;PWNED\x07\u202e.toml"


def hostile_deck(tmp_path: Path) -> Path:
    """A copy of the decks in a folder whose name holds an escape, with a card holding every hostile key and
    a hostile value, and a file whose name holds a title sequence and a direction override."""
    copy = tmp_path / "deck\x1b[2J"
    shutil.copytree(CONTENT_DIR, copy)
    path = copy / "equipment.toml"
    text = path.read_text(encoding="utf-8")
    keys = "".join(f"{json.dumps(key)} = 1\n" for key in HOSTILE_KEYS.values())  # (JSON's escapes are TOML's)
    text = text.replace("[[equipment]]\n", "[[equipment]]\n" + keys, 1)
    text = re.sub(r"^vp = \d+$", 'vp = "\\\\u001b[2J\\\\u202e\\\\u0085"', text, count=1, flags=re.MULTILINE)
    path.write_text(text, encoding="utf-8")
    (copy / HOSTILE_FILE).write_text("a = 1\n", encoding="utf-8")
    return copy


@pytest.mark.parametrize("command", [["check-content", "{deck}"], ["--content", "{deck}", "simulate", "--games", "1"]])
def test_check_content_prints_hostile_keys_values_and_file_names_as_bounded_text(command, tmp_path):
    from rules.names import LINE_SHOWN
    from tests.helpers.commands import lagoon, no_traceback, unshowable

    deck = hostile_deck(tmp_path)
    result = lagoon(*(part.format(deck=deck) for part in command))
    no_traceback(result)
    printed = result.stdout + result.stderr
    assert result.returncode == 2
    assert unshowable(printed) == []
    assert all(len(line) <= LINE_SHOWN for line in printed.splitlines())
    assert len(printed) < 20 * LINE_SHOWN  # (the half-million-character key is cut, not printed whole)
    assert "x\\u001B]0;PWNED\\u0007\\u202E.toml: not a content file" in printed
    assert "unknown key 'a\\u001B]0;PWNED\\u0007'" in printed and "unknown key 'kkkk" in printed
    assert "unknown key 'd\\u202Eevil\\u2066'" in printed and "unknown key 'e\\u200B\\u200D\\uFEFFzw'" in printed
    assert "deck\\u001B[2J" in printed and "'vp' must be" in printed


@pytest.mark.parametrize(
    "command, explained",
    [
        ("delete", ["ID  ", "the game's number, as `lagoon list` shows it", "--yes"]),
        ("export", ["ID  ", "FILE  ", "the JSON file to write"]),
        ("import", ["FILE  ", "a game written by `lagoon export`"]),
    ],
)
def test_the_save_commands_explain_their_arguments(capsys, command, explained):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0
    for words in explained:
        assert words in out, words


def test_every_argument_of_every_command_is_explained():
    """Each command's --help says what each of its arguments is (the hidden `session` is for the server)."""
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, command in commands.choices.items():
        if name == "session":
            continue
        for action in command._actions:
            assert action.help, f"lagoon {name}: {'/'.join(action.option_strings) or action.metavar} has no help"


@pytest.mark.parametrize("command", ["check-content", "simulate"])
def test_db_is_offered_only_where_there_is_a_save_file(capsys, command):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and "--db" not in out
    code, _, err = run(capsys, "--db", "elsewhere.db", command)
    assert code == 2 and f"`lagoon {command}` keeps no games" in err
    for saving in ("play", "resume", "list", "delete", "export", "import", "serve"):
        assert "--db PATH" in run(capsys, saving, "--help")[1], saving


@pytest.mark.parametrize("command", ["play", "resume"])
def test_play_asks_for_end_turn_unless_no_confirm(capsys, command):
    """`lagoon play` and `lagoon resume` wait for End turn after a turn's last move (issue 34, point 5)
    unless --no-confirm, and their help says what that costs."""
    parser = build_parser()
    assert parser.parse_args([command]).no_confirm is False
    assert parser.parse_args([command, "--no-confirm"]).no_confirm is True
    with pytest.raises(SystemExit):
        parser.parse_args([command, "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--no-confirm end each turn at its last move" in help_text and "cannot be taken back" in help_text
