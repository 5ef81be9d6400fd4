"""Watching every frame of a game for the secrets of any seat: names, colours and deal patterns."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

import pytest

from lagoon_tui.app import LagoonApp
from lagoon_tui.screens.curtain import CurtainScreen, Meanwhile
from lagoon_tui.screens.end import EndScreen
from lagoon_tui.widgets import LogPanel, MiningSitePanel
from lagoon_tui.widgets.mining_site import FACE_DOWN
from lagoon_tui.widgets.words import deal_needs
from rules import events as ev
from rules.actions.deals import deal_label
from rules.state import GameState
from tests.helpers.drive import Run, Seen, game_screen, screen_text, widget_texts
from tests.helpers.terminal import flat

NAMES = ("Ana", "Ben", "Cleo", "Dev")


COLOURS = ("red", "yellow", "green", "blue")


def deal_patterns(deal) -> list[Phrase]:
    """A deal as the player board shows it (one form at every width, wrapped where room is scarce) and
    as the engine's options name it; never as part of another deal."""
    # With its VP: a deal wrapped in a narrow panel may begin a line of the frame with the end of its
    # terms ("silver 1'+ → 6 VP"), which another deal's terms alone ("silver 1'+") would match.
    board = f"{deal_needs(deal.requires)} → {deal.vp} VP"  # "copper 1'+, iron 3'+ → 4 VP"
    label = deal_label(deal)  # "1' copper + 3' iron for 5 VP"
    return [
        Phrase(board, r"(?<![\w'+])(?<!, )", r"(?![\w])"),
        Phrase(label, r"(?<![\w'])(?<!\+ )", r"(?![\w])"),
    ]


@dataclass
class Watch:
    """Checks the screen after every key press; remembers what each seat was ever dealt."""

    app: LagoonApp
    run: Run | None = None
    calls: int = 0  # screens looked at: one before the first key, then one after every key
    checks: int = 0  # of which during the game (the end screen shows every hand)
    own_seen: Counter = field(default_factory=Counter)  # evidence that the matching sees the viewer's own secrets
    objectives: dict[int, set[str]] = field(default_factory=dict)  # seat -> objective ids ever offered
    deals: dict[int, set[str]] = field(default_factory=dict)  # seat -> deal ids ever in hand
    corporations: dict[int, set[str]] = field(default_factory=dict)  # seat -> corporation ids offered

    @property
    def state(self) -> GameState:
        return self.run.engine.state

    def remember(self) -> None:
        for p in self.state.players:
            self.objectives.setdefault(p.seat, set()).update(p.objective_offer, p.objectives)
            self.deals.setdefault(p.seat, set()).update(p.deals)
            self.corporations.setdefault(p.seat, set()).update(p.corporation_offer)

    def viewer(self) -> int | None:
        """The seat at the keyboard: the one the driver passed the last curtain for; nobody behind one."""
        if isinstance(self.app.screen, CurtainScreen):
            return None
        seat = self.run.keyboard
        game = game_screen(self.app)
        assert game.at_keyboard == seat, "the game screen and the driver disagree on who plays"
        return None if game.veiled else seat  # veiled: the board as everyone sees it, for anyone to see

    # -- the secrets -----------------------------------------------------------------------

    def secret_patterns(self, viewer: int | None) -> list[tuple[str, Phrase]]:
        """(what, pattern) for every card secret from `viewer` now."""
        content, state = self.run.engine.content, self.state
        closed = {d for p in state.players for d in p.deals_closed}
        chosen = {p.corporation for p in state.players if p.corporation}
        own_objectives = self.objectives.get(viewer, set())
        own_deals = self.deals.get(viewer, set())
        out = []
        for seat in range(state.seats):
            if seat == viewer:
                continue
            who = state.players[seat].name
            for o in sorted(self.objectives[seat] - own_objectives):
                name = content.objectives[o].name
                out.append((f"{who}'s objective {name!r}", words(name)))
            for d in sorted(self.deals[seat] - closed - own_deals):
                for pattern in deal_patterns(content.deals[d]):
                    out.append((f"{who}'s deal {d}", pattern))
            for c in sorted(self.corporations[seat] - chosen):
                name = content.corporations[c].name
                out.append((f"{who}'s corporation offer {name!r}", words(name)))
        return out

    def own_patterns(self, viewer: int) -> list[tuple[str, Phrase]]:
        content, p = self.run.engine.content, self.state.players[viewer]
        out = [("objective", words(content.objectives[o].name)) for o in p.objectives or p.objective_offer]
        out += [("deal", pattern) for d in p.deals for pattern in deal_patterns(content.deals[d])]
        return out

    def face_down(self):
        """(island, column, level, tile, placed_by) of every face-down gallery with a tile."""
        for island, site in self.state.sites.items():
            for column, pair in enumerate(site.columns):
                for level, g in enumerate(pair, start=1):
                    if g is not None and not g.face_up and g.tile:
                        yield island, column, level, g.tile, g.placed_by

    # -- the check -----------------------------------------------------------------------------

    def __call__(self, key: str) -> None:
        self.calls += 1
        if isinstance(self.app.screen, EndScreen) or self.state.phase == "over":
            return  # the game is over: every hand is shown (on its last board, then the end screen)
        self.check(self.viewer(), f"after key {key!r}")

    def check(self, viewer: int | None, when: str, *, frame_too: bool = True) -> None:
        """Nothing secret from `viewer` (None: from everyone) in any widget, title or (`frame_too`) the frame."""
        self.checks += 1
        self.remember()
        frame = screen_text(self.app) if frame_too else ""
        seen = widget_texts(self.app)
        where = f"{when} (check {self.checks}), seat at the keyboard: {viewer}"

        def fail(what: str, place: str, text: str, match: re.Match) -> None:
            start, end = max(0, match.start() - 80), match.end() + 80
            pytest.fail(f"{what} visible {where}, in {place}: …{text[start:end]}…")

        # names and deals: in every line of the frame, in every widget's text (toasts too), wrapped
        # lines joined, and in every title the app or a screen has
        titles = [
            self.app.title,
            self.app.sub_title,
            *(t for s in self.app.screen_stack for t in (s.title, s.sub_title)),
        ]
        texts = [("the frame on screen", frame), ("the titles", " | ".join(t or "" for t in titles))]
        for s in seen:
            texts += [(s.where, flat(s.shown)), (f"{s.where} (unwrapped)", flat(s.wide))]
        for what, pattern in self.secret_patterns(viewer):
            for place, text in texts:
                if m := pattern.search(text):
                    fail(what, place, text, m)
        self.check_galleries(viewer, frame, seen, fail)
        if any("Took back:" in s.shown for s in seen):
            self.own_seen["undo toast"] += 1
        if viewer is not None:
            for kind, pattern in self.own_patterns(viewer):
                if any(pattern.search(text) for _, text in texts):
                    self.own_seen[kind] += 1

    def check_galleries(self, viewer: int | None, frame: str, texts: list[Seen], fail) -> None:
        content, state = self.run.engine.content, self.state
        names = [p.name for p in state.players]
        me = names[viewer] if viewer is not None else None
        # tiles whose content the viewer must not learn, and what the viewer placed face down itself
        secret: Counter = Counter()
        mine_by_island: dict[int, Counter] = {}
        for island, _, _, tile, placed_by in self.face_down():
            name = tile_text(content, tile) or "empty"
            if viewer is not None and placed_by == viewer:
                mine_by_island.setdefault(island, Counter())[name] += 1
            else:
                secret[name] += 1
        drawn_mine = state.step is not None and state.step.seat == viewer and viewer is not None
        drawn = Counter(tile_text(content, t) or "empty" for t in state.drawn_galleries)
        if not drawn_mine:
            secret.update(drawn)
        face_up_removed = {
            (e.island, e.column + 1, e.level, tile_text(content, e.tile))
            for e in self.run.engine.events
            if isinstance(e, ev.GalleryRemoved) and e.face_up
        }

        def log_rules(place: str, text: str) -> None:
            for pattern in (PLACED_DOWN, DREW):
                for m in pattern.finditer(text):
                    if m["who"] != me:
                        fail("a face-down or drawn gallery of another", place, text, m)
            for m in REMOVED.finditer(text):
                key = (int(m["island"]), int(m["column"]), int(m["level"]), m["tile"])
                if key not in face_up_removed:
                    fail("a face-down gallery's content (removed)", place, text, m)

        for line in frame.splitlines():
            log_rules("the frame on screen", line)
        for seen in texts:
            if isinstance(seen.widget, (LogPanel, Meanwhile)):  # the log, and the curtain's sentences from it
                log_rules(seen.where, flat(seen.shown))  # a sentence may wrap
                continue
            for text in (seen.shown, seen.wide):  # line by line: "gold   3" in a grid is not "gold 3"
                if seen.where.endswith("#prompt-head") and "u: Take back: " in text:
                    # the undo note is a sentence of the seat's log: held to the log's rules
                    text, note = text.split("u: Take back: ", 1)
                    log_rules(seen.where, flat(note))
                if isinstance(seen.widget, MiningSitePanel):
                    mine = mine_by_island.get(seen.widget.island, Counter())
                    for name in set(secret) | set(mine):
                        pattern = EMPTY_FACE_DOWN if name == "empty" else tile_pattern(name)
                        found = pattern.finditer(text)
                        if len(found) > mine[name]:
                            fail(f"a face-down {name} gallery's content", seen.where, text, found[0])
                        if found and mine[name]:
                            self.own_seen["face-down gallery"] += 1
                    continue
                prompt = seen.where.endswith(("#prompt-head", "#options"))
                for name in secret:
                    if name == "empty" or (prompt and drawn_mine and name in drawn):
                        continue
                    if m := tile_pattern(name).search(text):
                        fail(f"a face-down or drawn {name} gallery's content", seen.where, text, m)


class Phrase:
    """A phrase to find exactly: `pattern`, which matches only where the plain `text` occurs.

    Looking for the plain text first (a fast substring search) spares the
    regular expression most texts: a game is checked thousands of times.
    """

    def __init__(self, text: str, before: str, after: str):
        self.text = text
        self.pattern = re.compile(before + re.escape(text) + after)

    def search(self, text: str) -> re.Match | None:
        return self.pattern.search(text) if self.text in text else None

    def finditer(self, text: str) -> list[re.Match]:
        return list(self.pattern.finditer(text)) if self.text in text else []


def words(text: str) -> Phrase:
    """`text` as a whole: not inside a longer word."""
    return Phrase(text, r"(?<![\w])", r"(?![\w])")


def tile_text(content, tile: str) -> str | None:
    """A gallery tile as the app names it ("gold 3"); None for an empty tile."""
    t = content.gallery(tile)
    return f"{t.metal} {t.cubes}" if t.metal else None


def tile_pattern(text: str) -> Phrase:
    """ "gold 3", but not "gold 3'" (an enriched level) nor "gold 30"."""
    return Phrase(text, r"(?<![\w'])", r"(?![\w'’])")


EMPTY_FACE_DOWN = Phrase(f"{FACE_DOWN} empty", "", r"(?![\w])")
"""An empty tile named as the content of a face-down slot ("? empty"; a face-up empty slot reads just "empty")."""


WHO = r"(?P<who>[^\s.,(]+)(?: \[[A-Z]\])?"


PLACED_DOWN = re.compile(WHO + r" placed (?:an? (?P<tile>\w+ \d+)|an empty) gallery face down")


DREW = re.compile(WHO + r" drew (?:an? \w+ \d+|an empty) gallery")


REMOVED = re.compile(
    r"\bAn? (?P<tile>\w+ \d+) gallery at island (?P<island>\d+), column (?P<column>\d+), "
    r"level (?P<level>\d+) (?:is exhausted|was pushed off|was demolished)"
)
