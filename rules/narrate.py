"""Events as sentences a player understands, for the game log.

`narrate(event, state)` reads an event (already redacted for the reader with
`rules.view.redact`) and says what happened, naming players and cards. Hidden
fields (None) are told without their content: "Ben drew a deal". Events that
only move an unfinished plan along (Picked, Unpicked) have no sentence.
"""

from __future__ import annotations

from functools import singledispatch
from typing import TYPE_CHECKING, TypeVar

from . import events as ev
from .decision import plural
from .state import GameState

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

E = TypeVar("E", bound=ev.Event)


def _who(s: GameState, seat: int | None) -> str:
    return "The game" if seat is None else s.players[seat].name


def _tile(s: GameState, tile: str | None) -> str:
    if tile is None:
        return "a hidden gallery"
    t = s.content.gallery(tile)
    if not t.metal:
        return "an empty gallery"
    return f"{'an' if t.metal[0] in 'aeiou' else 'a'} {t.metal} {t.cubes} gallery"


def _at(island: int, column: int, level: int | None = None) -> str:
    where = f"island {island}, column {column + 1}"
    return where if level is None else f"{where}, level {level}"


def _ended(sentence: str) -> str:
    """The sentence with its full stop, unless it ends with one already ("... runs Ironbark Mining Co.")."""
    return sentence if sentence.endswith(".") else f"{sentence}."


def _goods(goods: Iterable[str]) -> str:
    return " and ".join("$1" if g == "money" else f"1 {g}" for g in goods)


@singledispatch
def narrate(e: ev.Event, s: GameState) -> str | None:
    return None


def told(event_type: type[E]) -> Callable[[Callable[[E, GameState], str | None]], Callable[[E, GameState], str | None]]:
    """Register a narration for one event type (which the narration takes)."""
    return narrate.register(event_type)


@told(ev.GameCreated)
def _(e: ev.GameCreated, s: GameState) -> str:
    names = [p.name for p in s.players]  # (as the state keeps them: see rules.names.shown_safely)
    return f"A game of Miner's Lagoon begins for {', '.join(names)}; {names[e.start_player]} starts."


@told(ev.ObjectivesDealt)
def _(e: ev.ObjectivesDealt, s: GameState) -> str:
    return f"{_who(s, e.seat)} was dealt {len(e.objectives)} objectives."


@told(ev.CorporationsDealt)
def _(e: ev.CorporationsDealt, s: GameState) -> str:
    return f"{_who(s, e.seat)} was dealt {len(e.corporations)} corporations."


@told(ev.ObjectivesKept)
def _(e: ev.ObjectivesKept, s: GameState) -> str:
    if None in e.kept:
        return f"{_who(s, e.seat)} kept {len(e.kept)} objectives."
    names = " and ".join(s.content.objectives[o].name for o in e.kept)
    return f"{_who(s, e.seat)} kept the objectives {names}."


@told(ev.CorporationChosen)
def _(e: ev.CorporationChosen, s: GameState) -> str:
    return _ended(f"{_who(s, e.seat)} runs {s.content.corporations[e.corporation].name}")


@told(ev.EquipmentRevealed)
def _(e: ev.EquipmentRevealed, s: GameState) -> str:
    return f"{s.content.equipment[e.card].name} is now for sale."


@told(ev.ShipmentRevealed)
def _(e: ev.ShipmentRevealed, s: GameState) -> str:
    tile = s.content.shipments[e.tile]
    parts = [f"{n} {m}" for m, n in tile.resources.items()] + [f"a {m} artifact" for m in tile.artifacts]
    return f"On display: a shipment of {' and '.join(parts)} for {tile.vp} VP and ${tile.money}."


@told(ev.RoundBegan)
def _(e: ev.RoundBegan, s: GameState) -> str:
    return f"Round {e.round} begins; {_who(s, e.token)} chooses an island first."


@told(ev.IslandChosen)
def _(e: ev.IslandChosen, s: GameState) -> str:
    return f"{_who(s, e.seat)} chose island {e.island}."


@told(ev.ActionPhaseBegan)
def _(e: ev.ActionPhaseBegan, s: GameState) -> str:
    return "Turn order: " + ", ".join(_who(s, seat) for seat in e.turn_order) + "."


@told(ev.TurnBegan)
def _(e: ev.TurnBegan, s: GameState) -> str:
    return f"{_who(s, e.seat)}'s turn."


@told(ev.Passed)
def _(e: ev.Passed, s: GameState) -> str:
    return f"{_who(s, e.seat)} passed for the rest of the round."


@told(ev.ActionStarted)
def _(e: ev.ActionStarted, s: GameState) -> str:
    kind, _, rest = e.source.partition(":")
    if kind == "equipment":
        return f"{_who(s, e.seat)} put a miner on {s.content.equipment[rest].name}."
    from .actions import ACTION_NAMES

    island, action = rest.split(":")
    workers = f" with {e.merchants} merchant{'s' if e.merchants != 1 else ''}" if e.merchants else ""
    return f"{_who(s, e.seat)} took {ACTION_NAMES[action]} on island {island}{workers}."


@told(ev.ActionWithdrawn)
def _(e: ev.ActionWithdrawn, s: GameState) -> str:
    return f"{_who(s, e.seat)} took the action back."


@told(ev.Scored)
def _(e: ev.Scored, s: GameState) -> str:
    if e.vp < 0:
        return f"{_who(s, e.seat)} lost {-e.vp} VP ({e.source})."
    return f"{_who(s, e.seat)} scored {e.vp} VP ({e.source})."


@told(ev.EndOfGameTriggered)
def _(e: ev.EndOfGameTriggered, s: GameState) -> str:
    return f"{_who(s, e.seat)} reached {e.vp} VP: this is the last round."


@told(ev.CentreEnriched)
def _(e: ev.CentreEnriched, s: GameState) -> str:
    gone = f"; {plural(len(e.removed), 'cube')} past 4' left the game" if e.removed else ""
    return f"The Enrichment Center enriched every cube by one level{gone}."


@told(ev.WagesPaid)
def _(e: ev.WagesPaid, s: GameState) -> str:
    short = f" (short by ${e.due - e.paid})" if e.paid < e.due else ""
    return f"{_who(s, e.seat)} paid ${e.paid} in wages{short}."


@told(ev.RoundEnded)
def _(e: ev.RoundEnded, s: GameState) -> str:
    return f"Round {e.round} is over; workers, ships and equipment come home."


@told(ev.ObjectiveScored)
def _(e: ev.ObjectiveScored, s: GameState) -> str:
    name = s.content.objectives[e.objective].name
    result = f"met it for {e.vp} VP" if e.vp else "did not score it"
    return f"{_who(s, e.seat)} revealed {name} ({e.measure}) and {result}."


@told(ev.GameEnded)
def _(e: ev.GameEnded, s: GameState) -> str:
    winners = [p.name for p in s.players if e.places[p.seat] == 1]
    return f"The game is over. {' and '.join(winners)} win{'s' if len(winners) == 1 else ''}!"


@told(ev.ArtifactBought)
def _(e: ev.ArtifactBought, s: GameState) -> str:
    return f"{_who(s, e.seat)} bought the {e.metal} artifact of island {e.island} for {e.price} {e.metal}."


@told(ev.MinersWorked)
def _(e: ev.MinersWorked, s: GameState) -> str:
    return f"{_who(s, e.seat)} sent {e.miners} miner{'s' if e.miners != 1 else ''} into the mines of island {e.island}."


@told(ev.GalleryFlipped)
def _(e: ev.GalleryFlipped, s: GameState) -> str:
    return f"The face-down gallery at {_at(e.island, e.column, e.level)} is {_tile(s, e.tile)}."


@told(ev.ResourcesMined)
def _(e: ev.ResourcesMined, s: GameState) -> str:
    return f"{_who(s, e.seat)} mined {e.cubes} {e.metal} at {_at(e.island, e.column, e.level)}."


@told(ev.ResourceCollected)
def _(e: ev.ResourceCollected, s: GameState) -> str:
    return f"{_who(s, e.seat)} loaded 1 {e.metal} from {_at(e.island, e.column, e.level)}."


@told(ev.GalleryRemoved)
def _(e: ev.GalleryRemoved, s: GameState) -> str:
    why = {
        "exhausted": "is exhausted and leaves the board",
        "pushed_off": "was pushed off the board",
        "demolished": "was demolished",
    }[e.why]
    return f"{_tile(s, e.tile).capitalize()} at {_at(e.island, e.column, e.level)} {why}."


@told(ev.GallerySlid)
def _(e: ev.GallerySlid, s: GameState) -> str:
    return f"The level 2 gallery at {_at(e.island, e.column)} slid down to level 1."


@told(ev.GalleriesDrawn)
def _(e: ev.GalleriesDrawn, s: GameState) -> str | None:
    if e.seat is None:
        return None
    if None in e.tiles:
        return f"{_who(s, e.seat)} drew {len(e.tiles)} gallery tiles."
    return f"{_who(s, e.seat)} drew " + " and ".join(_tile(s, t) for t in e.tiles) + "."


@told(ev.GalleryDeckReshuffled)
def _(e: ev.GalleryDeckReshuffled, s: GameState) -> str:
    return f"The gallery discard pile was shuffled into a new deck of {len(e.order)} tiles."


@told(ev.GalleryPlaced)
def _(e: ev.GalleryPlaced, s: GameState) -> str:
    side = "face up" if e.face_up else "face down"
    return f"{_who(s, e.seat)} placed {_tile(s, e.tile)} {side} at {_at(e.island, e.column, 1)}."


@told(ev.GalleryRewardPaid)
def _(e: ev.GalleryRewardPaid, s: GameState) -> str:
    return f"{_who(s, e.seat)} earned ${e.money} for exploring."


@told(ev.DealDrawn)
def _(e: ev.DealDrawn, s: GameState) -> str:
    return f"{_who(s, e.seat)} drew a deal."


@told(ev.DealClosed)
def _(e: ev.DealClosed, s: GameState) -> str:
    paid = " and ".join(f"{level}' {metal}" for metal, level in e.paid)
    return f"{_who(s, e.seat)} closed a deal worth {s.content.deals[e.deal].vp} VP, paying {paid}."


@told(ev.DealDiscarded)
def _(e: ev.DealDiscarded, s: GameState) -> str:
    return f"{_who(s, e.seat)} discarded a deal for ${e.money}."


@told(ev.Traded)
def _(e: ev.Traded, s: GameState) -> str:
    return f"{_who(s, e.seat)} traded {_goods(e.give)} for {_goods([e.get])}."


@told(ev.EquipmentBought)
def _(e: ev.EquipmentBought, s: GameState) -> str:
    return f"{_who(s, e.seat)} bought {s.content.equipment[e.card].name} for ${e.cost}."


@told(ev.MerchantRecruited)
def _(e: ev.MerchantRecruited, s: GameState) -> str:
    return f"{_who(s, e.seat)} recruited a merchant for ${e.cost}."


@told(ev.MinerRecruited)
def _(e: ev.MinerRecruited, s: GameState) -> str:
    return f"{_who(s, e.seat)} recruited a miner for ${e.cost}."


@told(ev.ShipmentMade)
def _(e: ev.ShipmentMade, s: GameState) -> str:
    tile = s.content.shipments[e.tile]
    parts = [f"{n} {m}" for m, n in tile.resources.items()] + [f"a {m} artifact" for m in tile.artifacts]
    return f"{_who(s, e.seat)} shipped {' and '.join(parts)} for {tile.vp} VP and ${tile.money}."


@told(ev.ResourcesEnriched)
def _(e: ev.ResourcesEnriched, s: GameState) -> str:
    return f"{_who(s, e.seat)} sent {', '.join(e.metals)} to the 0' line of the Enrichment Center."


@told(ev.EnrichedCubeBought)
def _(e: ev.EnrichedCubeBought, s: GameState) -> str:
    whose = "their own" if e.owner == e.seat else f"{_who(s, e.owner)}'s"
    price = f" for ${e.price}" if e.price else ""
    return f"{_who(s, e.seat)} bought {whose} {e.level}' {e.metal}{price}."


@told(ev.EnrichedCubeUpgraded)
def _(e: ev.EnrichedCubeUpgraded, s: GameState) -> str:
    return f"{_who(s, e.seat)} raised their {e.level}' {e.metal} to {e.level + 1}' for ${e.cost}."


@told(ev.CentreCubeUpgraded)
def _(e: ev.CentreCubeUpgraded, s: GameState) -> str:
    whose = f"{_who(s, e.owner)}'s {e.level}' {e.metal}"
    if e.level == 4:
        return f"{_who(s, e.seat)} pushed {whose} out of the Enrichment Center."
    return f"{_who(s, e.seat)} moved {whose} up to {e.level + 1}'."


@told(ev.EnrichedCubeCrushed)
def _(e: ev.EnrichedCubeCrushed, s: GameState) -> str:
    return f"{_who(s, e.seat)} crushed their {e.level}' {e.metal}."


@told(ev.MetalSold)
def _(e: ev.MetalSold, s: GameState) -> str:
    return f"{_who(s, e.seat)} sold 1 {e.metal} for ${e.money}."


@told(ev.MoneyReceived)
def _(e: ev.MoneyReceived, s: GameState) -> str:
    return f"{_who(s, e.seat)} took ${e.money} from the bank."


@told(ev.ShipDeparted)
def _(e: ev.ShipDeparted, s: GameState) -> str:
    return f"{_who(s, e.seat)} sailed from island {e.origin} to island {e.destination}."


def _mined_together(run: Iterable[ev.ResourcesMined]) -> str:
    """One sentence for all the metal one mining action brought up: "Ana mined 2 gold and 1 iron on island 1"."""
    totals: dict[str, int] = {}
    for e in run:
        totals[e.metal] = totals.get(e.metal, 0) + e.cubes
    return " and ".join(f"{n} {metal}" for metal, n in totals.items())


def tell(
    events: Sequence[ev.Event], s: GameState, reader: int | None, reveal: bool = False
) -> list[tuple[int, int | None, str]]:
    """The sentences of a run of events as `reader` may read them: (event index, seat, text).

    Events are redacted for `reader` unless `reveal` (a finished game). The
    metal one mining action brings up is told in one sentence, at the place
    of its last cube: after the face-down galleries it revealed on the way.
    """
    from .view import redact

    out: list[tuple[int, int | None, str]] = []
    mined_at: dict[int, str] = {}  # the sentence of a mining action, by the index of its last cube
    told_mining: set[int] = set()
    for i, e in enumerate(events):
        if isinstance(e, ev.ResourcesMined):
            if i not in told_mining:
                run, last = [e], i
                for j in range(i + 1, len(events)):
                    other = events[j]
                    if isinstance(other, ev.ResourcesMined) and (other.seat, other.island) == (e.seat, e.island):
                        run.append(other)
                        told_mining.add(j)
                        last = j
                    elif not isinstance(other, (ev.GalleryFlipped, ev.ResourcesMined)):
                        break
                mined_at[last] = f"{_who(s, e.seat)} mined {_mined_together(run)} on island {e.island}."
            if i in mined_at:
                out.append((i, e.seat, mined_at.pop(i)))
            continue
        text = narrate(e if reveal else redact(e, reader), s)
        if text:
            out.append((i, getattr(e, "seat", None), text))
    return out
