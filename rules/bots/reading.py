"""What the other players hold, read from what they do: the hard player's guess at their hands.

A seat never sees the objectives another player kept nor the deals it drew,
and dealt at random they make the hard player's worlds (`worlds.py`) poor
guesses of the real game: a player's objectives and deals steer what it does,
so its played-out opponents do other things than the real ones, and each is
scored for cards it may well not hold. Yet what a player does says something
of what it holds. For each other seat `Reading` keeps a weight for every set
of objectives it may have kept (for `SETS_MOST` of them, drawn by the chance
below, when a deck allows more), and `GUESSES` guesses at its whole hand (a set
of objectives and the deals in hand), each with a weight:

- at setup, a set's weight is the chance that a player who keeps the
  objectives that look best (the Bot's way: `starting.objective_prospect`)
  keeps it out of an offer dealt at random from the objectives this seat has
  not seen, mixed with a small even chance for any set (a person keeps what
  they like); each guess's set is drawn by these weights;
- a deal drawn is a card this seat has not seen, drawn at random into every
  guess; a deal closed is shown, and leaves the guesses that held it (a guess
  that did not loses weight, and a card at random); a deal discarded leaves at
  random;
- at each of that seat's island and action decisions, the decision is dealt
  once as a world (the rest of what is hidden at random), and the Bot says
  what it would do (its choice, and the steps of the action it chose) holding
  each guess, and each set with the deals of the guess that weighs most. A
  guess or set whose Bot would not end where the seat was then seen to be
  keeps `MISREAD` of its weight. The hand that is right does what a player who
  plays like the Bot did nearly every time, and a wrong one often does not; a
  player who does not play like the Bot (a person, a player who searches) is
  read less, and never ruled out by one choice;
- once a few guesses carry nearly all the weight, the guesses are drawn anew
  from them by weight, and those drawn twice are changed a little (one deal
  for an unseen one, or the set drawn anew by the sets' weights), to look near
  what was found.

The worlds then deal each other seat a guess drawn by weight (no card twice).
All of it comes from the seat's own views at each decision of the game,
handed over by whoever runs the game (`rules.seat.Witness`), and is worked out
only when the player next searches, off the screen's thread.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from itertools import combinations

from rules import Content, Rejection, View, view
from rules.seat import Turn, action_spaces, decision_prompt

from .heuristic import Bot, whole_state_choice
from .outlook import Outlook
from .plans import Want
from .starting import objective_prospect
from .worlds import World, Worlds, engine_on

Move = tuple[str, tuple[Want, ...]]
"""A decision made: the option taken, and the plan for the steps of its action."""
Seen = tuple[View, Turn, frozenset[str]]
"""Another seat's decision seen: the view it was made at, its turn, and the cards remembered then."""

READ = ("keep_objectives", "choose_island", "choose_action")
"""The decisions of the others that are read: keeping objectives starts a seat's reading, the
island and action decisions weigh it."""

MISREAD = 0.1
"""The share of its weight a guess keeps when the Bot holding it would have done otherwise than
the seat did (and, at setup, the share of the even chance in the draw of its objectives)."""

GUESSES = 48
"""Guesses kept at each other seat's hand."""

SETS_MOST = 100
"""The most sets of objectives weighed for one seat. A deck that deals many objectives and keeps
many has more sets than a game could weigh (6 kept of 18: 18,564, each a Bot's decision at every
decision read); past this many, the sets weighed are drawn by their chance at setup. The shipped
deck has 78 (2 kept of the 13 a seat has not seen), all weighed."""

DRAWS_PER_SET = 20
"""Draws made for each set to be found past `SETS_MOST` (a bound: a few sets may carry all the chance)."""

DROPPED = math.log(1e4)
"""A set of objectives whose weight falls this many times below the best set's is no longer weighed."""

LONGEST_ACTION = 50
"""Steps an action read may take before it is judged as it stands (a safety net)."""


@dataclass
class Guess:
    """A guess at another seat's hand, and its weight (a log)."""

    objectives: tuple[str, ...]
    deals: list[str]
    weight: float = 0.0


class Reading:
    """The reading, by one seat (`seat`), of the others' hands; `worlds` deals the decisions read."""

    def __init__(
        self,
        content: Content,
        seat: int,
        worlds: Worlds,
        seed: int,
        guesses: int | None = None,
        sets: int | None = None,
    ) -> None:
        """`guesses` and `sets`: how many guesses at each other seat's hand are kept, and how many
        sets of objectives at most are weighed (`GUESSES` and `SETS_MOST` if None)."""
        self.content, self.seat, self.worlds, self.seed = content, seat, worlds, seed
        self.most_guesses = GUESSES if guesses is None else guesses
        self.most_sets = SETS_MOST if sets is None else sets
        self.kept: dict[int, dict[tuple[str, ...], float]] = {}  # seat -> a set it may have kept -> log weight
        self.guesses: dict[int, list[Guess]] = {}  # by seat, as of its last decision read
        self.now: dict[int, list[Guess]] = {}  # the same brought up to the view last caught up with
        self.closed: dict[int, int] = {}  # seat -> its deals closed that the guesses have taken in
        self.before: Seen | None = None  # another seat's decision seen, its outcome not yet
        # decisions seen and not yet read: before, turn, cards remembered, after
        self.waiting: list[tuple[View, Turn, frozenset[str], View]] = []
        self.read = 0  # decisions read so far (each is dealt from its own seed)

    def see(self, seen: View, turn: Turn) -> None:
        """Take in the seat's view at a decision of the game (anyone's), in the game's order, once
        `worlds` has taken it in (what it remembered then deals that decision)."""
        if self.before is not None:
            if turn.seat == self.before[1].seat and turn.kind not in READ:
                return  # (a step of the action under way: the action is read once it is over)
            self.waiting.append((*self.before, seen))
            self.before = None
        if turn.seat is not None and turn.seat != self.seat and turn.kind in READ:
            self.before = (seen, turn, frozenset(self.worlds.remembered))

    def catch_up(self, seen: View) -> None:
        """Read every decision seen since the last time, and bring the guesses up to `seen`, the
        view the seat now decides on."""
        for before, turn, remembered, after in self.waiting:
            rng = random.Random(f"{self.seed}/reading/{self.read}")
            worlds = self.worlds.remembering(remembered)
            if turn.kind == "keep_objectives":
                self.setup(worlds, before, after, turn.seat, rng)  # type: ignore[arg-type]  # (another seat's: see `see`)
            elif turn.seat in self.guesses:
                self.guesses[turn.seat] = self.follow(worlds, before, turn.seat, self.guesses[turn.seat], rng)
                self.closed[turn.seat] = len(before["players"][turn.seat]["deals_closed"])
                self.weigh(worlds, before, after, turn, rng)
            self.read += 1
        self.waiting.clear()
        rng = random.Random(f"{self.seed}/reading/{self.read}/now")
        self.now = {
            seat: self.follow(
                self.worlds, seen, seat, [Guess(g.objectives, list(g.deals), g.weight) for g in guesses], rng
            )
            for seat, guesses in self.guesses.items()
        }

    def shares(self, seat: int) -> list[tuple[Guess, float]]:
        """`seat`'s guesses as read so far, each with its share of the weight (the shares add up to one)."""
        return _shares(self.guesses[seat])

    # --- setup: the objectives kept ----------------------------------------------------------

    def setup(self, worlds: Worlds, before: View, after: View, seat: int, rng: random.Random) -> None:
        """`seat`'s guesses as it keeps its objectives (see the module's docstring)."""
        pool = sorted(worlds.unseen(before)["objectives"])
        offered = len(before["players"][seat]["objective_offer"])
        keep = len(after["players"][seat]["objectives"])
        players = len(before["players"])
        prospect = {o: objective_prospect(self.content.objectives[o], players) for o in pool}
        every = math.comb(len(pool), keep)
        few = every <= self.most_sets
        sets = (
            list(combinations(pool, keep)) if few else _likely_sets(pool, offered, keep, prospect, self.most_sets, rng)
        )
        ways = [
            math.comb(sum(1 for o in pool if o not in k and prospect[o] <= min(prospect[c] for c in k)), offered - keep)
            for k in sets
        ]
        total = (sum(ways) if few else math.comb(len(pool), offered)) or 1
        self.kept[seat] = {k: math.log((1 - MISREAD) * w / total + MISREAD / every) for k, w in zip(sets, ways)}
        self.guesses[seat] = [Guess(self.drawn_set(seat, rng), []) for _ in range(self.most_guesses)]

    def drawn_set(self, seat: int, rng: random.Random) -> tuple[str, ...]:
        """A set of objectives `seat` may have kept, drawn by weight."""
        kept = self.kept[seat]
        best = max(kept.values())
        return rng.choices(list(kept), weights=[math.exp(w - best) for w in kept.values()])[0]

    # --- the deals in hand, as they come and go ----------------------------------------------

    def follow(self, worlds: Worlds, seen: View, seat: int, guesses: list[Guess], rng: random.Random) -> list[Guess]:
        """`seat`'s `guesses` (changed) brought up to `seen`: the deals it closed since the guesses
        last took its closed deals in leave them, then cards at random leave or join each until it
        holds as many as the seat does; drawn anew if a few carry nearly all the weight."""
        player = seen["players"][seat]
        closed = player["deals_closed"][self.closed.get(seat, 0) :]
        unseen = worlds.unseen(seen)
        deals = set(unseen["deals"])
        for guess in guesses:
            hand = guess.deals
            for card in closed:
                if card in hand:
                    hand.remove(card)
                elif hand:  # (it held the closed deal as one of the cards guessed wrong)
                    hand.pop(rng.randrange(len(hand)))
                    guess.weight += math.log(MISREAD)
            hand[:] = [card for card in hand if card in deals]  # (seen since: it was never there)
            while len(hand) > len(player["deals"]):
                hand.pop(rng.randrange(len(hand)))
            free = sorted(deals.difference(hand))
            rng.shuffle(free)
            hand.extend(free[: len(player["deals"]) - len(hand)])
        return self.resampled(seat, guesses, unseen, rng)

    def resampled(self, seat: int, old: list[Guess], unseen: dict[str, list[str]], rng: random.Random) -> list[Guess]:
        """`seat`'s guesses `old`, or, once a few carry nearly all the weight, drawn anew from them
        by weight (each then weighs the same): a guess drawn again has one deal changed for an
        unseen one, or its objectives drawn anew by their weights, to look nearby."""
        shares = [share for _, share in _shares(old)]
        if 1 / sum(share * share for share in shares) >= len(old) / 2:
            return old
        drawn = sorted(rng.choices(range(len(old)), weights=shares, k=len(old)))
        guesses = []
        for n, again in zip(drawn, [False] + [a == b for a, b in zip(drawn, drawn[1:])]):
            guess = Guess(old[n].objectives, list(old[n].deals))
            free = [card for card in unseen["deals"] if card not in guess.deals]
            if again and guess.deals and free and rng.random() < 0.5:
                guess.deals[rng.randrange(len(guess.deals))] = free[rng.randrange(len(free))]
            elif again:
                guess.objectives = self.drawn_set(seat, rng)
            guesses.append(guess)
        return guesses

    # --- what each guess would have done -------------------------------------------------------

    def weigh(self, worlds: Worlds, before: View, after: View, turn: Turn, rng: random.Random) -> None:
        """Weigh `turn.seat`'s sets of objectives (each with the deals of the guess that weighs most)
        and its guesses by whether the Bot holding them would have done what the seat did (its
        choice, and the steps of the action it chose)."""
        seat: int
        seat, kept, guesses = turn.seat, self.kept[turn.seat], self.guesses[turn.seat]  # type: ignore[assignment, index]  # (another seat's)
        world = worlds.deal(before, rng)
        state = worlds.state(before, world)
        ask = engine_on(state).asking()
        if (ask.seat, ask.kind) != (seat, turn.kind):
            return  # (never seen: the world asks what the game asked)
        prompt, spaces, players = decision_prompt(state, ask), action_spaces(state, seat), len(state.players)
        holder = state.players[seat]
        deals = max(guesses, key=lambda g: g.weight).deals
        hands = [Guess(each, deals) for each in kept] + guesses
        outcomes: dict[Move, str | None]
        moves: list[Move]
        outcomes, moves = {}, []
        for hand in hands:
            holder.objectives, holder.deals = list(hand.objectives), list(hand.deals)
            bot = Bot(self.content, seat)
            move = bot.decide(prompt, players, lambda: Outlook(state, seat, spaces)), tuple(bot.plan)
            if move not in outcomes:
                outcomes[move] = self.leads_to(worlds, before, world, move, seat, hand)
            moves.append(move)
        if len(set(outcomes.values())) < 2:
            return  # every hand would have done alike: whatever the seat did, nothing is learnt
        done, misread = _taken(after, seat), math.log(MISREAD)
        for hand, move in zip(hands, moves):
            if outcomes[move] != done:
                hand.weight += misread
        for each, hand in zip(list(kept), hands):
            kept[each] += hand.weight
        best = max(kept.values())
        for each in [k for k, w in kept.items() if w < best - DROPPED]:
            del kept[each]

    def leads_to(self, worlds: Worlds, before: View, world: World, move: Move, seat: int, guess: Guess) -> str | None:
        """What the seat's view would show of `seat` once it had made `move` (an option and the plan
        for its steps) holding `guess` and played the action's steps (None: refused)."""
        engine = engine_on(worlds.state(before, world))
        player = engine.state.players[seat]
        player.objectives, player.deals = list(guess.objectives), list(guess.deals)
        option, plan = move
        bot = Bot(self.content, seat)
        bot.plan, bot.started = list(plan), (engine.state.round, option)
        if isinstance(engine.choose(option), Rejection):
            return None
        for _ in range(LONGEST_ACTION):
            ask = engine.asking()
            if ask.seat != seat or ask.kind in READ or engine.state.phase == "over":
                break
            engine.choose(whole_state_choice(bot, engine.state, ask))
        return _taken(view(engine.state, self.seat), seat)

    # --- dealing from the reading -------------------------------------------------------------

    def hands(self, rng: random.Random, unseen: dict[str, list[str]]) -> dict[int, dict[str, tuple[str, ...]]]:
        """For each seat read, a guess drawn by weight among those whose cards are all in `unseen`
        (each kind's) and not dealt already; if none is, any guess, with such cards changed for
        others at random."""
        pools = {kind: set(unseen[kind]) for kind in ("objectives", "deals")}
        dealt: dict[int, dict[str, tuple[str, ...]]] = {}
        for seat in sorted(self.now):
            guesses = _shares(self.now[seat])
            fits = [(g, share) for g, share in guesses if pools["objectives"].issuperset(g.objectives)]
            fits = [(g, share) for g, share in fits if pools["deals"].issuperset(g.deals)] or guesses
            guess = rng.choices([g for g, _ in fits], weights=[share for _, share in fits])[0]
            hand: dict[str, tuple[str, ...]] = {}
            for kind, cards in (("objectives", guess.objectives), ("deals", guess.deals)):
                kept = [card for card in cards if card in pools[kind]]
                spare = sorted(pools[kind].difference(kept))
                kept += rng.sample(spare, min(len(spare), len(cards) - len(kept)))
                hand[kind] = tuple(kept)
                pools[kind].difference_update(kept)
            dealt[seat] = hand
        return dealt


def _likely_sets(
    pool: list[str], offered: int, keep: int, prospect: dict[str, float], most: int, rng: random.Random
) -> list[tuple[str, ...]]:
    """`most` sets of `keep` objectives of `pool` (or as many as `DRAWS_PER_SET` draws each find),
    each drawn by the chance of the reading's setup: the best `keep` of an offer of `offered` dealt
    at random (the Bot's way), or, `MISREAD` of the time, any set."""
    found: dict[tuple[str, ...], None] = {}
    for _ in range(DRAWS_PER_SET * most):
        if len(found) >= most:
            break
        if rng.random() < MISREAD:
            chosen = rng.sample(pool, keep)
        else:
            offer = rng.sample(pool, min(offered, len(pool)))
            chosen = sorted(offer, key=lambda o: (-prospect[o], o))[:keep]
        found.setdefault(tuple(sorted(chosen)))
    return list(found)


def _shares(guesses: list[Guess]) -> list[tuple[Guess, float]]:
    """Each guess with its share of the weight (the shares add up to one)."""
    best = max(g.weight for g in guesses)
    weights = [math.exp(g.weight - best) for g in guesses]
    total = sum(weights)
    return [(g, w / total) for g, w in zip(guesses, weights)]


def _taken(seen: View, seat: int) -> str:
    """What a view shows of what `seat` has done this round: the islands chosen, the action spaces
    taken, that player's board (to tell one choice from another)."""
    done = seen["round"], seen["phase"], seen["islands_chosen"], seen["space_users"], seen["players"][seat]
    return json.dumps(done, sort_keys=True)
