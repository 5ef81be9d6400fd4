"""Decks at the edges of what the loader accepts, built from the shipped ones.

Each case sets some numbers to the least or the most their range allows
(`rules.loader.BOARD_RANGES` for the board, the card ranges for the cards) and
then changes only what the loader's other rules demand with them (a reward
list as long as the draw, decks big enough for the table), so that the deck
loads. What a deck that loads must then allow is a whole game, whoever plays.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tomli

from rules.loader import BOARD_RANGES, CARD_MOST, FILES, ISLANDS_MOST, default_content_dir
from rules.registry import EFFECTS, REQUIRED

Decks = dict[str, dict[str, Any]]  # file name -> its parsed TOML
Change = Callable[[Decks], None]

TABLES = {
    "corporations.toml": "corporation",
    "objectives.toml": "objective",
    "equipment.toml": "equipment",
    "deals.toml": "deal",
    "shipments.toml": "shipment",
    "galleries.toml": "gallery",
}


def shipped() -> Decks:
    return {name: tomli.loads((default_content_dir() / name).read_text(encoding="utf-8")) for name in FILES}


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _toml(data: dict[str, Any]) -> str:
    """Our decks' shapes only: plain tables of values, and arrays of such tables."""
    lines: list[str] = []
    for key, value in data.items():
        if isinstance(value, dict):
            lines.append(f"[{key}]")
            lines += [f"{k} = {_value(v)}" for k, v in value.items()]
        else:
            for table in value:
                lines.append(f"[[{key}]]")
                lines += [f"{k} = {_value(v)}" for k, v in table.items()]
        lines.append("")
    return "\n".join(lines)


def write(decks: Decks, directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    for name, data in decks.items():
        (directory / name).write_text(_toml(data), encoding="utf-8")
    return directory


def cards(decks: Decks, file: str) -> list[dict[str, Any]]:
    return decks[file][TABLES[file]]


def rules(decks: Decks) -> dict[str, Any]:
    return decks["board.toml"]["rules"]


def pad(decks: Decks, file: str, least: int) -> None:
    """Copies of the deck's cards under new ids until it holds `least` cards."""
    deck = cards(decks, file)
    originals = list(deck)
    n = 0
    while len(deck) < least:
        copy = dict(originals[n % len(originals)])
        copy["id"] = f"{copy['id']}_{n // len(originals) + 2}"
        deck.append(copy)
        n += 1


def fit(decks: Decks) -> None:
    """What the loader demands alongside the numbers a case set: the other board numbers that
    must agree with them, and decks big enough for a full table."""
    r = rules(decks)
    r["players_min"] = min(r["players_min"], r["players_max"])
    r["objectives_kept"] = min(r["objectives_kept"], r["objectives_dealt"])
    r["wage_rounds"] = [w for w in r["wage_rounds"] if w <= r["rounds"]] or [r["rounds"]]
    if len(r["gallery_reward"]) != r["gallery_draw"] + 1:
        r["gallery_reward"] = [min(n, 3) for n in range(r["gallery_draw"] + 1)]
    mining = sum(1 for island in decks["board.toml"]["island"] if island.get("mining_site"))
    r["site_columns"] = max(r["site_columns"], -(-r["gallery_draw"] // mining))
    over = r["gallery_setup_face_up"] + r["gallery_setup_face_down"] - r["site_columns"]
    if over > 0:
        r["gallery_setup_face_down"] -= min(over, r["gallery_setup_face_down"])
        r["gallery_setup_face_up"] = min(r["gallery_setup_face_up"], r["site_columns"])
    for corp in cards(decks, "corporations.toml"):
        corp["merchants"] = min(corp["merchants"], r["merchants_max"])
        corp["miners"] = min(corp["miners"], r["miners_max"])
    for tile in cards(decks, "galleries.toml"):
        tile["cubes"] = min(tile["cubes"], r["gallery_max_cubes"])
    most = r["players_max"]
    pad(decks, "objectives.toml", r["objectives_dealt"] * most)
    pad(decks, "corporations.toml", r["corporations_dealt"] * most)
    pad(decks, "equipment.toml", r["equipment_display"])
    pad(decks, "shipments.toml", r["shipment_display"])
    most_deals = max(c.get("deals", 0) for c in cards(decks, "corporations.toml"))
    pad(decks, "deals.toml", most * most_deals)
    tiles = sum(t.get("count", 1) for t in cards(decks, "galleries.toml"))
    need = mining * (r["gallery_setup_face_up"] + r["gallery_setup_face_down"]) + r["gallery_draw"]
    if tiles < need:
        pad(decks, "galleries.toml", len(cards(decks, "galleries.toml")) * (need // tiles + 1))


def board_number(key: str, edge: int) -> Change:
    """One number of `[rules]` at the least (edge 0) or the most (edge 1) of its range."""

    def change(decks: Decks) -> None:
        value = BOARD_RANGES[key][edge]
        r = rules(decks)
        if key == "wage_rounds":
            r["rounds"] = max(r["rounds"], value)
            r[key] = [value] if edge == 0 else list(range(1, value + 1))
        elif key == "gallery_reward":
            r[key] = [value] * (r["gallery_draw"] + 1)
        else:
            r[key] = value
            if key == "players_min":
                r["players_max"] = max(r["players_max"], value)
            if key in ("objectives_kept",):
                r["objectives_dealt"] = max(r["objectives_dealt"], value)
            if key in ("gallery_setup_face_up", "gallery_setup_face_down"):
                r["site_columns"] = max(r["site_columns"], value)

    return change


def most_islands(decks: Decks) -> None:
    """As many islands as a board may have (`ISLANDS_MOST`): the shipped ones over again, renumbered."""
    shipped = decks["board.toml"]["island"]
    decks["board.toml"]["island"] = [
        {**shipped[n % len(shipped)], "number": n + 1, "name": f"{shipped[n % len(shipped)]['name']} {n + 1}"}
        for n in range(ISLANDS_MOST)
    ]


def every_card(file: str, key: str, value: Any) -> Change:
    """`key` set to `value` on every card of a deck."""

    def change(decks: Decks) -> None:
        for card in cards(decks, file):
            card[key] = value

    return change


FILLER = {"int": 1, "count": 1, "level": 1, "metal": "gold"}
"""A value for each kind of parameter a case does not set."""


def effect_param(effect: str, param: str, value: int) -> Change:
    """Every equipment card given the effect `effect`, with `param` set to `value` (the others at
    their defaults, or a small value where they have none), so that the effect is bought and used."""

    def change(decks: Decks) -> None:
        params = {
            name: FILLER[kind] if isinstance(kind, str) else kind[0]
            for name, (kind, default) in EFFECTS[effect].items()
            if default is REQUIRED
        }
        for card in cards(decks, "equipment.toml"):
            card["effect"] = effect
            card["params"] = {**params, param: value}

    return change


def every_cube(file: str, key: str, value: int) -> Change:
    """Every count of cubes in the `{ metal = n }` table `key` of a deck set to `value`."""

    def change(decks: Decks) -> None:
        for card in cards(decks, file):
            if card.get(key):
                card[key] = {metal: value for metal in card[key]}

    return change


PARAM_LEAST = {"int": 0, "count": 1}
"""The least value of each kind of number a card's parameter may be (the most is `CARD_MOST`)."""


def _number_params() -> list[tuple[str, str, int]]:
    return [
        (effect, p, PARAM_LEAST[kind])
        for effect, params in EFFECTS.items()
        for p, (kind, _) in params.items()
        if kind in PARAM_LEAST
    ]


CASES: dict[str, tuple[Change, ...]] = {
    **{
        f"{key} = {'least' if edge == 0 else 'most'}": (board_number(key, edge),)
        for key in BOARD_RANGES
        for edge in (0, 1)
    },
    **{
        f"{file} {key} = {value}": (every_card(file, key, value),)
        for file, key, values in (
            ("corporations.toml", "money", (0, CARD_MOST)),
            ("corporations.toml", "deals", (0, CARD_MOST // 4)),
            ("corporations.toml", "miners", (0,)),
            ("corporations.toml", "merchants", (1,)),
            ("equipment.toml", "cost", (0, CARD_MOST)),
            ("equipment.toml", "vp", (0, CARD_MOST)),
            ("deals.toml", "vp", (0, CARD_MOST)),
            ("shipments.toml", "vp", (0, CARD_MOST)),
            ("shipments.toml", "money", (0, CARD_MOST)),
            ("galleries.toml", "count", (1, 29)),
        )
        for value in values
    },
    **{
        f"{file} every {key} cube = {value}": (every_cube(file, key, value),)
        for file, key in (("corporations.toml", "resources"), ("shipments.toml", "resources"))
        for value in (1, CARD_MOST)
    },
    **{
        f"{effect} {param} = {value}": (effect_param(effect, param, value),)
        for effect, param, least in _number_params()
        for value in (least, CARD_MOST)
    },
    "every board number at its least": tuple(board_number(key, 0) for key in BOARD_RANGES),
    "every board number at its most": tuple(board_number(key, 1) for key in BOARD_RANGES),
    "islands = most": (most_islands,),
    "few columns, many tiles drawn": (
        board_number("site_columns", 0),
        board_number("gallery_draw", 1),
    ),
    "small bank, dear artifacts, many trades": (
        board_number("supply_per_metal", 0),
        board_number("artifact_price", 1),
        board_number("trade_give", 1),
        board_number("trades_per_action", 1),
    ),
}
"""Case name -> the changes that make its deck (before `fit`)."""


def edge_deck(case: str, directory: Path) -> Path:
    decks = shipped()
    for change in CASES[case]:
        change(decks)
    fit(decks)
    return write(decks, directory)


TINY = dict(rollouts=1, candidates=1, min_worlds=1, time_cap=1e9, horizon=0, guesses=4, sets=4)
"""The hard player's budget on the edge decks (tests/test_deck_edges.py, bench/edge_games.py): every
part of it runs (its reading of the others' hands, the worlds it deals, its play-outs), each as little
as it can: one play-out to the end of the round for each of two options, four guesses at each other
hand, four sets of objectives weighed. Counted, never by the clock: a game is the same on any machine."""
