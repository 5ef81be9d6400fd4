"""`lagoon serve` played as friends play it: the real command, the stock OpenSSH client, one tmux pane each.

The server is `lagoon serve` on a free loopback port with its own save file
and host key; each player is `ssh -tt` with a key of their own, checking the
server's key against a known_hosts line built from it (StrictHostKeyChecking
on). Everything each player's terminal receives is recorded (tmux
pipe-pane), and after every move it is searched, escape sequences removed,
for the secrets of the other seats: the objectives they were dealt and the
deals in their hands. The seats' secrets are read from the save file, which
the test may open (the players may not). (A face-down gallery has no words of
its own: its metal and size read as a face-up one's do. That no seat's
message ever holds one is tested by re-dealing them, in tests/test_seat_scene.py.)

Skipped where tmux or OpenSSH is missing, except in CI (.ci/run installs them).
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

import pytest

from lagoon_tui.widgets.prompt import GAME_OVER
from lagoon_tui.widgets.words import deal_needs
from rules import load_content
from rules.engine import Engine
from rules.saves import Store
from tests.helpers.redeal import shown_to
from tests.helpers.ssh_players import (
    ANSI,
    REASON,
    YOUR_MOVE,
    Player,
    make_room,
    move,
    mover,
    mover_now,
    new_player,
    two_playing,
)
from tests.helpers.terminal import TIMEOUT, flat, panels

if REASON and os.environ.get("CI"):
    raise RuntimeError(f"CI must run the lagoon serve tests, but {REASON}")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(REASON is not None, reason=REASON or "")]

CONTENT = load_content()


def deal_words(deal_id: str) -> set[str]:
    """A deal's terms as a player board writes them ("copper 1'+, iron 3'+ → 4 VP", one form at every
    width). No two deals of the decks ask for the same cubes."""
    deal = CONTENT.deals[deal_id]
    return {f"{deal_needs(deal.requires)} → {deal.vp} VP"}


class Secrets:
    """What each seat holds that the others must never be shown, by the words a screen would show it
    in: the names of its objectives (kept, or on offer while it chooses) and the terms of the deals in
    its hand, read from the save file. Once the game is over every hand is shown to all."""

    def __init__(self, db: Path) -> None:
        self.db = db

    def now(self) -> tuple[list[set[str]], list[tuple[set[str], set[str]]]]:
        """For each seat: the words it must not have received (another seat's secrets it was never shown),
        and the words of its own secrets (the names of the objectives it kept, the terms of its deals)."""
        with Store(self.db) as store:
            info = store.games()[0]
            if info.over:
                return [set() for _ in info.names], [(set(), set()) for _ in info.names]
            saved = store.load(info.id)
        engine = Engine(CONTENT, saved.events, saved.marks)
        players = engine.state.players
        hidden, own = [], []
        for seat, me in enumerate(players):
            shown = shown_to(seat, engine.events)
            words: set[str] = set()
            for other in players:
                if other is me:
                    continue
                words |= {CONTENT.objectives[o].name for o in (*other.objectives, *other.objective_offer)}
                words |= {w for d in other.deals if d not in shown for w in deal_words(d)}
            hidden.append(words - {CONTENT.objectives[o].name for o in shown if o in CONTENT.objectives})
            kept = {CONTENT.objectives[o].name for o in me.objectives}
            own.append((kept, {w for d in me.deals for w in deal_words(d)}))
        return hidden, own


def test_three_friends_play_a_whole_game_over_ssh_and_nobody_sees_another_seats_secrets(server):
    ana = new_player(server, "Ana")
    code = make_room(ana, "3")  # you and 2 friends

    ben, cleo = (new_player(server, name, "join", code) for name in ("Ben", "Cleo"))
    players = [ana, ben, cleo]
    for friend in (ben, cleo):
        friend.wait("has not started yet")
    ana.wait("waiting for Ana to start")
    ana.type("s")
    for friend in (ben, cleo):
        friend.wait("Score · goal")  # (taken to the game, its board, as it starts)
    dan = new_player(server, "Dan")  # a stranger, who watches
    dan.wait("Your games")
    dan.type("j")
    dan.wait("Join a room")
    dan.type(code, "Enter")
    dan.wait("Score · goal")  # (the game, as everyone sees it)
    moves, secrets = 0, Secrets(server.db)
    # (the words searched for are those a screen shows, or the search proves nothing: each seat's own
    # objectives must be found, on its screen or in what came to it, and of its deals at least one if it held
    # any: a hand of many deals may run past the foot of its board, read in full with `b`)
    kept: list[set[str]] = [set() for _ in players]
    held = [False for _ in players]
    found: list[set[str]] = [set() for _ in players]
    stalled = time.monotonic() + TIMEOUT  # (no one screen asking for a move for that long: a screen is wrong)
    while not all("Final ranking" in p.screen() for p in players):
        for each in players:  # the game is over, its last board on screen: Enter for the scores
            if GAME_OVER in flat(each.screen()):
                each.type("Enter")
        player = mover(players)
        if player is None:
            if time.monotonic() > stalled:
                screens = "\n".join(p.screen() for p in players)
                pytest.fail(f"after move {moves} no one screen asks for a move:\n{screens}")
            continue
        stalled = time.monotonic() + TIMEOUT
        before = player.screen()
        player.type("1")
        player.tmux.wait_for(lambda s, before=before: s != before, f"{player.name}'s move {moves}")
        moves += 1
        hidden, own = secrets.now()
        for seat, each in enumerate(players):
            # (what came since the last move, and the screen's panels, each read whole: a deal's terms may be
            # wrapped inside a narrow board, its two lines never side by side in what came)
            seen = [each.received(), *panels(each.screen())]
            leaked = {words for words in hidden[seat] if any(words in text for text in seen)}
            assert not leaked, f"{each.name} received {leaked} after move {moves}"
            objectives, deals = own[seat]
            kept[seat] |= objectives
            held[seat] = held[seat] or bool(deals)
            found[seat] |= {words for words in objectives | deals if any(words in text for text in seen)}
        assert moves < 3000, "the game never ended"
    assert moves > 100
    for each, objectives, dealt, shown in zip(players, kept, held, found):
        assert objectives - shown == set(), f"{each.name}'s objectives never came to their screen"
        assert shown - objectives or not dealt, f"none of {each.name}'s deals came to their screen"
    dan.wait(GAME_OVER)
    dan.type("Enter")
    dan.wait("Final ranking")
    for p in (*players, dan):
        p.type("b")  # leave the ended game: back in the lobby
        p.wait("Your games")


def standing(screen: str) -> tuple:
    """Where a game stands, as a screen shows it: each player's money and VP, and the log's newest line (the
    marks of what changed since the reader's last move left out: a new session has none to compare with)."""
    text = re.sub(r" \*[+-]\d+", "", flat(screen))
    return tuple(re.findall(r"Money \$\d+ +VP \d+", text)), text.rsplit("Log", 1)[-1][-60:]


def test_a_dropped_player_comes_back_a_stranger_watches_and_a_restarted_server_resumes(server):
    code, (ana, ben) = two_playing(server)
    players = [ana, ben]
    for _ in range(6):
        move(players)
    # Ben's connection drops on his turn; Ana is told, and the game waits for him
    while mover(players) is not ben:
        move(players)
    assert ben.title() == "Lagoon · Your turn"
    board = flat(ben.screen())
    ben.leave()
    ana.wait("who left")  # ("Waiting for Ben [Y], who left: the game waits for them to return")
    ana.hears("Ben left")  # (a toast: it may come a frame after the prompt says so)
    # the same key again: his seat, exactly where it was
    ben = Player(server, "Ben", "join", code)
    ben.wait(YOUR_MOVE)
    ana.wait("Ben is back")
    assert "who left" not in flat(ana.screen())
    assert standing(ben.screen()) == standing(board)
    # another key is a stranger: it watches, and is asked nothing
    eve = new_player(server, "Eve", "join", code)
    eve.wait("Score · goal")
    assert YOUR_MOVE not in flat(eve.screen())
    players = [ana, ben]
    move(players)
    # the server stops: everyone is told; started again, the room goes on where it was
    before = {p.name: flat(p.screen()) for p in players}
    assert server.stop() == 0
    for p in (ana, ben, eve):
        p.ended_with("The Lagoon server is stopping; your game is saved.")
        p.leave()
    server.start()
    ana, ben = Player(server, "Ana", "join", code), Player(server, "Ben", "join", code)
    players = [ana, ben]
    for p in players:
        p.wait("Score · goal")
        p.tmux.wait_for(lambda s, p=p: standing(s) == standing(before[p.name]), "the game as it was")
    move(players)
    for p in (ana, ben, eve):
        p.leave()


def test_a_session_without_a_terminal_is_told_how_to_connect(server):
    done = subprocess.run(
        server.client("ana")[:1] + ["-T"] + server.client("ana")[2:],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 1
    assert f"connect with ssh -t -p {server.port}" in done.stderr + done.stdout


HELD = "Your turn is over."


def test_over_ssh_a_turn_waits_for_end_turn_u_takes_its_move_back_and_a_player_may_turn_that_off(server):
    """Issue 34, point 5, over SSH: a move that ended a player's turn waits for End turn (Enter) on their
    terminal alone, `u` takes it back; the palette's "End turn: ask or not" turns that off for that
    player only."""
    _code, (ana, ben) = two_playing(server)
    players = [ana, ben]
    for _ in range(40):  # to the first move that ends a turn and can still be taken back
        held = move(players)
        if HELD in flat(held.screen()):
            break
    else:
        pytest.fail("no turn of the first 40 moves waited for End turn")
    other = ben if held is ana else ana
    other.wait(f"Waiting for {held.name}")
    assert mover_now(players) is held and YOUR_MOVE not in flat(other.screen())  # (once no screen is changing)
    held.type("u")
    held.hears("Took back:")
    other.hears(f"{held.name} took back a move.")
    held.tmux.wait_for(lambda s: HELD not in flat(s) and YOUR_MOVE in flat(s), "the move taken back")
    held.type("1")  # the same move again, then Enter: the turn goes on to the other player
    held.wait(HELD)
    held.type("Enter")
    other.wait(YOUR_MOVE)
    # the player turns it off for themselves: their turns end at their last move, the other's still wait
    held.type("C-p")
    held.wait("Commands")
    held.type("End turn")
    held.wait("End turn: ask or not")
    held.type("Enter")
    held.hears("Each turn ends at its last move.")
    theirs = mine = 0
    for _ in range(200):
        if theirs and mine > 8:
            break
        player = move(players)
        shown = flat(player.screen())
        if player is held:
            mine += 1
            assert HELD not in shown, f"{held.name}'s turn waited after they turned End turn off"
        elif HELD in shown:
            theirs += 1
    assert theirs and mine > 8, (theirs, mine)


def test_a_player_who_joins_by_code_before_the_room_starts_waits_and_is_taken_in_as_it_starts(server):
    """`ssh -t -p PORT HOST join CODE` as the README shows it, by a player the server knows already (so the
    code is joined as soon as the server greets them, before their lobby has come): they wait in the room,
    as with j in the lobby, and are taken into the game when its maker starts it, which then goes on."""
    ben = new_player(server, "Ben")
    ben.wait("Your games")
    ben.leave()
    ana = new_player(server, "Ana")
    code = make_room(ana, "1")  # you and a friend
    ben = Player(server, "Ben", "join", code)
    ben.hears("This room's game has not started yet: it starts when")
    ana.wait("waiting for Ana to start")
    ana.type("s")
    players = [ana, ben]
    for p in players:
        p.wait("Score · goal")
    while mover(players) is not ben:  # the game goes on, Ben's decisions too
        move(players)
    move(players)
    heard = ANSI.sub("", ben.stream.read_text(errors="replace"))
    assert "This room's game has not started yet." not in heard  # (never refused)


def test_over_ssh_a_sixth_wrong_room_code_is_refused_with_a_wait(server):
    """Issue 36, point 8, through the real server and OpenSSH: five wrong codes typed with j are each
    refused as unknown, the sixth with the wait (the minute's end is the lobby's own test: no clock here)."""
    mal = new_player(server, "Mal")
    mal.wait("Your games")
    for n in range(6):
        mal.type("j")
        mal.wait("Enter: join · Esc: back")
        mal.type(f"WRONG{n}", "Enter")
        if n < 5:
            mal.hears(f"There is no room 'WRONG{n}': check the code.")
    mal.hears("Too many wrong codes: try again in a minute.")
    heard = ANSI.sub("", mal.stream.read_text(errors="replace"))
    assert "There is no room 'WRONG5'" not in heard


QUIT_QUESTION = "Leave Lagoon? Your seat is kept: the game waits for you until you connect again"


def test_over_ssh_ctrl_q_on_ones_own_turn_asks_no_plays_on_yes_leaves_and_the_other_is_told(server):
    """Issue 35, point 7, over SSH: ctrl+q on a player's own turn asks first (their seat kept, the game
    waiting); n goes back to the game, which goes on; y leaves, and the other player is told. Not on
    one's turn, ctrl+q leaves at once."""
    _code, (ana, ben) = two_playing(server)
    players = [ana, ben]
    asked = mover_now(players)
    other = ben if asked is ana else ana
    asked.type("C-q")
    asked.wait(QUIT_QUESTION)
    assert QUIT_QUESTION not in flat(other.screen())
    asked.type("n")
    asked.tmux.wait_for(lambda s: QUIT_QUESTION not in flat(s) and YOUR_MOVE in flat(s), "back to the game")
    assert move(players) is asked  # (the game goes on: their move is made)
    leaving = mover_now(players)
    staying = ben if leaving is ana else ana
    leaving.type("C-q")
    leaving.wait(QUIT_QUESTION)
    leaving.type("y")
    leaving.gone()
    staying.hears(f"{leaving.name} left")
    staying.wait("who left")
    staying.type("C-q")  # (not their turn: no question)
    staying.gone()
    assert QUIT_QUESTION not in ANSI.sub("", staying.stream.read_text(errors="replace"))


def test_over_ssh_a_name_in_use_is_refused_to_another_key_and_a_rename_reaches_the_others_lobby(server):
    """Issue 35, point 1, over SSH: a second key asking for "ana" while Ana is on is told why and asked
    again; r in the lobby renames, and the room's maker sees the new name in her lobby."""
    ana = new_player(server, "Ana")
    code = make_room(ana, "1")  # you and a friend
    ben = Player(server, "Ben", "join", code)
    ben.wait("What name should the others see?")
    ben.type("ana", "Enter")
    ben.wait("Another player of this server is called Ana already")
    ben.type("BSpace", "BSpace", "BSpace", "Ben", "Enter")  # (in one send: the server reads them at once)
    ben.wait(f"Room {code} (you sit here)")  # (issue 35, point 4: he waits in the room; Esc: the lobby)
    ben.type("Escape")
    ben.wait("Lagoon · Ben")
    ana.wait(f"{code} Ana, Ben ·")
    ben.type("r")
    ben.wait("Your new name")
    ben.type("BSpace", "BSpace", "BSpace")
    ben.wait("your name")
    ben.type("Benedict", "Enter")
    ben.wait("Lagoon · Benedict")
    ana.wait(f"{code} Ana, Benedict ·")
