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
`MOST_KEYS` keys.

The computers' search has a time cap, so on a loaded machine the game may
take another path; the test holds on any path. Skipped where tmux is missing,
except in CI (CI=true), where .ci/run installs it.
"""

from __future__ import annotations

import os
import random
import re
import shutil
from collections.abc import Callable

import pytest

from tests.helpers.terminal import LAGOON, Tmux

PERSON = "Ana"
SEED = 11
MOST_KEYS = 600  # a whole game takes about 200 of Ana's decisions
FINAL = "Final ranking"
OPTION = re.compile(r"^(\d)\. (.*)$", re.M)
HEADING = re.compile(rf"^─+{PERSON} \[R\] · your move\b.*$", re.M)
UNDO = re.compile(r"^ (u: undo|No undo)", re.M)
ISLAND = re.compile(r"[Ii]sland (\d+)")


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


def any_of(*titles: str) -> Callable[[str], bool]:
    return lambda screen: any(title in screen for title in titles)


def needed(prompt: str, options: list[str]) -> tuple[str, Callable[[str], bool]]:
    """What the decision `prompt` (its heading words as the screen shows them) needs on screen:
    (its name, a test of the screen). Paying is told by its options, "Pay with 2' iron"."""
    island = ISLAND.search(prompt)
    here = island[1] if island else ""
    chosen = [option for option in options if option != "Back"]
    if chosen and all(option.startswith("Pay with") for option in chosen):
        return "your board, to pay", any_of(f"{PERSON} [R] (you)")
    if "choose your island" in prompt or "Where does your ship sail?" in prompt:
        return "the islands", any_of("─ Island ", "═ Island ")
    if re.search(r"action \d+ of this turn|Buy an Artifact", prompt):
        return f"island {here}", any_of(f"Island {here} ·")
    if "Assign miners" in prompt:
        return f"the mining site of island {here}", any_of(f"Mining site · island {here}")
    if re.search(r"[Gg]alleries|Which gallery", prompt):
        return "a mining site", any_of("Mining site · island")
    if re.search(r"Enrichment Transaction|Enrichment Center moves up", prompt):
        return "the centre", any_of("Enrichment Center")
    if re.search(r"Draw or Close a Deal|deal|Buy an Equipment|equipment do you buy|shipment", prompt):
        return "the market", any_of("─ Market ")
    if re.search(r"objectives|corporation|Trade|enriched cube|Sell a resource|money from the bank", prompt):
        return "your board", any_of(f"{PERSON} [R] (you)")
    pytest.fail(f"a decision this test does not know what it needs: {prompt!r}")


def decision(screen: str) -> tuple[str, list[tuple[str, str]]] | None:
    """Ana's decision on screen: its prompt (the lines under her "your move" heading, up to the
    undo line) and its options (digit, text); None if the screen shows none."""
    heading = HEADING.search(screen)
    if heading is None:
        return None
    below = screen[heading.end() :]
    undo = UNDO.search(below)
    options = OPTION.findall(below)
    if undo is None or not options:
        return None
    prompt = " ".join(below[: undo.start()].split())
    return prompt, options


def test_a_solo_game_at_80x24_shows_what_each_decision_needs_without_a_page_key():
    command = [str(LAGOON), "play", PERSON, "--vs", "easy,normal", "--pace", "0", "--seed", str(SEED)]
    command += ["--start", "1"]
    choose = random.Random(SEED)
    tmux = Tmux("solo", 80, 24, command)
    seen: dict[str, int] = {}
    keys = 0
    try:
        screen = tmux.settle(lambda t: FINAL in t or decision(t) is not None, "Ana's first decision")
        while FINAL not in screen:
            assert keys < MOST_KEYS, f"no end screen after {keys} keys:\n{screen}"
            found = decision(screen)
            assert found is not None, f"neither a decision of Ana's nor the end screen:\n{screen}"
            prompt, options = found
            what, shows = needed(prompt, [text for _, text in options])
            assert shows(screen), f"the decision {prompt!r} does not show {what}:\n{screen}"
            kind = re.sub(r" \d+", "", what)  # "island 2" counts as "island"
            seen[kind] = seen.get(kind, 0) + 1
            digits = [digit for digit, text in options if text != "Back"] or [options[0][0]]
            tmux.send(choose.choice(digits))
            keys += 1
            screen = tmux.settle(lambda t: FINAL in t or decision(t) is not None, f"the move after {prompt!r}", screen)
        places = re.findall(r"\b(1st|2nd|3rd|4th) place\b", screen)
        assert places == ["1st", "2nd", "3rd"], f"the ranking does not list three players:\n{screen}"
        names = re.findall(r"\b(\w+) \[[A-Z]\]", screen.split(FINAL, 1)[1])
        assert PERSON in names and len(set(names)) == 3, f"the ranking does not name three players:\n{screen}"
    finally:
        tmux.kill()
    print(f"{keys} keys; decisions checked by what they need: {seen}")
    pages = {"the islands", "the mining site of island", "a mining site", "the centre", "the market", "your board"}
    assert len(pages & set(seen)) >= 4, f"the game came to too few kinds of decision: {seen}"
