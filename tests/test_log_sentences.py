"""The log as players read it (rules.narrate.tell): mining in one sentence, every event type told.

The per-event sentences and their redaction are pinned in tests/test_narrate.py.
"""

from __future__ import annotations

from rules import events as ev
from rules import load_content
from rules.narrate import narrate, tell
from rules.simulate import random_game

CONTENT = load_content()
SILENT = {ev.Picked, ev.Unpicked, ev.ActionFinished}
"""Plan steps and bookkeeping: nothing a player needs to hear (the sentence of the action says it)."""


GOLD_THEN_IRON = [
    ev.MinersWorked(0, 1, 3),
    ev.ResourcesMined(0, 1, 0, 1, "gold", 2),
    ev.GalleryFlipped(1, 1, 1, "iron_2#1", 2),  # the iron comes from a gallery turned face up on the way
    ev.ResourcesMined(0, 1, 1, 1, "iron", 1),
]
"""Ana's one mining action on island 1: 2 gold, then 1 iron from a face-down gallery."""


def test_one_mining_action_is_one_sentence():
    engine, _ = random_game(CONTENT, 2, 3)
    s = engine.state
    ana = s.players[0].name
    lines = [text for _, _, text in tell(GOLD_THEN_IRON, s, 1)]
    assert f"{ana} mined 2 gold and 1 iron on island 1." in lines
    assert sum("mined" in line for line in lines) == 1


def test_a_dig_is_told_after_the_face_down_gallery_it_revealed():
    """The iron Ana mined came from a gallery turned face up on the way: the log turns it up first."""
    s = random_game(CONTENT, 2, 3)[0].state
    ana = s.players[0].name
    told = [(at, text) for at, _, text in tell(GOLD_THEN_IRON, s, 1)]
    flipped = next(k for k, (_, text) in enumerate(told) if text.startswith("The face-down gallery"))
    mined = next(k for k, (_, text) in enumerate(told) if text == f"{ana} mined 2 gold and 1 iron on island 1.")
    assert flipped < mined
    assert told[mined][0] == 3  # told where its last cube is (a replay step to it shows all it mined)


def test_every_event_type_is_told_or_deliberately_silent():
    """Across a few whole games every kind of event that happens gets a sentence (unless silent by design)."""
    seen: set[type] = set()
    for seed in range(8):
        engine, _ = random_game(CONTENT, 2 + seed % 3, seed)
        told = {i for i, _, _ in tell(engine.events, engine.state, None)}
        for i, e in enumerate(engine.events):
            seen.add(type(e))
            if type(e) in SILENT or isinstance(e, ev.ResourcesMined):
                continue
            if isinstance(e, ev.GalleriesDrawn) and e.seat is None:
                continue  # setup draws: the placements that follow are told
            assert i in told, f"no sentence for {e}"
    for kind in set(ev.EVENT_TYPES.values()) - SILENT:
        assert narrate.dispatch(kind) is not narrate.dispatch(object), f"{kind.__name__} has no sentence"
    assert len(seen) > 30
