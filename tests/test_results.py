"""The final ranking of a finished game (rules.results): every VP accounted for, ties told in words.

The breakdown is read from the engine's events and final state; its parts must
add up to the VP the engine gave each player, and the places must be the
engine's. A game not over has none.
"""

from __future__ import annotations

import dataclasses

import pytest

from rules import Engine, load_content
from rules.results import GameResults, final_results, find_ties, tiebreak_lines
from rules.simulate import random_game
from tests.helpers.scenario import player

CONTENT = load_content()


@pytest.mark.parametrize("players,seed", [(2, 3), (3, 5), (4, 8), (4, 23)])
def test_final_results_add_up_to_each_players_vp(players, seed):
    engine, _ = random_game(CONTENT, players, seed)
    results = final_results(engine.state, engine.events)
    assert len(results.players) == players
    for p in results.players:
        assert p.parts_total == p.total == engine.state.players[p.seat].vp
        assert len(p.objectives) == CONTENT.board.objectives_kept
        assert p.place == engine.state.standings[p.seat].place
    assert [p.place for p in results.ranking] == sorted(p.place for p in results.players)


def test_final_results_need_a_finished_game():
    engine = Engine.new(CONTENT, ["Ana", "Ben"], seed=1)
    with pytest.raises(ValueError):
        final_results(engine.state, engine.events)


def test_tiebreak_lines_name_the_tie_breakers_and_shared_places():
    players = (
        player(0, "Ana", 1, 20, money=5, equipment=2),
        player(1, "Ben", 2, 20, money=5, equipment=1),
        player(2, "Cleo", 3, 9, money=1, shipments=2),
        player(3, "Dev", 3, 9, money=1, shipments=2),
    )
    players = (
        players[0],
        players[1],
        dataclasses.replace(players[2], shared_place=True),
        dataclasses.replace(players[3], shared_place=True),
    )
    results = GameResults(
        players=players, end_reason="last_round", tiebreak_used=True, rounds=15, ties=find_ties(players)
    )
    lines = tiebreak_lines(results)
    assert lines[0] == (
        "Ana and Ben tied on 20 VP; tie-breakers compared — money: Ana $5, Ben $5; equipment: Ana 2, Ben 1."
    )
    assert "deals closed" in lines[1] and "shipments made: Cleo 2, Dev 2" in lines[1]
    assert lines[2] == "Cleo and Dev are equal on everything and share 3rd place."


@pytest.mark.parametrize("seed", [15, 20, 25])
def test_the_card_effects_are_named_with_the_vp_each_gave(tmp_path, seed):
    """ "Equipment used" ("Cards used") on the sheet is explained: the equipment cards whose effects
    scored, with their VP, adding up to the row (games where a crusher scored; the card is one the player owned)."""
    from rules.saves import Store
    from tests.helpers.scenario import saved_game

    with Store(tmp_path / "lagoon.db") as store:
        _, engine = saved_game(store, 10_000, seed=seed)
    results = final_results(engine.state, engine.events)
    scored = [p for p in results.players if p.vp_by_source["equipment effects"]]
    assert scored  # (the seeds are games where it happened)
    for p in results.players:
        assert sum(vp for _, vp in p.effects) == p.vp_by_source["equipment effects"]
        owned = {CONTENT.equipment[card].name for card in engine.state.players[p.seat].equipment}
        assert {name for name, _ in p.effects} <= owned


def test_a_finished_replay_carries_the_results_and_an_unfinished_one_none(tmp_path):
    from rules.host import Host
    from rules.saves import Store
    from tests.helpers.scenario import saved_game

    with Store(tmp_path / "lagoon.db") as store:
        over, engine = saved_game(store, 10_000, seed=20)
        going, _ = saved_game(store, 30, seed=3)
        assert Host.replay_saved(store, over, CONTENT).results == final_results(engine.state, engine.events)
        assert Host.replay_saved(store, going, CONTENT).results is None
