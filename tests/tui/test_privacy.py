"""Hot-seat privacy: at no moment of a whole game does a seat see another seat's secrets.

Whole 2- and 4-player games at 160x50, and the first rounds of a 3-player game
at 80x24, are played through key presses (tests/tui/drive.py).
After every key press, and before the first, `Watch` looks at two texts:

- the frame on the terminal (the composed top screen), and
- the whole content of every widget of every screen in the stack, rendered
  at the widget's own width (a panel says things more briefly where room is
  scarce) and again wide enough that nothing wraps: the panels hidden in the
  compact layout, the lines scrolled out of view, and the screens under a
  dialog, since any of them is one key away from the screen. Not the board
  under a curtain: the one way past a curtain is Enter, which draws the board
  for the next player before the curtain goes (tested in test_redraw.py).

Toasts are widgets like any other (notifications are on, as in the real app),
and the players press `u` now and then, so the toasts that say what was taken
back are checked too; so are the app's and every screen's titles.

The seat at the keyboard is the one the driver handed it to by passing a
curtain; behind a curtain it is nobody, and so it is while a player makes an
open decision (choosing an island) on the board as everyone sees it. The secrets are worked out from the
engine's state, never from what the app shows:

- objective names: every objective ever offered to another seat;
- deals: every deal ever in another seat's hand and not closed (a closed deal
  is public), as the player board writes its requirements ("copper 1'+ and
  iron 3'+", or "copper 1' iron 3' → 5 VP" where room is scarce) and as the
  engine's options do ("1' copper + 3' iron for 5 VP");
- corporations offered to another seat and chosen by nobody;
- face-down galleries: a face-down tile's metal and cubes ("gold 3"), except
  to the seat that placed it, and the tiles another seat has drawn but not
  yet placed.

Matching is exact, so that public text cannot set it off: names as whole
words; a deal's requirements not as part of a longer deal's ("gold 2'+" is
not found in "copper 1'+ and gold 2'+"); gallery contents by where they may
be shown: on a mining site no more "gold 3"s (or "? empty"s) than the viewer
placed face down there; in the log no "X placed a gold 3 gallery face down"
or "X drew a gold 3 gallery" but by the viewer, and no removed gallery named
unless it was face up; anywhere else no metal-and-cubes of a secret tile at
all (the prompt may name the tiles its seat has just drawn). And to be sure
the matching sees anything at all, each game must also show the seat at the
keyboard its own objectives, its deals and its own face-down galleries; the
last tests check the patterns against the texts the app and the narration
write, and that they do not fire on look-alike public text.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from dataclasses import dataclass, field

import pytest

from lagoon_tui.app import LagoonApp
from lagoon_tui.screens.curtain import CurtainScreen, Meanwhile
from lagoon_tui.screens.end import EndScreen
from lagoon_tui.settings import GameSettings
from lagoon_tui.widgets import LogPanel, MiningSitePanel
from lagoon_tui.widgets.mining_site import FACE_DOWN
from lagoon_tui.widgets.words import deal_needs
from rules import Engine, load_content
from rules import events as ev
from rules.actions.deals import deal_label
from rules.cards import Deal
from rules.narrate import narrate
from rules.state import GameState
from rules.view import redact

from .drive import Run, Seen, game_screen, play_game, screen_text, start, widget_texts

NAMES = ("Ana", "Ben", "Cleo", "Dev")
COLOURS = ("red", "yellow", "green", "blue")

GAMES = [
    pytest.param(2, 21, (160, 50), id="2-players", marks=pytest.mark.slow),
    pytest.param(4, 22, (160, 50), id="4-players", marks=pytest.mark.slow),
]


UNDO = 0.15
"""How often the players press `u` where undo is possible: its toast says in words what was taken back."""


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


def deal_patterns(deal) -> list[Phrase]:
    """A deal as the player board shows it (in full, or short where room is scarce) and as the engine's
    options name it; never as part of another deal."""
    needs = deal_needs(deal.requires)  # "copper 1'+ and iron 3'+"
    short = " ".join(f"{metal} {level}'" for metal, level in deal.requires.items())  # "copper 1' iron 3'"
    label = deal_label(deal)  # "1' copper + 3' iron for 5 VP"
    return [
        Phrase(needs, r"(?<![\w'+])(?<!and )", r"(?! and)(?![\w'])"),
        Phrase(f"{short} → {deal.vp} VP", r"(?<![\w'])(?<!' )", r"(?![\w])"),
        Phrase(label, r"(?<![\w'])(?<!\+ )", r"(?![\w])"),
    ]


def tile_text(content, tile: str) -> str | None:
    """A gallery tile as the app names it ("gold 3"); None for an empty tile."""
    t = content.gallery(tile)
    return f"{t.metal} {t.cubes}" if t.metal else None


def tile_pattern(text: str) -> Phrase:
    """ "gold 3", but not "gold 3'" (an enriched level) nor "gold 30"."""
    return Phrase(text, r"(?<![\w'])", r"(?![\w'’])")


def flat(text: str) -> str:
    """Lines joined, runs of spaces made one: a phrase wrapped over two lines is whole again."""
    return " ".join(text.split())


EMPTY_FACE_DOWN = Phrase(f"{FACE_DOWN} empty", "", r"(?![\w])")
"""An empty tile named as the content of a face-down slot ("? empty"; a face-up empty slot reads just "empty")."""

WHO = r"(?P<who>[^\s.,(]+)(?: \[[A-Z]\])?"
PLACED_DOWN = re.compile(WHO + r" placed (?:an? (?P<tile>\w+ \d+)|an empty) gallery face down")
DREW = re.compile(WHO + r" drew (?:an? \w+ \d+|an empty) gallery")
REMOVED = re.compile(
    r"\bAn? (?P<tile>\w+ \d+) gallery at island (?P<island>\d+), column (?P<column>\d+), "
    r"level (?P<level>\d+) (?:is exhausted|was pushed off|was demolished)"
)


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
        if isinstance(self.app.screen, EndScreen):
            return  # the game is over: every hand is shown
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
                if seen.where.endswith("#prompt-head") and "u: undo (" in text:
                    # the undo note is a sentence of the seat's log: held to the log's rules
                    text, note = text.split("u: undo (", 1)
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


@pytest.mark.parametrize("players, seed, size", GAMES)
async def test_no_seat_ever_sees_another_seats_secrets(players, seed, size):
    """A whole game on a big terminal, where the whole board is on screen at once."""
    app = LagoonApp(settings=GameSettings(NAMES[:players], COLOURS[:players], seed, 0))
    watch = Watch(app)
    async with app.run_test(size=size, notifications=True) as pilot:
        run = await start(pilot)
        watch.run = run
        watch("")
        engine = await play_game(pilot, seed, run=run, after_key=watch, undo=UNDO)
        assert isinstance(app.screen, EndScreen)
    assert engine.state.phase == "over"
    assert watch.calls == run.keys + 1 and watch.checks == run.keys  # the last key brought the end screen
    check_the_matching_saw_something(watch, engine)


@pytest.mark.slow
async def test_no_seat_sees_another_seats_secrets_in_the_compact_layout():
    """The first rounds at 80x24, where panels say things more briefly and most are off screen."""
    app = LagoonApp(settings=GameSettings(NAMES[:3], COLOURS[:3], 23, 1))
    watch = Watch(app)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        run = await start(pilot)
        watch.run = run
        watch("")
        engine = await play_game(
            pilot, 23, run=run, after_key=watch, until=lambda r: r.engine.state.round > 3, undo=UNDO
        )
    assert watch.checks == run.keys + 1
    check_the_matching_saw_something(watch, engine)


def check_the_matching_saw_something(watch: Watch, engine) -> None:
    """The seats at the keyboard were shown their own secrets and the matching found them,
    so it would have found another seat's."""
    assert watch.own_seen["objective"] > 0
    assert watch.own_seen["undo toast"] > 0  # the players took moves back, and the toasts were looked at
    if any(watch.deals.values()):
        assert watch.own_seen["deal"] > 0
    placed_down = [e for e in engine.events if isinstance(e, ev.GalleryPlaced) and not e.face_up and e.seat is not None]
    if placed_down:
        assert watch.own_seen["face-down gallery"] > 0


# -- the matching itself: exact, and in step with what the app writes ------------------------------


def test_a_deal_is_not_found_inside_a_longer_deal():
    short, long = Deal("a", {"gold": 2}, 3), Deal("b", {"copper": 1, "gold": 2}, 3)
    board = "Deals in hand (1):\n  • copper 1'+ and gold 2'+ → 3 VP"
    option = "1. Close deal: 1' copper + 2' gold for 3 VP"
    for text in (board, option):
        assert not any(p.search(text) for p in deal_patterns(short))
        assert any(p.search(text) for p in deal_patterns(long))
    assert any(p.search("  • gold 2'+ → 3 VP") for p in deal_patterns(short))
    assert any(p.search("2. Discard deal 2' gold for 3 VP for $2") for p in deal_patterns(short))
    # the board's short form, where room is scarce
    assert any(p.search("• copper 1' gold 2' → 3 VP") for p in deal_patterns(long))
    assert not any(p.search("• copper 1' gold 2' → 3 VP") for p in deal_patterns(short))
    assert any(p.search("• gold 2' → 3 VP") for p in deal_patterns(short))
    # the log says what was paid for a closed deal in other words
    assert not any(p.search("Ana [R] closed a deal worth 3 VP, paying 2' gold.") for p in deal_patterns(short))


def test_a_gallery_content_is_not_found_in_an_enriched_level_or_a_bigger_number():
    pattern = tile_pattern("gold 3")
    assert pattern.search(f"L1 {FACE_DOWN} gold 3 (yours)")
    assert not pattern.search("• gold 3'+ → 4 VP")
    assert not pattern.search("gold 30")
    assert not pattern.search("gold ●●○")  # a face-up gallery with its cubes
    assert EMPTY_FACE_DOWN.search(f"L1 {FACE_DOWN} empty (yours)")
    assert not EMPTY_FACE_DOWN.search("L1 empty")


def test_the_log_patterns_match_the_narration_exactly_when_it_tells_a_secret():
    """The patterns follow rules.narrate: they find the sentence with the tile and not the redacted one."""
    engine = Engine.new(load_content(), ["Ana", "Ben"], seed=1, start_player=0)
    state, tile = engine.state, "gold_3#1"
    placed = ev.GalleryPlaced(1, tile, 1, 0, False, 0)
    told = narrate(placed, state)
    assert (m := PLACED_DOWN.search(told)) and m["who"] == "Ben" and m["tile"] == "gold 3"
    assert PLACED_DOWN.search(told.replace("Ben", "Ben [Y]", 1))["who"] == "Ben"  # as the log panel writes it
    assert not PLACED_DOWN.search(narrate(redact(placed, 0), state))
    assert not PLACED_DOWN.search(narrate(dataclasses.replace(placed, face_up=True), state))

    drawn = ev.GalleriesDrawn(1, (tile, "iron_2#1"))
    assert (m := DREW.search(narrate(drawn, state))) and m["who"] == "Ben"
    assert not DREW.search(narrate(redact(drawn, 0), state))

    removed = ev.GalleryRemoved(1, 2, 2, tile, 0, "pushed_off", False)
    assert REMOVED.search(narrate(removed, state))
    assert not REMOVED.search(narrate(redact(removed, 0), state))
