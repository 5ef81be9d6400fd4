"""What one seat may know, in one message: `SeatScene`.

Every screen of a seat is drawn from its messages alone, so a seat can sit at
this keyboard, in another process or on another machine, and a computer
player reads the same thing a person does. The message is plain data (JSON,
with a format version) built here, on the engine's side, by `seat_scene`:

- the seat's `view` (`rules.view`: other hands and hidden tiles as None, deck
  orders and the seed never), and the log told to that seat: all of it, or
  the lines after those its reader already holds (`log_from`): late in a
  game the whole log is the bulk of a message (a thousand lines, 60 KB);
- who decides now, in public words (`Turn`); the decision itself, with every
  option and the options refused and why (`Prompt`), only in the message of
  the seat that decides: an option can name a secret card;
- the facts the panels show that are rules: what each action space would
  cost this seat in merchants, which cards on display it could pay for, what
  undo would take back or why it cannot;
- for a spectator (seat None) the same message with nothing of anyone's; once
  the game is over, every hand and tile shown to all, and the final ranking
  with every player's VP broken down by source (`results`, the same in every
  message: the end screen is drawn from it).

The cards' and the board's printed facts (names, costs, texts) are the same
for every seat and every message of a game: they travel once, as the
`Content`, and each message names the content it goes with by fingerprint
(`catalogue_to_json`, `catalogue_from_json`).

Privacy is a property of `seat_scene` alone: tests/test_seat_scene.py re-deals
everything a seat cannot see and finds its message unchanged, byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import field
from typing import NamedTuple

from . import codec
from . import events as ev
from .action_choice import merchant_cost, spaces
from .actions import ACTION_NAMES, action_help
from .actions.equipment import affordable_equipment
from .actions.shipments import affordable_shipments
from .cards import ENRICHED_LEVELS, METALS, Content
from .choose import candidates
from .decision import BACK, OPEN_KINDS, Ask, Cand, plural, text
from .engine import Engine
from .evolve import evolve
from .names import shown_safely
from .narrate import tell
from .record import FrozenRecord, frozen_record
from .registry import ISLAND_ACTIONS, MINER_ACTIONS
from .results import PLAY_SOURCES, GameResults, PlayerResult, final_results, ordinal, tiebreak_lines
from .scoring import objective_words
from .state import GameState
from .undo import NoUndo
from .view import SECRET_HAND, View, view

__all__ = [
    # the message, its parts, and how it is made and read
    "FORMAT",
    "SeatScene",
    "Line",
    "Turn",
    "Prompt",
    "Choice",
    "Refers",
    "Space",
    "Undo",
    "Chronicle",
    "seat_scene",
    "replay_scene",
    "decision_prompt",
    "action_spaces",
    "turn_of",
    "Witness",
    "step_title",
    "to_json",
    "from_json",
    "catalogue_to_json",
    "catalogue_from_json",
    # The words a reader needs beside it, the same in every process: the printed cards and board
    # (sent once, by `catalogue_to_json`), the metals and the levels of an enriched cube, the actions'
    # names and what each does on a board, which take miners, and how a count or a player's name is
    # written. Names and words, no rule: what is legal and what it costs is in the message.
    "Content",
    "METALS",
    "ENRICHED_LEVELS",
    "ACTION_NAMES",
    "action_help",
    "ISLAND_ACTIONS",
    "MINER_ACTIONS",
    "plural",
    "shown_safely",
    "objective_words",
    # a player's hidden hands (another seat sees only how many cards each holds)
    "SECRET_HAND",
    # a finished game's ranking (`SeatScene.results`) and the end screen's words for it
    "GameResults",
    "PlayerResult",
    "PLAY_SOURCES",
    "ordinal",
    "tiebreak_lines",
]

FORMAT = 1
"""The version of the message's shape; a reader refuses a message of another format."""


class Line(NamedTuple):
    """One sentence of the log; `seat` is the player it is about, if any (for filtering)."""

    seat: int | None
    text: str


PLAIN = {"plain": True}  # (a field written to JSON as it is: see rules.codec)


@frozen_record
class Refers(FrozenRecord):
    """What an option is about, each part named (so nothing reading it parses an option id).

    `cards`: ids of the cards or tiles it names (equipment, shipment, deal,
    objective, corporation; a gallery tile's kind); `seat`: another player it
    concerns (the owner of an enriched cube); `goods`: raw metals and money.
    Written to JSON with only the parts it has.
    """

    SPARSE = True

    cards: tuple[str, ...] = ()
    island: int | None = None
    action: str | None = None
    column: int | None = None
    level: int | None = None
    metal: str | None = None
    seat: int | None = None
    goods: tuple[str, ...] = ()
    miners: int | None = None
    face_up: bool | None = None


@frozen_record
class Choice(FrozenRecord):
    """One option of the pending decision: its id (what to answer), its words, what it is about,
    what it costs ("merchants", "money", a metal's raw cubes, "<metal> artifact"), and, for an
    option refused, why in the rulebook's words."""

    SPARSE = True
    id: str
    label: str
    refers: Refers
    cost: dict[str, int]
    refused: str | None = None


@frozen_record
class Prompt(FrozenRecord):
    """The pending decision, for the seat that makes it."""

    kind: str
    text: str
    step: str | None  # where an action of several steps stands ("Trade on island 1"), if in one
    options: tuple[Choice, ...]  # the legal ones, in the engine's order
    refused: tuple[Choice, ...]  # the others it would list, each with its reason
    back: str | None  # the option that backs out of this step of an action, if there is one


@frozen_record
class Turn(FrozenRecord):
    """Who decides now and what kind of decision, as anyone at the table may be told."""

    seat: int | None
    kind: str
    says: str
    open: bool  # a decision anyone may watch being made: its options never hang on the seat's secrets


@frozen_record
class Space(FrozenRecord):
    """One action space of an island as this seat sees it now."""

    key: str  # "2:trade", as the view's space_users names it
    island: int
    action: str
    name: str
    users: tuple[int, ...]  # who took it this round, first first
    by_miners: bool  # taken with miners rather than merchants
    merchants: int  # what it would cost this seat now: one, and one more for each other player who took it
    # (0 for a space taken with miners)
    taken: bool  # this seat has taken it this round
    latest: bool  # the action another player took last since this seat moved


@frozen_record
class Undo(FrozenRecord):
    """Whether the deciding seat may take back its last move now: what it would take back, or why not."""

    allowed: bool
    says: str


@frozen_record
class SeatScene(FrozenRecord):
    format: int
    seat: int | None  # whose message; None: a spectator's
    content: str  # the fingerprint of the game's content
    view: View = field(metadata=PLAIN)
    log_from: int  # the seat's log is its first `log_from` lines (which its reader holds), then `log`
    log: tuple[Line, ...] = field(metadata=PLAIN)
    since: tuple[Line, ...] = field(metadata=PLAIN)  # what happened since this seat last moved, in everyone's words
    turn: Turn
    prompt: Prompt | None  # only in the message of the seat that decides
    spaces: tuple[Space, ...]
    can_pay: tuple[str, ...]  # the equipment and shipments on display this seat could pay for now
    undo: Undo | None  # only in the message of the seat that decides
    results: GameResults | None  # once the game is over: the final ranking, the same in every message


# --- the log -----------------------------------------------------------------------------


class Chronicle:
    """The log of one game told to each reader, kept as it grows: what a host keeps between messages.

    A pass the host made for a player who had nothing else to do (`forced`)
    says so. After an undo, `forget()`: the log lost its last lines.

    What happened at the table rather than in the game (`aside`: a computer
    began to play for a player who left, say) is no event of the rules; it is
    told to every reader where it happened (a saved game keeps it beside its
    events: `Host.aside`).
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.forced: set[int] = set()  # where in the log a pass was made for a player
        self.asides: list[tuple[int, Line]] = []  # (how many events came before it, the line)
        # (events before it, seat, whether a computer began to play for the seat there, or its player came back)
        self.stand_ins: list[tuple[int, int, bool]] = []
        self._lines: dict[int | None, list[Line]] = {}
        self._told: dict[int | None, tuple[int, int]] = {}  # (events, asides) told to each reader

    def forget(self) -> None:
        self._lines.clear()
        self._told.clear()
        self.forced = {at for at in self.forced if at < len(self.engine.events)}
        ended = len(self.engine.events)  # (an aside after the moves taken back stays: it happened)
        self.asides = [(min(at, ended), line) for at, line in self.asides]
        self.stand_ins = [(min(at, ended), seat, began) for at, seat, began in self.stand_ins]

    def aside(self, line: Line, stand_in: bool | None = None) -> None:
        """`line`, for every reader, after the events so far; `stand_in`: a computer begins to play for the
        line's seat here (True) or its player takes it back (False)."""
        self.asides.append((len(self.engine.events), line))
        if stand_in is not None and line.seat is not None:
            self.stand_ins.append((len(self.engine.events), line.seat, stand_in))

    def stand_ins_under_way(self) -> list[int]:
        """The seats a computer plays for now (its player not back yet)."""
        playing: dict[int, bool] = {}
        for _, seat, began in self.stand_ins:
            playing[seat] = began
        return [seat for seat, began in playing.items() if began]

    def own_move_end(self, seat: int) -> int | None:
        """Where the events after `seat`'s player's own last choice begin (None: they have made none): the moves
        a computer made for the seat while it stood in for the player are not theirs, until the player, back,
        has chosen again."""
        began = back = None
        for at, who, starts in self.stand_ins:
            if who == seat:
                began, back = (at, None) if starts else (began, at)
        last = self.engine.after_last_move(seat)
        if began is None or (back is not None and last is not None and last > back):
            return last
        return self.engine.after_last_move(seat, before=began)

    def lines(self, seat: int | None) -> tuple[Line, ...]:
        """The whole game told to `seat`, with the asides where they happened."""
        lines = self._lines.setdefault(seat, [])
        done, asides = self._told.get(seat, (0, 0))
        lines += self._told_from(done, seat, self.asides[asides:])
        self._told[seat] = (len(self.engine.events), len(self.asides))
        return tuple(lines)

    def _told_from(self, start: int, reader: int | None, asides: list[tuple[int, Line]]) -> list[Line]:
        """The events from `start` on told to `reader`, each of `asides` (none before `start`) after the events
        that came before it."""
        lines: list[Line] = []
        done = start
        for at, line in asides:
            lines += self.tell(done, reader, at) if done < at else ()
            lines.append(line)
            done = max(done, at)
        return lines + self.tell(done, reader)

    def tell(self, start: int, reader: int | None, stop: int | None = None) -> list[Line]:
        """The events from `start` on (up to `stop`), told to `reader`."""
        lines = []
        for at, who, said in tell(self.engine.events[start:stop], self.engine.state, reader):
            if start + at in self.forced and said.endswith("."):
                said = f"{said[:-1]}: nothing else was possible."
            lines.append(Line(who, said))
        return lines

    def since(self, seat: int | None) -> tuple[Line, ...]:
        """What happened since `seat`'s player last moved, as everyone may read it, the asides where they came
        (a computer began to play for them, say)."""
        start = None if seat is None else self.own_move_end(seat)
        if start is None:
            return ()
        return tuple(self._told_from(start, None, [(at, line) for at, line in self.asides if at >= start]))

    def latest_space(self, seat: int | None) -> str | None:
        """The action space of the latest action another player took since `seat` last moved (not withdrawn)."""
        start = None if seat is None else self.own_move_end(seat)
        if start is None:
            return None
        withdrawn = 0
        for e in reversed(self.engine.events[start:]):
            if isinstance(e, ev.ActionWithdrawn):
                withdrawn += 1
            elif isinstance(e, ev.ActionStarted):
                if withdrawn:
                    withdrawn -= 1
                    continue
                where, _, space = e.source.partition(":")
                return space if where == "island" else None
        return None


# --- the message -------------------------------------------------------------------------


def seat_scene(
    engine: Engine, chronicle: Chronicle | None, seat: int | None, *, at_table: bool = False, log_from: int = 0
) -> SeatScene:
    """Everything `seat` may know now (seat None: what everyone may know).

    `log_from`: how many lines of this seat's log its reader holds already
    (as they are now: after an undo, at most as many as the log kept); the
    message brings the lines after them. With no `chronicle`, the message
    has no log at all (for a reader that does not read one: a computer player).

    `at_table`: the seat makes an open decision (OPEN_KINDS) in front of
    everyone, as at a shared keyboard: the message is everyone's (seat None),
    with the seat's prompt, whose undo says only whether a move can be taken
    back.
    """
    s = engine.state
    ask = engine.asking()
    over = s.phase == "over"
    deciding = seat is not None and seat == ask.seat and not over
    if at_table and not (deciding and ask.kind in OPEN_KINDS):
        raise ValueError(f"an open decision of seat {seat} is not pending (it is {ask.kind} of seat {ask.seat})")
    reader = None if at_table else seat
    return SeatScene(
        FORMAT,
        reader,
        s.content.fingerprint,
        view(s, reader, reveal=over),
        log_from,
        chronicle.lines(reader)[log_from:] if chronicle else (),
        chronicle.since(seat) if chronicle else (),
        _turn(s, ask),
        decision_prompt(s, ask) if deciding else None,
        action_spaces(s, reader, chronicle.latest_space(reader) if chronicle else None),
        () if reader is None else affordable_equipment(s, reader) + affordable_shipments(s, reader),
        _undo(engine, at_table) if deciding else None,
        final_results(s, engine.events) if over else None,
    )


def replay_scene(state: GameState, reveal: bool, turn: Turn | None = None) -> SeatScene:
    """What an onlooker of a replay sees at `state` (everything, with `reveal`: a finished game's).

    A replay stops between the events of one choice too, where the game waits
    on nobody and no decision can be worked out from the state: there `turn`
    is told by the replay (the turn of the choice whose events are under way);
    left out, it is `waiting_turn(state)`, for a state where the game waits.
    No prompt, no log (the replay tells its own).
    """
    return SeatScene(
        FORMAT,
        None,
        state.content.fingerprint,
        view(state, None, reveal=reveal),
        0,
        (),
        (),
        waiting_turn(state) if turn is None else turn,
        None,
        action_spaces(state, None),
        (),
        None,
        None,
    )


class Witness:
    """What one seat was shown at each decision of a game, replayed from the game's log and handed on
    once each, in order: for a computer player that reads what the others chose as well as what it
    was shown itself (its `recall(view, turn)`). It is briefed before each of its decisions and, in
    a resumed game, on everything before it (`Host.computer`, `rules.simulate.level_game`).

    Each view is `view(state, seat)` as the decision was about to be made, and its `Turn` says who
    made it and what kind of decision it was, in public words: nothing a message of the seat at that
    moment would not have shown. A seat is briefed only on decisions that stand: undo never takes
    back a computer's move, so none made before its own last one is taken back (if one were, the
    witness replays the game again and hands on only what comes after what it handed already)."""

    def __init__(self, content: Content, seat: int) -> None:
        self.content, self.seat = content, seat
        self.state, self.played, self.handed = GameState(content=content), 0, 0

    def since(self, engine: Engine) -> list[tuple[View, Turn]]:
        """The seat's view and the turn at each decision made since the last call (every one, at the first)."""
        marks = engine.marks
        if len(marks) < self.handed or self.played > len(engine.events):  # (taken back: see the docstring)
            self.state, self.played, self.handed = GameState(content=self.content), 0, len(marks)
        seen = []
        for mark in marks[self.handed :]:
            for event in engine.events[self.played : mark.pos]:
                evolve(self.state, event)
            self.played = mark.pos
            seen.append((view(self.state, self.seat), waiting_turn(self.state)))
        self.handed = len(marks)
        return seen

    def brief(self, engine: Engine, player: object) -> None:
        """Hand `player` (if it reads the others' choices: `recall`) each decision since the last briefing."""
        recall = getattr(player, "recall", None)
        if recall is not None:
            for seen, turn in self.since(engine):
                recall(seen, turn)


def waiting_turn(s: GameState) -> Turn:
    """Who decides at `s`, a state where the game waits for a choice (never one between the events of a choice)."""
    return _turn(s, candidates(s))


SETTING_UP = Turn(None, "setup", "The board is being set up", False)
"""The turn while the first events of a game lay out the board, before anyone decides anything."""


def turn_of(engine: Engine) -> Turn:
    """Who decides now, as in every message (without building one)."""
    return _turn(engine.state, engine.asking())


def _turn(s: GameState, ask: Ask) -> Turn:
    if ask.seat is None:
        return Turn(None, ask.kind, "The game is over" if s.phase == "over" else "Nobody is deciding", False)
    name, doing = s.players[ask.seat].name, DOING.get(ask.kind)
    if doing is None:  # a step of an action: which action, where
        doing = f"deciding: {step_title(s)}" if s.step is not None else "deciding"
    return Turn(ask.seat, ask.kind, f"{name} is {doing}", ask.kind in OPEN_KINDS)


DOING = {
    "keep_objectives": "choosing the objectives to keep",
    "choose_corporation": "choosing a corporation",
    "choose_island": "choosing an island",
    "choose_action": "choosing an action",
}
"""The decisions outside an action, told in public words; a step of an action is told by its action."""


def step_title(s: GameState) -> str | None:
    """Where an action of several steps stands, e.g. "Trade on island 1", "Using the Tipper"."""
    step = s.step
    if step is None:
        return None
    kind, _, rest = step.source.partition(":")
    if kind == "equipment":
        return f"Using {s.content.equipment[rest].name}"
    island, action = rest.split(":")
    return f"{ACTION_NAMES[action]} on island {island}"


def decision_prompt(s: GameState, ask: Ask) -> Prompt:
    """The message's `prompt` for the decision `ask` of the game `s` (a computer player's search
    asks it of the games it plays out, whose every card it dealt itself)."""
    options, refused = [], []
    for cand in ask.cands:
        if cand.reason is None:
            options.append(_choice(s, cand, None))
        else:
            refused.append(_choice(s, cand, text(cand.reason)))
    back = BACK.id if BACK.id in ask.legal else None
    return Prompt(ask.kind, ask.prompt, step_title(s), tuple(options), tuple(refused), back)


def action_spaces(s: GameState, seat: int | None, latest: str | None = None) -> tuple[Space, ...]:
    """The message's `spaces` for `seat` (what each costs it), `latest` marked as the last used."""
    used = set(s.players[seat].used) if seat is not None else set()
    out = []
    for island in s.content.board.islands:
        for space in spaces(s.content.board, island.number):
            users = tuple(dict.fromkeys(s.space_users.get(space.key) or ()))
            out.append(
                Space(
                    space.key,
                    island.number,
                    space.action,
                    space.name,
                    users,
                    space.by_miners,
                    0 if space.by_miners else merchant_cost(s, seat, space.key),
                    space.key in used,
                    space.key == latest,
                )
            )
    return tuple(out)


def _undo(engine: Engine, at_table: bool) -> Undo:
    point = engine.undo_point()
    if isinstance(point, NoUndo):
        return Undo(False, point.reason)
    return Undo(True, "your last move" if at_table else point.what)


# --- what an option is about ----------------------------------------------------------------


Reader = Callable[[GameState, list[str], Cand], tuple[Refers, dict[str, int]]]
"""Reads what an option is about, and what it costs, from the parts of its id after the first."""


def _choice(s: GameState, cand: Cand, refused: str | None) -> Choice:
    head, _, rest = cand.id.partition(":")
    read = _READERS.get(head)
    refers, cost = read(s, rest.split(":") if rest else [], cand) if read else (Refers(), {})
    return Choice(cand.id, text(cand.label), refers, cost, refused)


def _island(s: GameState, args: list[str], cand: Cand) -> tuple[Refers, dict[str, int]]:
    return Refers(island=int(args[0])), {}


def _space(s: GameState, args: list[str], cand: Cand) -> tuple[Refers, dict[str, int]]:
    merchants = cand.payload[2] if cand.payload else 0
    return Refers(island=int(args[0]), action=args[1]), ({"merchants": merchants} if merchants else {})


def _equipment(s: GameState, args: list[str], cand: Cand) -> tuple[Refers, dict[str, int]]:
    return Refers(cards=(args[0],)), {"money": s.content.equipment[args[0]].cost}


def _shipment(s: GameState, args: list[str], cand: Cand) -> tuple[Refers, dict[str, int]]:
    tile = s.content.shipments[args[0]]
    cost = dict(tile.resources)
    cost.update({f"{metal} artifact": n for metal, n in tile.artifacts.items()})
    return Refers(cards=(args[0],)), cost


def _cards(s: GameState, args: list[str], cand: Cand) -> tuple[Refers, dict[str, int]]:
    return Refers(cards=tuple(args[0].split("+")) if args else ()), {}


def _artifact(s: GameState, args: list[str], cand: Cand) -> tuple[Refers, dict[str, int]]:
    return Refers(metal=args[0]), {args[0]: s.content.board.artifact_price}


def _metal(s: GameState, args: list[str], cand: Cand) -> tuple[Refers, dict[str, int]]:
    return Refers(metal=args[0]) if args else Refers(), {}


def _enriched(s: GameState, args: list[str], cand: Cand) -> tuple[Refers, dict[str, int]]:
    """buy/lift:metal:level:owner, upgrade/crush/pay:metal:level."""
    if not args:
        return Refers(), {}
    metal, level = args[0], int(args[1])
    owner = int(args[2]) if len(args) > 2 else None
    cost = {"money": level} if cand.id.startswith("buy:") else {}
    return Refers(metal=metal, level=level, seat=owner), cost


def _mine(s: GameState, args: list[str], cand: Cand) -> tuple[Refers, dict[str, int]]:
    if not args:
        return Refers(), {}
    island = s.step.data["island"] if s.step is not None else None
    miners = int(args[2]) if len(args) > 2 else None
    return Refers(island=island, column=int(args[0]), level=int(args[1]), miners=miners), {}


def _site(s: GameState, args: list[str], cand: Cand) -> tuple[Refers, dict[str, int]]:
    """collect:island:column, demolish:island:column:level."""
    if not args:
        return Refers(), {}
    level = int(args[2]) if len(args) > 2 else None
    metal = cand.payload[2] if cand.id.startswith("collect:") else None
    return Refers(island=int(args[0]), column=int(args[1]), level=level, metal=metal), {}


def _place(s: GameState, args: list[str], cand: Cand) -> tuple[Refers, dict[str, int]]:
    kind, island, column, side = args
    return Refers(cards=(kind,), island=int(island), column=int(column), face_up=side == "up"), {}


def _goods(s: GameState, args: list[str], cand: Cand) -> tuple[Refers, dict[str, int]]:
    goods = tuple(args[0].split("+")) if args else ()
    return Refers(goods=goods), ({g: goods.count(g) for g in goods} if cand.id.startswith("give:") else {})


_READERS: dict[str, Reader] = {
    "island": _island,
    "do": _space,
    "use": _cards,
    "equipment": _equipment,
    "shipment": _shipment,
    "close": _cards,
    "discard": _cards,
    "corporation": _cards,
    "keep": _cards,
    "artifact": _artifact,
    "enrich": _metal,
    "buy": _enriched,
    "lift": _enriched,
    "upgrade": _enriched,
    "crush": _enriched,
    "pay": _enriched,
    "mine": _mine,
    "collect": _site,
    "demolish": _site,
    "place": _place,
    "get": _goods,
    "give": _goods,
}
"""How each kind of option id names what it is about (the engine's own grammar, read only here)."""


# --- as JSON -----------------------------------------------------------------------------


def to_json(scene: SeatScene) -> str:
    return json.dumps(codec.to_plain(scene), separators=(",", ":"), ensure_ascii=False)


def from_json(data: str) -> SeatScene:
    """The message `to_json` wrote; ValueError if it is of another format."""
    plain = json.loads(data)
    if not isinstance(plain, dict) or plain.get("format") != FORMAT:
        found = plain.get("format") if isinstance(plain, dict) else None
        raise ValueError(f"a seat message of format {found!r}; this reads format {FORMAT}")
    scene: SeatScene = codec.decoder(SeatScene)(plain)
    return scene


def catalogue_to_json(content: Content) -> str:
    """The game's content (the cards and the board, public), for a seat that is not in this process."""
    return json.dumps(codec.to_plain(content), separators=(",", ":"), ensure_ascii=False)


def catalogue_from_json(data: str) -> Content:
    content: Content = codec.decoder(Content)(json.loads(data))
    return content
