"""One game hosted for seats in other processes: `Room`.

A room holds the game's `Host` (which saves every accepted choice before
anyone is told of it) and a link to each process that shows a seat: at most
one link a seat (a seat that connects again takes its place over from the
stale one), and any number of spectators (seat None). After every change each
link is sent its own seat's message, bringing only the log lines it does not
hold yet. A link may only ask for its own seat: a choice or an undo sent while
another seat decides is refused, whatever the option. A link that asks to
`leave` goes back to whoever handed it to the room (the lobby), still open;
one that leaves for another game of its player's (`leave {"elsewhere": true}`)
keeps its seat present (`elsewhere`) until the room's owner says it is `gone`.
A seat that has moved is sent, before its first message, the board as it saw
it just after its last move (`baseline`), to mark what changed since.

The room tells every link which players are away (`presence`: a person's
seat that no link shows, and those a computer plays for meanwhile), and says in words (`notice`) when one leaves or
comes back, and when one takes back a move (what was taken back is told to
that player alone: it can name their own cards), and who is watching
(`watchers`: the names of the spectators whose links are open, sent to every
link as they come and go). The game waits for an
absent player's decision; whoever hosts the room may let a computer play for
them (`stand_in`, asked by the others with `stand_in {"seat": n}`).

A person's turn waits for "End turn" after a move that can still be taken
back, as at one keyboard (`rules.host.Host.confirming`), so that their undo
reaches it; each player may turn that off for themselves (`hold_turns
{"on": false}`: the room's owner may keep it theirs, `on_hold`), and each
link of a seat is told whether it is on (`holding`), as it joins and when it
changes. Computers, and a computer standing in, are never held.

Which seats computers play, at which level, and whether the deciding one is
thinking now (`computers`) is public, as the lobby lists it: a link is told
it just before the message it goes with, whenever it differs from what that
link was told last (a game of people alone never sends it). So is the
deciding seat's clock in a game with a pace (`clock`: whose, and "has 21 h
left"), and again whenever its words change.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from rules.host import Host, NotMade, NoUndo, Rejection
from rules.seat import catalogue_to_json, to_json

from ..wire import WireError, body, frame, parse
from . import faults
from .busy import cores
from .records import log_answer

WRITE_BUFFER_MOST = 16 * 1024 * 1024
"""Bytes a link may leave unread before it is dropped (a client that stopped reading)."""


@dataclass(eq=False)
class Link:
    seat: int | None
    writer: asyncio.StreamWriter
    held: int = 0  # how many lines of its seat's log the far side holds
    name: str | None = None  # its player's name (a spectator's is shown to the players)
    key: str | None = None  # its player's key (the lobby tells them what happens in their other rooms)
    told: tuple = ((), False)  # the computers' levels and the thinking flag it was last sent
    clock: dict | None = None  # the deciding seat's clock, as it was last sent (`Room.clock`)
    closed: asyncio.Event = field(default_factory=asyncio.Event)

    def send(self, data: bytes) -> None:
        if self.closed.is_set():
            return
        if self.writer.transport.get_write_buffer_size() > WRITE_BUFFER_MOST:
            self.close()
            return
        self.writer.write(data)

    def close(self) -> None:
        if not self.closed.is_set():
            self.closed.set()
            self.writer.close()


class Room:
    def __init__(self, host: Host, people: tuple[int, ...] | None = None, *, reopened: bool = False) -> None:
        """`people`: the seats of persons (the rest are computer players, never away); default every seat.

        `reopened`: a game the server had before it stopped, so each player who comes is back in it.
        """
        self.host = host
        self.names = [player["name"] for player in host.scene(None).view["players"]]
        self.people = tuple(range(len(self.names))) if people is None else people
        self.links: list[Link] = []
        self._catalogue = frame("content", raw=catalogue_to_json(host.content))
        self._flush_due = False
        self._owed: set[Link] = set()  # the links not yet sent the latest change
        self._later: asyncio.TimerHandle | None = None  # when they will be
        self._forget = False  # an undo: every link is sent its whole log again
        self._arrived = set(self.people) if reopened else set()  # the seats whose players had the game on screen
        # what the room's owner does when a player leaves or comes back, and when the others ask
        # that a computer play for one who left (its answer is the request's)
        self.on_presence: Callable[[int, bool], None] = lambda seat, back: None
        self.stand_in: Callable[[int, int], dict] = lambda asker, seat: {"refused": "Not in this game."}
        # whether the deciding seat's computer is deciding now (its owner plays the computers; nobody here)
        self.thinking: Callable[[], bool] = lambda: False
        # the deciding seat's clock in a game with a pace (`serve.days`): {"seat", "says"}, or None
        self.clock: Callable[[], dict | None] = lambda: None
        self.paced = False  # a game over days: a player who left has a clock that runs on (`serve.days`)
        # a finished game's rematch: a seat's answer (true, false; None: where it stands), answered by the owner
        self.rematch: Callable[[int | None, object], dict] = lambda seat, accept: {"refused": "Not in this game."}
        self.rematch_room: Callable[[], str | None] = lambda: None  # (the finished game's rematch's, once started)
        # a seat's player asks that their turns wait for End turn, or no more (the owner keeps it theirs)
        self.on_hold: Callable[[int, bool], dict] = lambda seat, on: self.hold(seat, on)
        # why a seat's player may not move now though it is their turn (a computer plays out a turn whose
        # time ran out, `serve.days`), or None
        self.barred: Callable[[int], str | None] = lambda seat: None
        # whether a link's player has another session at the server (its owner's): one whose session here ends
        # then is not leaving (`elsewhere`)
        self.at_server: Callable[[Link], bool] = lambda link: False
        self.onlooker_wait: Callable[[], float] = cores.onlooker_wait  # (seconds: see `_flush`)
        self.standing_in: set[int] = set()  # the seats a computer plays while their player is away (its owner's)
        self.elsewhere: set[int] = set()  # seats whose player went to another game of theirs (`serve.turns`)
        self._levels = tuple(sorted(host.computers.items()))  # (seat, level) of each seat a computer plays
        host.hold_turns(self.people, True)  # (each player may turn it off for themselves)
        self.called = "a room"  # which room this is, for a line of the server's console (its owner names it)
        host.on_change(self._changed)

    def seated(self, seat: int) -> bool:
        """Whether a process shows `seat` now."""
        return any(link.seat == seat and not link.closed.is_set() for link in self.links)

    @property
    def away(self) -> list[int]:
        return [seat for seat in self.people if not self.seated(seat) and seat not in self.elsewhere]

    def notice(self, text: str, *, but: int | None = None) -> None:
        """`text` told to every link (but `but`'s seat): words anyone at the table may read."""
        for link in self.links:
            if link.seat is None or link.seat != but:
                link.send(frame("notice", {"text": text}))

    def notice_to(self, seat: int, text: str) -> None:
        """`text` told to `seat`'s own links only."""
        for link in self.links:
            if link.seat == seat:
                link.send(frame("notice", {"text": text}))

    def _presence(self, seat: int | None, back: bool) -> None:
        """Every link told who is away now, and in words that `seat`'s player left or came back."""
        if seat is None:
            return
        name = self.names[seat]
        if not back:
            if self.host.over:
                next_room = self.rematch_room()
                said = f"{name} left; the rematch is in room {next_room}." if next_room else f"{name} left."
            elif self.paced:
                said = f"{name} left; their clock runs on, and when it runs out a computer makes their move."
            else:
                said = f"{name} left; the game waits for them to return."
        elif seat in self._arrived:
            said = f"{name} is back."
        else:
            said = f"{name} joined the game."
        self._arrived.add(seat)
        self.notice(said, but=seat)
        self.on_presence(seat, back)
        self.tell_presence()

    def tell_presence(self) -> None:
        """Every link told who is away now, and for which of them a computer plays."""
        data = self._presence_frame()
        for link in self.links:
            link.send(data)

    def tell_watchers(self) -> None:
        """Every link told who is watching now."""
        data = self._watchers_frame()
        for link in self.links:
            link.send(data)

    def _watchers_frame(self) -> bytes:
        names = dict.fromkeys(link.name or "?" for link in self.links if link.seat is None and not link.closed.is_set())
        return frame("watchers", {"names": list(names)})

    def _presence_frame(self) -> bytes:
        away = self.away
        elsewhere = sorted(seat for seat in self.elsewhere if not self.seated(seat))
        stood_in = [seat for seat in away if seat in self.standing_in]
        return frame("presence", {"away": away, "stood_in": stood_in, "elsewhere": elsewhere})

    async def attach(
        self,
        seat: int | None,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        name: str | None = None,
        key: str | None = None,
    ) -> None:
        """Serve one link until it closes or leaves: the content, the seat's message, then an answer to each
        request. `name`: its player's, shown to the others while a spectator watches; `key`: theirs."""
        link = Link(seat, writer, name=name, key=key)
        returning = seat is not None and not self.seated(seat)
        self.elsewhere.discard(seat)  # (back from another game of theirs: as one who comes back)
        if seat is not None:
            for stale in [other for other in self.links if other.seat == seat]:
                stale.send(frame("bye", {"reason": "You joined this game from another terminal."}))
                stale.close()
                self.links.remove(stale)
        self.links.append(link)
        link.send(self._catalogue)
        seen = None if seat is None else self.host.view_after_last_move(seat)
        if seen is not None:  # (what the seat saw just after its last move, to mark what changed since)
            link.send(frame("baseline", {"view": seen}))
        if seat is not None:
            link.send(frame("holding", {"on": self.host.holds_turns((seat,))}))
        # who is away and who watches, before the first message: the screen is drawn once, as it is
        if returning:
            self._presence(seat, back=True)  # (every link told, this one too)
        else:
            link.send(self._presence_frame())
        if seat is None:
            self.tell_watchers()
        else:
            link.send(self._watchers_frame())
        self._send_scene(link)
        self._owed.discard(link)  # (a return the log records is in that message: not sent again)
        try:
            while not link.closed.is_set():
                line = await reader.readline()
                if not line:
                    break
                kind, text = parse(line)
                if kind == "leave":
                    request = body(text)
                    if link.seat is not None and isinstance(request, dict) and request.get("elsewhere") is True:
                        self.elsewhere.add(link.seat)  # (to another game of theirs: not leaving this one)
                    link.send(frame("answer", {"left": True}))
                    self._drop(link)
                    return
                link.send(frame("answer", self._answered(link, kind, body(text))))
                self._flush(first=link)
        except (WireError, ConnectionError, asyncio.LimitOverrunError, ValueError):
            pass  # (a broken or hostile client: its link goes, the game is untouched)
        link.close()
        closed_here = link in self.links and link.seat is not None and self.at_server(link)
        if closed_here and link.seat is not None:
            self.elsewhere.add(link.seat)  # (this screen closed while another of theirs is at the server)
        self._drop(link, closed_here)

    def _drop(self, link: Link, closed_here: bool = False) -> None:
        """`link` gone; `closed_here`: its screen closed while its player has another session at the server."""
        if link in self.links:  # (not if a newer link of its seat took its place)
            self.links.remove(link)
            if link.seat is None:
                self.tell_watchers()
            elif link.seat in self.elsewhere:
                name = self.names[link.seat]
                self.notice(
                    f"{name} closed this game's screen but is still at the server, and is told when it turns to them."
                    if closed_here
                    else f"{name} is in another of their games here, and is told when this one turns to them."
                )
                self.tell_presence()  # (their prompt line says so while it is their turn)
            elif not self.seated(link.seat):
                self._presence(link.seat, back=False)

    def hold(self, seat: int, on: bool) -> dict:
        """`seat`'s turns wait for End turn from now on, or no more; its link is told (`holding`)."""
        self.host.hold_turns((seat,), on)
        holding = self.host.holds_turns((seat,))
        for link in self.links:
            if link.seat == seat:
                link.send(frame("holding", {"on": holding}))
        return {"holding": holding}

    def gone(self, seat: int) -> None:
        """`seat`'s player, who went from this game to another of theirs, went back to the lobby or away: they
        left this game now (unless a link of theirs shows it again)."""
        if seat in self.elsewhere:
            self.elsewhere.discard(seat)
            if not self.seated(seat):
                self._presence(seat, back=False)

    def close(self, reason: str) -> None:
        """Every link told `reason` and ended (the game itself is saved as it goes: nothing is lost)."""
        for link in list(self.links):
            link.send(frame("bye", {"reason": reason}))
            link.close()

    def _answered(self, link: Link, kind: str, request: object) -> dict:
        """The answer to a request: `_answer`'s, or on a bug a refusal in words and a line on the server's
        console (`faults`); the room goes on. A request a game does not take (WireError) ends the link."""
        try:
            return self._answer(link, kind, request)
        except WireError:
            raise
        except Exception as error:
            return {"refused": faults.bug(f"{self.called}, seat {link.seat}, request {kind[:20]}", error)}

    def _answer(self, link: Link, kind: str, request: object) -> dict:
        if kind == "stand_in" and isinstance(request, dict) and isinstance(request.get("seat"), int):
            if link.seat is None:
                return {"refused": "Only the players may decide that."}
            return self.stand_in(link.seat, request["seat"])
        if kind == "hold_turns" and isinstance(request, dict) and isinstance(request.get("on"), bool):
            if link.seat is None or link.seat not in self.people:
                return {"refused": "Only the players' own turns wait for End turn."}
            return self.on_hold(link.seat, request["on"])
        if kind == "rematch" and isinstance(request, dict):
            return self.rematch(link.seat, request.get("accept"))
        if kind == "log":  # (a finished game's whole log: public by then)
            return log_answer(self.host)
        if kind not in ("choose", "undo"):
            raise WireError(f"a request this server does not take in a game: {kind}")
        turn = self.host.turn()
        if link.seat is None or turn.seat != link.seat:
            return {"refused": "It is not your turn.", "title": "Not your turn"}
        if (why := self.barred(link.seat)) is not None:
            return {"refused": why, "title": "Not your move"}
        if kind == "choose" and isinstance(request, str):
            result = self.host.choose(request)
            if isinstance(result, NotMade):  # (the save file refused it, say: whoever runs the server is told)
                faults.noted(f"{self.called}, seat {link.seat}, a move", result.reason)
                return {"refused": result.reason, "title": result.title, "not_made": True}
            if isinstance(result, Rejection):
                return {"refused": result.reason, "title": "Not allowed"}
            return {"made": True}
        if kind == "undo":
            point = self.host.undo()
            if isinstance(point, NoUndo):
                return {"no_undo": point.reason}
            self._forget = True  # the log lost its last lines: every link is sent its log afresh
            self.notice(f"{self.names[link.seat]} took back a move.", but=link.seat)
            return {"undone": point.what}
        raise WireError(f"a choice that is not an option id: {request!r:.40}")

    def _changed(self) -> None:
        if not self.host.changes:
            return
        self._owed.update(self.links)
        if not self._flush_due:
            self._flush_due = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self, first: Link | None = None) -> None:
        """Every link its seat's message, once for however many changes came since the last.

        A change a link asked for is shown at once to that link and to the link
        of the seat asked to decide now (if another), and to the others
        `onlooker_wait()` seconds later (0.1 s, up to three when the
        machine's cores are saturated: `serve.busy`), in one message for every change
        made meanwhile: every screen of the game is drawn again after each
        message, each by its own process, on the same cores; the player who
        pressed the key and the one whose turn it is wait for theirs, the
        onlookers wait for nothing, and a player's quick keys cost each onlooker
        one drawing, not one a key.
        """
        if not self._flush_due:
            return
        self._flush_due = False
        if self._forget:  # (an undo: the logs lost lines, so each is sent whole)
            self._forget = False
            for link in self.links:
                link.held = 0
        if first is not None and first in self._owed:
            decider = self.host.turn().seat
            deciding = [link for link in self.links if decider is not None and link.seat == decider]
            for link in (first, *deciding):
                if link in self._owed:
                    self._owed.discard(link)
                    self._show(link)
            if self._owed and self._later is None:
                self._later = asyncio.get_running_loop().call_later(self.onlooker_wait(), self.send_owed)
        else:
            self.send_owed()

    def send_owed(self) -> None:
        """Every link that has not seen the latest changes, sent them now."""
        if self._later is not None:
            self._later.cancel()
            self._later = None
        owed, self._owed = self._owed, set()
        for link in self.links:
            if link in owed:
                self._show(link)

    def _show(self, link: Link) -> None:
        """`_send_scene`, a bug in it reported with the seat's name: the other seats still get theirs."""
        try:
            self._send_scene(link)
        except Exception as error:
            faults.bug(f"{self.called}, seat {link.seat}, its screen", error)

    def tell_clock(self) -> None:
        """Every link told the deciding seat's clock, if its words changed since it was last told."""
        clock = self.clock()
        for link in self.links:
            self._send_clock(link, clock)

    def _send_clock(self, link: Link, clock: dict | None) -> None:
        if clock != link.clock:
            link.clock = clock
            link.send(frame("clock", clock))

    def _send_scene(self, link: Link) -> None:
        self._send_clock(link, self.clock())  # (before the message: the two are shown together)
        told = (self._levels, self.thinking())
        if told != link.told:  # (before the message: the two are shown together)
            link.told = told
            levels = {str(seat): level for seat, level in self._levels}
            link.send(frame("computers", {"levels": levels, "thinking": told[1]}))
        scene = self.host.scene(link.seat, log_from=link.held)
        link.held = scene.log_from + len(scene.log)
        link.send(frame("scene", raw=to_json(scene)))
