"""The flow of the game, from setup to the end, as small named steps.

In the rulebook's order: setup (the first event, laying out the board), island
selection, the action phase's turns (two actions each, or pass), the end of a
round (enrichment and the payment check) and the end of the game (objectives,
artifacts, ranking). The island actions call back into it: `score` for every
change of VP, `finish_action` to close an action, and the drawing of galleries
and filling of their cubes that setup shares with the gallery and mining actions.

Every function here emits events through `emit`, which applies each one to the
state at once, so later steps see the effect of earlier ones.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from . import events as ev
from .cards import Content
from .decision import Emit
from .scoring import final_scores, places
from .state import GameState

COLOURS = ("red", "yellow", "green", "blue")


def create_game(
    content: Content,
    names: Sequence[str],
    seed: int,
    start_player: int | None = None,
    colours: Sequence[str] | None = None,
) -> ev.GameCreated:
    """The first event of a game: every random outcome of the setup, drawn from `seed`."""
    rng = random.Random(seed)

    def shuffled(ids: Iterable[str]) -> tuple[str, ...]:
        deck = list(ids)
        rng.shuffle(deck)
        return tuple(deck)

    n = len(names)
    start = rng.randrange(n) if start_player is None else start_player
    return ev.GameCreated(
        seed=seed,
        names=tuple(names),
        colours=tuple(colours or COLOURS[:n]),
        start_player=start,
        objective_deck=shuffled(content.objectives),
        corporation_deck=shuffled(content.corporations),
        equipment_deck=shuffled(content.equipment),
        shipment_deck=shuffled(content.shipments),
        deal_deck=shuffled(content.deals),
        gallery_deck=shuffled(content.gallery_instances()),
    )


def set_up_board(s: GameState, emit: Emit) -> None:
    """Lay out the market and the first galleries, and deal objectives and corporations."""
    board = s.board
    for _ in range(board.equipment_display):
        emit(ev.EquipmentRevealed(s.equipment_deck[0]))
    for _ in range(board.shipment_display):
        emit(ev.ShipmentRevealed(s.shipment_deck[0]))
    per_site = board.gallery_setup_face_up + board.gallery_setup_face_down
    for island in board.mining_islands:
        tiles = draw_galleries(s, None, per_site, emit)
        # face-up tiles go to the middle column(s), the rest around them
        columns = sorted(range(board.site_columns), key=lambda c: abs(2 * c - (board.site_columns - 1)))
        for i, (tile, column) in enumerate(zip(tiles, columns)):
            face_up = i < board.gallery_setup_face_up
            emit(ev.GalleryPlaced(None, tile, island, column, face_up, cubes_for(s, tile) if face_up else 0))
    order = seats_from(s, s.start_player)
    for seat in order:
        emit(ev.ObjectivesDealt(seat, tuple(s.objective_deck[: board.objectives_dealt])))
    for seat in order:
        emit(ev.CorporationsDealt(seat, tuple(s.corporation_deck[: board.corporations_dealt])))


def seats_from(s: GameState, first: int) -> list[int]:
    """All seats clockwise, starting with `first`."""
    n = s.seats
    return [(first + i) % n for i in range(n)]


def setup_seat(s: GameState) -> int | None:
    """The next seat that still has objectives or a corporation to choose."""
    players = s.players
    n = len(players)
    for i in range(n):
        seat = (s.start_player + i) % n
        if not players[seat].set_up:
            return seat
    return None


def after_setup_choice(s: GameState, emit: Emit) -> None:
    if setup_seat(s) is None:
        emit(ev.RoundBegan(1, s.start_player))


def cubes_for(s: GameState, tile: str) -> int:
    """Cubes put on a gallery turned face up: as printed, as far as the supply goes."""
    t = s.content.gallery(tile)
    return min(t.cubes, s.supply[t.metal]) if t.metal else 0


def draw_galleries(s: GameState, seat: int | None, n: int, emit: Emit) -> list[str]:
    """Draw up to `n` gallery tiles, reshuffling the discard pile when the deck runs out."""
    if len(s.gallery_deck) < n and s.gallery_discard:
        order = list(s.gallery_discard)
        random.Random(f"{s.seed}/galleries/{s.gallery_reshuffles}").shuffle(order)
        emit(ev.GalleryDeckReshuffled(tuple(order)))
    tiles = tuple(s.gallery_deck[:n])
    if tiles:
        emit(ev.GalleriesDrawn(seat, tiles))
    return list(tiles)


def galleries_available(s: GameState) -> int:
    return len(s.gallery_deck) + len(s.gallery_discard)


# --- island selection ---------------------------------------------------------


def selection_seat(s: GameState) -> int | None:
    """Token holder first, then clockwise: the first seat without an island."""
    chosen = s.islands_chosen.values()
    n = len(s.players)
    for i in range(n):
        seat = (s.token + i) % n
        if seat not in chosen:
            return seat
    return None


def after_island_chosen(s: GameState, emit: Emit) -> None:
    if selection_seat(s) is None:
        order = tuple(seat for _, seat in sorted(s.islands_chosen.items()))
        emit(ev.ActionPhaseBegan(order))
        emit(ev.TurnBegan(order[0]))


# --- turns ----------------------------------------------------------------------


def score(s: GameState, seat: int, vp: int, source: str, emit: Emit, during_play: bool = True) -> None:
    """Every change of VP goes through here, so reaching the goal during play is never missed."""
    if vp == 0:
        return
    emit(ev.Scored(seat, vp, source))
    vp_now = s.players[seat].vp
    if during_play and not s.end_triggered and vp_now >= s.board.vp_goal:
        emit(ev.EndOfGameTriggered(seat, vp_now))


def finish_action(s: GameState, seat: int, emit: Emit, ends_turn: bool = False) -> None:
    """Close the action under way; end the turn after two actions (or when told to)."""
    emit(ev.ActionFinished(seat))
    if ends_turn or s.turn_actions >= 2:
        next_turn(s, emit)


def pass_for_round(s: GameState, seat: int, emit: Emit) -> None:
    emit(ev.Passed(seat))
    next_turn(s, emit)


def next_turn(s: GameState, emit: Emit) -> None:
    """The next seat in island order that has not passed; the round ends when none is left."""
    order = s.turn_order
    i = order.index(s.current)
    for k in range(1, len(order) + 1):
        seat = order[(i + k) % len(order)]
        if not s.players[seat].passed:
            emit(ev.TurnBegan(seat))
            return
    end_round(s, emit)


# --- end of round and of the game --------------------------------------------------


def end_round(s: GameState, emit: Emit) -> None:
    board = s.board
    removed = tuple((metal, owner) for metal, levels in s.centre.items() for owner in levels[4])
    emit(ev.CentreEnriched(removed))
    if s.round in board.wage_rounds:
        pay_wages(s, emit)
    if s.end_triggered or s.round >= board.rounds:
        end_game(s, emit)
        return
    emit(ev.RoundEnded(s.round))
    emit(ev.RoundBegan(s.round + 1, (s.token + 1) % s.seats))


def pay_wages(s: GameState, emit: Emit) -> None:
    per = s.board.workers_per_dollar
    for p in s.players:
        due = -(-p.workers // per)
        paid = min(due, p.money)
        emit(ev.WagesPaid(p.seat, due, paid))
        score(s, p.seat, paid - due, "wages", emit)


def end_game(s: GameState, emit: Emit) -> None:
    reason = "vp_goal" if s.end_triggered else "last_round"
    for seat, objective, measure, vp in final_scores(s):
        emit(ev.ObjectiveScored(seat, objective, measure, vp))
        score(s, seat, vp, "objectives", emit, during_play=False)
    for p in s.players:
        score(s, p.seat, s.board.artifact_vp * sum(p.artifacts.values()), "artifacts", emit, during_play=False)
    result, tiebreak_used = places(s)
    emit(ev.GameEnded(reason, tuple(result), tiebreak_used))
