"""evolve(state, event): apply one event to the state, in place.

One small handler per event type, found through a dict. Handlers apply facts;
they never decide anything: that is done by `rules.choose` (which choice is
allowed), `rules.flow` (what the game does next) and `rules.actions` (what an
action does).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from . import events as ev
from .cards import METALS
from .names import shown_safely
from .state import MONEY, Gallery, GameState, MiningSite, Player, Standing, Step

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

E = TypeVar("E", bound=ev.Event)

# Each handler takes the one event type it is registered for, which `handles` checks; a dict cannot
# say that of each of its keys, so here the event is Any.
HANDLERS: dict[type[ev.Event], Callable[[GameState, Any], None]] = {}


def handles(event_type: type[E]) -> Callable[[Callable[[GameState, E], None]], Callable[[GameState, E], None]]:
    def register(fn: Callable[[GameState, E], None]) -> Callable[[GameState, E], None]:
        HANDLERS[event_type] = fn
        return fn

    return register


def evolve(state: GameState, event: ev.Event) -> GameState:
    HANDLERS[type(event)](state, event)
    return state


def _take(deck: list[str], items: Sequence[str]) -> None:
    """Remove `items` from the top of `deck`; they must be exactly what lies there."""
    n = len(items)
    if tuple(deck[:n]) != tuple(items):
        raise ValueError(f"the event draws {list(items)} but the deck holds {deck[:n]}")
    del deck[:n]


def _metal(state: GameState, tile: str) -> str:
    """The metal of a gallery tile that holds cubes (asked of no other)."""
    return state.content.gallery(tile).metal  # type: ignore[return-value]  # a tile with cubes is of a metal


# --- setup -------------------------------------------------------------------


@handles(ev.GameCreated)
def _game_created(s: GameState, e: ev.GameCreated) -> None:
    board = s.content.board
    s.seed = e.seed
    # (a name from a log saved before names were checked is kept without what a terminal would act on or
    # would not show; one left with nothing is called by its seat)
    s.players = [
        Player(seat=i, name=shown_safely(n) or f"Seat {i + 1}", colour=c)
        for i, (n, c) in enumerate(zip(e.names, e.colours))
    ]
    s.start_player = s.token = e.start_player
    s.objective_deck = list(e.objective_deck)
    s.corporation_deck = list(e.corporation_deck)
    s.equipment_deck = list(e.equipment_deck)
    s.shipment_deck = list(e.shipment_deck)
    s.deal_deck = list(e.deal_deck)
    s.gallery_deck = list(e.gallery_deck)
    s.sites = {n: MiningSite(n, [[None, None] for _ in range(board.site_columns)]) for n in board.mining_islands}
    s.artifacts = {i.number: list(i.artifacts) for i in board.islands if i.artifacts}
    s.centre = {m: [[] for _ in range(5)] for m in METALS}
    s.supply = dict.fromkeys(METALS, board.supply_per_metal)
    s.phase = "setup"


@handles(ev.ObjectivesDealt)
def _objectives_dealt(s: GameState, e: ev.ObjectivesDealt) -> None:
    _take(s.objective_deck, e.objectives)
    s.players[e.seat].objective_offer = list(e.objectives)


@handles(ev.CorporationsDealt)
def _corporations_dealt(s: GameState, e: ev.CorporationsDealt) -> None:
    _take(s.corporation_deck, e.corporations)
    s.players[e.seat].corporation_offer = list(e.corporations)


@handles(ev.ObjectivesKept)
def _objectives_kept(s: GameState, e: ev.ObjectivesKept) -> None:
    p = s.players[e.seat]
    p.objectives = list(e.kept)
    p.objective_offer = []


@handles(ev.CorporationChosen)
def _corporation_chosen(s: GameState, e: ev.CorporationChosen) -> None:
    p = s.players[e.seat]
    corp = s.content.corporations[e.corporation]
    p.corporation = e.corporation
    p.corporation_offer = []
    p.merchants, p.miners, p.money = corp.merchants, corp.miners, corp.money
    for metal, n in corp.resources.items():
        p.raw[metal] += n
        s.supply[metal] -= n


@handles(ev.EquipmentRevealed)
def _equipment_revealed(s: GameState, e: ev.EquipmentRevealed) -> None:
    _take(s.equipment_deck, (e.card,))
    s.equipment_display.append(e.card)


@handles(ev.ShipmentRevealed)
def _shipment_revealed(s: GameState, e: ev.ShipmentRevealed) -> None:
    _take(s.shipment_deck, (e.tile,))
    s.shipment_display.append(e.tile)


# --- rounds and turns ------------------------------------------------------------


@handles(ev.RoundBegan)
def _round_began(s: GameState, e: ev.RoundBegan) -> None:
    s.round, s.token, s.phase = e.round, e.token, "island_selection"
    s.islands_chosen = {}


@handles(ev.IslandChosen)
def _island_chosen(s: GameState, e: ev.IslandChosen) -> None:
    s.islands_chosen[e.island] = e.seat


@handles(ev.ActionPhaseBegan)
def _action_phase_began(s: GameState, e: ev.ActionPhaseBegan) -> None:
    s.phase = "actions"
    s.turn_order = list(e.turn_order)
    for island, seat in s.islands_chosen.items():
        s.players[seat].island = island


@handles(ev.TurnBegan)
def _turn_began(s: GameState, e: ev.TurnBegan) -> None:
    s.current, s.turn_actions = e.seat, 0


@handles(ev.Passed)
def _passed(s: GameState, e: ev.Passed) -> None:
    s.players[e.seat].passed = True


@handles(ev.ActionStarted)
def _action_started(s: GameState, e: ev.ActionStarted) -> None:
    p = s.players[e.seat]
    p.merchants_used += e.merchants
    p.miners_used += e.miners
    kind, _, rest = e.source.partition(":")
    if kind == "island":
        p.used.append(rest)
        s.space_users.setdefault(rest, []).append(e.seat)
    else:
        p.equipment_used.append(rest)
    s.step = Step(e.kind, e.seat, e.source, e.merchants, e.miners, [], dict(e.data))


@handles(ev.Picked)
def _picked(s: GameState, e: ev.Picked) -> None:
    s.step.picks.append(e.pick)  # type: ignore[union-attr]  # a pick is made in an action under way


@handles(ev.Unpicked)
def _unpicked(s: GameState, e: ev.Unpicked) -> None:
    s.step.picks.pop()  # type: ignore[union-attr]  # (as a pick)


@handles(ev.ActionWithdrawn)
def _action_withdrawn(s: GameState, e: ev.ActionWithdrawn) -> None:
    step: Step
    step, p = s.step, s.players[e.seat]  # type: ignore[assignment]  # an action under way is withdrawn
    p.merchants_used -= step.merchants
    p.miners_used -= step.miners
    kind, _, rest = step.source.partition(":")
    if kind == "island":
        p.used.remove(rest)
        s.space_users[rest].remove(e.seat)
    else:
        p.equipment_used.remove(rest)
    s.step = None


@handles(ev.ActionFinished)
def _action_finished(s: GameState, e: ev.ActionFinished) -> None:
    s.step = None
    s.players[e.seat].actions_this_round += 1
    s.turn_actions += 1


@handles(ev.Scored)
def _scored(s: GameState, e: ev.Scored) -> None:
    s.players[e.seat].vp += e.vp


@handles(ev.EndOfGameTriggered)
def _end_triggered(s: GameState, e: ev.EndOfGameTriggered) -> None:
    s.end_triggered = True


@handles(ev.CentreEnriched)
def _centre_enriched(s: GameState, e: ev.CentreEnriched) -> None:
    for metal, levels in s.centre.items():
        s.centre[metal] = [[]] + levels[:4]


@handles(ev.WagesPaid)
def _wages_paid(s: GameState, e: ev.WagesPaid) -> None:
    s.players[e.seat].money -= e.paid


@handles(ev.RoundEnded)
def _round_ended(s: GameState, e: ev.RoundEnded) -> None:
    for p in s.players:
        p.merchants_used = p.miners_used = p.actions_this_round = 0
        p.equipment_used, p.used = [], []
        p.passed, p.island, p.deal_closed_on = False, None, None
    s.space_users, s.islands_chosen, s.turn_order = {}, {}, []
    s.turn_actions = 0


@handles(ev.ObjectiveScored)
def _objective_scored(s: GameState, e: ev.ObjectiveScored) -> None:
    """A fact for the log; the VP arrive with the `Scored` event beside it."""


@handles(ev.GameEnded)
def _game_ended(s: GameState, e: ev.GameEnded) -> None:
    s.phase, s.end_reason = "over", e.reason
    s.standings = [
        Standing(p.seat, e.places[p.seat], p.vp, [p.money, len(p.equipment), len(p.deals_closed), len(p.shipments)])
        for p in s.players
    ]


# --- island actions and equipment --------------------------------------------


@handles(ev.ArtifactBought)
def _artifact_bought(s: GameState, e: ev.ArtifactBought) -> None:
    p = s.players[e.seat]
    p.raw[e.metal] -= e.price
    s.supply[e.metal] += e.price
    s.artifacts[e.island].remove(e.metal)
    p.artifacts[e.metal] += 1


@handles(ev.MinersWorked)
def _miners_worked(s: GameState, e: ev.MinersWorked) -> None:
    s.players[e.seat].miners_used += e.miners


@handles(ev.GalleryFlipped)
def _gallery_flipped(s: GameState, e: ev.GalleryFlipped) -> None:
    g: Gallery = s.sites[e.island].columns[e.column][e.level - 1]  # type: ignore[assignment]  # one lies there
    g.face_up, g.cubes = True, e.cubes
    if e.cubes:
        s.supply[_metal(s, e.tile)] -= e.cubes


@handles(ev.ResourcesMined)
def _resources_mined(s: GameState, e: ev.ResourcesMined) -> None:
    s.sites[e.island].columns[e.column][e.level - 1].cubes -= e.cubes  # type: ignore[union-attr]  # one lies there
    s.players[e.seat].raw[e.metal] += e.cubes


@handles(ev.ResourceCollected)
def _resource_collected(s: GameState, e: ev.ResourceCollected) -> None:
    s.sites[e.island].columns[e.column][e.level - 1].cubes -= 1  # type: ignore[union-attr]  # one lies there
    s.players[e.seat].raw[e.metal] += 1


@handles(ev.GalleryRemoved)
def _gallery_removed(s: GameState, e: ev.GalleryRemoved) -> None:
    s.sites[e.island].columns[e.column][e.level - 1] = None
    if e.cubes:
        s.supply[_metal(s, e.tile)] += e.cubes
    s.gallery_discard.append(e.tile)


@handles(ev.GallerySlid)
def _gallery_slid(s: GameState, e: ev.GallerySlid) -> None:
    col = s.sites[e.island].columns[e.column]
    col[0], col[1] = col[1], None


@handles(ev.GalleryDeckReshuffled)
def _gallery_reshuffled(s: GameState, e: ev.GalleryDeckReshuffled) -> None:
    if sorted(e.order) != sorted(s.gallery_discard):
        raise ValueError("the reshuffled gallery deck is not the discard pile")
    s.gallery_deck.extend(e.order)
    s.gallery_discard = []
    s.gallery_reshuffles += 1


@handles(ev.GalleriesDrawn)
def _galleries_drawn(s: GameState, e: ev.GalleriesDrawn) -> None:
    _take(s.gallery_deck, e.tiles)
    s.drawn_galleries.extend(e.tiles)
    if s.step is not None:
        s.step.committed = True  # tiles seen cannot be unseen


@handles(ev.GalleryPlaced)
def _gallery_placed(s: GameState, e: ev.GalleryPlaced) -> None:
    s.drawn_galleries.remove(e.tile)
    col = s.sites[e.island].columns[e.column]
    if col[1] is not None:
        raise ValueError("a gallery lies on level 2; it must be removed first")
    col[1] = col[0]
    col[0] = Gallery(e.tile, e.face_up, e.cubes, e.seat)
    if s.step is not None:
        s.step.data.setdefault("placed", []).append([e.island, e.column, e.face_up])
    if e.cubes:
        s.supply[_metal(s, e.tile)] -= e.cubes


@handles(ev.GalleryRewardPaid)
def _gallery_reward(s: GameState, e: ev.GalleryRewardPaid) -> None:
    s.players[e.seat].money += e.money


@handles(ev.DealDrawn)
def _deal_drawn(s: GameState, e: ev.DealDrawn) -> None:
    _take(s.deal_deck, (e.deal,))
    s.players[e.seat].deals.append(e.deal)


@handles(ev.DealClosed)
def _deal_closed(s: GameState, e: ev.DealClosed) -> None:
    p = s.players[e.seat]
    p.deals.remove(e.deal)
    p.deals_closed.append(e.deal)
    for metal, level in e.paid:
        p.enriched[metal].remove(level)
    kind, _, space = s.step.source.partition(":")  # type: ignore[union-attr]  # closed in an action under way
    if kind == "island":  # closed with the board action, not with equipment: once a round
        p.deal_closed_on = int(space.partition(":")[0])


@handles(ev.DealDiscarded)
def _deal_discarded(s: GameState, e: ev.DealDiscarded) -> None:
    p = s.players[e.seat]
    p.deals.remove(e.deal)
    p.money += e.money


def _give(s: GameState, p: Player, good: str, n: int = 1) -> None:
    if good == MONEY:
        p.money -= n
    else:
        p.raw[good] -= n
        s.supply[good] += n


def _get(s: GameState, p: Player, good: str, n: int = 1) -> None:
    _give(s, p, good, -n)


@handles(ev.Traded)
def _traded(s: GameState, e: ev.Traded) -> None:
    p = s.players[e.seat]
    for good in e.give:
        _give(s, p, good)
    _get(s, p, e.get)
    if s.step is not None:
        s.step.picks.clear()
        s.step.data["trades"] = s.step.data.get("trades", 0) + 1
        s.step.committed = True


@handles(ev.EquipmentBought)
def _equipment_bought(s: GameState, e: ev.EquipmentBought) -> None:
    p = s.players[e.seat]
    p.money -= e.cost
    s.equipment_display.remove(e.card)
    p.equipment.append(e.card)


@handles(ev.MerchantRecruited)
def _merchant_recruited(s: GameState, e: ev.MerchantRecruited) -> None:
    p = s.players[e.seat]
    p.money -= e.cost
    p.merchants += 1


@handles(ev.MinerRecruited)
def _miner_recruited(s: GameState, e: ev.MinerRecruited) -> None:
    p = s.players[e.seat]
    p.money -= e.cost
    p.miners += 1


@handles(ev.ShipmentMade)
def _shipment_made(s: GameState, e: ev.ShipmentMade) -> None:
    p = s.players[e.seat]
    tile = s.content.shipments[e.tile]
    for metal, n in tile.resources.items():
        _give(s, p, metal, n)
    for metal, n in tile.artifacts.items():
        p.artifacts[metal] -= n
    p.money += tile.money
    s.shipment_display.remove(e.tile)
    p.shipments.append(e.tile)


@handles(ev.ResourcesEnriched)
def _resources_enriched(s: GameState, e: ev.ResourcesEnriched) -> None:
    p = s.players[e.seat]
    for metal in e.metals:
        _give(s, p, metal)
        s.centre[metal][0].append(e.seat)


@handles(ev.EnrichedCubeBought)
def _enriched_bought(s: GameState, e: ev.EnrichedCubeBought) -> None:
    p = s.players[e.seat]
    s.centre[e.metal][e.level].remove(e.owner)
    p.enriched[e.metal].append(e.level)
    p.enriched[e.metal].sort()
    p.money -= e.price
    s.players[e.owner].money += e.price


@handles(ev.EnrichedCubeUpgraded)
def _enriched_upgraded(s: GameState, e: ev.EnrichedCubeUpgraded) -> None:
    p = s.players[e.seat]
    levels = p.enriched[e.metal]
    levels.remove(e.level)
    levels.append(e.level + 1)
    levels.sort()
    p.money -= e.cost


@handles(ev.CentreCubeUpgraded)
def _centre_upgraded(s: GameState, e: ev.CentreCubeUpgraded) -> None:
    levels = s.centre[e.metal]
    levels[e.level].remove(e.owner)
    if e.level < 4:
        levels[e.level + 1].append(e.owner)


@handles(ev.EnrichedCubeCrushed)
def _enriched_crushed(s: GameState, e: ev.EnrichedCubeCrushed) -> None:
    s.players[e.seat].enriched[e.metal].remove(e.level)


@handles(ev.MetalSold)
def _metal_sold(s: GameState, e: ev.MetalSold) -> None:
    p = s.players[e.seat]
    _give(s, p, e.metal)
    p.money += e.money


@handles(ev.MoneyReceived)
def _money_received(s: GameState, e: ev.MoneyReceived) -> None:
    s.players[e.seat].money += e.money


@handles(ev.ShipDeparted)
def _ship_departed(s: GameState, e: ev.ShipDeparted) -> None:
    s.players[e.seat].island = e.destination


missing = set(ev.EVENT_TYPES.values()) - set(HANDLERS)
assert not missing, f"events without a handler: {missing}"
