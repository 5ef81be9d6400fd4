"""One test per worked example of the rulebook, played through the engine.

Each test builds the example's situation (see tests/helpers/scenario.py), makes the
choices a player would make, and checks what the rulebook says happens: the
resources, money, VP and board afterwards, and the events that report it.
"""

from __future__ import annotations

import dataclasses

import pytest

from rules.cards import METALS, Deal, frozen_map
from rules.scoring import objective_vp
from tests.helpers.scenario import (
    CONTENT,
    act,
    clear_raw,
    clear_site,
    ev,
    gallery,
    game,
    give,
    names,
    of,
    options,
    pass_all,
    ready,
    refused,
    set_centre,
    set_gallery,
    set_round,
    stack_gallery_deck,
    tile_kind,
    to_actions,
)

# --- Island selection ------------------------------------------------------------------------


def test_island_numbers_give_the_turn_order():
    """You pick island 1, Jane island 3 and Mary island 4 (clockwise from the token): you play
    first, then Jane, then Mary. An island already taken cannot be picked again."""
    e = game(3, names=("You", "Jane", "Mary"))
    act(e, "island:1")
    assert e.pending.seat == 1
    assert refused(e, "island:1").reason == "Island 1 was chosen by You this round"
    events = act(e, "island:3", "island:4")
    assert of(events, ev.ActionPhaseBegan) == [ev.ActionPhaseBegan((0, 1, 2))]
    assert e.pending.seat == 0 and e.pending.kind == "choose_action"


def test_island_order_not_seat_order():
    """The order follows the island numbers, not the seats: island 1 plays first."""
    e = game(3, names=("You", "Jane", "Mary"))
    events = to_actions(e, [4, 3, 1])
    assert of(events, ev.ActionPhaseBegan) == [ev.ActionPhaseBegan((2, 1, 0))]
    assert e.pending.seat == 2


# --- Actions: one more merchant for each player before you ---------------------------------


def test_buy_equipment_needs_one_two_three_merchants_on_the_same_island():
    """Jane buys equipment on island 2 with 1 merchant; the next player to buy there in the
    same round needs 2, the third needs 3. The later two sailed in with Depart Island, and
    with too few free merchants the action is refused, saying why."""
    e = ready(3, islands=(2, 1, 3), names=("Jane", "You", "Third"))
    jane, you, third = 0, 1, 2
    for seat, merchants in ((jane, 2), (you, 4), (third, 3)):
        give(e, seat, money=30, merchants=merchants)
    assert e.state.turn_order == [you, jane, third]  # island 1, 2, 3

    # You (island 1): one action there, then sail to island 2.
    act(e, "do:1:draw_or_close_deal", "draw", "do:1:depart_island", "island:2")
    # Jane (island 2) is the first to buy equipment there: 1 merchant.
    assert options(e)["do:2:buy_equipment"] == "Buy an Equipment (1 merchant)"
    started = of(act(e, "do:2:buy_equipment"), ev.ActionStarted)
    assert started[0].merchants == 1
    act(e, f"equipment:{e.state.equipment_display[0]}", "pass")
    # The third player sails from island 3 to island 2 as their first action: turn over.
    act(e, "do:3:depart_island", "island:2")
    assert e.pending.seat == you

    # You buy second on island 2: 2 merchants.
    assert options(e)["do:2:buy_equipment"] == "Buy an Equipment (2 merchants)"
    started = of(act(e, "do:2:buy_equipment"), ev.ActionStarted)
    assert started[0].merchants == 2
    act(e, f"equipment:{e.state.equipment_display[0]}", "pass")

    # The third player has 3 merchants, one spent on sailing: 2 free, 3 needed.
    assert e.pending.seat == third and e.state.players[third].free_merchants == 2
    assert "do:2:buy_equipment" not in options(e)
    rejection = refused(e, "do:2:buy_equipment")
    assert rejection.reason == (
        "This action needs 3 merchants because 2 other players took it before you; you have 2 free"
    )

    give(e, third, merchants=4)  # with one more merchant it works
    assert options(e)["do:2:buy_equipment"] == "Buy an Equipment (3 merchants)"
    started = of(act(e, "do:2:buy_equipment"), ev.ActionStarted)
    assert started[0].merchants == 3
    assert e.state.players[third].free_merchants == 0


# --- Operate Mining Site: Jason's 4 miners -------------------------------------------------


def test_jason_mines_gold_iron_and_a_blank_gallery():
    """Jason sends 1 miner to a level-1 gold gallery, 2 to the level-2 iron gallery behind it
    and 1 to a face-down level-1 gallery that is blank. He gets 1 gold + 1 iron; the blank is
    turned up and stays; the emptied gold gallery goes and the iron one slides to level 1,
    only after everything was mined."""
    e = ready(3, islands=(1, 2, 3), names=("Jason", "Lana", "Jane"))
    jason = 0
    clear_site(e, 1)
    gold = set_gallery(e, 1, 0, 1, "gold_1")  # 1 gold left: the last one
    iron = set_gallery(e, 1, 0, 2, "iron_3")  # level 2, behind the gold
    blank = set_gallery(e, 1, 1, 1, "empty", face_up=False)  # unknown to Jason
    set_gallery(e, 1, 2, 1, "copper_2", face_up=False)  # not touched
    clear_raw(e, jason)
    give(e, jason, miners=4)

    act(e, "do:1:operate_mining_site", "mine:0:1:1", "mine:0:2:2")
    # assigning is only a plan: nothing has been mined or removed yet
    assert gallery(e, 1, 0, 1).cubes == 1 and gallery(e, 1, 0, 2) is iron
    events = act(e, "mine:1:1:1")  # his last free miner: the action resolves at once

    p = e.state.players[jason]
    assert p.raw == {"gold": 1, "iron": 1, "copper": 0, "silver": 0}
    assert p.miners_used == 4
    mined = of(events, ev.ResourcesMined)
    assert [(m.metal, m.level, m.cubes) for m in mined] == [("gold", 1, 1), ("iron", 2, 1)]
    flipped = of(events, ev.GalleryFlipped)
    assert [(f.column, f.level, tile_kind(f.tile), f.cubes) for f in flipped] == [(1, 1, "empty", 0)]
    removed, slid = of(events, ev.GalleryRemoved), of(events, ev.GallerySlid)
    assert [(r.column, r.level, r.tile, r.why) for r in removed] == [(0, 1, gold.tile, "exhausted")]
    assert [(s.island, s.column) for s in slid] == [(1, 0)]
    # flips and mining first, then removal, then sliding
    order = names(events)
    last_work = max(order.index("GalleryFlipped"), len(order) - 1 - order[::-1].index("ResourcesMined"))
    assert last_work < order.index("GalleryRemoved") < order.index("GallerySlid")

    assert gallery(e, 1, 0, 1) is iron and iron.cubes == 2 and gallery(e, 1, 0, 2) is None
    assert gallery(e, 1, 1, 1) is blank and blank.face_up  # the blank stays, face up
    assert gold.tile in e.state.gallery_discard


# --- Enrichment Transaction: Lana --------------------------------------------------------


def test_lana_enriches_two_iron_and_one_copper():
    """Lana pays 2 iron and 1 copper to the bank and puts 3 cubes of her colour on the 0'
    line (2 on iron, 1 on copper). Enriching costs no money and scores no VP."""
    e = ready(2, islands=(3, 4), names=("Lana", "Jason"))
    lana = 0
    clear_raw(e, lana)
    give(e, lana, raw={"iron": 2, "copper": 1})
    before = e.state.players[lana].money, e.state.players[lana].vp
    supply = dict(e.state.supply)

    events = act(e, "do:3:enrichment_transaction", "enrich", "enrich:iron", "enrich:iron", "enrich:copper")

    assert of(events, ev.ResourcesEnriched) == [ev.ResourcesEnriched(lana, ("iron", "iron", "copper"))]
    centre = e.state.centre
    assert centre["iron"][0] == [lana, lana] and centre["copper"][0] == [lana]
    assert all(not levels[0] for m, levels in centre.items() if m not in ("iron", "copper"))
    p = e.state.players[lana]
    assert p.raw == dict.fromkeys(METALS, 0)
    assert (p.money, p.vp) == before and not of(events, ev.Scored)
    assert e.state.supply["iron"] == supply["iron"] + 2 and e.state.supply["copper"] == supply["copper"] + 1


# --- Payment check ------------------------------------------------------------------------


def test_wages_four_merchants_three_miners_after_round_three():
    """4 merchants + 3 miners cost $4 after round 3. With only $2 the player pays $2 and
    loses 2 VP, which may take the score below zero; a player with enough money loses none."""
    e = ready(3, islands=(1, 2, 3))
    short, rich = 0, 1
    give(e, short, merchants=4, miners=3, money=2, vp=0)
    give(e, rich, merchants=4, miners=3, money=10, vp=5)
    set_round(e, 3)

    events = pass_all(e)

    wages = {w.seat: w for w in of(events, ev.WagesPaid)}
    assert (wages[short].due, wages[short].paid) == (4, 2)
    assert (wages[rich].due, wages[rich].paid) == (4, 4)
    assert ev.Scored(short, -2, "wages") in events
    assert not [s for s in of(events, ev.Scored) if s.seat == rich]
    assert e.state.players[short].money == 0 and e.state.players[short].vp == -2
    assert e.state.players[rich].money == 6 and e.state.players[rich].vp == 5


# --- Draw or Close a Deal: higher levels pay too ------------------------------------------

EXAMPLE_DEAL = Deal("example_iron2_copper3", frozen_map({"iron": 2, "copper": 3}), 5)


@pytest.mark.parametrize("iron, copper", [(2, 3), (3, 4)])
def test_close_deal_needing_2_iron_3_copper(iron, copper):
    """A deal asking 2' iron + 3' copper can be paid with exactly those or with 3' iron + 4'
    copper; the cubes go to the bank and the deal's VP are scored."""
    content = dataclasses.replace(CONTENT, deals=frozen_map({**CONTENT.deals, EXAMPLE_DEAL.id: EXAMPLE_DEAL}))
    e = game(3, content=content)
    act(e, "island:1", "island:2", "island:3")
    give(e, 0, enriched={"iron": [iron], "copper": [copper]}, deals=[EXAMPLE_DEAL.id], vp=0)

    events = act(e, "do:1:draw_or_close_deal", f"close:{EXAMPLE_DEAL.id}")

    assert of(events, ev.DealClosed) == [ev.DealClosed(0, EXAMPLE_DEAL.id, (("iron", iron), ("copper", copper)))]
    assert ev.Scored(0, 5, "deals") in events
    p = e.state.players[0]
    assert p.enriched["iron"] == [] and p.enriched["copper"] == []
    assert p.deals == [] and p.deals_closed == [EXAMPLE_DEAL.id] and p.vp == 5


@pytest.mark.parametrize(
    "deal, enriched, vp",
    [
        ("deal_01", {"copper": [1], "iron": [3]}, 4),  # 1' copper + 3' iron
        ("deal_02", {"gold": [2]}, 2),  # 2' gold for 2 VP
    ],
)
def test_the_deal_cards_shown_in_the_rulebook(deal, enriched, vp):
    """The two deal cards pictured in the rulebook: 1' copper + 3' iron, and 2' gold for 2 VP
    (the first one's VP is our design, see content/README.md)."""
    e = ready(3, islands=(1, 2, 3))
    give(e, 0, enriched=enriched, deals=[deal], vp=0)
    events = act(e, "do:1:draw_or_close_deal", f"close:{deal}")
    assert ev.Scored(0, vp, "deals") in events
    assert all(not levels for levels in e.state.players[0].enriched.values())


def test_close_deal_refused_with_lower_levels():
    """Cubes below the level a deal asks for do not pay for it."""
    e = ready(3, islands=(1, 2, 3))
    give(e, 0, enriched={"iron": [2], "copper": [1]}, deals=["deal_01"])  # needs 1' copper + 3' iron
    act(e, "do:1:draw_or_close_deal")
    assert "close:deal_01" not in options(e)
    assert refused(e, "close:deal_01").reason == "This deal needs enriched iron at level 3' or higher"


# --- Equipment examples --------------------------------------------------------------------


def test_elevator_cannot_lift_into_a_level_already_held():
    """Elevator: $1 lifts an enriched cube on your board one level, but a 1' gold cannot go up
    while you hold a 2' gold."""
    e = ready(3, islands=(1, 2, 3))
    give(e, 0, equipment=["elevator"], enriched={"gold": [1, 2]}, money=3)
    act(e, "use:elevator")
    assert refused(e, "upgrade:gold:1").reason == "You already hold a 2' gold"
    events = act(e, "upgrade:gold:2")
    assert of(events, ev.EnrichedCubeUpgraded) == [ev.EnrichedCubeUpgraded(0, "gold", 2, 1)]
    assert e.state.players[0].enriched["gold"] == [1, 3] and e.state.players[0].money == 2


@pytest.mark.parametrize(
    "give_id, get_id, start, end",
    [
        (
            "give:gold",
            "get:silver",
            {"raw": {"gold": 1, "silver": 0}, "money": 0},
            {"raw": {"gold": 0, "silver": 1}, "money": 0},
        ),
        ("give:money", "get:iron", {"raw": {"iron": 0}, "money": 1}, {"raw": {"iron": 1}, "money": 0}),
    ],
)
def test_tipper_trades_one_for_one(give_id, get_id, start, end):
    """Tipper: 1 gold for 1 silver, or $1 for 1 iron, once."""
    e = ready(3, islands=(1, 2, 3))
    clear_raw(e, 0)
    give(e, 0, equipment=["tipper"], **start)
    act(e, "use:tipper", give_id, get_id)
    p = e.state.players[0]
    assert {m: p.raw[m] for m in end["raw"]} == end["raw"] and p.money == end["money"]
    assert e.pending.kind == "choose_action"  # one trade only


def test_demolition_kit_removes_a_gallery_and_level_two_slides_down():
    """Demolition Kit: remove any gallery with its cubes; if it was on level 1 and a gallery
    lies behind it, that one moves down to level 1."""
    e = ready(3, islands=(3, 1, 2))
    give(e, 1, equipment=["demolition_kit"])
    clear_site(e, 2)
    front = set_gallery(e, 2, 1, 1, "gold_4")
    back = set_gallery(e, 2, 1, 2, "iron_2", face_up=False)
    gold_in_bank = e.state.supply["gold"]
    events = act(e, "use:demolition_kit", "demolish:2:1:1")
    assert [(r.island, r.column, r.level, r.tile, r.cubes, r.why) for r in of(events, ev.GalleryRemoved)] == [
        (2, 1, 1, front.tile, 4, "demolished")
    ]
    assert of(events, ev.GallerySlid) == [ev.GallerySlid(2, 1)]
    assert gallery(e, 2, 1, 1) is back and gallery(e, 2, 1, 2) is None
    assert e.state.supply["gold"] == gold_in_bank + 4


# --- Trade -------------------------------------------------------------------------------


def test_trade_iron_and_silver_for_a_dollar_then_two_copper_for_gold():
    """1 iron + 1 silver -> $1 and 2 copper -> 1 gold, both in one Trade action; after two
    trades the action is over and no third trade is offered."""
    e = ready(3, islands=(1, 2, 3))
    clear_raw(e, 0)
    give(e, 0, raw={"iron": 1, "silver": 1, "copper": 2}, money=0)

    act(e, "do:1:trade")
    assert "give:iron+silver" in options(e)
    act(e, "give:iron+silver")
    assert set(options(e)) == {"get:gold", "get:copper", "get:money", "back"}
    first = act(e, "get:money")
    second = act(e, "give:copper+copper", "get:gold")

    assert of(first + second, ev.Traded) == [
        ev.Traded(0, ("iron", "silver"), "money"),
        ev.Traded(0, ("copper", "copper"), "gold"),
    ]
    p = e.state.players[0]
    assert p.raw == {"gold": 1, "iron": 0, "copper": 0, "silver": 0} and p.money == 1
    assert e.pending.kind == "choose_action"  # the action ended after the second trade
    assert not [o for o in options(e) if o.startswith("give:")]
    assert "already taken Trade" in refused(e, "do:1:trade").reason


def test_trade_two_dollars_for_gold_and_two_silver_for_copper():
    """$2 -> 1 gold and 2 silver -> 1 copper."""
    e = ready(3, islands=(1, 2, 3))
    clear_raw(e, 0)
    give(e, 0, raw={"silver": 2}, money=2)

    events = act(e, "do:1:trade", "give:money+money", "get:gold", "give:silver+silver", "get:copper")

    assert of(events, ev.Traded) == [
        ev.Traded(0, ("money", "money"), "gold"),
        ev.Traded(0, ("silver", "silver"), "copper"),
    ]
    p = e.state.players[0]
    assert p.raw == {"gold": 1, "iron": 0, "copper": 1, "silver": 0} and p.money == 0


# --- Draw & Place 2 Galleries ----------------------------------------------------------------


def _gallery_table():
    """Island 1: column 1 has a level-1 copper gallery, column 2 has iron (level 1) in
    front of gold (level 2, 3 cubes), column 3 is empty. The deck starts silver 2, silver 3."""
    e = ready(2, islands=(3, 4))
    clear_site(e, 1)
    copper = set_gallery(e, 1, 0, 1, "copper_2")
    iron = set_gallery(e, 1, 1, 1, "iron_2")
    gold = set_gallery(e, 1, 1, 2, "gold_3")
    drawn = stack_gallery_deck(e, "silver_2", "silver_3")
    return e, copper, iron, gold, drawn


def test_placing_galleries_pushes_level_one_down_and_level_two_off():
    """A new gallery on a column with a level-1 gallery pushes it to level 2; on a column with
    both, the level-2 gallery leaves the board (its cubes back to the bank, the tile to the
    discard pile) and level 1 moves down. Both new tiles may not go in the same column."""
    e, copper, iron, gold, drawn = _gallery_table()
    gold_in_bank = e.state.supply["gold"]

    events = act(e, "do:3:draw_place_galleries")
    assert of(events, ev.GalleriesDrawn) == [ev.GalleriesDrawn(0, tuple(drawn))]
    act(e, "place:silver_2:1:0:up")
    assert tile_kind(gallery(e, 1, 0, 1).tile) == "silver_2" and gallery(e, 1, 0, 1).cubes == 2
    assert gallery(e, 1, 0, 2) is copper

    rejection = refused(e, "place:silver_3:1:0:down")
    assert rejection.reason == "You cannot place both galleries in the same column"
    assert "place:silver_3:2:0:down" in options(e)  # the same column of the other island is fine

    events = act(e, "place:silver_3:1:1:down")
    removed = of(events, ev.GalleryRemoved)
    assert [(r.island, r.column, r.level, r.tile, r.cubes, r.why) for r in removed] == [
        (1, 1, 2, gold.tile, 3, "pushed_off")
    ]
    assert names(events).index("GalleryRemoved") < names(events).index("GalleryPlaced")
    assert e.state.supply["gold"] == gold_in_bank + 3
    assert gold.tile in e.state.gallery_discard
    assert tile_kind(gallery(e, 1, 1, 1).tile) == "silver_3" and not gallery(e, 1, 1, 1).face_up
    assert gallery(e, 1, 1, 2) is iron


@pytest.mark.parametrize("sides, reward", [(("up", "up"), 3), (("up", "down"), 2), (("down", "down"), 0)])
def test_gallery_reward_by_tiles_placed_face_up(sides, reward):
    """Placing both tiles face up pays $3, one face up $2, none $0."""
    e, *_ = _gallery_table()
    money = e.state.players[0].money
    events = act(e, "do:3:draw_place_galleries", f"place:silver_2:1:2:{sides[0]}", f"place:silver_3:2:2:{sides[1]}")
    assert e.state.players[0].money == money + reward
    assert of(events, ev.GalleryRewardPaid) == ([ev.GalleryRewardPaid(0, reward)] if reward else [])


# --- Objective calculations ---------------------------------------------------------------


def test_most_valuable_enriched_cubes_in_the_centre():
    """Each own cube in the Enrichment Center is worth its level (0' nothing, 1' one ... 4'
    four); the highest total takes 4 VP, and tied players each take them."""
    e = ready(3, islands=(1, 2, 3))
    magnate = CONTENT.objectives["enrichment_magnate"]
    set_centre(e, "iron", 1, [0])
    set_centre(e, "gold", 3, [0])  # seat 0: 1 + 3 = 4
    set_centre(e, "copper", 4, [1])  # seat 1: 4
    set_centre(e, "silver", 2, [2])
    set_centre(e, "iron", 0, [2, 2])  # seat 2: 2 + 0 = 2
    assert [objective_vp(e.state, seat, magnate) for seat in range(3)] == [(4, 4), (4, 4), (2, 0)]

    set_centre(e, "copper", 4, [])
    set_centre(e, "copper", 2, [1])  # seat 1 now 2: seat 0 alone has the most
    assert [objective_vp(e.state, seat, magnate) for seat in range(3)] == [(4, 4), (2, 0), (2, 0)]


def test_one_vp_per_shipment_of_three_or_more():
    """Shipments of 3 or more containers score 1 VP each; smaller ones nothing."""
    e = ready(3, islands=(1, 2, 3))
    bulk = CONTENT.objectives["bulk_carrier"]
    e.state.players[0].shipments = ["cargo_01", "cargo_07", "cargo_15", "cargo_23", "artifact_gold"]
    assert [CONTENT.shipments[t].size for t in e.state.players[0].shipments] == [2, 3, 4, 5, 1]
    assert objective_vp(e.state, 0, bulk) == (3, 3)


@pytest.mark.parametrize("cubes, vp", [(0, 0), (1, 0), (2, 2), (3, 2), (4, 4), (5, 6), (7, 6)])
def test_enriched_cubes_on_board_by_tiers(cubes, vp):
    """Enriched cubes on the player board: 0-1, 2-3, 4 and 5+ score the tiers of
    content/objectives.toml (0, 2, 4, 6 VP)."""
    e = ready(3, islands=(1, 2, 3))
    reserves = CONTENT.objectives["refined_reserves"]
    held = [(m, lv) for lv in (1, 2, 3, 4) for m in METALS][:cubes]
    give(e, 0, enriched={m: [lv for mm, lv in held if mm == m] for m in METALS})
    assert objective_vp(e.state, 0, reserves) == (cubes, vp)


# --- Enrichment Transaction: buying ---------------------------------------------------------


def test_buying_enriched_cubes_own_and_another_players():
    """Buying your own enriched cube is free and scores you 1 VP; another player's costs its
    level in $, paid to that player, who scores 1 VP. 0' cubes cannot be bought, nor a level
    you already hold; up to 2 cubes, from different owners, in one action."""
    e = ready(2, islands=(3, 4))
    buyer, owner = 0, 1
    give(e, buyer, money=5, vp=0, enriched={"silver": [1]})
    give(e, owner, money=0, vp=0)
    set_centre(e, "iron", 2, [buyer])
    set_centre(e, "copper", 3, [owner])
    set_centre(e, "gold", 0, [owner])
    set_centre(e, "silver", 1, [owner])

    act(e, "do:3:enrichment_transaction", "buy")
    opts = options(e)
    assert opts["buy:iron:2:0"] == "Buy your own 2' iron (free)"
    assert opts["buy:copper:3:1"] == "Buy Ben's 3' copper for $3"
    assert not [o for o in opts if o.startswith("buy:gold:0")]  # 0' is never for sale
    refused(e, "buy:gold:0:1")
    assert refused(e, "buy:silver:1:1").reason.startswith("You already hold a 1' silver")

    events = act(e, "buy:iron:2:0", "buy:copper:3:1")  # the second cube completes the action

    assert of(events, ev.EnrichedCubeBought) == [
        ev.EnrichedCubeBought(buyer, "iron", 2, buyer, 0),
        ev.EnrichedCubeBought(buyer, "copper", 3, owner, 3),
    ]
    assert of(events, ev.Scored) == [
        ev.Scored(buyer, 1, "enriched cubes sold"),
        ev.Scored(owner, 1, "enriched cubes sold"),
    ]
    b, o = e.state.players[buyer], e.state.players[owner]
    assert (b.money, b.vp, o.money, o.vp) == (2, 1, 3, 1)
    assert b.enriched["iron"] == [2] and b.enriched["copper"] == [3]
    assert e.state.centre["iron"][2] == [] and e.state.centre["copper"][3] == []
    assert e.pending.kind == "choose_action"


# --- Artifacts ---------------------------------------------------------------------------------


def test_buying_an_artifact_costs_four_of_its_metal_one_per_action():
    """An artifact costs 4 cubes of its metal; one action buys one artifact."""
    e = ready(3, islands=(1, 2, 3))
    clear_raw(e, 0)
    give(e, 0, raw={"gold": 9})
    act(e, "do:1:buy_artifact")
    assert set(options(e)) == {"artifact:gold", "back"}
    assert refused(e, "artifact:iron").reason == "An artifact costs 4 iron; you have 0"

    events = act(e, "artifact:gold")

    assert of(events, ev.ArtifactBought) == [ev.ArtifactBought(0, 1, "gold", 4)]
    p = e.state.players[0]
    assert p.raw["gold"] == 5 and p.artifacts["gold"] == 1
    assert "gold" not in e.state.artifacts[1] and "gold" in e.state.artifacts[2]
    assert e.pending.kind == "choose_action"
    assert "already taken Buy an Artifact" in refused(e, "do:1:buy_artifact").reason


def test_each_artifact_kept_scores_three_vp_at_the_end():
    """Artifacts still owned when the game ends score 3 VP each."""
    e = ready(3, islands=(1, 2, 3))
    for seat in range(3):
        give(e, seat, objectives=[], vp=0, money=20)
    give(e, 0, artifacts={"gold": 1, "iron": 1})
    set_round(e, 15)

    events = pass_all(e)

    assert ev.Scored(0, 6, "artifacts") in events
    assert not [s for s in of(events, ev.Scored) if s.source == "artifacts" and s.seat != 0]
    assert e.state.phase == "over" and e.state.players[0].vp == 6


def test_artifact_shipment_gives_two_vp_and_five_dollars():
    """Shipping an artifact scores 2 VP and $5 at once; the artifact is gone and so scores
    nothing at the end."""
    e = ready(2, islands=(3, 4))
    s = e.state
    if "artifact_gold" in s.shipment_deck:
        s.shipment_deck.remove("artifact_gold")
        s.shipment_display[0] = "artifact_gold"
    give(e, 0, artifacts={"gold": 1}, money=0, vp=0)
    for seat in range(2):
        give(e, seat, objectives=[])

    events = act(e, "do:3:make_shipment", "shipment:artifact_gold")

    assert of(events, ev.ShipmentMade) == [ev.ShipmentMade(0, "artifact_gold")]
    assert ev.Scored(0, 2, "shipments") in events
    p = s.players[0]
    assert (p.money, p.vp, p.artifacts["gold"]) == (5, 2, 0)
    set_round(e, 15)
    events = act(e, "pass") + pass_all(e)
    assert not [x for x in of(events, ev.Scored) if x.seat == 0 and x.source == "artifacts"]


# --- End of round ------------------------------------------------------------------------------


def test_end_of_round_enriches_the_centre_and_returns_everything():
    """At the end of a round every cube in the Enrichment Center moves one level on; cubes
    beyond 4' leave the game (nothing to their owners). Cubes on player boards stay as they
    are. Workers, ships and equipment come back and the island token passes clockwise."""
    e = ready(3, islands=(1, 2, 3))
    for level, owners in enumerate([[0], [1], [], [2], [0, 1]]):
        set_centre(e, "iron", level, owners)
    give(e, 0, enriched={"gold": [2]}, equipment=["rock_cutter"])
    act(e, "use:rock_cutter", "do:1:trade", "give:money+money", "get:gold", "done")
    vp = [p.vp for p in e.state.players]

    events = pass_all(e)

    assert of(events, ev.CentreEnriched) == [ev.CentreEnriched((("iron", 0), ("iron", 1)))]
    assert e.state.centre["iron"] == [[], [0], [1], [], [2]]
    assert e.state.players[0].enriched["gold"] == [2]
    assert [p.vp for p in e.state.players] == vp
    for p in e.state.players:
        assert (p.merchants_used, p.miners_used, p.island, p.used, p.equipment_used, p.passed) == (
            0,
            0,
            None,
            [],
            [],
            False,
        )
    assert of(events, ev.RoundBegan) == [ev.RoundBegan(2, 1)]
    assert e.pending.kind == "choose_island" and e.pending.seat == 1


def test_depart_island_as_first_action_ends_the_turn():
    """Departing as the very first action of the round ends the turn: no second action."""
    e = ready(3, islands=(1, 2, 3))
    events = act(e, "do:1:depart_island", "island:4")
    assert of(events, ev.ShipDeparted) == [ev.ShipDeparted(0, 1, 4)]
    assert of(events, ev.TurnBegan) == [ev.TurnBegan(1)]
    assert e.pending.seat == 1
