"""A whole solo game at 80×24 on a real terminal, played with digit keys only (issue 34, points 3 and 8).

`lagoon play Ana --vs easy,normal --pace 0` runs in an 80×24 tmux pane. Ana
answers every decision with a digit (a seeded choice among the options on
screen, "Back" only when it is the only one) and never turns a page: no
[ ] o g e t b p m l, no PgUp or PgDn. Before each answer the pane must show
the prompt, its options and the panel the decision is about, read from the
prompt's own words (`needed`): the islands to choose one or to act on one,
a mining site to mine or place galleries, the centre to enrich, the market
to deal, buy equipment or ship, Ana's board to trade or to pay with her
cubes. The game must reach the final ranking of three players within
`MOST_KEYS` keys. A prompt the table `NEEDS` does not know fails the test, so
a new kind of decision gets its panel named here.

Paying for a deal with a choice of cubes seldom comes in such play (the
seeded game has none); tests/tui/test_decision_page.py reaches it with
Pilot, and here it is checked whenever it comes.

The computers' search has a time cap, so on a loaded machine the game may
take another path; the test holds on any path. Skipped where tmux is missing,
except in CI (CI=true), where .ci/run installs it.
"""

from __future__ import annotations

import os
import random
import re
import shutil

import pytest

from tests.helpers.terminal import LAGOON, Tmux

PERSON = "Ana"
SEED = 11
MOST_KEYS = 600  # a whole game took Ana 47 to 104 keys (seeds 3, 5, 8, 11), 186 always taking option 1
FINAL = "Final ranking"
GAME_OVER = "The game is over: Enter for the scores"
"""The last board's line, after the game's last move."""
OPTION = re.compile(r"^(\d)\. (.*)$", re.M)
HEADING = re.compile(rf"^─+{PERSON} \[R\] · your move\b.*$", re.M)
UNDO = re.compile(r"^ (u: |No undo)", re.M)


def why_not() -> str | None:
    if shutil.which("tmux") is None:
        return "tmux is not installed"
    if not LAGOON.exists():
        return f"the lagoon command is not installed at {LAGOON}"
    return None


REASON = why_not()
if REASON and os.environ.get("CI"):
    raise RuntimeError(f"CI must run the solo game on a real terminal, but {REASON}")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=REASON or "")]


BOARD = "[─═━] " + re.escape(f"{PERSON} [R] (you)")
NEEDS = [
    # (the prompt's heading words, what the decision needs, that panel's title; {n}: the prompt's island)
    (r"Your turn is over", "its End turn", r"^\d\. End turn\b"),
    (r"choose your island|Where does your ship sail", "the islands", r"[─═━] (Island \d|\d+ · )"),
    (r"action \d of this turn|Buy an Artifact", "the ship's island", r"[─═━] (Island )?{n}\b"),
    (r"Assign miners", "the mining site", r"[─═━] (Mining site · island|Mines · island|Mines) {n}\b"),
    (r"galleries|Which gallery", "a mining site", r"[─═━] (Mining site|Mines)\b"),
    (r"Enrichment", "the centre", r"[─═━] Enrichment\b"),
    (r"deal|equipment|shipment", "the market", r"[─═━] Market\b"),
    (r"objectives|corporation|Trade|enriched cube|Sell a resource|money from the bank", "your board", BOARD),
]
"""Read in order, the first whose words are in the prompt (any case) tells what it needs."""


def needed(prompt: str, options: list[str]) -> tuple[str, re.Pattern[str]]:
    """What the decision `prompt` (its heading words as the screen shows them) needs on screen: its
    name and the title of its panel. Paying is told by the options, "Pay with 2' iron": Ana's board."""
    chosen = [option for option in options if option != "Back"]
    if chosen and all(option.startswith("Pay with") for option in chosen):
        return "your board, to pay", re.compile(BOARD)
    island = re.search(r"island (\d+)", prompt, re.I)
    for words, what, title in NEEDS:
        if re.search(words, prompt, re.I):
            return what, re.compile(title.format(n=island[1] if island else r"\d+"), re.M)
    pytest.fail(f"a decision this test does not know what it needs: {prompt!r}")


def decision(screen: str) -> tuple[str, list[tuple[str, str]]] | None:
    """Ana's decision on screen: its prompt (the lines under her "your move" heading, up to the
    undo line) and the options she may take (digit, text); None if the screen shows none."""
    heading = HEADING.search(screen)
    if heading is None:
        return None
    below = screen[heading.end() :]
    first = OPTION.search(below)
    if first is None:
        return None
    undo = UNDO.search(below, 0, first.start())
    prompt = " ".join(below[: undo.start() if undo else first.start()].split())
    found = list(OPTION.finditer(below))
    ends = [option.start() for option in found[1:]] + [len(below)]
    # (an option the rules refuse now is listed too, after the others, "— not now: <why>", which may wrap)
    options = [
        (option[1], option[2]) for option, end in zip(found, ends) if "not now:" not in below[option.start() : end]
    ]
    return prompt, options


def test_a_solo_game_at_80x24_shows_what_each_decision_needs_without_a_page_key():
    """Ana against an easy and a normal computer, to the final ranking, with digit keys only."""
    command = [str(LAGOON), "play", PERSON, "--vs", "easy,normal", "--pace", "0", "--seed", str(SEED)]
    command += ["--start", "1"]
    choose = random.Random(SEED)
    tmux = Tmux("solo", 80, 24, command)
    seen: dict[str, int] = {}
    keys = 0
    try:
        screen = tmux.settle(lambda t: FINAL in t or GAME_OVER in t or decision(t) is not None, "Ana's first decision")
        while FINAL not in screen:
            if GAME_OVER in screen:  # the last board stays until Enter brings the scores
                screen = tmux.press("Enter", screen, lambda t: FINAL in t, "the final ranking")
                break
            assert keys < MOST_KEYS, f"no end screen after {keys} keys:\n{screen}"
            found = decision(screen)
            assert found is not None, f"neither a decision of Ana's nor the end screen:\n{screen}"
            prompt, options = found
            what, title = needed(prompt, [text for _, text in options])
            assert title.search(screen), f"the decision {prompt!r} does not show {what}:\n{screen}"
            seen[what] = seen.get(what, 0) + 1
            digits = [digit for digit, text in options if text != "Back"] or [options[0][0]]
            tmux.send(choose.choice(digits))
            keys += 1
            screen = tmux.settle(
                lambda t: FINAL in t or GAME_OVER in t or decision(t) is not None, f"the move after {prompt!r}", screen
            )
        places = re.findall(r"\b(1st|2nd|3rd|4th) place\b", screen)
        assert places == ["1st", "2nd", "3rd"], f"the ranking does not list three players:\n{screen}"
        names = re.findall(r"\b(\w+) \[[A-Z]\]", screen.split(FINAL, 1)[1])
        assert PERSON in names and len(set(names)) == 3, f"the ranking does not name three players:\n{screen}"
    finally:
        tmux.kill()
    print(f"{keys} keys; decisions checked by what they need: {seen}")
    panels = {"the islands", "the mining site", "a mining site", "the centre", "the market", "your board"}
    assert len(panels & set(seen)) >= 4, f"the game came to too few kinds of decision: {seen}"
