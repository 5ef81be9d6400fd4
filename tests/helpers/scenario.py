"""Helpers for building rule situations in tests.

A scenario starts as a real game: `game()` plays the setup through the
engine's own choices, `to_actions()` plays the island selection. Then the test
shapes the situation it needs ("Jason has 4 miners and there is a gold gallery
at level 1") by setting fields of `engine.state` with the helpers below, which
keep the bank's cube count right, and finally drives the engine with `act()`.

Every helper that edits the state calls `refresh()`, so the engine recomputes
its pending decision from the edited state. A state edited this way no longer
matches its event log: tests that replay the log must not use these editors.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable

from rules import Engine, Rejection, load_content
from rules import events as ev
from rules.cards import METALS
from rules.decision import text
from rules.host import Host
from rules.results import PlayerResult
from rules.saves import Store
from rules.saves.recorder import record_new
from rules.state import Gallery

CONTENT = load_content()
NAMES = ("Ana", "Ben", "Cleo", "Dev")


# --- starting a game ---------------------------------------------------------------


def game(
    players: int = 3, seed: int = 1, start_player: int = 0, names: Iterable[str] | None = None, content=None
) -> Engine:
    """A new game with the setup finished (each seat takes its first offered choices)."""
    names = list(names or NAMES[:players])
    engine = Engine.new(content or CONTENT, names, seed=seed, start_player=start_player)
    while engine.state.phase == "setup":
        act(engine, engine.pending.ids()[0])
    return engine


def to_actions(engine: Engine, islands) -> list:
    """Play the island selection: `islands[seat]` is the island of each seat (list or dict)."""
    wanted = dict(enumerate(islands)) if not isinstance(islands, dict) else dict(islands)
    out = []
    while engine.state.phase == "island_selection":
        seat = engine.pending.seat
        out += act(engine, f"island:{wanted[seat]}")
    return out


def ready(players: int = 3, islands=(1, 2, 3), seed: int = 1, start_player: int = 0, **kw) -> Engine:
    """A game in the action phase of round 1, each seat on the island given for it."""
    engine = game(players, seed, start_player, **kw)
    to_actions(engine, list(islands)[:players])
    return engine


# --- driving it --------------------------------------------------------------------


def act(engine: Engine, *choices: str) -> list:
    """Make each choice in turn; each must be accepted. Returns all new events."""
    out = []
    for choice in choices:
        result = engine.choose(choice)
        if isinstance(result, Rejection):
            raise AssertionError(
                f"{choice!r} was refused: {result.reason}\n  pending: {engine.pending.prompt}"
                f"\n  options: {engine.pending.ids()}"
            )
        out += result
    return out


def refused(engine: Engine, choice: str) -> Rejection:
    """Make a choice that must be refused; check nothing changed and return the rejection."""
    before = len(engine.events)
    result = engine.choose(choice)
    assert isinstance(result, Rejection), f"{choice!r} was accepted: {result}"
    assert result.reason, "a rejection must say why"
    assert len(engine.events) == before
    return result


def options(engine: Engine) -> dict[str, str]:
    """The pending decision's legal options: id -> label."""
    return {o.id: o.label for o in engine.pending.options}


def reason_for(engine: Engine, choice: str) -> str | None:
    """Why `choice` is not legal now (None when it is), as the engine would say."""
    cand = next((c for c in engine._candidates().cands if c.id == choice), None)
    if cand is None:
        return "unknown"
    return text(cand.reason)


def pass_all(engine: Engine) -> list:
    """Every seat still in the round passes (ending the action phase)."""
    out = []
    start_round = engine.state.round
    while engine.state.phase == "actions" and engine.state.round == start_round:
        if engine.state.step is not None:
            raise AssertionError("an action is under way; finish it before passing")
        out += act(engine, "pass")
    return out


def of(events, kind) -> list:
    """The events of one type, in order."""
    return [e for e in events if isinstance(e, kind)]


def names(events) -> list[str]:
    return [type(e).__name__ for e in events]


def refresh(engine: Engine) -> None:
    """Make the engine work out its pending decision again after a state edit."""
    engine.state_edited()


# --- editing the state -------------------------------------------------------------


def give(
    engine: Engine,
    seat: int,
    *,
    raw: dict | None = None,
    money: int | None = None,
    merchants: int | None = None,
    miners: int | None = None,
    enriched: dict | None = None,
    artifacts: dict | None = None,
    vp: int | None = None,
    equipment: list | None = None,
    deals: list | None = None,
    objectives: list | None = None,
) -> None:
    """Set what a seat has (absolute values). Raw cubes come from / go to the bank."""
    s = engine.state
    p = s.players[seat]
    for metal, n in (raw or {}).items():
        s.supply[metal] -= n - p.raw[metal]
        p.raw[metal] = n
        assert s.supply[metal] >= 0, f"the bank has not enough {metal}"
    if money is not None:
        p.money = money
    if merchants is not None:
        p.merchants = merchants
    if miners is not None:
        p.miners = miners
    for metal, levels in (enriched or {}).items():
        p.enriched[metal] = sorted(levels)
    for metal, n in (artifacts or {}).items():
        p.artifacts[metal] = n
    if vp is not None:
        p.vp = vp
    if equipment is not None:
        p.equipment = list(equipment)
    if deals is not None:
        p.deals = list(deals)
    if objectives is not None:
        p.objectives = list(objectives)
    refresh(engine)


def clear_raw(engine: Engine, seat: int) -> None:
    give(engine, seat, raw=dict.fromkeys(METALS, 0))


def _instance(engine: Engine, kind: str) -> str:
    """A physical tile of `kind` taken out of the deck or discard pile."""
    s = engine.state
    for pile in (s.gallery_deck, s.gallery_discard):
        for tile in pile:
            if tile.split("#")[0] == kind:
                pile.remove(tile)
                return tile
    n = 1
    while any(f"{kind}#x{n}" in pile for pile in (s.gallery_deck, s.gallery_discard)):
        n += 1
    return f"{kind}#x{n}"


def _lift(engine: Engine, g: Gallery | None) -> None:
    """Take a gallery off the board: cubes to the bank, tile to the bottom of the deck."""
    if g is None:
        return
    s = engine.state
    metal = CONTENT.gallery(g.tile).metal
    if metal and g.cubes:
        s.supply[metal] += g.cubes
    s.gallery_deck.append(g.tile)


def set_gallery(
    engine: Engine,
    island: int,
    column: int,
    level: int,
    tile: str | None,
    face_up: bool = True,
    cubes: int | None = None,
    placed_by: int | None = None,
) -> Gallery | None:
    """Put a gallery of tile kind `tile` ("gold_1", "empty"...) at a place, or clear it (None).

    A face-up gallery gets `cubes` (default: the tile's number) from the bank.
    """
    s = engine.state
    col = s.sites[island].columns[column]
    _lift(engine, col[level - 1])
    col[level - 1] = None
    g = None
    if tile is not None:
        printed = engine.content.galleries[tile]
        n = (printed.cubes if cubes is None else cubes) if face_up else 0
        g = Gallery(_instance(engine, tile), face_up, n, placed_by)
        if printed.metal and n:
            s.supply[printed.metal] -= n
            assert s.supply[printed.metal] >= 0
        col[level - 1] = g
    refresh(engine)
    return g


def clear_site(engine: Engine, island: int) -> None:
    for column in range(len(engine.state.sites[island].columns)):
        for level in (2, 1):
            set_gallery(engine, island, column, level, None)


def stack_gallery_deck(engine: Engine, *kinds: str) -> list[str]:
    """Put tiles of these kinds on top of the gallery deck, in this order."""
    tiles = [_instance(engine, k) for k in kinds]
    engine.state.gallery_deck[:0] = tiles
    refresh(engine)
    return tiles


def set_centre(engine: Engine, metal: str, level: int, owners: list[int]) -> None:
    """Player cubes of `owners` on one level of one metal in the Enrichment Center."""
    engine.state.centre[metal][level] = list(owners)
    refresh(engine)


def set_round(engine: Engine, number: int) -> None:
    engine.state.round = number
    refresh(engine)


def gallery(engine: Engine, island: int, column: int, level: int) -> Gallery | None:
    return engine.state.sites[island].gallery(column, level)


def tile_kind(tile: str | None) -> str | None:
    return None if tile is None else tile.split("#")[0]


def free_merchants(engine: Engine, seat: int) -> int:
    return engine.state.players[seat].free_merchants


def cube_totals(engine: Engine) -> dict[str, int]:
    """Every raw cube of each metal: bank + boards + galleries (always 40 per metal)."""
    s = engine.state
    out = {}
    for m in METALS:
        on_galleries = sum(
            g.cubes
            for site in s.sites.values()
            for col in site.columns
            for g in col
            if g is not None and s.content.gallery(g.tile).metal == m
        )
        out[m] = s.supply[m] + sum(p.raw[m] for p in s.players) + on_galleries
    return out


__all__ = [
    "CONTENT",
    "NAMES",
    "ev",
    "game",
    "to_actions",
    "ready",
    "act",
    "refused",
    "options",
    "reason_for",
    "pass_all",
    "of",
    "names",
    "refresh",
    "give",
    "clear_raw",
    "set_gallery",
    "clear_site",
    "stack_gallery_deck",
    "set_centre",
    "set_round",
    "gallery",
    "tile_kind",
    "free_merchants",
    "cube_totals",
]


def two_islands_for_three() -> Engine:
    """Decks the loader would refuse (two islands, three players), set up by hand: Ana has chosen island 1,
    and once Ben takes island 2 Cleo has none left, a position nobody can play on."""
    board = dataclasses.replace(CONTENT.board, islands=CONTENT.board.islands[:2])
    engine = Engine.new(dataclasses.replace(CONTENT, board=board), ["Ana", "Ben", "Cleo"], seed=1, start_player=0)
    while engine.state.phase == "setup":
        engine.choose(engine.legal_ids()[0])
    engine.choose("island:1")
    return engine


def player(seat, name, place, total, money, equipment=0, deals=0, shipments=0) -> PlayerResult:
    """A player's result made up for a test of ties (all their VP from wages)."""
    return PlayerResult(
        seat=seat,
        name=name,
        colour=("red", "yellow", "green", "blue")[seat],
        place=place,
        total=total,
        vp_by_source={"wages": total},
        objectives=(),
        artifacts=0,
        artifacts_vp=0,
        money=money,
        equipment=equipment,
        deals_closed=deals,
        shipments=shipments,
        shared_place=False,
    )


def play_until(host: Host, seat: int, person_plays=lambda scene: scene.prompt.options[0].id) -> None:
    """Play the game (computers by their own players, people by their first option) until `seat` decides."""
    while host.turn().seat != seat:
        deciding = host.turn().seat
        scene = host.scene(deciding)
        choice = host.computer(deciding).choose(scene) if deciding in host.computers else person_plays(scene)
        assert host.choose(choice)


def saved_game(store: Store, choices: int, seed: int = 4, players: int = 2) -> tuple[int, Engine]:
    engine = Engine.new(CONTENT, ["Ana", "Ben", "Cleo", "Dev"][:players], seed=seed, start_player=0)
    game = record_new(store, engine)
    rng = random.Random(seed)
    for _ in range(choices):
        if engine.state.phase == "over":
            break
        ids = [i for i in engine.legal_ids() if i != "back"] or engine.legal_ids()
        engine.choose(ids[rng.randrange(len(ids))])
    return game, engine
