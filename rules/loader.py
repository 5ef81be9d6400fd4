"""Load the game's decks from `content/*.toml` into the typed data of `rules.cards`.

Everything a player may edit is checked here, once, so the engine can trust its
content. The checking is table-driven: each deck is a `Deck` (file, table name,
field spec, builder), and every field names a *kind* checker. One mechanism
covers all seven files, so a mistake reads the same everywhere:

    content/equipment.toml: card "jaw_crusher": 'vp' must be an integer ≥ 0, got "two"

All problems are collected before anything is raised, so a player fixing their
own copy of the decks sees the whole list in one run.

Every number has a range, and every file a size: a copy that loads must give a
game that can be set up and played to its end (content/README.md lists the
ranges). A deck file is read only if it is a regular file of at most
`MAX_FILE_BYTES`, and whatever the TOML parser cannot cope with (nesting,
over-long numbers) comes back as a problem naming the file, like any other.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import Any

# tomli rather than the standard library's tomllib (the same parser, TOML 1.0, the same messages;
# pinned): its wheels are compiled and read the decks in half the time at every start (5 -> 2.5 ms)
import tomli

from rules.cards import (
    METALS,
    Board,
    Content,
    Corporation,
    Deal,
    Equipment,
    GalleryTile,
    Island,
    Objective,
    Shipment,
    frozen_map,
)
from rules.files import FileRefused, read_regular
from rules.names import showable
from rules.registry import EFFECTS, ISLAND_ACTIONS, MEASURES, REQUIRED, Parameter

__all__ = ["ContentError", "check_content", "default_content_dir", "load_content"]


class ContentError(ValueError):
    """The content directory has problems; `.problems` lists every one of them."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems: list[str] = list(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"{len(self.problems)} problem(s) in the game content:\n{lines}")


class _Bad(Exception):
    """A value does not fit its kind; the message completes the sentence "'key' ..."."""


# ---------------------------------------------------------------- kinds of values

Check = Callable[[Any], Any]  # returns the (converted) value or raises _Bad


def _show(value: Any) -> str:
    """The value as written in TOML, cut short so a huge value cannot flood the message."""
    shown = json.dumps(value, ensure_ascii=False, default=str)
    return shown if len(shown) <= 60 else shown[:50] + f"… ({len(shown)} characters)"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)  # TOML true is not 1


def _kind(test: Callable[[Any], bool], what: str) -> Check:
    def check(value: Any) -> Any:
        if not test(value):
            raise _Bad(f"must be {what}, got {_show(value)}")
        return value

    return check


def _between(least: int, most: int) -> Check:
    """An integer from `least` to `most`; the upper bound keeps setup and play small and finite."""

    def check(value: Any) -> Any:
        if not _is_int(value) or value < least:
            raise _Bad(f"must be an integer ≥ {least}, got {_show(value)}")
        if value > most:
            raise _Bad(f"must be at most {most}, got {_show(value)}")
        return value

    return check


CARD_MOST = 100
"""The most a card's number may be (VP, money, cost, parameters): far above any card printed."""

_int = _between(0, CARD_MOST)
_count = _between(1, CARD_MOST)
_level = _kind(lambda v: _is_int(v) and 1 <= v <= 4, "an integer from 1 to 4")
_bool = _kind(lambda v: isinstance(v, bool), "true or false")
TEXT_MOST = 1000
"""The most characters a name or a text of a deck may have."""

_text = _kind(
    lambda v: isinstance(v, str) and v.strip() != "" and len(v) <= TEXT_MOST and showable(v, lines=True),
    f"a non-empty string of at most {TEXT_MOST} printable characters (no control, zero-width or"
    " direction characters: the text goes to players' screens)",
)
ID_MOST = 60
"""The most characters an id may have (ids name options and saved moves)."""

_id = _kind(
    lambda v: isinstance(v, str) and len(v) <= ID_MOST and re.fullmatch(r"[a-z0-9_]+", v) is not None,
    f"an id of at most {ID_MOST} lowercase letters, digits and _",
)
_table = _kind(lambda v: isinstance(v, dict), "a table like { name = value }")


def _key(key: str) -> str:
    """A key as quoted in a message, cut short like a value."""
    return f"'{key}'" if len(key) <= 60 else f"'{key[:50]}…' ({len(key)} characters)"


def _suggest(word: object, known: Iterable[str]) -> str:
    known = list(known)
    close = difflib.get_close_matches(str(word)[:100], known, n=1)
    return f' (did you mean "{close[0]}"?)' if close else f" (known: {', '.join(known)})"


def _one_of(known: Iterable[str], what: str) -> Check:
    known = tuple(known)

    def check(value: Any) -> Any:
        if not isinstance(value, str) or value not in known:
            raise _Bad(f"must be a known {what}, got {_show(value)}{_suggest(value, known)}")
        return value

    return check


_metal = _one_of(METALS, "metal")
_effect = _one_of(EFFECTS, "effect")
_measure = _one_of(MEASURES, "measure")
_action = _one_of(ISLAND_ACTIONS, "island action")


def _list_of(item: Check, *, nonempty: bool = False) -> Check:
    """A list of distinct items, returned as a tuple."""

    def check(value: Any) -> tuple[Any, ...]:
        if not isinstance(value, list):
            raise _Bad(f"must be a list like [...], got {_show(value)}")
        if nonempty and not value:
            raise _Bad("must list at least one entry")
        for n, entry in enumerate(value, 1):
            try:
                item(entry)
            except _Bad as bad:
                raise _Bad(f"entry {n} {bad}") from None
        if len({_show(v) for v in value}) != len(value):
            raise _Bad(f"lists an entry twice: {_show(value)}")
        return tuple(value)

    return check


def _metal_map(amount: Check, *, least: int = 0, most: int = len(METALS)) -> Check:
    """A table `{ metal = amount }` naming `least` to `most` metals."""

    def check(value: Any) -> Mapping[str, int]:
        _table(value)
        for metal, n in value.items():
            try:
                _metal(metal)
            except _Bad as bad:
                raise _Bad(f"key {bad}") from None
            try:
                amount(n)
            except _Bad as bad:
                raise _Bad(f"value for {metal} {bad}") from None
        if not least <= len(value) <= most:
            raise _Bad(f"must name {least} to {most} metals, got {len(value)}")
        return frozen_map(value)

    return check


def _ints(least: int, most: int) -> Check:
    """A list of at most `most` integers, each from `least` to `most`."""

    def check(value: Any) -> tuple[int, ...]:
        if not isinstance(value, list) or not all(_is_int(v) and v >= least for v in value):
            raise _Bad(f"must be a list of integers ≥ {least}, got {_show(value)}")
        if len(value) > most or any(v > most for v in value):
            raise _Bad(f"must list at most {most} integers, each at most {most}, got {_show(value)}")
        return tuple(value)

    return check


TIERS_MOST = 20
"""The most tiers an objective may have."""


def _tiers(value: Any) -> tuple[tuple[int, int], ...]:
    """`[[minimum, vp], ...]` with minimums rising, as the engine picks the highest reached."""

    def pair(t: Any) -> bool:
        return isinstance(t, list) and len(t) == 2 and all(_is_int(x) and x >= 0 for x in t)

    if not isinstance(value, list) or not value or not all(pair(t) for t in value):
        raise _Bad(f"must be a list of [minimum, vp] pairs of integers ≥ 0, got {_show(value)}")
    if len(value) > TIERS_MOST or any(x > CARD_MOST for t in value for x in t):
        raise _Bad(f"must have at most {TIERS_MOST} pairs, each number at most {CARD_MOST}, got {_show(value)}")
    minimums = [t[0] for t in value]
    if any(b <= a for a, b in zip(minimums, minimums[1:])):
        raise _Bad(f"must have ascending minimums, got {_show(minimums)}")
    return tuple((m, vp) for m, vp in value)


_REGISTRY_KINDS: dict[str, Check] = {"int": _int, "count": _count, "level": _level, "metal": _metal}


# ---------------------------------------------------------------- field specs

Spec = Mapping[str, tuple[Check, Any]]  # key -> (checker, default or REQUIRED)


def _fields(raw: Mapping[str, Any], spec: Spec) -> tuple[dict[str, Any], list[str]]:
    """Check one table against its spec: unknown, missing and ill-typed keys; fill defaults."""
    out: dict[str, Any] = {}
    bad = [f"unknown key {_key(k)}{_suggest(k, spec)}" for k in raw if k not in spec]
    for key, (check, default) in spec.items():
        if key not in raw:
            if default is REQUIRED:
                bad.append(f"missing required key '{key}'")
            else:
                out[key] = default
            continue
        try:
            out[key] = check(raw[key])
        except _Bad as problem:
            bad.append(f"'{key}' {problem}")
    return out, bad


def _registry_spec(entry: Mapping[str, Parameter]) -> Spec:
    return {
        name: (_REGISTRY_KINDS[kind] if isinstance(kind, str) else _one_of(kind, "choice"), default)
        for name, (kind, default) in entry.items()
    }


def _params(card: dict[str, Any], key: str, registry: Mapping[str, Mapping[str, Parameter]]) -> list[str]:
    """Check `params` against the registry entry of `card[key]`, filling in defaults."""
    name = card[key]
    if name is None:
        return [] if not card["params"] else [f"'params' given but the card has no '{key}'"]
    params, bad = _fields(card["params"], _registry_spec(registry[name]))
    card["params"] = frozen_map(params)
    return [f"'params' for {key} \"{name}\": {b}" for b in bad]


# ---------------------------------------------------------------- card-level rules


def _objective_rules(card: dict[str, Any]) -> list[str]:
    """Exactly one way of scoring, so an objective can never be read two ways."""
    most = card["most"]
    forms = [
        name
        for name, given in (
            ("fixed", card["vp"] is not None and not most),
            ("each", card["vp_each"] is not None),
            ("tiers", card["tiers"] is not None),
            ("most", most),
        )
        if given
    ]
    bad = _params(card, "measure", MEASURES)
    if most and card["vp"] is None:
        bad.append("'most = true' needs 'vp' (the VP for the leader)")
    if len(forms) != 1:
        found = " and ".join(forms) or "none"
        bad.append(
            "needs exactly one way to score: 'vp' (+ 'at_least'), 'vp_each', 'tiers' "
            f"or 'most = true' with 'vp'; found {found}"
        )
    elif card["at_least"] is not None and forms != ["fixed"]:
        bad.append("'at_least' only goes with a fixed 'vp'")
    card["scoring"] = forms[0] if forms else None
    return bad


def _equipment_rules(card: dict[str, Any]) -> list[str]:
    return _params(card, "effect", EFFECTS)


def _shipment_rules(card: dict[str, Any]) -> list[str]:
    return [] if card["resources"] or card["artifacts"] else ["needs 'resources' and/or 'artifacts'"]


def _gallery_rules(card: dict[str, Any]) -> list[str]:
    if card["metal"] is None and card["cubes"] != 0:
        return ["an empty tile (no 'metal') must have 'cubes' = 0"]
    if card["metal"] is not None and card["cubes"] == 0:
        return ["a tile with a 'metal' needs 'cubes' ≥ 1 (leave out 'metal' for an empty tile)"]
    return []


def _island_rules(card: dict[str, Any]) -> list[str]:
    bad = []
    if card["mining_site"] != ("operate_mining_site" in card["actions"]):
        bad.append("'mining_site' must be true exactly when 'actions' has operate_mining_site")
    if "buy_artifact" in card["actions"] and not card["artifacts"]:
        bad.append("'artifacts' must list the metals to buy, as 'actions' has buy_artifact")
    return bad


# ---------------------------------------------------------------- decks


@dataclass(frozen=True)
class Deck:
    """How one file of cards is read: which fields, and what each card becomes.

    `name` is both the file (`<name>.toml`) and the field of `Content` it fills.
    """

    name: str
    table: str  # the [[array of tables]] holding the cards
    spec: Spec
    build: Callable[[dict[str, Any]], Any]
    rules: Callable[[dict[str, Any]], list[str]] = lambda card: []
    key: str = "id"
    word: str = "card"

    @property
    def file(self) -> str:
        return f"{self.name}.toml"


_ID = (_id, REQUIRED)
_NAME = (_text, REQUIRED)
_NUMBER = (_int, REQUIRED)
_CUBES: tuple[Check, Any] = (_metal_map(_count), frozen_map())


def _objective(c: dict[str, Any]) -> Objective:
    at_least = 1 if c["at_least"] is None else c["at_least"]
    return Objective(
        id=c["id"],
        name=c["name"],
        text=c["text"],
        measure=c["measure"],
        params=c["params"],
        scoring=c["scoring"],
        vp=c["vp"] or 0,
        at_least=at_least,
        vp_each=c["vp_each"] or 0,
        tiers=c["tiers"] or (),
    )


DECKS: tuple[Deck, ...] = (
    Deck(
        "corporations",
        "corporation",
        {
            # a merchant takes every action but mining: a start without one could never act at all
            "id": _ID,
            "name": _NAME,
            "merchants": (_count, REQUIRED),
            "miners": _NUMBER,
            "money": _NUMBER,
            "resources": _CUBES,
            "deals": (_int, 0),
        },
        lambda c: Corporation(**c),
    ),
    Deck(
        "objectives",
        "objective",
        {
            "id": _ID,
            "name": _NAME,
            "text": _NAME,
            "measure": (_measure, REQUIRED),
            "params": (_table, {}),
            "vp": (_int, None),
            "at_least": (_int, None),
            "vp_each": (_count, None),
            "tiers": (_tiers, None),
            "most": (_bool, False),
        },
        _objective,
        _objective_rules,
    ),
    Deck(
        "equipment",
        "equipment",
        {
            "id": _ID,
            "name": _NAME,
            "cost": _NUMBER,
            "vp": _NUMBER,
            "effect": (_effect, None),
            "params": (_table, {}),
            "text": _NAME,
        },
        lambda c: Equipment(**c),
        _equipment_rules,
    ),
    Deck(
        "deals",
        "deal",
        {
            "id": _ID,
            "vp": _NUMBER,
            "requires": (_metal_map(_level, least=1, most=3), REQUIRED),
        },
        lambda c: Deal(**c),
    ),
    Deck(
        "shipments",
        "shipment",
        {
            "id": _ID,
            "vp": _NUMBER,
            "money": _NUMBER,
            "resources": _CUBES,
            "artifacts": _CUBES,
        },
        lambda c: Shipment(**c),
        _shipment_rules,
        word="tile",
    ),
    Deck(
        "galleries",
        "gallery",
        {
            "id": _ID,
            "metal": (_metal, None),
            "cubes": _NUMBER,
            "count": (_count, 1),
        },
        lambda c: GalleryTile(**c),
        _gallery_rules,
        word="tile",
    ),
)

ISLANDS_MOST = 12
"""The most islands a board may have (the printed one has four)."""

ISLANDS = Deck(
    "board",
    "island",
    {
        "number": (_between(1, ISLANDS_MOST), REQUIRED),
        "name": _NAME,
        "actions": (_list_of(_action, nonempty=True), REQUIRED),
        "mining_site": (_bool, False),
        "artifacts": (_list_of(_metal), ()),
    },
    lambda c: Island(**c),
    _island_rules,
    key="number",
    word="island",
)

BOARD_RANGES: Mapping[str, tuple[int, int]] = {
    # (least, most) of each number in [rules]; for a list, of each entry (and of its length).
    # The least is what the rules need to go on at all (a 0 here has soft-locked or crashed
    # the engine); the most keeps setup and a game small and finite. Listed in content/README.md.
    "players_min": (2, 4),
    "players_max": (2, 4),  # the rulebook's 2-4, and four colours
    "merchants_max": (1, 20),
    "miners_max": (1, 20),
    "rounds": (1, 50),
    "vp_goal": (1, 500),
    "wage_rounds": (1, 50),
    "workers_per_dollar": (1, 10),
    "equipment_display": (1, 20),
    "shipment_display": (1, 20),
    "objectives_dealt": (1, 6),
    "objectives_kept": (1, 6),
    "corporations_dealt": (1, 6),
    "merchant_cost": (0, 50),
    "miner_cost": (0, 50),
    "artifact_price": (1, 20),
    "artifact_vp": (0, 50),
    "trades_per_action": (1, 10),
    "trade_give": (1, 10),
    "zero_line_capacity": (1, 20),
    "enrich_max": (1, 10),
    "enrich_same_metal_max": (1, 10),
    "buy_enriched_max": (1, 10),
    "owner_vp": (0, 10),
    "gallery_draw": (1, 4),
    "gallery_reward": (0, 50),
    "gallery_setup_face_up": (0, 10),
    "gallery_setup_face_down": (0, 10),
    "site_columns": (1, 10),
    "gallery_max_cubes": (1, 10),
    "supply_per_metal": (1, 1000),
}

BOARD_RULES: Spec = {
    f.name: ((_ints if str(f.type).startswith("tuple") else _between)(*BOARD_RANGES[f.name]), REQUIRED)
    for f in dataclasses.fields(Board)
    if f.name != "islands"
}
"""Every scalar of `Board` must be in `[rules]` with a range; derived so the two cannot drift apart
(a new field of `Board` without a range in `BOARD_RANGES` fails at import)."""

FILES: tuple[str, ...] = ("board.toml",) + tuple(d.file for d in DECKS)


def _label(deck: Deck, raw: Any, n: int) -> str:
    """`card "jaw_crusher"` when the card has a usable id, else its position."""
    try:
        return f"{deck.word} {_show(deck.spec[deck.key][0](raw.get(deck.key)))}"
    except _Bad:
        return f"{deck.word} #{n}"


def _array(where: str, data: dict[str, Any], table: str, allowed: set[str]) -> tuple[list[Any], list[str]]:
    """The file's [[table]] entries, and problems with the file's top level."""
    problems = [
        f"{where}: unknown top-level key {_key(k)} (expected only: {', '.join(sorted(allowed))})"
        for k in data
        if k not in allowed
    ]
    items = data.get(table)
    if items is None:
        return [], problems + [f"{where}: no [[{table}]] tables"]
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        return [], problems + [f"{where}: '{table}' must be written as [[{table}]] tables"]
    if len(items) > DECK_MOST:  # before each is checked: thousands of empty tables, thousands of messages
        return [], problems + [f"{where}: deck too large: {len(items)} [[{table}]] tables, at most {DECK_MOST}"]
    return items, problems


def _read_deck(where: str, data: dict[str, Any], deck: Deck, allowed: set[str]) -> tuple[dict[Any, Any], list[str]]:
    """Check every card of one deck; return the built cards by id and all problems."""
    items, problems = _array(where, data, deck.table, allowed)
    built: dict[Any, Any] = {}
    first: dict[Any, int] = {}
    for n, raw in enumerate(items, 1):
        card, bad = _fields(raw, deck.spec)
        bad = bad or deck.rules(card)  # card-level rules need well-typed fields
        key = card.get(deck.key)
        if key in first:
            bad.append(f"duplicate '{deck.key}' {_show(key)}, already used by {deck.word} #{first[key]}")
        elif key is not None:
            first[key] = n
        problems += [f"{where}: {_label(deck, raw, n)}: {b}" for b in bad]
        if not bad:
            built[key] = deck.build(card)
    return built, problems


def _read_board(where: str, data: dict[str, Any]) -> tuple[Board | None, list[str]]:
    raw = data.get("rules")
    if isinstance(raw, dict):
        rules, problems = _fields(raw, BOARD_RULES)
    else:
        rules, problems = {}, ["missing" if raw is None else "must be written as a [rules] table"]
    problems = [f"{where}: [rules]: {p}" for p in problems]
    islands, more = _read_deck(where, data, ISLANDS, {"rules", "island"})
    if problems or more:
        return None, problems + more
    board = Board(islands=tuple(islands.values()), **rules)
    return board, [f"{where}: {p}" for p in _board_problems(board)]


# ---------------------------------------------------------------- checks across files


def _board_problems(b: Board) -> list[str]:
    """Board numbers that are each well-typed but do not fit together."""
    numbers = [i.number for i in b.islands]
    wages = list(b.wage_rounds)
    table = [
        (
            numbers == list(range(1, len(numbers) + 1)),
            f"islands must be numbered 1 to {len(numbers)} in order, got {numbers}",
        ),
        (len(b.mining_islands) >= 1, "at least one island needs a mining site"),
        (
            len(numbers) >= b.players_max,
            f"needs at least players_max = {b.players_max} islands, as each player takes a different "
            f"island every round, got {len(numbers)}",
        ),
        (b.players_min <= b.players_max, "[rules]: 'players_min' must be ≤ 'players_max'"),
        (
            all(1 <= r <= b.rounds for r in wages),
            f"[rules]: 'wage_rounds' must lie within rounds 1 to {b.rounds}, got {wages}",
        ),
        (wages == sorted(set(wages)), "[rules]: 'wage_rounds' must be ascending without repeats"),
        (
            len(b.gallery_reward) == b.gallery_draw + 1,
            f"[rules]: 'gallery_reward' needs gallery_draw + 1 = {b.gallery_draw + 1} entries "
            f"(for 0 to {b.gallery_draw} tiles face up), got {len(b.gallery_reward)}",
        ),
        (b.objectives_kept <= b.objectives_dealt, "[rules]: 'objectives_kept' must be ≤ 'objectives_dealt'"),
        (
            b.gallery_setup_face_up + b.gallery_setup_face_down <= b.site_columns,
            "[rules]: 'gallery_setup_face_up' + 'gallery_setup_face_down' must be ≤ 'site_columns'",
        ),
        (
            not b.mining_islands or b.gallery_draw <= b.site_columns * len(b.mining_islands),
            f"[rules]: 'gallery_draw' must be ≤ 'site_columns' × mining sites = {b.site_columns} × "
            f"{len(b.mining_islands)}, as the tiles drawn together go to different columns, got {b.gallery_draw}",
        ),
    ]
    return [message for ok, message in table if not ok]


def _size(cards: Mapping[str, Any]) -> int:
    """Cards in a deck, counting every copy of a gallery tile."""
    return sum(getattr(c, "count", 1) for c in cards.values())


def _deck_needs(b: Board, decks: Mapping[str, Mapping[str, Any]]) -> dict[str, tuple[int, int, str]]:
    """Deck name -> (cards, cards needed, why): enough to deal a full table of players."""
    most_deals = max((c.deals for c in decks.get("corporations", {}).values()), default=0)
    setup = len(b.mining_islands) * (b.gallery_setup_face_up + b.gallery_setup_face_down)

    def per_player(n: int, key: str) -> tuple[int, str]:
        return n * b.players_max, f"{key} {n} × players_max {b.players_max}"

    needs = {
        "objectives": per_player(b.objectives_dealt, "objectives_dealt"),
        "corporations": per_player(b.corporations_dealt, "corporations_dealt"),
        "equipment": (b.equipment_display, "equipment_display"),
        "shipments": (b.shipment_display, "shipment_display"),
        "galleries": (setup + b.gallery_draw, "tiles placed at setup + gallery_draw"),
        "deals": (
            b.players_max * most_deals,
            f"players_max {b.players_max} × the most starting deals of a corporation, {most_deals}",
        ),
    }
    return {name: (_size(decks[name]), need, why) for name, (need, why) in needs.items() if name in decks}


DECK_MOST = 500
"""The most cards (or tiles, counting copies) a deck may hold, so that setup stays small."""

LIMITS: tuple[tuple[str, str, str], ...] = (
    ("corporations", "merchants", "merchants_max"),
    ("corporations", "miners", "miners_max"),
    ("galleries", "cubes", "gallery_max_cubes"),
)
"""(deck, card field, board limit): card numbers that the board caps."""


def _cross_problems(directory: Path, board: Board, decks: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Rules that tie a deck to the board: deck sizes, worker and cube limits."""
    at = {d.name: f"{directory / d.file}" for d in DECKS}
    problems = [
        f"{at[name]}: deck too small: {have} cards, but {board.players_max} players need {need} ({why})"
        for name, (have, need, why) in _deck_needs(board, decks).items()
        if have < need
    ]
    for name, key, limit in LIMITS:
        word = next(d.word for d in DECKS if d.name == name)
        cap = getattr(board, limit)
        problems += [
            f"{at[name]}: {word} \"{c.id}\": '{key}' must be ≤ {cap} ({limit} in board.toml), got {getattr(c, key)}"
            for c in decks.get(name, {}).values()
            if getattr(c, key) > cap
        ]
    return problems


# ---------------------------------------------------------------- reading files


def default_content_dir() -> Path:
    """`rules/_content` in an installed wheel, else the repository's `content/`."""
    package = Path(__file__).resolve().parent
    installed = package / "_content"
    return installed if installed.is_dir() else package.parent / "content"


MAX_FILE_BYTES = 1_000_000
"""The largest deck file read (the biggest shipped one is under 10 kB)."""

MAX_DEPTH = 16
"""The deepest nesting of tables and lists in a deck file (the decks need 5)."""

MAX_KEY_PARTS = 4
"""The most parts a dotted key (`a.b.c = 1`) or a table's name (`[a.b]`) may have (the decks use 1)."""

MAX_KEYS = 10_000
"""The most keys and table headers a deck file may have (500 cards of a dozen keys stay far below)."""

MAX_ENTRIES = 40_000
"""The most keys, table headers and list entries a deck file may have together (500 objectives of 20
tiers each need 30,000): the parser takes some microseconds over each."""

# Strings and comments, as TOML reads them from left to right; one that is never closed runs to the
# end of the text (the TOML parser stops there, so what follows is never read). Every repetition is
# possessive, so no text is looked at twice.
_STRING_OR_COMMENT = re.compile(
    r'"""(?:[^"\\]|\\[\s\S]|"(?!""))*+(?:"{3,5}|\Z)'
    r"|'''(?:[^']|'(?!''))*+(?:'{3,5}|\Z)"
    r'|"(?:[^"\\\n]|\\[\s\S])*+(?:"|[\s\S]*+)'
    r"|'[^'\n]*+(?:'|[\s\S]*+)"
    r"|#[^\n]*+"
)
_LONG_KEY = re.compile(rf"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]++(?:[ \t]*+\.[ \t]*+[A-Za-z0-9_-]++){{{MAX_KEY_PARTS}}}")
_HEADER = re.compile(r"(?m)^[ \t]*\[")
_DEPTH = {"[": 1, "{": 1, "]": -1, "}": -1}


def _blanked(match: re.Match[str]) -> str:
    """A string as one bare word `s` (it may be a part of a key), a comment as nothing; lines kept."""
    found = match.group()
    return ("" if found[0] == "#" else "s") + "\n" * found.count("\n")


def _shape_problem(text: str) -> str | None:
    """Why the TOML parser should not be given `text`, found in time and memory in proportion to it.

    The parser takes time and memory that grow with the square of a dotted key's parts (a key of
    20,000 parts took 2.4 GB), and recurses into nested lists and tables, so those are counted in the
    raw text first, with strings and comments left out: tables and lists nested more than `MAX_DEPTH`
    deep, a dotted key of more than `MAX_KEY_PARTS` parts, more than `MAX_KEYS` keys and headers, or
    more than `MAX_ENTRIES` keys, headers and list entries."""
    bare = _STRING_OR_COMMENT.sub(_blanked, text)
    brackets = re.sub(r"[^\[\]{}]+", "", bare)
    if brackets and max(accumulate(map(_DEPTH.__getitem__, brackets))) > MAX_DEPTH:
        return f"nested too deeply to read (at most {MAX_DEPTH} levels)"
    long_key = _LONG_KEY.search(bare)
    if long_key is not None:
        line = bare.count("\n", 0, long_key.start()) + 1
        return f"line {line}: a dotted key or table name of more than {MAX_KEY_PARTS} parts cannot be read"
    keys = bare.count("=") + len(_HEADER.findall(bare))
    if keys > MAX_KEYS:
        return f"has {keys:,} keys and tables, more than the {MAX_KEYS:,} a deck file may have"
    entries = keys + bare.count(",")
    if entries > MAX_ENTRIES:
        return f"has {entries:,} keys, tables and list entries, more than the {MAX_ENTRIES:,} a deck file may have"
    return None


def _read(path: Path) -> bytes:
    """The file's bytes, if it is a regular file of at most `MAX_FILE_BYTES`; else `_Bad`."""
    try:
        return read_regular(path, MAX_FILE_BYTES, "a deck file")
    except FileRefused as refused:
        raise _Bad(str(refused)) from None


def _too_deep(data: Any) -> bool:
    """Whether tables and lists nest more than `MAX_DEPTH` levels (looked at without recursion)."""
    level = [data]
    for _ in range(MAX_DEPTH):
        level = [v for x in level for v in (x.values() if isinstance(x, dict) else x) if isinstance(v, (dict, list))]
        if not level:
            return False
    return True


def _parse(path: Path) -> tuple[dict[str, Any] | None, list[str]]:
    try:
        text = _read(path).decode("utf-8")
        shape = _shape_problem(text)
        if shape is not None:
            return None, [f"{path}: {shape}"]
        data = tomli.loads(text)
    except FileNotFoundError:
        return None, [f"{path}: file is missing"]
    except OSError as error:
        return None, [f"{path}: cannot be read ({error.strerror or error})"]
    except _Bad as bad:
        return None, [f"{path}: {bad}"]
    except UnicodeDecodeError as error:
        return None, [f"{path}: is not UTF-8 text ({error.reason} at byte {error.start})"]
    except tomli.TOMLDecodeError as error:
        return None, [f"{path}: TOML syntax error: {error}"]
    except (RecursionError, MemoryError):
        # the parser's own limit on nesting (1,000 levels), or a dotted key thousands of parts long
        return None, [f"{path}: nested too deeply to read (at most {MAX_DEPTH} levels)"]
    except ValueError as error:  # a number of more than 4,300 digits, as Python limits them
        return None, [f"{path}: has a value that cannot be read ({str(error)[:80]})"]
    if _too_deep(data):
        return None, [f"{path}: nested too deeply to read (at most {MAX_DEPTH} levels)"]
    return data, []


def fingerprint(parsed: Mapping[str, Any]) -> str:
    """sha256 of a canonical JSON of the parsed files, so layout and comments do not count."""
    canonical = json.dumps(parsed, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _load(directory: Path | str | None) -> tuple[Content | None, list[str]]:
    """Parse, check and build everything; problems of every file are gathered before giving up."""
    directory = default_content_dir() if directory is None else Path(directory)
    if not directory.is_dir():
        return None, [f"{directory}: no such content directory"]
    parsed: dict[str, Any] = {}
    problems = [
        f"{path}: not a content file (expected: {', '.join(FILES)})"
        for path in sorted(directory.glob("*.toml"))
        if path.name not in FILES
    ]
    for name in FILES:
        data, bad = _parse(directory / name)
        problems += bad
        if data is not None:
            parsed[name] = data
    board = None
    if "board.toml" in parsed:
        board, bad = _read_board(str(directory / "board.toml"), parsed["board.toml"])
        problems += bad
    decks: dict[str, Mapping[str, Any]] = {}
    for deck in DECKS:
        if deck.file in parsed:
            cards, bad = _read_deck(str(directory / deck.file), parsed[deck.file], deck, {deck.table})
            problems += bad
            if not bad:  # a broken deck is not sized or limited, to avoid follow-on noise
                decks[deck.name] = cards
    if board is not None:
        problems += _cross_problems(directory, board, decks)
    problems += [
        f"{directory / name}.toml: deck too large: {_size(cards)} cards (counting copies), at most {DECK_MOST}"
        for name, cards in decks.items()
        if _size(cards) > DECK_MOST
    ]
    if problems:
        return None, problems
    assert board is not None, "board.toml was read, or a problem says why not"
    maps = {name: frozen_map(cards) for name, cards in decks.items()}
    return Content(board=board, fingerprint=fingerprint(parsed), **maps), []


def check_content(directory: Path | str | None = None) -> list[str]:
    """Every problem in a content directory, one readable line each; empty means it loads."""
    return _load(directory)[1]


def load_content(directory: Path | str | None = None) -> Content:
    """Load and validate a content directory (default: the shipped one)."""
    content, problems = _load(directory)
    if content is None:
        raise ContentError(problems)
    return content
