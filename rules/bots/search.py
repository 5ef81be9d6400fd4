"""The hard computer player: it plays its best options out in sampled games before choosing.

At the decisions that shape a game (the island, each action) `SearchPlayer`
asks the heuristic `Bot` what every option is worth, keeps the few it values
most and the one the Bot would take, and plays each of them out in several
*worlds*: games dealt from the seat's own message with every card it cannot
see shuffled among the blanks (`worlds.py`), but for the other players'
objectives and deals, drawn from its reading of what each of them did
(`reading.py`). Every seat of a world, its own included, is played by the
heuristic Bot (the seat's first steps by the plan of the option tried) to
the end of the round, or of `horizon` rounds more (by default one more at
three and four players: `HORIZON`), and the option is scored by the seat's
margin over the best other player in the VP each may expect at the end of
the game (`forecast.py`: VP scored, and what the goods held and the
objectives are worth at that round), plus a bonus for winning times a chance
of winning read from that margin (at the end of the game: the bonus itself,
if the seat won).

Every option meets the same worlds (common random numbers), so what differs
between their scores is mostly the option itself. Rollouts are cut short
because a game played on to its end hangs more and more on later luck: the
scores of two options in the same world then differ by about 10 VP either
way, against 2 VP at the end of the round, so some 25 times as many worlds
would be needed to tell the same options apart (and each costs five times
as much). This is determinized ("perfect information") Monte Carlo with a
heuristic rollout policy, flat at the root.

After choosing an action it plays its steps (the cubes to pay, the miners to
send...) by the Bot's plan for that action, and every other decision (the
setup too) as the Bot would. Its random numbers come from its seed and the
message it decides on, so a seat's choice is a function of its seed, its
message and what it was shown at each decision before (its own and the
others', handed over by `recall`), and it never reads anything else of the
game.

The budget is a number of rollouts, so a seed gives the same game on any
machine; a time cap is only a safety net: if it is reached before every
option has met `min_worlds` worlds, the player takes the Bot's move.
"""

from __future__ import annotations

import json
import math
import random
import time
from typing import NamedTuple

from rules import Content, GameState, Rejection, View
from rules.seat import Choice, SeatScene, Turn

from .forecast import forecast
from .heuristic import WORTH_A_WORKER, Bot, whole_state_choice
from .outlook import Outlook
from .plans import PASS, Want
from .reading import Reading
from .worlds import World, Worlds, engine_on

WIN_BONUS = 6.0
"""What winning a played-out game adds to its score, in VP (the score is otherwise the VP margin)."""

SEARCHED = ("choose_island", "choose_action")
"""The decisions searched; the steps of an action follow the chosen action's plan, and the setup
(objectives, corporation) is the Bot's: a round played out says little about what pays at the end."""

ROLLOUTS = {2: 120, 3: 80, 4: 60}
"""The default budget, rollouts per decision by player count: a median searched decision of about
a third of a second at two players and a second at four (one round more played out) on a 2-core
machine of 2026 (docs/performance.md, "Computer players")."""

HORIZON = {2: 0, 3: 1, 4: 1}
"""The default rounds played out after the current one, by player count. At four players, one
more wins more games (docs/performance.md, "Computer players"): the others' moves in the round
after matter, and the reading predicts them well enough to be worth playing. At two players the
player reaches its target playing to the end of the round, twice as fast; three players are
taken as four (not measured)."""

REFUSED = -1000.0
"""The score of an option a world refused: far below any game's."""

UNCERTAIN_MARGIN = 4.0
"""How many VP a forecast margin is typically off by: it sets the chance of winning read from it."""

LONGEST_GAME = 5000
"""Decisions a played-out game may take before it is scored as it stands (a safety net)."""


class Candidate(NamedTuple):
    """An option to play out: its id, what the Bot values it at, and the plan for its steps."""

    id: str
    value: float
    plan: tuple[Want, ...]


class Searched(NamedTuple):
    """What the last search did: its options' mean scores, worlds played, and whether it ran out of time."""

    kind: str
    means: dict[str, float]
    worlds: int
    rollouts: int
    fell_back: bool


class SearchPlayer:
    """A computer player for one seat that searches at the decisions in `SEARCHED`.

    `rollouts`: games played out per decision, shared among the options (at
    least `min_worlds` worlds each); `candidates`: the options kept by the
    Bot's valuation (its own choice is always one more); `time_cap`: seconds a
    decision may take before the player settles for what it has, or for the
    Bot's move; `prefer`: how many VP an option must beat the Bot's choice by; `horizon`: rounds
    played out after the current one (None: `HORIZON`'s, by player count); `guesses` and `sets`:
    the reading's guesses at each other hand and the most sets of objectives it weighs (None:
    `reading.GUESSES` and `reading.SETS_MOST`).
    """

    def __init__(
        self,
        content: Content,
        seat: int,
        seed: int = 0,
        rollouts: int | None = None,
        candidates: int = 3,
        time_cap: float = 3.0,
        min_worlds: int = 3,
        prefer: float = 0.0,
        horizon: int | None = None,
        searched: tuple[str, ...] = SEARCHED,
        guesses: int | None = None,
        sets: int | None = None,
    ) -> None:
        self.content, self.seat, self.seed = content, seat, seed
        self.bot = Bot(content, seat, seed=seed)
        self.worlds = Worlds(content, seat)
        self.reading = Reading(content, seat, self.worlds, seed, guesses, sets)
        self.rollouts = rollouts
        self.candidates = candidates
        self.time_cap, self.min_worlds, self.prefer, self.horizon = time_cap, min_worlds, prefer, horizon
        self.searched = searched
        self.last: Searched | None = None
        self.stopped = False  # `stop()` was called: no more searching

    def stop(self) -> None:
        """Search no more, and end a search under way at its next world (it may run in another
        thread): the player's moves are then the Bot's. For a game being left, so nobody waits."""
        self.stopped = True

    def recall(self, seen: View, turn: Turn) -> None:
        """Take in the seat's view at a decision of the game, its own or another's (in the game's
        order: `rules.seat.Witness`): it remembers the cards it was shown, and reads what the others
        kept from what they did (`reading.py`)."""
        self.worlds.observe(seen)
        self.reading.see(seen, turn)

    def choose(self, scene: SeatScene) -> str:
        """The id of one of the options of `scene`, the message of this seat while it decides."""
        if scene.seat != self.seat or scene.prompt is None:
            raise ValueError(f"seat {self.seat} is not deciding in this message ({scene.turn.says})")
        self.recall(scene.view, scene.turn)
        self.last = None
        kind = scene.prompt.kind
        normal = self.bot.choose(scene)  # the Bot's move, and its plan for the action's steps
        if kind not in self.searched:
            return normal
        options = self.ranked(scene, normal)
        if len(options) < 2:
            return normal
        chosen = self.search(scene, options)
        if chosen.id != normal:
            self.bot.plan = list(chosen.plan)
            self.bot.started = (scene.view["round"], chosen.id)
        return chosen.id

    # --- the options worth playing out -------------------------------------------------

    def ranked(self, scene: SeatScene, normal: str) -> list[Candidate]:
        """The Bot's choice first, then the options it values most, up to `candidates` more."""
        bot, kind, options = self.bot, scene.prompt.kind, scene.prompt.options  # type: ignore[union-attr]  # (asked while deciding)
        if kind == "choose_action":
            outlook = bot.outlook(scene)
            worths = [self.action_worth(outlook, option, normal) for option in options]
            valued = [c for c in worths if c is not None]
        elif kind == "choose_island":
            outlook = bot.outlook(scene)
            valued = [Candidate(c.id, outlook.island_worth(c.refers.island), ()) for c in options]  # type: ignore[arg-type]  # (an island's option names it)
        else:  # the setup: the Bot's order of preference is all it has to say
            valued = [Candidate(c.id, 1.0 if c.id == normal else 0.0, ()) for c in options]
        valued.sort(key=lambda c: -c.value)
        first = next((c for c in valued if c.id == normal), Candidate(normal, 0.0, tuple(bot.plan)))
        if first.id == normal and kind == "choose_action":
            first = first._replace(plan=tuple(bot.plan))  # (its plan may be another option's first: before sailing)
        return [first] + [c for c in valued if c.id != normal][: self.candidates]

    def action_worth(self, outlook: Outlook, option: Choice, normal: str) -> Candidate | None:
        if option.id == PASS:
            return Candidate(PASS, WORTH_A_WORKER, ())
        if (outlook.s.round, option.id) in self.bot.withdrawn and option.id != normal:
            return None
        value, plan = self.bot.option_worth(outlook, option)
        return Candidate(option.id, value, plan)

    # --- playing them out ---------------------------------------------------------------

    def search(self, scene: SeatScene, options: list[Candidate]) -> Candidate:
        """The option with the best mean score over the same worlds (the Bot's choice if time ran out)."""
        self.reading.catch_up(scene.view)  # (before the clock starts: in a resumed game, it reads the whole game)
        started = time.perf_counter()
        seen = scene.view
        rng = random.Random(f"{self.seed}/{json.dumps(seen, sort_keys=True, separators=(',', ':'))}")
        rollouts = self.rollouts or ROLLOUTS[len(seen["players"])]
        worlds = max(self.min_worlds, rollouts // len(options))
        scores: list[list[float]] = [[] for _ in options]
        played, fell_back = 0, False
        for _ in range(worlds):
            if time.perf_counter() - started > self.time_cap or self.stopped:
                fell_back = played < self.min_worlds or self.stopped
                break
            world = self.worlds.deal(seen, rng, self.reading)
            for n, option in enumerate(options):
                scores[n].append(self.play_out(seen, world, option))
            played += 1
        means = {option.id: sum(s) / played for option, s in zip(options, scores)} if played else {}
        self.last = Searched(scene.prompt.kind, means, played, played * len(options), fell_back)  # type: ignore[union-attr]  # (deciding)
        if fell_back or not played:
            return options[0]
        best = options[0]
        for option in options[1:]:
            if means[option.id] > means[best.id] + (self.prefer if best is options[0] else 0.0):
                best = option
        return best

    def play_out(self, seen: View, world: World, option: Candidate) -> float:
        """The seat's score at the end of a game of `world` in which it took `option` now."""
        engine = engine_on(self.worlds.state(seen, world))
        if isinstance(engine.choose(option.id), Rejection):  # (never seen: an option hangs on nothing hidden)
            return REFUSED
        players = len(engine.state.players)
        bots = [Bot(self.content, seat, seed=world.seed + seat) for seat in range(players)]
        mine = bots[self.seat]
        mine.plan, mine.started = list(option.plan), (engine.state.round, option.id)
        state = engine.state
        last = engine.state.round + (HORIZON[players] if self.horizon is None else self.horizon)
        for _ in range(LONGEST_GAME):
            if state.phase == "over" or state.round > last:
                break
            ask = engine.asking()
            engine.choose(whole_state_choice(bots[ask.seat], state, ask))  # type: ignore[index]  # (not over: a seat decides)
            state = engine.state
        return self.score(state)

    def score(self, state: GameState) -> float:
        """The VP margin over the best other player, and the bonus for winning: at the end of the
        game, the bonus if the seat won (a share of it, if tied); before, the forecast margin and
        the bonus times a chance of winning read from it."""
        margin: float
        if state.phase == "over":
            vp = [p.vp for p in state.players]
            winners = [st.seat for st in state.standings if st.place == 1]
            margin = vp[self.seat] - max(v for seat, v in enumerate(vp) if seat != self.seat)
            return margin + (WIN_BONUS / len(winners) if self.seat in winners else 0.0)
        expected = [forecast(state, seat) for seat in range(len(state.players))]
        margin = expected[self.seat] - max(v for seat, v in enumerate(expected) if seat != self.seat)
        return margin + WIN_BONUS / (1.0 + math.exp(-margin / UNCERTAIN_MARGIN))
