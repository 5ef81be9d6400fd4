"""Colour depths in a real terminal: 16 colours, 256 colours, truecolor, NO_COLOR, and a forced depth.

Textual (through Rich) picks its colours from the environment: COLORTERM=truecolor
or 24bit means RGB; otherwise the end of TERM (xterm-256color: 256 colours;
xterm, linux: the 16 standard colours); TEXTUAL_COLOR_SYSTEM overrides both,
and NO_COLOR turns everything grey. Each case runs `lagoon play` in a tmux
pane (80×24, the compact layout) with that environment, plays the seeded
opening to the first action prompt, pages through every panel, and checks
with `capture-pane -e` that:

- the escape sequences match the depth: no 256-colour or RGB sequence in a
  16-colour terminal, no RGB in a 256-colour one, RGB in truecolor, nothing
  but greys under NO_COLOR;
- each player is named with a letter, "Ana [R]" and "Ben [Y]", in the text
  without escapes, so colour is never the only cue;
- in 16 colours the tags are in the player's own colour (red 31/91, yellow
  33/93) and elsewhere the two tags at least differ in colour.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass

import pytest

from rules import load_content
from tests.helpers.sgr import Colour, colour_of, kinds
from tests.helpers.terminal import LAGOON, Tmux, flat, lagoon_play, opening, panel_pages, play_opening

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
    pytest.mark.skipif(not LAGOON.exists(), reason=f"the lagoon command is not installed at {LAGOON}"),
]

SEED = 5
TAGS = {"Ana [R]": {(31,), (91,)}, "Ben [Y]": {(33,), (93,)}}
"""Each player's tag and the 16-colour codes of their colour (red, yellow; plain or bright)."""


@dataclass(frozen=True)
class Depth:
    """A terminal environment and the kinds of colour sequence the app must (and must not) send in it."""

    env: dict[str, str]
    uses: str  # the kind of colour that must appear: "basic", "256" or "rgb"
    never: tuple[str, ...] = ()  # kinds that must not appear
    grey: bool = False  # NO_COLOR: every RGB colour is a grey


DEPTHS = {
    "16-xterm": Depth({"TERM": "xterm"}, "basic", never=("256", "rgb")),
    "16-linux": Depth({"TERM": "linux"}, "basic", never=("256", "rgb")),
    "256": Depth({"TERM": "xterm-256color"}, "256", never=("rgb",)),
    "truecolor": Depth({"TERM": "xterm-256color", "COLORTERM": "truecolor"}, "rgb", never=("256",)),
    "forced-16": Depth(
        {"TERM": "xterm-256color", "COLORTERM": "truecolor", "TEXTUAL_COLOR_SYSTEM": "standard"},
        "basic",
        never=("256", "rgb"),
    ),
    "no-color": Depth(
        {"TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1"}, "rgb", never=("256",), grey=True
    ),
}


@pytest.fixture(scope="module")
def content():
    return load_content()


def is_grey(codes: Colour) -> bool:
    """An RGB colour (38;2 or 48;2) whose red, green and blue are equal."""
    return len(set(codes[2:])) == 1


@pytest.mark.parametrize("name", DEPTHS)
def test_colour_depth(content, name):
    depth = DEPTHS[name]
    game = opening(content, SEED)
    tmux = Tmux(f"colours-{name}", 80, 24, lagoon_play(SEED), pane_env=depth.env)
    try:
        screen = play_opening(tmux, game)
        pages = panel_pages(tmux, screen, game.first_action[1])
        assert tmux.quit() == 0, f"ctrl+q did not end the app with status 0:\n{tmux.capture()}"
    finally:
        tmux.kill()

    text = flat("\n".join(plain for plain, _ in pages))
    escaped = "\n".join(with_escapes for _, with_escapes in pages)
    used = kinds(escaped)
    assert used[depth.uses], f"{name}: no {depth.uses} colour sequence in:\n{escaped!r}"
    for kind in depth.never:
        assert not used[kind], f"{name}: {kind} colour sequences {sorted(used[kind])[:5]} in this terminal"
    if depth.grey:
        assert all(is_grey(codes) for codes in used["rgb"]), f"colours under NO_COLOR: {sorted(used['rgb'])}"

    for tag in TAGS:
        assert tag in text, f"{tag!r} is not on any panel:\n{text}"
    shown = {tag: colour_of(escaped, tag) for tag in TAGS}
    if depth.uses == "basic":  # the terminal's own red and yellow
        for tag, codes in TAGS.items():
            assert shown[tag] and shown[tag] <= codes, f"{tag} is drawn in {shown[tag]}, not in {codes}"
    elif not depth.grey:
        ana, ben = shown.values()
        assert ana and ben and ana.isdisjoint(ben) and () not in ana | ben, (
            f"the players' tags are not told apart by colour: {shown}"
        )
