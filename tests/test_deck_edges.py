"""Every deck the loader accepts can be played to its end, by every level, at 2, 3 and 4 players.

The decks are built at the edges of the loader's ranges (tests/helpers/edge_decks.py):
each number at its least and its most, one at a time and some together. The
decks that once passed the check and could not be played are either refused
with a sentence naming the file and the key, or played to the end.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import Content, Engine
from rules import events as ev
from rules.bots import Bot
from rules.bots.reading import SETS_MOST
from rules.bots.search import SearchPlayer
from rules.loader import check_content, load_content
from rules.seat import Witness, seat_scene
from rules.simulate import level_game, random_game
from tests.helpers.bounds import memory_bound
from tests.helpers.decks import edit
from tests.helpers.edge_decks import CASES, TINY, edge_deck, effect_param, rules, shipped, write
from tests.helpers.scenario import act, give, options, ready

LEVELS_AT = {
    2: (("hard", "easy"), ("normal", "random")),
    3: (("easy", "normal", "hard"), ("random", "easy", "normal")),
    4: (("random", "normal", "hard", "easy"),),
}
"""The levels seated at each number of players: every level (random, easy, normal, hard) plays at
every number, the hard player in one seat."""

MAX_DECISIONS = 20_000
"""A game that is not over after this many decisions is taken as endless (the largest edge deck,
50 rounds with wages in each, takes about 2,000)."""


def played(content: Content, players: int, levels: tuple[str, ...] | None, seed: int = 1) -> int:
    """A game to its end with computer players of `levels` (random players if None): its decisions."""
    if levels is None:
        engine, decisions = random_game(content, players, seed)
    else:
        engine, decisions = level_game(content, seed, levels, TINY)
    assert engine.state.phase == "over"
    assert decisions < MAX_DECISIONS
    return decisions


def loaded(case: str, tmp_path: Path) -> Content:
    directory = edge_deck(case, tmp_path / "content")
    assert check_content(directory) == []
    return load_content(directory)


def counts(content: Content) -> range:
    return range(content.board.players_min, content.board.players_max + 1)


QUICK = (
    "every board number at its least",
    "every board number at its most",
    "islands = most",
    "few columns, many tiles drawn",
    "trade give = 100",
    "trade give = 1",
    "small bank, dear artifacts, many trades",
)


@pytest.mark.parametrize("case", QUICK)
def test_an_edge_deck_plays_to_the_end_with_random_and_normal_players(case: str, tmp_path: Path) -> None:
    content = loaded(case, tmp_path)
    for players in counts(content):
        played(content, players, None)
        played(content, players, ("normal",) * players)


def seatings() -> list[tuple[str, int]]:
    """Each edge deck with a number of players: the QUICK decks at 2, 3 and 4, every other deck at one
    number, 2, 3 and 4 in turn down the list of cases, so that every number of players comes round."""
    pairs = [(case, players) for case in QUICK for players in (2, 3, 4)]
    others = [case for case in CASES if case not in QUICK]
    return pairs + [(case, 2 + n % 3) for n, case in enumerate(others)]


def seated(case: str, players: int, content: Content) -> int:
    if players not in counts(content):
        if case in QUICK:
            pytest.skip(f"the deck is for {content.board.players_min} to {content.board.players_max} players")
        players = min(max(players, content.board.players_min), content.board.players_max)
    return players


@pytest.mark.slow
@pytest.mark.parametrize(("case", "players"), seatings())
def test_an_edge_deck_plays_to_the_end_with_every_level(case: str, players: int, tmp_path: Path) -> None:
    """Random players, then every level (`LEVELS_AT`), the hard player among them, on every edge deck:
    the largest board (50 rounds, 4 players) too, which once took the hard player over 15 minutes of
    CPU a game (docs/performance.md, "Computer players on the edge decks")."""
    content = loaded(case, tmp_path)
    players = seated(case, players, content)
    played(content, players, None)
    for levels in LEVELS_AT[players]:
        played(content, players, levels)


@pytest.mark.parametrize(("case", "sets"), [(None, 78), ("objectives_kept = most", SETS_MOST)])
def test_the_hard_player_weighs_a_bounded_number_of_sets_of_objectives(
    case: str | None, sets: int, tmp_path: Path
) -> None:
    """The hard player weighs each set of objectives another player may have kept, a Bot's decision
    for each at every decision it reads: on the shipped deck 78 sets (2 kept of the 13 it has not
    seen), all weighed; on a deck keeping 6 of 6 dealt, 18,564 (6 of 18): one game ran past 15 minutes
    of CPU. It weighs at most `SETS_MOST`, drawn by their chance at setup."""
    content = load_content() if case is None else loaded(case, tmp_path)
    engine = Engine.new(content, ["Ana", "Ben"], seed=3)
    hard = SearchPlayer(content, 0, seed=3, rollouts=2, candidates=1, min_worlds=1, time_cap=1e9)
    players = [hard, Bot(content, 1, seed=4)]
    witnesses = [Witness(content, seat) for seat in (0, 1)]
    for _ in range(100):  # (the setup and the first island decisions: the first search reads Ben's keeping)
        if 1 in hard.reading.kept:
            break
        seat = engine.asking().seat
        witnesses[seat].brief(engine, players[seat])
        engine.choose(players[seat].choose(seat_scene(engine, None, seat)))
    assert len(hard.reading.kept[1]) == sets


def test_every_edge_deck_loads(tmp_path: Path) -> None:
    """The cases above are decks the loader accepts: none is skipped for a refusal."""
    for n, case in enumerate(CASES):
        assert check_content(edge_deck(case, tmp_path / str(n))) == [], case


# ---------------------------------------------------------------- decks that once passed and broke


def test_more_tiles_drawn_than_columns_to_place_them_is_refused(copy: Path) -> None:
    """Tiles drawn together go to different columns: one column on each of two mining sites
    cannot take three (it was a NoLegalChoice at the first Draw & Place)."""
    edit(copy, "board.toml", "gallery_draw = 2", "gallery_draw = 3")
    edit(copy, "board.toml", "gallery_reward = [0, 2, 3]", "gallery_reward = [0, 2, 3, 4]")
    edit(copy, "board.toml", "gallery_setup_face_down = 2", "gallery_setup_face_down = 0")
    edit(copy, "board.toml", "site_columns = 3", "site_columns = 1")
    assert check_content(copy) == [
        f"{copy / 'board.toml'}: [rules]: 'gallery_draw' must be ≤ 'site_columns' × mining sites = 1 × 2, "
        "as the tiles drawn together go to different columns, got 3"
    ]


def test_as_many_tiles_drawn_as_columns_to_place_them_can_be_played(tmp_path: Path) -> None:
    decks = shipped()
    board = rules(decks)
    board.update(gallery_draw=2, gallery_reward=[0, 2, 3], site_columns=1, gallery_setup_face_down=0)
    content = load_content(write(decks, tmp_path / "content"))
    for players in counts(content):
        played(content, players, ("normal",) * players)


@pytest.mark.parametrize("key", ["give", "trades"])
def test_a_trade_card_giving_nothing_is_refused(copy: Path, key: str) -> None:
    """The Tipper with `give = 0` handed out a good for nothing and crashed a computer player."""
    params = {"trades": 1, "give": 1, key: 0}
    edit(
        copy,
        "equipment.toml",
        "params = { trades = 1, give = 1 }",
        f"params = {{ trades = {params['trades']}, give = {params['give']} }}",
    )
    assert check_content(copy) == [
        f'{copy / "equipment.toml"}: card "tipper": \'params\' for effect "trade": '
        f"'{key}' must be an integer ≥ 1, got 0"
    ]


@pytest.mark.parametrize("many", [3, 40, 100])
def test_a_trade_of_many_goods_is_handed_in_a_few_at_a_time(copy: Path, many: int) -> None:
    """A Tipper asking 40 goods listed every way of giving them at once (320 MB; 100 was a
    MemoryError). The goods are handed in two at a time: never more than 15 ways to choose from."""
    edit(copy, "equipment.toml", "params = { trades = 1, give = 1 }", f"params = {{ trades = 1, give = {many} }}")
    engine = ready(3, islands=(1, 2, 3), content=load_content(copy))
    give(engine, 0, money=many, equipment=["tipper"])
    ana = engine.state.players[0]
    gold = ana.raw["gold"]
    with memory_bound(8):
        act(engine, "use:tipper")
        picks = 0
        while any(choice.startswith("give:") for choice in options(engine)):
            assert len([choice for choice in options(engine) if choice.startswith("give:")]) <= 15
            act(engine, "give:money+money" if "give:money+money" in options(engine) else "give:money")
            picks += 1
        act(engine, "get:gold")
    assert picks == -(-many // 2)
    assert (ana.money, ana.raw["gold"]) == (0, gold + 1)


@pytest.mark.parametrize("many", [3, 40, 100])
def test_a_deck_of_trades_of_many_goods_plays_to_the_end(many: int, tmp_path: Path) -> None:
    """Every equipment card a trade of `many` goods for one: the computer players still trade
    when they can (handful by handful) and play to the end."""
    decks = shipped()
    effect_param("trade", "give", many)(decks)
    content = load_content(write(decks, tmp_path / "content"))
    trades = 0
    for players in counts(content):
        for seed in (1, 2):
            engine = level_game(content, seed, ("normal", "easy", "normal", "easy")[:players])[0]
            assert engine.state.phase == "over"
            trades += sum(isinstance(e, ev.Traded) and len(e.give) == many for e in engine.events)
    assert trades > 0 if many == 3 else trades == 0  # nobody holds 40 goods
