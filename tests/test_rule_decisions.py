"""One test per rule decision of docs/rules-decisions.md.

The rulebook leaves these questions open (or answers them in two ways). Each
test pins the engine's answer; the document gives the reason and names the test.
"""

from __future__ import annotations

import random

import pytest

from rules import Engine, replay
from rules.actions import deals
from rules.audit import LogError, audit
from rules.bots import outlook
from rules.cards import METALS
from rules.scoring import objective_vp, places
from rules.simulate import bot_game, random_game
from tests.helpers.scenario import (
    CONTENT,
    act,
    clear_raw,
    clear_site,
    cube_totals,
    ev,
    gallery,
    give,
    names,
    of,
    options,
    pass_all,
    ready,
    reason_for,
    refresh,
    refused,
    set_centre,
    set_gallery,
    set_round,
    stack_gallery_deck,
    tile_kind,
    to_actions,
)


def _plenty(e, seats=None):
    """Enough merchants, miners and money that only the rule under test can say no."""
    for seat in seats if seats is not None else range(e.state.seats):
        give(e, seat, merchants=7, miners=5, money=30)


# 1 ---------------------------------------------------------------------------------------


def test_turns_go_in_island_order_two_actions_each_until_all_pass():
    """Island order; up to two actions a turn (equipment use counts); the turn then goes to the
    next player in island order who has not passed; pass is always offered and drops you out of
    the round; the action phase ends when everyone has passed."""
    e = ready(3, islands=(3, 1, 2))
    _plenty(e)
    give(e, 2, equipment=["rock_cutter"])
    assert e.state.turn_order == [1, 2, 0]

    assert e.pending.seat == 1 and "pass" in options(e)
    act(e, "do:1:draw_or_close_deal", "draw")
    assert e.pending.seat == 1 and "pass" in options(e)  # second action of the turn
    events = act(e, "do:1:depart_island", "island:4")
    assert of(events, ev.TurnBegan) == [ev.TurnBegan(2)]

    act(e, "use:rock_cutter")  # equipment use is one of the two actions
    assert e.pending.seat == 2
    events = act(e, "do:2:draw_or_close_deal", "draw")
    assert of(events, ev.TurnBegan) == [ev.TurnBegan(0)]

    events = act(e, "pass")
    assert of(events, ev.Passed) == [ev.Passed(0)] and of(events, ev.TurnBegan) == [ev.TurnBegan(1)]
    events = act(e, "pass")
    assert of(events, ev.TurnBegan) == [ev.TurnBegan(2)]  # seat 0 has passed: skipped
    act(e, "do:2:buy_equipment", f"equipment:{e.state.equipment_display[0]}")
    events = act(e, "do:2:depart_island", "island:1")
    assert of(events, ev.TurnBegan) == [ev.TurnBegan(2)]  # the only one left plays on
    events = act(e, "pass")
    assert names(events)[:3] == ["Passed", "CentreEnriched", "RoundEnded"]
    assert of(events, ev.RoundBegan) == [ev.RoundBegan(2, 1)]


# 2 ---------------------------------------------------------------------------------------


def test_extra_merchants_for_every_merchant_action_including_depart_but_not_mining():
    """Each merchant action costs 1 merchant plus 1 per other player who took it on that island
    this round, Depart Island included. Operate Mining Site is done with miners and costs no
    merchants however many mined there before. A withdrawn action does not count."""
    e = ready(3, islands=(1, 2, 3))
    _plenty(e)
    clear_site(e, 2)
    set_gallery(e, 2, 1, 1, "gold_4")

    act(e, "do:1:draw_or_close_deal", "draw")
    started = of(act(e, "do:1:depart_island", "island:2"), ev.ActionStarted)
    assert started[0].merchants == 1
    # seat 1 on island 2: the deal action there is another space, so still 1 merchant
    assert options(e)["do:2:draw_or_close_deal"] == "Draw or Close a Deal (1 merchant)"
    act(e, "do:2:operate_mining_site", "mine:1:1:1")  # no other gallery: resolves at once
    act(e, "do:2:depart_island", "island:1")
    act(e, "do:3:depart_island", "island:2")  # seat 2 sails in (first action: turn over)

    assert e.pending.seat == 0
    opts = options(e)
    assert opts["do:2:depart_island"] == "Depart Island (2 merchants)"
    assert opts["do:2:operate_mining_site"] == "Operate Mining Site (miners)"
    events = act(e, "do:2:buy_equipment", "back")  # started, then withdrawn
    assert of(events, ev.ActionWithdrawn) == [ev.ActionWithdrawn(0)]
    started = of(act(e, "do:2:operate_mining_site"), ev.ActionStarted)
    assert (started[0].merchants, started[0].miners) == (0, 0)
    act(e, "mine:1:1:1")
    started = of(act(e, "do:2:depart_island", "island:3"), ev.ActionStarted)
    assert started[0].merchants == 2

    act(e, "pass")  # seat 1
    assert e.pending.seat == 2
    opts = options(e)
    assert opts["do:2:buy_equipment"] == "Buy an Equipment (1 merchant)"  # the withdrawal left no trace
    assert opts["do:2:depart_island"] == "Depart Island (3 merchants)"


# 3 ---------------------------------------------------------------------------------------


def test_depart_island_may_sail_to_any_other_island():
    """Depart Island offers every other island, including islands other players chose."""
    e = ready(3, islands=(1, 2, 3))
    _plenty(e)
    act(e, "do:1:draw_or_close_deal", "draw", "do:1:depart_island")
    assert set(options(e)) == {"island:2", "island:3", "island:4", "back"}
    refused(e, "island:1")
    events = act(e, "island:3")  # chosen by seat 2 this round
    assert of(events, ev.ShipDeparted) == [ev.ShipDeparted(0, 1, 3)]
    assert e.state.players[0].island == 3 == e.state.players[2].island


# 4 ---------------------------------------------------------------------------------------


def _mining_table(e):
    clear_site(e, 1)
    set_gallery(e, 1, 0, 1, "gold_2")  # face up, 2 cubes
    set_gallery(e, 1, 0, 2, "iron_3")  # face up, level 2, 3 cubes
    set_gallery(e, 1, 1, 1, "copper_4", face_up=False)
    set_gallery(e, 1, 1, 2, "silver_4", face_up=False)
    set_gallery(e, 1, 2, 1, "empty", face_up=False)


def _mine_offers(e) -> dict:
    offers: dict = {}
    for cid in options(e):
        if cid.startswith("mine:"):
            _, column, level, n = cid.split(":")
            offers.setdefault((int(column), int(level)), []).append(int(n))
    return offers


def test_miners_per_gallery_are_capped_by_what_it_can_yield():
    """A face-up gallery takes at most the miners it can reward (its cubes at level 1, twice
    its cubes at level 2); a face-down one up to 4 (level 1) or 8 (level 2) miners; level-2
    miners go in pairs. Miners on a blank, or beyond what a face-down gallery held, are
    wasted."""
    e = ready(3, islands=(1, 2, 3))
    _mining_table(e)
    give(e, 0, miners=5)
    act(e, "do:1:operate_mining_site")
    assert _mine_offers(e) == {
        (0, 1): [1, 2],
        (0, 2): [2, 4],
        (1, 1): [1, 2, 3, 4],
        (1, 2): [2, 4],
        (2, 1): [1, 2, 3, 4],
    }
    for bad in ("mine:0:1:3", "mine:0:2:3", "mine:1:1:5"):
        refused(e, bad)

    # with more miners than a player may have, the caps themselves show
    give(e, 0, miners=10)
    assert _mine_offers(e) == {
        (0, 1): [1, 2],
        (0, 2): [2, 4, 6],
        (1, 1): [1, 2, 3, 4],
        (1, 2): [2, 4, 6, 8],
        (2, 1): [1, 2, 3, 4],
    }

    # miners on the blank are spent for nothing
    give(e, 0, miners=5)
    clear_raw(e, 0)
    events = act(e, "mine:2:1:3", "mine:0:1:2")
    assert [(m.metal, m.cubes) for m in of(events, ev.ResourcesMined)] == [("gold", 2)]
    assert e.state.players[0].miners_used == 5 and e.state.players[0].raw["gold"] == 2


def test_miners_beyond_a_face_down_gallerys_cubes_are_wasted():
    """Four miners on a face-down gallery that turns out to hold 2 gold bring 2 gold; the
    gallery is then exhausted and removed."""
    e = ready(3, islands=(1, 2, 3))
    clear_site(e, 1)
    tile = set_gallery(e, 1, 0, 1, "gold_2", face_up=False).tile
    give(e, 0, miners=4)
    clear_raw(e, 0)
    events = act(e, "do:1:operate_mining_site", "mine:0:1:4")
    assert of(events, ev.GalleryFlipped) == [ev.GalleryFlipped(1, 0, 1, tile, 2)]
    assert of(events, ev.ResourcesMined) == [ev.ResourcesMined(0, 1, 0, 1, "gold", 2)]
    assert of(events, ev.GalleryRemoved)[0].why == "exhausted"
    assert e.state.players[0].raw["gold"] == 2 and e.state.players[0].miners_used == 4


# 5 ---------------------------------------------------------------------------------------


def test_removed_galleries_go_to_the_discard_pile_which_is_reshuffled():
    """Exhausted, pushed-off and demolished galleries all go to the discard pile; when the deck
    runs short the discard pile is shuffled under what is left of the deck, and the new order
    is written into an event."""
    e = ready(2, islands=(3, 4))
    give(e, 0, equipment=["demolition_kit"])
    clear_site(e, 1)
    doomed = set_gallery(e, 1, 0, 1, "gold_1")
    pushed = set_gallery(e, 1, 1, 2, "iron_1")
    set_gallery(e, 1, 1, 1, "iron_2")
    events = act(e, "use:demolition_kit", "demolish:1:0:1")
    assert of(events, ev.GalleryRemoved)[0].why == "demolished"
    assert doomed.tile in e.state.gallery_discard

    s = e.state
    last = s.gallery_deck[0]
    s.gallery_discard.extend(s.gallery_deck[1:])  # only one tile left in the deck
    del s.gallery_deck[1:]
    discard = list(s.gallery_discard)
    events = act(e, "do:3:draw_place_galleries")
    shuffled = of(events, ev.GalleryDeckReshuffled)
    assert len(shuffled) == 1 and sorted(shuffled[0].order) == sorted(discard)
    assert names(events).index("GalleryDeckReshuffled") < names(events).index("GalleriesDrawn")
    assert of(events, ev.GalleriesDrawn)[0].tiles == (last, shuffled[0].order[0])
    assert s.gallery_discard == []
    kind = tile_kind(s.drawn_galleries[0])
    events = act(e, f"place:{kind}:1:1:down")
    assert [(r.tile, r.why) for r in of(events, ev.GalleryRemoved)] == [(pushed.tile, "pushed_off")]
    assert s.gallery_discard == [pushed.tile]


def test_a_reshuffle_replays_without_random_numbers(monkeypatch):
    """A game with a reshuffle replays to the same state with every random function disabled:
    the new deck order comes from the event, not from an RNG."""
    for seed in range(300):
        engine, _ = random_game(CONTENT, 2, seed)
        if of(engine.events, ev.GalleryDeckReshuffled):
            break
    else:
        pytest.fail("no random game with a gallery reshuffle in 300 seeds")

    def no_rng(*args, **kwargs):
        raise AssertionError("replay used random numbers")

    monkeypatch.setattr(random, "Random", no_rng)
    monkeypatch.setattr(random, "shuffle", no_rng)
    monkeypatch.setattr(random, "randrange", no_rng)
    assert replay(CONTENT, engine.events) == engine.state


# 6 ---------------------------------------------------------------------------------------


def test_each_artifact_kept_scores_three_vp():
    """Every artifact still owned at the end scores 3 VP (not 1)."""
    assert CONTENT.board.artifact_vp == 3
    e = ready(2, islands=(1, 2))
    for seat in range(2):
        give(e, seat, objectives=[], vp=0, money=20)
    give(e, 1, artifacts={"gold": 1, "iron": 1, "silver": 1})
    set_round(e, 15)
    events = pass_all(e)
    assert ev.Scored(1, 9, "artifacts") in events and e.state.players[1].vp == 9


# 7 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("card, least, vp", [("jaw_crusher", 1, 1), ("impact_crusher", 2, 2), ("cone_crusher", 3, 3)])
def test_crushers_score_one_two_three_vp(card, least, vp):
    """Jaw, Impact and Cone Crusher scrap an enriched cube of at least 1', 2', 3' for 1, 2, 3 VP."""
    e = ready(3, islands=(1, 2, 3))
    give(e, 0, equipment=[card], enriched={"gold": [1], "iron": [2], "copper": [3]}, vp=0)
    act(e, f"use:{card}")
    offered = {cid for cid in options(e) if cid.startswith("crush:")}
    assert offered == {f"crush:{m}:{lv}" for m, lv in (("gold", 1), ("iron", 2), ("copper", 3)) if lv >= least}
    events = act(e, "crush:copper:3")
    assert of(events, ev.Scored) == [ev.Scored(0, vp, "equipment effects")]
    assert e.state.players[0].enriched["copper"] == []


def test_designed_values_are_those_of_the_content_files():
    """Objective tiers and deal rewards are our design, recorded in content/ (README): the
    enriched-cubes table is 0/2/4/6 VP, deals pay 1 VP for each level they ask for."""
    assert CONTENT.objectives["refined_reserves"].tiers == ((0, 0), (2, 2), (4, 4), (5, 6))
    assert CONTENT.objectives["enrichment_magnate"].vp == 4
    assert CONTENT.objectives["bulk_carrier"].vp_each == 1
    for deal in CONTENT.deals.values():
        assert deal.vp == sum(deal.requires.values()), deal.id
    assert (CONTENT.deals["deal_01"].vp, CONTENT.deals["deal_02"].vp) == (4, 2)


# 8 ---------------------------------------------------------------------------------------


def test_deal_cube_may_be_of_a_higher_level_and_the_player_picks_which():
    """Each cube a deal asks for may be paid with the same metal at that level or higher. With
    several fitting cubes the player picks one; with only one it is used without asking."""
    e = ready(3, islands=(1, 2, 3))
    give(e, 0, deals=["deal_13"], enriched={"iron": [2, 4], "copper": [3]})  # 2' iron + 2' copper
    act(e, "do:1:draw_or_close_deal", "close:deal_13")
    assert e.pending.kind == "deal" and set(options(e)) == {"pay:iron:2", "pay:iron:4", "back"}
    events = act(e, "pay:iron:4")
    assert of(events, ev.DealClosed) == [ev.DealClosed(0, "deal_13", (("iron", 4), ("copper", 3)))]
    assert e.state.players[0].enriched["iron"] == [2]


# 9 ---------------------------------------------------------------------------------------


def test_trade_gives_any_two_goods_for_one_other_and_may_chain():
    """Give any two goods (raw cubes or $1, mixed or alike) for one good; the second trade of
    the action may use what the first brought; the goods given are not offered back; enriched
    cubes are not goods; the Tipper trades one for one, once."""
    e = ready(3, islands=(1, 2, 3))
    clear_raw(e, 0)
    give(e, 0, raw={"copper": 2, "silver": 1}, money=1, enriched={"gold": [1, 2]}, equipment=["tipper"])
    act(e, "do:1:trade")
    gives = {cid for cid in options(e) if cid.startswith("give:")}
    assert gives == {"give:copper+copper", "give:copper+silver", "give:copper+money", "give:silver+money"}
    assert refused(e, "give:silver+silver").reason == "You do not have 2 silver"
    assert not [cid for cid in options(e) if "gold" in cid]  # enriched gold is no trade good
    act(e, "give:copper+copper")
    assert {cid for cid in options(e) if cid.startswith("get:")} == {"get:gold", "get:iron", "get:silver", "get:money"}
    act(e, "get:silver")
    events = act(e, "give:silver+silver", "get:gold")  # uses the silver just traded for
    assert of(events, ev.Traded) == [ev.Traded(0, ("silver", "silver"), "gold")]
    p = e.state.players[0]
    assert p.raw == {"gold": 1, "iron": 0, "copper": 0, "silver": 0} and p.enriched["gold"] == [1, 2]

    act(e, "use:tipper")
    assert "give:gold" in options(e) and "give:money" in options(e)
    act(e, "give:gold", "get:iron")
    assert e.pending.kind != "trade" and p.raw["iron"] == 1 and p.raw["gold"] == 0


# 10 --------------------------------------------------------------------------------------


def test_thirty_vp_ends_the_game_after_the_round_and_its_wages():
    """A player who reaches 30 VP ends the game, but only after the round is played out,
    including the end-of-round phase and wages; the game ends even if wages take the player
    back under 30."""
    e = ready(3, islands=(1, 2, 3))
    for seat in range(3):
        give(e, seat, objectives=[], money=10)
    give(e, 0, vp=29, money=0, merchants=4, miners=3, deals=["deal_02"], enriched={"gold": [2]})
    set_round(e, 3)

    events = act(e, "do:1:draw_or_close_deal", "close:deal_02")
    assert of(events, ev.EndOfGameTriggered) == [ev.EndOfGameTriggered(0, 31)]
    act(e, "pass")
    assert e.pending.seat == 1 and e.state.phase == "actions"  # the round goes on
    act(e, "do:2:draw_or_close_deal", "draw")

    events = pass_all(e)
    order = names(events)
    assert order.index("CentreEnriched") < order.index("WagesPaid") < order.index("GameEnded")
    assert ev.Scored(0, -4, "wages") in events
    assert "RoundBegan" not in order
    assert e.state.phase == "over" and e.state.end_reason == "vp_goal"
    assert e.state.players[0].vp == 27


# 11 --------------------------------------------------------------------------------------


def test_players_equal_on_everything_share_the_place():
    """Players level on VP, money, equipment, deals closed and shipments share their place; so
    several players can win. A difference in money breaks a VP tie."""
    e = ready(3, islands=(1, 2, 3))
    for seat, vp in ((0, 12), (1, 12), (2, 8)):
        give(e, seat, objectives=[], vp=vp, money=10, merchants=2, miners=2)
    set_round(e, 15)
    events = pass_all(e)
    ended = of(events, ev.GameEnded)[0]
    assert ended.places == (1, 1, 3) and not ended.tiebreak_used
    assert [st.place for st in e.state.standings] == [1, 1, 3]

    e.state.players[1].money -= 1
    assert places(e.state) == ([1, 2, 3], True)


# 12 --------------------------------------------------------------------------------------


def test_elevator_control_room_and_buying_respect_levels():
    """Elevator cannot lift a 4' cube nor into a level of that metal already held. Control Room
    lifts any centre cube, 0' included; a 4' cube lifted leaves the game, its owner getting
    nothing. Buying an enriched cube into a level already held is refused."""
    e = ready(3, islands=(3, 1, 2))
    seat = 1  # on island 1, first to play
    give(
        e, seat, equipment=["elevator", "control_room"], money=5, enriched={"gold": [4], "iron": [2, 3], "copper": [1]}
    )
    act(e, "use:elevator")
    assert {c for c in options(e) if c.startswith("upgrade:")} == {"upgrade:iron:3", "upgrade:copper:1"}
    refused(e, "upgrade:gold:4")
    assert refused(e, "upgrade:iron:2").reason == "You already hold a 3' iron"
    act(e, "back")

    set_centre(e, "silver", 0, [2])
    set_centre(e, "gold", 4, [0])
    vp = [p.vp for p in e.state.players]
    act(e, "use:control_room")
    assert {"lift:silver:0:2", "lift:gold:4:0"} <= set(options(e))
    events = act(e, "lift:gold:4:0")
    assert of(events, ev.CentreCubeUpgraded) == [ev.CentreCubeUpgraded(seat, "gold", 4, 0)]
    assert e.state.centre["gold"][4] == [] and not of(events, ev.Scored)
    assert [p.vp for p in e.state.players] == vp

    e2 = ready(2, islands=(3, 4))
    give(e2, 0, enriched={"iron": [2]}, money=9)
    set_centre(e2, "iron", 2, [1])
    set_centre(e2, "iron", 3, [1])
    act(e2, "do:3:enrichment_transaction", "buy")
    assert "buy:iron:2:1" not in options(e2)
    assert "already hold a 2' iron" in refused(e2, "buy:iron:2:1").reason


# 13 --------------------------------------------------------------------------------------


def test_depart_as_first_action_of_the_round_ends_the_turn_only_then():
    """Depart Island as a player's first action of the round ends their turn at once. As the
    first action of a later turn it is an ordinary action and a second one follows."""
    e = ready(3, islands=(1, 2, 3))
    _plenty(e)
    events = act(e, "do:1:depart_island", "island:4")
    assert of(events, ev.TurnBegan) == [ev.TurnBegan(1)]
    act(e, "pass", "pass")
    assert e.pending.seat == 0 and e.state.turn_actions == 0
    events = act(e, "do:4:depart_island", "island:3")
    assert not of(events, ev.TurnBegan)
    assert e.pending.seat == 0 and e.pending.kind == "choose_action" and e.state.turn_actions == 1


# 14 --------------------------------------------------------------------------------------


def test_loaders_take_one_cube_of_their_level_and_demolition_removes_any_gallery():
    """Underground Loader takes a cube from any face-up level-1 gallery on either island (the
    ship may be anywhere); an emptied gallery is removed and level 2 slides down. Heavy Duty
    Loader does the same at level 2. Demolition Kit removes any gallery, face down too, its
    cubes back to the bank, and level 2 slides down."""
    e = ready(2, islands=(3, 4))
    give(e, 0, equipment=["underground_loader", "heavy_duty_loader"])
    clear_raw(e, 0)
    for island in (1, 2):
        clear_site(e, island)
    set_gallery(e, 2, 0, 1, "iron_1")
    behind = set_gallery(e, 2, 0, 2, "gold_2")
    set_gallery(e, 1, 2, 1, "silver_3")
    set_gallery(e, 1, 1, 1, "copper_4", face_up=False)
    act(e, "use:underground_loader")
    assert {c for c in options(e) if c.startswith("collect:")} == {"collect:1:2", "collect:2:0"}
    events = act(e, "collect:2:0")
    assert of(events, ev.ResourceCollected) == [ev.ResourceCollected(0, 2, 0, 1, "iron")]
    assert [r.why for r in of(events, ev.GalleryRemoved)] == ["exhausted"]
    assert gallery(e, 2, 0, 1) is behind and gallery(e, 2, 0, 2) is None

    e2 = ready(2, islands=(3, 4))
    give(e2, 0, equipment=["heavy_duty_loader", "demolition_kit"])
    clear_site(e2, 1)
    set_gallery(e2, 1, 0, 1, "empty")
    set_gallery(e2, 1, 0, 2, "gold_3")
    act(e2, "use:heavy_duty_loader")
    assert {c for c in options(e2) if c.startswith("collect:")} == {"collect:1:0"}
    act(e2, "collect:1:0")
    assert gallery(e2, 1, 0, 2).cubes == 2
    hidden = set_gallery(e2, 1, 2, 1, "silver_2", face_up=False)
    events = act(e2, "use:demolition_kit", "demolish:1:2:1")
    assert [(r.tile, r.why, r.face_up) for r in of(events, ev.GalleryRemoved)] == [(hidden.tile, "demolished", False)]


# 15 --------------------------------------------------------------------------------------


@pytest.mark.parametrize("players, seed", [(2, 3), (3, 1), (4, 7)])
def test_setup_puts_the_face_up_gallery_in_the_middle_column(players, seed):
    """At setup each mining site gets its face-up gallery in the middle column, with its cubes
    from the bank (a gold 4 gets 4 gold), and the two face-down ones on either side."""
    e = Engine.new(CONTENT, ["A", "B", "C", "D"][:players], seed=seed)
    for site in e.state.sites.values():
        left, middle, right = site.columns
        assert middle[0].face_up and middle[0].cubes == CONTENT.gallery(middle[0].tile).cubes
        assert not left[0].face_up and not right[0].face_up and left[0].cubes == right[0].cubes == 0
        assert all(col[1] is None for col in site.columns)
        assert all(col[0].placed_by is None for col in site.columns)
    assert cube_totals(e) == dict.fromkeys(METALS, 40)


# 16 --------------------------------------------------------------------------------------


def test_a_face_down_gallery_is_known_to_whoever_placed_it():
    """The tile of a face-down gallery shows in the view of the player who placed it, and to
    nobody else; setup's face-down tiles are hidden from everyone."""
    e = ready(2, islands=(3, 4))
    clear_site(e, 1)
    stack_gallery_deck(e, "gold_4", "iron_2")
    act(e, "do:3:draw_place_galleries", "place:gold_4:1:0:down", "place:iron_2:2:0:down")
    mine, theirs = e.view(0), e.view(1)
    assert tile_kind(mine["sites"]["1"]["columns"][0][0]["tile"]) == "gold_4"
    assert theirs["sites"]["1"]["columns"][0][0]["tile"] is None
    assert e.view(None)["sites"]["1"]["columns"][0][0]["tile"] is None
    for seat in (0, 1):
        setup_tile = e.view(seat)["sites"]["2"]["columns"][2][0]
        assert not setup_tile["face_up"] and setup_tile["tile"] is None


# 17 --------------------------------------------------------------------------------------


def test_the_bank_holds_forty_cubes_per_metal_and_can_run_out():
    """The bank starts with 40 cubes of each metal. A gallery turned face up gets only what the
    bank still has; a trade cannot take a metal the bank has run out of."""
    assert CONTENT.board.supply_per_metal == 40
    e = ready(3, islands=(1, 2, 3))
    assert cube_totals(e) == dict.fromkeys(METALS, 40)
    clear_site(e, 1)
    set_gallery(e, 1, 0, 1, "gold_3", face_up=False)
    give(e, 2, raw={"gold": e.state.players[2].raw["gold"] + e.state.supply["gold"] - 1})
    assert e.state.supply["gold"] == 1
    give(e, 0, miners=3, money=4)
    events = act(e, "do:1:operate_mining_site", "mine:0:1:3")
    assert of(events, ev.GalleryFlipped)[0].cubes == 1
    assert of(events, ev.ResourcesMined)[0].cubes == 1
    assert e.state.supply["gold"] == 0
    act(e, "do:1:trade", "give:money+money")
    assert "get:gold" not in options(e)
    assert refused(e, "get:gold").reason == "The bank has no gold left"
    assert cube_totals(e) == dict.fromkeys(METALS, 40)


# 18 --------------------------------------------------------------------------------------


def test_draw_and_place_with_fewer_than_two_tiles_left():
    """With one tile left in deck and discard pile, Draw & Place draws and places just that one
    (paying for it as usual); with none the action is not offered."""
    e = ready(2, islands=(3, 4))
    s = e.state
    del s.gallery_deck[1:]
    s.gallery_discard.clear()
    only = tile_kind(s.gallery_deck[0])
    money = s.players[0].money
    events = act(e, "do:3:draw_place_galleries")
    assert len(of(events, ev.GalleriesDrawn)[0].tiles) == 1
    events = act(e, f"place:{only}:1:0:up")
    assert of(events, ev.GalleryRewardPaid) == [ev.GalleryRewardPaid(0, 2)]
    assert s.players[0].money == money + 2 and e.pending.kind == "choose_action"

    act(e, "pass")  # seat 1 on island 4 finds nothing to draw
    assert "do:4:draw_place_galleries" not in options(e)
    assert refused(e, "do:4:draw_place_galleries").reason == "There are no gallery tiles left to draw"


# 19 --------------------------------------------------------------------------------------


def test_steps_finish_by_themselves_when_nothing_more_can_be_added():
    """Enrich, buy and mine steps resolve as soon as their limit is reached or nothing more can
    be added; until then "done" is offered."""
    e = ready(2, islands=(3, 4))
    clear_raw(e, 0)
    give(e, 0, raw={"iron": 3, "gold": 1})
    act(e, "do:3:enrichment_transaction", "enrich", "enrich:iron")
    assert "done" in options(e)
    events = act(e, "enrich:iron", "enrich:gold")  # the third cube: limit reached
    assert of(events, ev.ResourcesEnriched)

    e = ready(2, islands=(3, 4))
    clear_raw(e, 0)
    give(e, 0, raw={"silver": 1})
    events = act(e, "do:3:enrichment_transaction", "enrich", "enrich:silver")  # nothing else to add
    assert of(events, ev.ResourcesEnriched) == [ev.ResourcesEnriched(0, ("silver",))]

    e = ready(2, islands=(1, 2))
    clear_site(e, 1)
    set_gallery(e, 1, 0, 1, "gold_4")
    set_gallery(e, 1, 2, 1, "silver_2")
    give(e, 0, miners=3)
    act(e, "do:1:operate_mining_site", "mine:0:1:2")
    assert "done" in options(e)  # one miner left and the silver gallery still open
    assert of(act(e, "done"), ev.ResourcesMined)
    act(e, "pass")
    clear_site(e, 2)
    set_gallery(e, 2, 0, 1, "gold_4")
    set_gallery(e, 2, 1, 1, "silver_2")
    give(e, 1, miners=2)
    events = act(e, "do:2:operate_mining_site", "mine:1:1:2")  # no miner left: it resolves at once
    assert of(events, ev.ResourcesMined) and e.pending.kind == "choose_action"
    e = ready(2, islands=(1, 2))
    clear_site(e, 1)
    set_gallery(e, 1, 1, 1, "gold_4")
    give(e, 0, miners=5)
    events = act(e, "do:1:operate_mining_site", "mine:1:1:3")  # no other gallery to add
    assert of(events, ev.ResourcesMined) and e.pending.kind == "choose_action"


def test_buying_stops_after_two_cubes():
    """A buy step resolves when the second cube is picked; with one, "done" is offered."""
    e = ready(2, islands=(3, 4))
    give(e, 0, money=20)
    for metal, level in (("gold", 1), ("iron", 2), ("copper", 3)):
        set_centre(e, metal, level, [1])
    act(e, "do:3:enrichment_transaction", "buy", "buy:gold:1:1")
    assert "done" in options(e)
    events = act(e, "buy:iron:2:1")
    assert len(of(events, ev.EnrichedCubeBought)) == 2 and e.pending.kind == "choose_action"


# 20 --------------------------------------------------------------------------------------


def test_empty_galleries_stay_until_pushed_off_emptied_ones_go():
    """A gallery that was empty from the start (or turned up blank) is not removed: it stays
    until new tiles push it off. A gallery emptied by mining is removed at once."""
    e = ready(2, islands=(1, 2))
    clear_site(e, 1)
    empty = set_gallery(e, 1, 0, 1, "empty")
    blank = set_gallery(e, 1, 1, 1, "empty", face_up=False)
    set_gallery(e, 1, 2, 1, "silver_1")
    give(e, 0, miners=2)
    act(e, "do:1:operate_mining_site")
    assert reason_for(e, "mine:0:1") == "That gallery has nothing left to mine"
    events = act(e, "mine:1:1:1", "mine:2:1:1")
    assert [(r.column, r.why) for r in of(events, ev.GalleryRemoved)] == [(2, "exhausted")]
    assert gallery(e, 1, 0, 1) is empty and gallery(e, 1, 1, 1) is blank and blank.face_up

    act(e, "pass")  # seat 0 is out; seat 1 sails to island 3 (turn over) and plays again
    # a new tile in front pushes the blank to level 2; it stays on the board
    stack_gallery_deck(e, "gold_2", "iron_2")
    give(e, 1, merchants=5)
    act(e, "do:2:depart_island", "island:3")
    act(e, "do:3:draw_place_galleries", "place:gold_2:1:1:up", "place:iron_2:1:0:up")
    assert gallery(e, 1, 1, 2) is blank and gallery(e, 1, 0, 2) is empty


# 21 --------------------------------------------------------------------------------------


def test_most_objectives_are_shared_on_ties_and_never_won_with_zero():
    """ "Most ..." objectives: every seat with the highest measure scores; a measure of 0 never
    wins, even when everyone has 0."""
    e = ready(3, islands=(1, 2, 3))
    negotiator = CONTENT.objectives["chief_negotiator"]
    assert [objective_vp(e.state, seat, negotiator) for seat in range(3)] == [(0, 0)] * 3
    for seat, closed in ((0, ["deal_01", "deal_02"]), (1, ["deal_03", "deal_04"]), (2, ["deal_05"])):
        e.state.players[seat].deals_closed = closed
    assert [objective_vp(e.state, seat, negotiator) for seat in range(3)] == [(2, 3), (2, 3), (1, 0)]


# 22 --------------------------------------------------------------------------------------


def test_setup_goes_clockwise_from_the_start_player():
    """Setup starts with the start player and goes clockwise; each seat keeps 2 of its 3
    objectives, then picks 1 of its 2 corporations, whose starting deals are drawn at once."""
    e = Engine.new(CONTENT, ["A", "B", "C"], seed=1, start_player=1)
    seen = []
    while e.state.phase == "setup":
        d = e.pending
        seen.append((d.seat, d.kind, len(d.options)))
        if d.kind == "choose_corporation":
            with_deal = [o for o in d.ids() if CONTENT.corporations[o.split(":")[1]].deals]
            choice = with_deal[0] if with_deal else d.ids()[0]
            events = act(e, choice)
            corp = CONTENT.corporations[choice.split(":")[1]]
            drawn = of(events, ev.DealDrawn)
            assert [x.seat for x in drawn] == [d.seat] * corp.deals
            assert names(events)[0] == "CorporationChosen"
        else:
            act(e, d.ids()[0])
    assert seen == [
        (1, "keep_objectives", 3),
        (1, "choose_corporation", 2),
        (2, "keep_objectives", 3),
        (2, "choose_corporation", 2),
        (0, "keep_objectives", 3),
        (0, "choose_corporation", 2),
    ]
    assert all(len(p.objectives) == 2 for p in e.state.players)
    assert e.pending.kind == "choose_island" and e.pending.seat == 1


# 23 --------------------------------------------------------------------------------------


def test_empty_decks_leave_fewer_choices():
    """With the deal deck empty, drawing a deal is not offered; with the equipment or shipment
    deck empty, a bought card or made shipment is not replaced."""
    e = ready(3, islands=(1, 2, 3))
    e.state.deal_deck.clear()
    give(e, 0, deals=[])
    assert refused(e, "do:1:draw_or_close_deal").reason == "The deal deck is empty"
    give(e, 0, deals=["deal_02"], enriched={"gold": [2]})
    act(e, "do:1:draw_or_close_deal")
    assert refused(e, "draw").reason == "The deal deck is empty"
    act(e, "close:deal_02", "pass")

    give(e, 1, money=30)
    e.state.equipment_deck.clear()
    act(e, "do:2:buy_equipment", f"equipment:{e.state.equipment_display[0]}")
    assert len(e.state.equipment_display) == 5

    e = ready(2, islands=(3, 4))
    e.state.shipment_deck.clear()
    clear_raw(e, 0)
    give(e, 0, raw=dict.fromkeys(METALS, 5), artifacts=dict.fromkeys(METALS, 1))
    act(e, "do:3:make_shipment", f"shipment:{e.state.shipment_display[0]}")
    assert len(e.state.shipment_display) == 7


# 24 --------------------------------------------------------------------------------------


def test_wages_one_dollar_per_two_workers_pay_what_you_can():
    """After rounds 3, 6, 9, 12 and 15 each player pays $1 per two workers, rounded up; what
    cannot be paid costs 1 VP per dollar. Other rounds pay nothing."""
    assert CONTENT.board.wage_rounds == (3, 6, 9, 12, 15)
    e = ready(2, islands=(1, 2))
    give(e, 0, merchants=3, miners=2, money=10, vp=3)  # 5 workers: $3
    give(e, 1, merchants=2, miners=1, money=1, vp=3)  # 3 workers: $2, only $1
    set_round(e, 2)
    assert not of(pass_all(e), ev.WagesPaid)
    e2 = ready(2, islands=(1, 2))
    give(e2, 0, merchants=3, miners=2, money=10, vp=3)
    give(e2, 1, merchants=2, miners=1, money=1, vp=3)
    set_round(e2, 6)
    events = pass_all(e2)
    assert of(events, ev.WagesPaid) == [ev.WagesPaid(0, 3, 3), ev.WagesPaid(1, 2, 1)]
    assert [(p.money, p.vp) for p in e2.state.players] == [(7, 3), (0, 2)]


# --- further interpretations found in the engine --------------------------------------------


def test_pass_after_the_first_action_of_a_turn_ends_the_round_for_you():
    """Passing is possible after one action of a turn too; the player is then out for the rest
    of the round."""
    e = ready(2, islands=(1, 2))
    _plenty(e)
    act(e, "do:1:draw_or_close_deal", "draw")
    events = act(e, "pass")
    assert of(events, ev.Passed) == [ev.Passed(0)]
    act(e, "do:2:draw_or_close_deal", "draw", "do:2:depart_island", "island:1")
    assert e.pending.seat == 1  # seat 0 does not come back this round


def test_a_recruited_worker_can_work_in_the_same_turn():
    """A merchant recruited with the first action can already be placed for the second."""
    e = ready(2, islands=(3, 4))
    clear_raw(e, 0)
    give(e, 0, merchants=1, money=3, raw={"iron": 1})
    act(e, "do:3:recruit_merchant")
    assert e.state.players[0].merchants == 2 and e.state.players[0].free_merchants == 1
    assert "do:3:enrichment_transaction" in options(e)


def test_equipment_takes_a_free_miner_and_works_from_any_island():
    """Using equipment places a miner on the card (not a merchant), works wherever the ship is,
    and is refused without a free miner."""
    e = ready(2, islands=(3, 4))
    give(e, 0, equipment=["rock_cutter", "air_compressor"], miners=1, merchants=2)
    started = of(act(e, "use:rock_cutter"), ev.ActionStarted)
    assert (started[0].merchants, started[0].miners) == (0, 1)
    assert e.state.players[0].free_merchants == 2
    assert refused(e, "use:air_compressor").reason == "Using equipment takes a free miner; you have none"
    assert refused(e, "use:rock_cutter").reason.startswith("You have already used Rock Cutter")


def test_an_action_can_be_withdrawn_only_until_something_irreversible_happens():
    """ "Back" withdraws an action that has changed nothing yet; once tiles are drawn or a trade
    is made it can no longer be withdrawn."""
    e = ready(2, islands=(3, 4))
    act(e, "do:3:draw_place_galleries")
    assert "back" not in options(e)
    refused(e, "back")

    e = ready(2, islands=(1, 2))
    give(e, 0, money=4)
    act(e, "do:1:trade")
    assert "back" in options(e)
    act(e, "give:money+money", "get:gold")
    assert "back" not in options(e) and "done" in options(e)


def test_turn_order_is_fixed_for_the_round_even_after_sailing():
    """The order of turns is set by the islands chosen at the start of the round; sailing to
    another island does not change a player's place in it."""
    e = ready(3, islands=(1, 2, 3))
    _plenty(e)
    for seat in range(3):
        give(e, seat, equipment=["rock_cutter", "air_compressor"])
    act(e, "do:1:draw_or_close_deal", "draw", "do:1:trade", "give:money+money", "get:gold", "done")
    act(e, "do:2:draw_or_close_deal", "draw", "do:2:depart_island", "island:4")  # seat 1 now last by island
    act(e, "use:rock_cutter", "use:air_compressor")
    act(e, "use:rock_cutter", "use:air_compressor")  # seat 0 again
    assert e.pending.seat == 1  # not seat 2, although seat 1 now lies on island 4
    assert e.state.turn_order == [0, 1, 2]


def test_final_enrichment_happens_before_objectives_are_measured():
    """At the end of the last round the Enrichment Center moves on before objectives are
    scored: a 3' cube counts as 4' for the Enrichment Magnate, and a 4' cube has left the game."""
    e = ready(2, islands=(1, 2))
    give(e, 0, objectives=["enrichment_magnate"], vp=0)
    give(e, 1, objectives=[], vp=0)
    set_centre(e, "gold", 3, [0])
    set_centre(e, "iron", 4, [1, 1])
    set_round(e, 15)
    events = pass_all(e)
    assert of(events, ev.ObjectiveScored) == [ev.ObjectiveScored(0, "enrichment_magnate", 4, 4)]


def test_final_scoring_does_not_count_as_reaching_thirty():
    """VP from objectives and artifacts at the very end do not trigger the 30-VP end: the game
    ended for another reason and the log says so."""
    e = ready(2, islands=(1, 2))
    give(e, 0, vp=29, artifacts={"gold": 1}, objectives=[])
    give(e, 1, objectives=[])
    set_round(e, 15)
    events = pass_all(e)
    assert not of(events, ev.EndOfGameTriggered)
    assert e.state.end_reason == "last_round" and e.state.players[0].vp > 30


def test_selling_an_enriched_cube_can_carry_its_owner_to_thirty():
    """The VP a player earns when someone buys their enriched cube count at once: reaching 30
    that way, during another player's action, triggers the end of the game."""
    e = ready(2, islands=(3, 4))
    give(e, 1, vp=29)
    give(e, 0, money=5)
    set_centre(e, "iron", 2, [1])
    events = act(e, "do:3:enrichment_transaction", "buy", "buy:iron:2:1")
    assert ev.EndOfGameTriggered(1, 30) in events


# 32 --------------------------------------------------------------------------------------

ONE_CLOSURE = "Without equipment you can close only one deal a round: you closed one on island 1 this round"


def test_without_equipment_one_deal_is_closed_a_round():
    """After closing a deal with Draw or Close a Deal on island 1, the same action on island 2
    may still draw a deal but not close one, and says why; with the deal deck empty it is not
    offered at all. Bulldozer and Rescue Chamber each close a deal on top, before or after the
    board's closure, and the limit starts afresh next round."""
    e = ready(2, islands=(1, 3))
    _plenty(e)
    give(
        e,
        0,
        deals=["deal_04", "deal_02", "deal_05"],
        equipment=["bulldozer", "rescue_chamber"],
        enriched={"iron": [2], "gold": [2], "copper": [3]},
    )  # they ask 2' iron, 2' gold, 3' copper
    act(e, "do:1:draw_or_close_deal", "close:deal_04", "do:1:depart_island", "island:2", "pass")

    assert e.pending.seat == 0 and "do:2:draw_or_close_deal" in options(e)
    act(e, "do:2:draw_or_close_deal")
    assert set(options(e)) == {"draw", "back"}
    assert refused(e, "close:deal_02").reason == ONE_CLOSURE
    act(e, "back")
    deck = list(e.state.deal_deck)
    e.state.deal_deck.clear()
    refresh(e)
    assert "do:2:draw_or_close_deal" not in options(e)
    e.state.deal_deck[:] = deck
    refresh(e)

    events = act(e, "use:bulldozer", "close:deal_02", "use:rescue_chamber", "close:deal_05")
    assert [d.deal for d in of(events, ev.DealClosed)] == ["deal_02", "deal_05"]
    assert [sc.vp for sc in of(events, ev.Scored)] == [2 + 1, 3]
    act(e, "do:2:draw_or_close_deal", "draw")

    pass_all(e)
    to_actions(e, {0: 1, 1: 3})
    give(e, 0, enriched={"gold": [2], "iron": [2]}, deals=["deal_02", "deal_04"])
    events = act(e, "use:bulldozer", "close:deal_02", "do:1:draw_or_close_deal", "close:deal_04")
    assert [d.deal for d in of(events, ev.DealClosed)] == ["deal_02", "deal_04"]


def test_a_log_with_two_closures_in_a_round_still_loads_but_is_not_imported(monkeypatch):
    """Logs made before the rule may hold two closures without equipment in a round (the bots'
    two-player game of seed 7010 did, in round 11). Its events are facts: the log still loads,
    as a saved game does, and play goes on from it. An import, which plays every move again
    under the rules, refuses it and names the move and the rule."""
    with monkeypatch.context() as before_the_rule:  # the engine and bot as they were
        before_the_rule.setattr(deals, "closing_spent", lambda p, data: False)
        before_the_rule.setattr(outlook, "closing_spent", lambda p, data: False)
        old = bot_game(CONTENT, 2, 7010)
    assert Engine(CONTENT, old.events).state == old.state
    eleventh = next(i for i, e in enumerate(old.events) if isinstance(e, ev.RoundBegan) and e.round == 11)
    second = [i for i, e in enumerate(old.events) if i > eleventh and isinstance(e, ev.DealClosed)][1]
    loaded = Engine(CONTENT, old.events[: second + 3])  # the deal's VP, the end of the action
    assert isinstance(old.events[second + 2], ev.ActionFinished) and loaded.pending.options
    with pytest.raises(LogError) as refusal:
        audit(CONTENT, old.events, [mark.choice for mark in old.marks])
    assert (
        "is not allowed there: Without equipment you can close only one deal a round: "
        "you closed one on island" in str(refusal.value)
    )
