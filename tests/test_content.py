"""The shipped decks load, hold the rulebook's fixed facts, and broken copies are explained.

Players may point the game at their own corrected content, so every kind of
mistake must come back as one readable line naming the file, the card and the key.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rules.cards import METALS, Content
from rules.loader import ContentError, check_content, load_content
from rules.registry import EFFECTS, ISLAND_ACTIONS, MEASURES
from tests.helpers.decks import edit

RULEBOOK_EQUIPMENT = {
    "Generator",
    "Melting Pot",
    "Smelting Furnace",
    "Elevator",
    "Control Room",
    "Underground Loader",
    "Heavy Duty Loader",
    "Bulldozer",
    "Jaw Crusher",
    "Impact Crusher",
    "Cone Crusher",
    "Copper Loader",
    "Iron Loader",
    "Gold Loader",
    "Silver Loader",
    "Rescue Chamber",
    "Rock Cutter",
    "Demolition Kit",
    "Tipper",
    "Air Compressor",
    "Pickaxe Set",
    "Ventilation Fan",
    "Conveyor",
    "Excavator",
}


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content()


# ---------------------------------------------------------------- the shipped content


def test_shipped_content_loads_without_problems(content: Content) -> None:
    assert check_content() == []
    assert len(content.fingerprint) == 64


def test_deck_sizes(content: Content) -> None:
    assert len(content.board.islands) == 4
    assert len(content.corporations) == 10
    assert len(content.objectives) == 16
    assert len(content.equipment) == 24
    assert len(content.deals) == 30
    assert len(content.shipments) == 30
    assert len(content.gallery_instances()) == 28


def test_board_numbers_from_the_rulebook(content: Content) -> None:
    b = content.board
    assert (b.players_min, b.players_max, b.rounds, b.vp_goal) == (2, 4, 15, 30)
    assert (b.merchants_max, b.miners_max, b.merchant_cost, b.miner_cost) == (7, 5, 3, 2)
    assert b.wage_rounds == (3, 6, 9, 12, 15)
    assert b.gallery_reward == (0, 2, 3)
    assert b.mining_islands == (1, 2)
    assert b.island(2).actions == (
        "buy_artifact",
        "operate_mining_site",
        "draw_or_close_deal",
        "buy_equipment",
        "depart_island",
    )
    assert b.island(1).artifacts == METALS


def test_equipment_names_are_exactly_the_rulebooks(content: Content) -> None:
    assert {e.name for e in content.equipment.values()} == RULEBOOK_EQUIPMENT


def test_no_feature_equipment_gives_the_most_vp_for_its_cost(content: Content) -> None:
    plain = [e for e in content.equipment.values() if e.effect is None]
    assert {e.name for e in plain} == {"Pickaxe Set", "Ventilation Fan", "Conveyor", "Excavator"}
    best_active = max(e.vp / e.cost for e in content.equipment.values() if e.effect)
    assert all(e.vp / e.cost > best_active for e in plain)


def test_rulebook_deal_examples_exist(content: Content) -> None:
    requirements = [(dict(d.requires), d.vp) for d in content.deals.values()]
    assert ({"gold": 2}, 2) in requirements
    assert any(req == {"copper": 1, "iron": 3} for req, _ in requirements)


def test_artifact_shipments_pay_2_vp_and_5_dollars(content: Content) -> None:
    artifact = [s for s in content.shipments.values() if s.artifacts]
    assert sorted(m for s in artifact for m in s.artifacts) == sorted(METALS)
    assert all((s.vp, s.money, s.size) == (2, 5, 1) for s in artifact)


def test_rulebook_objective_examples_exist(content: Content) -> None:
    forms = [(o.measure, dict(o.params), o.scoring, o.vp, o.vp_each) for o in content.objectives.values()]
    assert ("centre_value", {}, "most", 4, 0) in forms
    assert ("shipments_of_size", {"min_size": 3}, "each", 0, 1) in forms
    tiered = [o for o in content.objectives.values() if o.measure == "enriched_on_board" and o.scoring == "tiers"]
    assert tiered, "the tiered enriched-on-board objective is missing"
    minimums, vps = zip(*tiered[0].tiers)
    assert minimums == (0, 2, 4, 5) and vps[0] == 0 and vps[1] < vps[2] < vps[3]


def test_every_name_is_in_the_registry(content: Content) -> None:
    assert all(e.effect is None or e.effect in EFFECTS for e in content.equipment.values())
    assert all(o.measure in MEASURES for o in content.objectives.values())
    assert all(a in ISLAND_ACTIONS for i in content.board.islands for a in i.actions)


def test_registry_defaults_are_filled_in(content: Content) -> None:
    assert dict(content.equipment["tipper"].params) == {"trades": 1, "give": 1}
    assert dict(content.objectives["refined_reserves"].params) == {"metal": None}


def test_mappings_keep_file_order(content: Content) -> None:
    assert list(content.deals)[:2] == ["deal_01", "deal_02"]
    assert list(content.equipment)[0] == "generator"


# ---------------------------------------------------------------- broken copies

BROKEN = {
    "unknown key": (
        "equipment.toml",
        'name = "Tipper"',
        'name = "Tipper"\ncolour = "red"',
        "card \"tipper\": unknown key 'colour'",
    ),
    "wrong type": (
        "equipment.toml",
        'vp = 0\neffect = "crush"\nparams = { min_level = 1',
        'vp = "two"\neffect = "crush"\nparams = { min_level = 1',
        'card "jaw_crusher": \'vp\' must be an integer ≥ 0, got "two"',
    ),
    "bool is not int": (
        "corporations.toml",
        'Goldfinch Ventures"\nmerchants = 4\nminers = 1',
        'Goldfinch Ventures"\nmerchants = 4\nminers = true',
        "card \"goldfinch_ventures\": 'miners' must be an integer ≥ 0, got true",
    ),
    "negative number": (
        "corporations.toml",
        "money = 8",
        "money = -8",
        "card \"ironbark_mining\": 'money' must be an integer ≥ 0, got -8",
    ),
    "missing key": (
        "deals.toml",
        'id = "deal_02"\nvp = 2\n',
        'id = "deal_02"\n',
        "card \"deal_02\": missing required key 'vp'",
    ),
    "unknown effect": (
        "equipment.toml",
        'effect = "gain_money"',
        'effect = "gain_mony"',
        'card "rock_cutter": \'effect\' must be a known effect, got "gain_mony" (did you mean "gain_money"?)',
    ),
    "unknown measure": (
        "objectives.toml",
        'measure = "money"\ntiers',
        'measure = "cash"\ntiers',
        'card "war_chest": \'measure\' must be a known measure, got "cash"',
    ),
    "missing parameter": (
        "equipment.toml",
        "params = { min_level = 3, vp = 3 }",
        "params = { min_level = 3 }",
        "card \"cone_crusher\": 'params' for effect \"crush\": missing required key 'vp'",
    ),
    "unknown parameter": (
        "objectives.toml",
        "params = { min_size = 3 }",
        "params = { min_size = 3, colour = 1 }",
        "card \"bulk_carrier\": 'params' for measure \"shipments_of_size\": unknown key 'colour'",
    ),
    "parameter type": (
        "equipment.toml",
        "params = { level = 2 }",
        "params = { level = 7 }",
        'card "heavy_duty_loader": \'params\' for effect "collect_from_gallery": '
        "'level' must be an integer from 1 to 4, got 7",
    ),
    "parameter choice": (
        "objectives.toml",
        'params = { kind = "miners" }',
        'params = { kind = "sailors" }',
        'card "pit_bosses": \'params\' for measure "workers": \'kind\' must be a known choice, got "sailors"',
    ),
    "params without effect": (
        "equipment.toml",
        "vp = 5\n",
        "vp = 5\nparams = { amount = 1 }\n",
        "card \"excavator\": 'params' given but the card has no 'effect'",
    ),
    "unknown metal": (
        "deals.toml",
        "requires = { gold = 2 }",
        "requires = { tin = 2 }",
        'card "deal_02": \'requires\' key must be a known metal, got "tin"',
    ),
    "level out of range": (
        "deals.toml",
        "requires = { silver = 2 }",
        "requires = { silver = 5 }",
        "card \"deal_08\": 'requires' value for silver must be an integer from 1 to 4, got 5",
    ),
    "too many metals": (
        "deals.toml",
        "requires = { gold = 2 }",
        "requires = { gold = 2, iron = 1, copper = 1, silver = 1 }",
        "card \"deal_02\": 'requires' must name 1 to 3 metals, got 4",
    ),
    "duplicate id": (
        "deals.toml",
        'id = "deal_03"',
        'id = "deal_02"',
        'card "deal_02": duplicate \'id\' "deal_02", already used by card #2',
    ),
    "two scoring forms": (
        "objectives.toml",
        "vp_each = 1",
        "vp_each = 1\nvp = 2",
        'card "bulk_carrier": needs exactly one way to score',
    ),
    "no scoring form": (
        "objectives.toml",
        'measure = "equipment"\ntiers = [[2, 1], [3, 3], [5, 5]]',
        'measure = "equipment"',
        'card "well_equipped": needs exactly one way to score',
    ),
    "tiers not ascending": (
        "objectives.toml",
        "tiers = [[2, 2], [3, 4], [4, 6]]",
        "tiers = [[2, 2], [2, 4], [4, 6]]",
        "card \"relic_hunter\": 'tiers' must have ascending minimums, got [2, 2, 4]",
    ),
    "empty gallery with cubes": (
        "galleries.toml",
        'id = "empty"\ncubes = 0',
        'id = "empty"\ncubes = 2',
        "tile \"empty\": an empty tile (no 'metal') must have 'cubes' = 0",
    ),
    "unknown island action": (
        "board.toml",
        '"recruit_miner",',
        '"recruit_pirate",',
        "island 4: 'actions' entry 1 must be a known island action, got \"recruit_pirate\"",
    ),
    "island without actions": (
        "board.toml",
        'actions = ["recruit_miner", "make_shipment", "draw_place_galleries", '
        '"enrichment_transaction", "depart_island"]',
        "actions = []",
        "island 4: 'actions' must list at least one entry",
    ),
    "islands numbered wrong": (
        "board.toml",
        "number = 4",
        "number = 5",
        "islands must be numbered 1 to 4 in order, got [1, 2, 3, 5]",
    ),
    "gallery reward length": (
        "board.toml",
        "gallery_reward = [0, 2, 3]",
        "gallery_reward = [0, 2]",
        "[rules]: 'gallery_reward' needs gallery_draw + 1 = 3 entries",
    ),
    "wage round beyond the last round": (
        "board.toml",
        "rounds = 15 ",
        "rounds = 12 ",
        "[rules]: 'wage_rounds' must lie within rounds 1 to 12, got [3, 6, 9, 12, 15]",
    ),
    "missing board number": ("board.toml", "miner_cost = 2\n", "", "[rules]: missing required key 'miner_cost'"),
    "gallery above the cube limit": (
        "board.toml",
        "gallery_max_cubes = 4",
        "gallery_max_cubes = 3",
        "tile \"gold_4\": 'cubes' must be ≤ 3 (gallery_max_cubes in board.toml), got 4",
    ),
    "corporation above the worker limit": (
        "corporations.toml",
        'Goldfinch Ventures"\nmerchants = 4',
        'Goldfinch Ventures"\nmerchants = 8',
        "card \"goldfinch_ventures\": 'merchants' must be ≤ 7 (merchants_max in board.toml), got 8",
    ),
    "deck too small": (
        "board.toml",
        "objectives_dealt = 3",
        "objectives_dealt = 5",
        "deck too small: 16 cards, but 4 players need 20 (objectives_dealt 5 × players_max 4)",
    ),
    "too few deals for the starting hands": (
        "corporations.toml",
        'money = 4\ndeals = 1\n\n[[corporation]]\nid = "saltmarsh',
        'money = 4\ndeals = 8\n\n[[corporation]]\nid = "saltmarsh',
        "deck too small: 30 cards, but 4 players need 32",
    ),
    "unknown top-level key": (
        "shipments.toml",
        '[[shipment]]\nid = "artifact_gold"',
        'version = 2\n\n[[shipment]]\nid = "artifact_gold"',
        "unknown top-level key 'version' (expected only: shipment)",
    ),
}

WHERE = {  # the file a problem is reported in, when not the edited one
    "gallery above the cube limit": "galleries.toml",
    "too few deals for the starting hands": "deals.toml",
    "deck too small": "objectives.toml",
}


@pytest.mark.parametrize("case", BROKEN, ids=str)
def test_broken_copy_names_file_card_and_key(copy: Path, case: str) -> None:
    file, old, new, expected = BROKEN[case]
    edit(copy, file, old, new)
    problems = check_content(copy)
    wanted = f"{copy / WHERE.get(case, file)}: {expected}"
    assert any(p.startswith(wanted) for p in problems), "\n".join(problems)


def test_toml_syntax_error_gives_line_and_column(copy: Path) -> None:
    edit(copy, "deals.toml", "requires = { gold = 2 }", "requires = { gold = 2 ")
    [problem] = check_content(copy)
    assert problem.startswith(f"{copy / 'deals.toml'}: TOML syntax error: ")
    assert "line 15" in problem and "column" in problem


def test_missing_file(copy: Path) -> None:
    (copy / "galleries.toml").unlink()
    assert check_content(copy) == [f"{copy / 'galleries.toml'}: file is missing"]


def test_stray_toml_file(copy: Path) -> None:
    shutil.copy(copy / "deals.toml", copy / "deal.toml")
    [problem] = check_content(copy)
    assert problem.startswith(f"{copy / 'deal.toml'}: not a content file (expected: board.toml, ")


def test_missing_directory(tmp_path: Path) -> None:
    assert check_content(tmp_path / "nowhere") == [f"{tmp_path / 'nowhere'}: no such content directory"]


def test_file_path_is_shown_as_given(copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(copy.parent)
    file, old, new, _ = BROKEN["wrong type"]
    edit(copy, file, old, new)
    assert check_content("content") == [
        'content/equipment.toml: card "jaw_crusher": \'vp\' must be an integer ≥ 0, got "two"'
    ]


def test_all_problems_are_reported_in_one_run(copy: Path) -> None:
    for case in ("unknown key", "negative number", "unknown metal", "wage round beyond the last round"):
        file, old, new, _ = BROKEN[case]
        edit(copy, file, old, new)
    (copy / "galleries.toml").unlink()
    with pytest.raises(ContentError) as caught:
        load_content(copy)
    assert isinstance(caught.value, ValueError)
    assert len(caught.value.problems) == 5
    assert all(p in str(caught.value) for p in caught.value.problems)


# ---------------------------------------------------------------- fingerprint


def test_fingerprint_is_stable_across_reloads(copy: Path) -> None:
    assert load_content(copy).fingerprint == load_content(copy).fingerprint == load_content().fingerprint


def test_fingerprint_ignores_layout_and_comments(copy: Path) -> None:
    before = load_content(copy).fingerprint
    edit(copy, "deals.toml", "vp = 2\nrequires = { gold = 2 }", "vp   =   2   # the example\nrequires = {gold=2}")
    assert load_content(copy).fingerprint == before


def test_fingerprint_changes_when_a_number_changes(copy: Path) -> None:
    before = load_content(copy).fingerprint
    edit(copy, "equipment.toml", "cost = 8\nvp = 5", "cost = 9\nvp = 5")
    assert load_content(copy).fingerprint != before
