"""A heuristic computer player: it reads its seat's message and plays for VP.

The bot knows the game only as its seat does: it is given the seat message
(`rules.seat.SeatScene`) of the seat that must decide and answers with the id
of one of its options. Every decision that needs thought starts from the
message's view, read back as a game state in which whatever the seat cannot
know is blank (`rules.known_state`), so it cannot peek even by accident.
From there `Outlook` prices each legal option in victory points (VP) and the
bot takes the best, with a plan for the steps that follow; it passes when
nothing left is worth a worker. It is seeded and deterministic.

It picks options by what they are about (`Choice.refers`) and never writes
or takes apart an option id (tests/test_bots_boundary.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rules import Ask, Content, GameState, known_state
from rules.seat import Choice, Prompt, SeatScene, action_spaces, decision_prompt

from .outlook import Outlook
from .plans import BACK, DONE, PASS, Plan, Want, first_fit, part_fit
from .starting import corporation_worth, objective_prospect

WORTH_A_WORKER = 0.1
"""An action must be worth more than this, or the bot keeps its worker (and passes)."""


class Bot:
    """A computer player for one seat.

    `corporations="random"` picks a corporation at random instead of the best
    start (bench/balance.py uses it to measure each corporation on its own).
    `noise` misjudges every valuation by that much (the spread, in VP, of a
    normal error added to each): the easy player (`levels.py`).
    """

    def __init__(
        self, content: Content, seat: int, seed: int = 0, corporations: str = "best", noise: float = 0.0
    ) -> None:
        self.content, self.seat = content, seat
        self.rng = random.Random(seed)
        self.corporations = corporations
        self.noise = noise
        self.plan: list[Want] = []  # the steps still to take of the action under way
        self.withdrawn: set[tuple[int, str]] = set()  # (round, option id) backed out of: not tried again
        self.started: tuple[int, str] | None = None

    def choose(self, scene: SeatScene) -> str:
        """The id of one of the options of `scene`, the message of this seat while it decides."""
        if scene.seat != self.seat or scene.prompt is None:
            raise ValueError(f"seat {self.seat} is not deciding in this message ({scene.turn.says})")
        return self.decide(scene.prompt, len(scene.view["players"]), lambda: self.outlook(scene))

    def decide(self, prompt: Prompt, players: int, outlook: Callable[[], Outlook]) -> str:
        """The id of one of the options of `prompt`, in a game of `players` that `outlook` prices
        (called only for a decision that needs it: most steps of an action follow the plan)."""
        options = prompt.options
        if prompt.kind == "choose_corporation":
            return self.corporation(options)
        if prompt.kind == "keep_objectives":
            return self.objectives(options, players)
        if prompt.kind not in ("choose_island", "choose_action"):
            return self.step(prompt.kind, options, outlook)
        priced = outlook()
        if prompt.kind == "choose_island":
            return max(options, key=lambda c: self.judged(priced.island_worth(c.refers.island))).id  # type: ignore[arg-type]  # (an island's option names it)
        return self.action(priced, options)

    def judged(self, worth: float) -> float:
        """A valuation as this player judges it: with its noise, if it has any."""
        return worth + self.rng.gauss(0.0, self.noise) if self.noise else worth

    def outlook(self, scene: SeatScene) -> Outlook:
        """The game as this seat knows it from its message, priced."""
        return Outlook(known_state(self.content, scene.view), self.seat, scene.spaces)

    # --- setup ---------------------------------------------------------------------

    def corporation(self, options: tuple[Choice, ...]) -> str:
        if self.corporations == "random":
            return options[self.rng.randrange(len(options))].id
        return max(
            options, key=lambda c: self.judged(corporation_worth(self.content.corporations[c.refers.cards[0]]))
        ).id

    def objectives(self, options: tuple[Choice, ...], players: int) -> str:
        objectives = self.content.objectives
        return max(
            options, key=lambda c: self.judged(sum(objective_prospect(objectives[o], players) for o in c.refers.cards))
        ).id

    # --- the action phase ----------------------------------------------------------------

    def action(self, outlook: Outlook, options: tuple[Choice, ...]) -> str:
        """The most valuable action, with its plan; pass when none is worth a worker."""
        chosen: Choice | None = None
        plan: tuple[Want, ...] = ()
        value = WORTH_A_WORKER
        for option in options:
            if option.id == PASS or (outlook.s.round, option.id) in self.withdrawn:
                continue
            v, p = self.option_worth(outlook, option)
            if v > value:
                chosen, plan, value = option, p, v
        if chosen is not None and sails(chosen) and outlook.me.actions_this_round == 0:
            chosen, plan = self.before_sailing(outlook, options, chosen, plan)
        answer = PASS if chosen is None else chosen.id
        self.plan, self.started = list(plan), (outlook.s.round, answer)
        return answer

    def before_sailing(
        self, outlook: Outlook, options: tuple[Choice, ...], depart: Choice, plan: tuple[Want, ...]
    ) -> tuple[Choice, tuple[Want, ...]]:
        """Sailing as the round's first action ends the turn at once; sailing as the second
        action gets there just as soon. So do the best thing here first, if it leaves the
        merchants to sail and to act on arrival."""
        me = outlook.me
        # (in the action phase every ship is docked: `me.island` is an island)
        sail = outlook.merchants_for(me.island, "depart_island")  # type: ignore[arg-type]  # (docked: see above)
        there: int = plan[0].part("island") if plan else me.island  # type: ignore[assignment]  # (docked)
        waiting = [
            (outlook.island_action(there, a)[0] - 0.3 * max(0, need - 1), need)
            for a in outlook.board.island(there).actions
            if a != "depart_island"
            for need in (outlook.merchants_for(there, a),)
            if need <= me.free_merchants - sail
        ]
        after = max(waiting, default=(0.0, 0))[1]  # the merchants the action sailed for takes
        here, here_plan, value = depart, plan, WORTH_A_WORKER
        for option in options:
            if option.id == PASS or sails(option) or (outlook.s.round, option.id) in self.withdrawn:
                continue
            where = option.refers
            need = 0 if where.cards else outlook.merchants_for(where.island, where.action)  # type: ignore[arg-type]  # (an action space's option names both)
            if me.free_merchants - need < sail + after:
                continue
            v, p = self.option_worth(outlook, option)
            if v > value:
                here, here_plan, value = option, p, v
        return here, here_plan

    def option_worth(self, outlook: Outlook, option: Choice) -> Plan:
        """An action space of the island, or an equipment card to use (the card it names)."""
        where = option.refers
        if where.cards:
            value, plan = outlook.equipment_use(where.cards[0])
        elif where.action == "depart_island":
            value, plan = outlook.departure()
        else:
            # (an action space's option names its island and action)
            value, plan = outlook.island_action(where.island, where.action)  # type: ignore[arg-type]  # (see above)
            value -= 0.3 * max(0, outlook.merchants_for(where.island, where.action) - 1)  # type: ignore[arg-type]  # (as above)
        return self.judged(value), plan

    def step(self, kind: str, options: tuple[Choice, ...], outlook: Callable[[], Outlook]) -> str:
        """Follow the plan; where it has nothing to say, take the plain choice.

        `outlook` makes the seat's `Outlook` when it is needed (placing a drawn gallery)."""
        while self.plan:
            want = self.plan.pop(0)
            choice = first_fit(want, options)
            part = None if choice is not None else part_fit(want, options)
            if part is not None:
                choice, rest = part
                self.plan.insert(0, rest)
            if choice is not None:
                return choice.id
        if options[0].refers.face_up is not None:  # a drawn gallery to place, face up or down
            look = outlook()
            return max(options, key=lambda c: self.judged(look.placement(c))).id
        if kind == "deal":  # paying for a deal: the options that name an enriched cube
            pays = sorted((c for c in options if c.refers.level is not None), key=lambda c: c.refers.level)  # type: ignore[arg-type, return-value]  # (levels kept only)
            if pays:
                return pays[0].id
        if any(c.id == DONE for c in options):
            return DONE
        self.withdraw()
        return BACK if any(c.id == BACK for c in options) else options[0].id

    def withdraw(self) -> None:
        if self.started is not None:
            self.withdrawn.add(self.started)


def sails(option: Choice) -> bool:
    """Whether an option of the action decision is Depart Island."""
    return option.refers.action == "depart_island"


def whole_state_choice(bot: Bot, state: GameState, ask: Ask) -> str:
    """What `bot` chooses at `ask` in a world the hard player dealt itself (a game it plays out, a
    decision of another player it reads), read from that world's whole state.

    Nothing in such a world is a secret of the real game, and skipping the seat's message (its view
    written out as plain data, then read back) halves a rollout's time. The Bot reads nothing there
    that its seat could not know, so it chooses as it would from its message (tests/test_bot.py)."""

    def outlook() -> Outlook:
        return Outlook(state, ask.seat, action_spaces(state, ask.seat))  # type: ignore[arg-type]  # (`ask` is a decision: a seat makes it)

    return bot.decide(decision_prompt(state, ask), len(state.players), outlook)
