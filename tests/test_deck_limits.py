"""Decks that load can be played, and no deck file can hang, crash or flood the game.

A player may point Lagoon at their own copy of the decks. Whatever is in it, the
loader either accepts it, and then a game can be set up and played to its end,
or refuses it with one line naming the file (and the card and key). Each case
here once passed the check and then looped for ever, ate all memory or crashed.
"""

from __future__ import annotations

import dataclasses
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import Engine
from rules.choose import NoLegalChoice
from rules.loader import FILES, MAX_FILE_BYTES, ContentError, check_content, default_content_dir, load_content
from tests.helpers.bounds import memory_bound
from tests.helpers.decks import edit
from tests.helpers.scenario import act, give, options, ready, two_islands_for_three


def only_first_island(directory: Path) -> None:
    path = directory / "board.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: text.index("[[island]]\nnumber = 2")], encoding="utf-8")


def all_galleries_counted(directory: Path, count: int) -> None:
    path = directory / "galleries.toml"
    path.write_text(re.sub(r"(?m)^count = \d+$", f"count = {count}", path.read_text(encoding="utf-8")))


# ---------------------------------------------------------------- numbers out of range

OUT_OF_RANGE = {
    # case: (file, old, new, expected message after the file's path)
    "keep no objectives": (
        "board.toml",
        "objectives_kept = 2",
        "objectives_kept = 0",
        "[rules]: 'objectives_kept' must be an integer ≥ 1, got 0",
    ),
    "deal no objectives": (
        "board.toml",
        "objectives_dealt = 3\nobjectives_kept = 2",
        "objectives_dealt = 0\nobjectives_kept = 0",
        "[rules]: 'objectives_dealt' must be an integer ≥ 1, got 0",
    ),
    "free artifacts": (
        "board.toml",
        "artifact_price = 4",
        "artifact_price = 0",
        "[rules]: 'artifact_price' must be an integer ≥ 1, got 0",
    ),
    "a million gallery columns": (
        "board.toml",
        "site_columns = 3",
        "site_columns = 1000000",
        "[rules]: 'site_columns' must be at most 10, got 1000000",
    ),
    "a billion rounds": (
        "board.toml",
        "rounds = 15 ",
        "rounds = 1000000000 ",
        "[rules]: 'rounds' must be at most 50, got 1000000000",
    ),
    "a goal of no VP": (
        "board.toml",
        "vp_goal = 30",
        "vp_goal = 0",
        "[rules]: 'vp_goal' must be an integer ≥ 1, got 0",
    ),
    "an empty bank": (
        "board.toml",
        "supply_per_metal = 40",
        "supply_per_metal = 0",
        "[rules]: 'supply_per_metal' must be an integer ≥ 1, got 0",
    ),
    "a game for one": (
        "board.toml",
        "players_min = 2",
        "players_min = 1",
        "[rules]: 'players_min' must be an integer ≥ 2, got 1",
    ),
    "a game for five": (
        "board.toml",
        "players_max = 4",
        "players_max = 5",
        "[rules]: 'players_max' must be at most 4, got 5",
    ),
    "a million copies of a gallery": (
        "galleries.toml",
        'id = "gold_1"\nmetal = "gold"\ncubes = 1\ncount = 1',
        'id = "gold_1"\nmetal = "gold"\ncubes = 1\ncount = 1000000',
        "tile \"gold_1\": 'count' must be at most 100, got 1000000",
    ),
    "a corporation with nobody and nothing": (
        "corporations.toml",
        'Goldfinch Ventures"\nmerchants = 4\nminers = 1\nmoney = 4',
        'Goldfinch Ventures"\nmerchants = 0\nminers = 0\nmoney = 0',
        "card \"goldfinch_ventures\": 'merchants' must be an integer ≥ 1, got 0",
    ),
    "a card costing a million": (
        "equipment.toml",
        "cost = 8\nvp = 5",
        "cost = 1000000\nvp = 5",
        "card \"excavator\": 'cost' must be at most 100, got 1000000",
    ),
    "a wage round list of thousands": (
        "board.toml",
        "wage_rounds = [3, 6, 9, 12, 15]",
        "wage_rounds = [" + ", ".join(["3"] * 5000) + "]",
        "[rules]: 'wage_rounds' must list at most 50 integers",
    ),
}


@pytest.mark.parametrize("case", OUT_OF_RANGE, ids=str)
def test_a_number_out_of_range_is_named_with_its_file_and_key(copy: Path, case: str) -> None:
    file, old, new, expected = OUT_OF_RANGE[case]
    edit(copy, file, old, new)
    problems = check_content(copy)
    assert any(p.startswith(f"{copy / file}: {expected}") for p in problems), "\n".join(problems)


def test_a_board_with_fewer_islands_than_players_is_refused(copy: Path) -> None:
    only_first_island(copy)
    assert (
        f"{copy / 'board.toml'}: needs at least players_max = 4 islands, as each player takes a "
        "different island every round, got 1" in check_content(copy)
    )


def test_a_deck_of_thousands_of_tiles_is_refused(copy: Path) -> None:
    all_galleries_counted(copy, 100)  # each count in range, 1,700 tiles in all
    assert check_content(copy) == [
        f"{copy / 'galleries.toml'}: deck too large: 1700 cards (counting copies), at most 500"
    ]


def test_a_huge_value_is_shown_cut_short(copy: Path) -> None:
    edit(copy, "corporations.toml", "money = 8", "money = " + "9" * 4000)
    [problem] = check_content(copy)
    assert problem.startswith(f"{copy / 'corporations.toml'}: card \"ironbark_mining\": 'money' must be at most 100")
    assert len(problem) < len(str(copy)) + 200


def test_an_artifact_price_above_nine_can_be_paid(copy: Path) -> None:
    """Prices beyond the usual labels still get a label (this was a KeyError)."""
    edit(copy, "board.toml", "artifact_price = 4", "artifact_price = 12")
    engine = ready(3, islands=(1, 2, 3), content=load_content(copy))
    give(engine, 0, raw={"gold": 12})
    act(engine, "do:1:buy_artifact")
    assert options(engine)["artifact:gold"] == "Gold artifact for 12 gold"
    act(engine, "artifact:gold")
    assert engine.state.players[0].artifacts["gold"] == 1


def test_a_trade_asking_more_goods_than_the_printed_two_can_be_made(copy: Path) -> None:
    """The loader takes any `trade_give` from 1 to 10; the goods are handed in two at a time (a board
    asking 4 was a KeyError, found by the test below), and any four goods can be given."""
    edit(copy, "board.toml", "trade_give = 2", "trade_give = 4")
    engine = ready(3, islands=(1, 2, 3), content=load_content(copy))
    give(engine, 0, raw={"iron": 3}, money=1)
    act(engine, "do:1:trade")
    offered = options(engine)
    assert offered["give:iron+iron"] == "Give iron + iron"
    assert all(choice.count("+") == 1 for choice in offered if choice.startswith("give:"))
    act(engine, "give:iron+iron")
    assert engine.pending.prompt == "Trade 1 of 2: you give iron + iron; what else (2 more)?"
    assert {c for c in options(engine) if c.startswith("give:")} == {"give:iron+money"}
    ana = engine.state.players[0]
    gold, money = ana.raw["gold"], ana.money
    act(engine, "give:iron+money", "get:gold")
    assert (ana.raw["iron"], ana.raw["gold"], ana.money) == (0, gold + 1, money - 1)


# ---------------------------------------------------------------- the engine's guard


def test_a_decision_without_a_legal_choice_is_an_error_not_a_soft_lock() -> None:
    """Content the loader would refuse (keep 4 of 3) is built by hand: the engine says why it stops."""
    content = load_content()
    board = dataclasses.replace(content.board, objectives_kept=content.board.objectives_dealt + 1)
    engine = Engine.new(dataclasses.replace(content, board=board), ["Ana", "Ben"], seed=1, start_player=0)
    with pytest.raises(NoLegalChoice, match=r'Ana must decide "Ana: keep 4 of your 3 objectives"'):
        engine.pending


def test_a_round_without_an_island_left_is_an_error_not_a_soft_lock() -> None:
    engine = two_islands_for_three()
    engine.choose("island:2")
    with pytest.raises(NoLegalChoice, match=r"Cleo must decide .* no legal choice \(island:1: Island 1 was chosen"):
        engine.legal_ids()


# ---------------------------------------------------------------- files the parser cannot take

DEEP = 20_000


@pytest.mark.parametrize(
    "text, expected",
    [
        ("x = " + "[" * 1100 + "]" * 1100, "nested too deeply to read (at most 16 levels)"),
        ("a" + ".a" * DEEP + " = 1", "line 1: a dotted key or table name of more than 4 parts cannot be read"),
        ("[" + "a" + ".a" * DEEP + "]", "line 1: a dotted key or table name of more than 4 parts cannot be read"),
        ("x = " + "[" * 995 + "]" * 995, "nested too deeply to read (at most 16 levels)"),
        ("x = " + "9" * 5000, "has a value that cannot be read (Exceeds the limit (4300 digits)"),
    ],
    ids=["arrays 1,100 deep", "dotted key 20,000 deep", "table header 20,000 deep", "arrays 995 deep", "5,000 digits"],
)
def test_what_the_parser_cannot_take_is_a_message(copy: Path, text: str, expected: str) -> None:
    (copy / "deals.toml").write_text(text, encoding="utf-8")
    [problem] = check_content(copy)
    assert problem.startswith(f"{copy / 'deals.toml'}: {expected}")


def test_a_deep_value_inside_a_card_is_a_message(copy: Path) -> None:
    """995 levels parse, but once made the message about them overflowed the stack."""
    edit(
        copy,
        "deals.toml",
        "vp = 2\nrequires = { gold = 2 }",
        "vp = " + "[" * 995 + "]" * 995 + "\nrequires = { gold = 2 }",
    )
    assert check_content(copy) == [f"{copy / 'deals.toml'}: nested too deeply to read (at most 16 levels)"]


def test_a_deck_file_over_the_size_limit_is_refused_unread(copy: Path) -> None:
    with open(copy / "deals.toml", "a", encoding="utf-8") as file:
        file.write("#" * MAX_FILE_BYTES + "\n")
    assert check_content(copy) == [f"{copy / 'deals.toml'}: is larger than the 1,000,000 bytes a deck file may have"]


def lagoon(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """The `lagoon` command in a process of its own, with a timeout: a hang fails the test."""
    return subprocess.run(
        [sys.executable, "-m", "lagoon_tui", *args],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=timeout,
        check=False,
    )


NOT_REGULAR = "is not a regular file (a folder, device or pipe cannot be a deck file)"


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_deck_that_is_a_device_is_refused(copy: Path, device: str) -> None:
    (copy / "deals.toml").unlink()
    (copy / "deals.toml").symlink_to(device)
    result = lagoon("check-content", str(copy))
    assert (result.returncode, result.stdout) == (2, f"{copy / 'deals.toml'}: {NOT_REGULAR}\n")


def test_a_deck_that_is_a_fifo_is_refused_without_waiting(copy: Path) -> None:
    (copy / "equipment.toml").unlink()
    os.mkfifo(copy / "equipment.toml")
    result = lagoon("check-content", str(copy))
    assert (result.returncode, result.stdout) == (2, f"{copy / 'equipment.toml'}: {NOT_REGULAR}\n")


def test_play_with_such_decks_refuses_with_the_message(copy: Path) -> None:
    (copy / "equipment.toml").unlink()
    os.mkfifo(copy / "equipment.toml")
    result = lagoon("--content", str(copy), "play", "Ana", "Ben")
    assert result.returncode == 2
    assert f"{copy / 'equipment.toml'}: {NOT_REGULAR}" in result.stderr
    assert "Traceback" not in result.stderr


# ---------------------------------------------------------------- fuzzing the decks

VALUE_LINE = re.compile(r"(?m)^([a-z_]+ = )(.+?)(\s*#.*)?$")
SHIPPED = {name: (default_content_dir() / name).read_text(encoding="utf-8") for name in FILES}
NUMBERS = st.one_of(st.integers(0, 10), st.sampled_from([-1, 20, 50, 100, 101, 1000, 10**6, 10**9, 10**30]))
LITERALS = st.one_of(
    NUMBERS.map(str),
    st.sampled_from(
        [
            '"two"',
            "true",
            "[]",
            "[0, 2, 3]",
            "[1, 1]",
            "{}",
            "{ gold = 2 }",
            "{ tin = 1 }",
            '""',
            "2.5",
            "[[0, 1], [2, 3]]",
            '"gold"',
            '"trade"',
        ]
    ),
)
MAX_DECISIONS = 20_000
"""Far above any game the ranges allow played at random (about 200 decisions at the shipped numbers)."""
MAX_MEGABYTES = 64
"""Far above what loading the decks and playing a game holds (about 1 MB at the shipped numbers)."""


@st.composite
def mutated_decks(draw) -> dict[str, str]:
    """The shipped files with one or two `key = value` lines changed or deleted.

    A number is mostly replaced by another number, in range or not, so that many
    examples load and are played; the rest get a value of any type, or lose their line.
    """
    files = dict(SHIPPED)
    for _ in range(draw(st.integers(1, 2))):
        name = draw(st.sampled_from(FILES + ("board.toml",) * len(FILES)))  # its numbers matter most
        text = files[name]
        lines = list(VALUE_LINE.finditer(text))
        numbers = [line for line in lines if line.group(2).isdigit()]
        pool = numbers if numbers and draw(st.integers(0, 3)) else lines
        line = pool[draw(st.integers(0, len(pool) - 1))]
        how = draw(st.integers(0, 9))
        if how == 0:
            new = ""
        elif how < 8 and line.group(2).isdigit():
            new = line.group(1) + str(draw(NUMBERS))
        else:
            new = line.group(1) + draw(LITERALS)
        files[name] = text[: line.start()] + new + text[line.end() :]
    return files


def play_at_random(content, seed: int) -> int:
    """A seeded random game with the fewest players: the decisions it took to end."""
    rng = random.Random(seed)
    names = ["Ana", "Ben", "Cleo", "Dev"][: content.board.players_min]
    engine = Engine.new(content, names, seed=seed)
    for decisions in range(MAX_DECISIONS):
        if engine.state.phase == "over":
            return decisions
        engine.choose(rng.choice(engine.legal_ids()))
    raise AssertionError(f"no end after {MAX_DECISIONS} decisions")


@pytest.mark.slow
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files=mutated_decks(), seed=st.integers(0, 2**32))
def test_any_deck_either_loads_and_plays_to_the_end_or_is_explained(files: dict[str, str], seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        directory = Path(folder)
        for name, text in files.items():
            (directory / name).write_text(text, encoding="utf-8")
        with memory_bound(MAX_MEGABYTES):
            try:
                content = load_content(directory)
            except ContentError as error:
                assert error.problems
                assert all(p.startswith(f"{directory}/") and ".toml" in p for p in error.problems), error.problems
                return
            assert play_at_random(content, seed) < MAX_DECISIONS


@pytest.mark.parametrize(
    "hostile", ["\\u001b]0;PWNED\\u0007Generator", "Gen\\u200berator", "\\u202eGenerator", "Gener\\tator", "G" * 1001]
)
def test_a_card_text_a_terminal_would_act_on_is_refused(copy: Path, hostile: str) -> None:
    """Deck text goes to every player's screen (issue 17, point 2): no control, zero-width or direction
    characters, and no novel: the loader names the file, the card and the key."""
    edit(copy, "equipment.toml", 'name = "Generator"', f'name = "{hostile}"')
    problems = check_content(copy)
    assert any(
        str(copy / "equipment.toml") in p and "'name' must be a non-empty string of at most 1000 printable" in p
        for p in problems
    ), "\n".join(problems)
