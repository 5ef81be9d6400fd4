"""`InputFilter`: the terminal's bytes made safe for Textual's parser (lagoon_tui/terminal_input.py).

The filter is fed bytes in pieces as a terminal's reads come; what it hands
on is checked as text, and, where it matters, as the keys and pastes Textual's
own parser makes of it (`keyboard.messages_for`). The same behaviour on a
real terminal is in test_hostile_keyboard.py.
"""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys

import pytest
from textual import events

from lagoon_tui import turbo
from lagoon_tui.terminal_input import PASTE_END, PASTE_START, REPORT_RATE, InputFilter, pieces
from lagoon_tui.turbo import keyboard


def fed(pieces: list[bytes], limit: int = 64) -> str:
    keys = InputFilter(paste_limit=limit)
    return "".join(keys.feed(piece) for piece in pieces)


def parsed(text: str) -> list[events.Event]:
    return [message for message in keyboard.messages_for(text) if isinstance(message, events.Key | events.Paste)]


def typed(text: str) -> list[str]:
    """The keys the app is sent for `text`."""
    return [message.key for message in keyboard.messages_for(text) if isinstance(message, events.Key)]


def test_bytes_that_are_not_utf8_are_dropped_and_split_characters_kept():
    assert fed([b"a\xffb\xfe", b"\xc0\xafc"]) == "abc"
    assert fed([b"\xe2\x82", b"\xac!"]) == "€!"  # a character split between two reads
    assert fed([b"\xe2\x82", b"x"]) == "x"  # a character cut short
    assert fed([b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"ok"]) == "ok"  # a surrogate, past U+10FFFF


def test_a_paste_passes_whole_when_it_ends():
    text = fed([b"x" + PASTE_START.encode() + b"hello ", "wörld".encode() + PASTE_END.encode() + b"y"])
    assert text == f"x{PASTE_START}hello wörld{PASTE_END}y"
    assert [getattr(m, "text", None) or m.key for m in parsed(text)] == ["x", "hello wörld", "y"]


def test_paste_markers_split_between_reads_are_seen():
    data = PASTE_START.encode() + b"abc\x11" + PASTE_START.encode() + b"d" + PASTE_END.encode()
    for cut in range(1, len(data)):
        for second in range(cut, len(data)):
            pieces = [data[:cut], data[cut:second], data[second:]]
            assert fed(pieces) == f"{PASTE_START}abc{PASTE_END}\x11{PASTE_START}d{PASTE_END}", pieces


@pytest.mark.parametrize("key", [b"\x11", b"\x03", b"\x1b[113;5u", b"\x1b[99;5u", b"\x1b[113;69u"])
def test_ctrl_q_or_ctrl_c_ends_a_paste_that_never_ends_and_is_a_key(key):
    text = fed([PASTE_START.encode() + b"some text", key, b"j"])
    assert text == f"{PASTE_START}some text{PASTE_END}{key.decode()}j"
    kinds = [type(m).__name__ for m in parsed(text)]
    assert kinds == ["Paste", "Key", "Key"]


def test_other_kitty_keys_do_not_end_a_paste():
    text = fed([PASTE_START.encode() + b"a\x1b[113u\x1b[113;6u"])  # q alone, ctrl+shift+q
    assert PASTE_END not in text
    assert text == f"{PASTE_START}a[113u[113;6u"  # (ESC dropped inside a paste)


def test_a_paste_is_cut_at_its_limit_and_the_rest_dropped_up_to_its_end():
    keys = InputFilter(paste_limit=100)
    out = keys.feed(PASTE_START.encode())
    for _ in range(1000):
        out += keys.feed(b"0123456789" * 10)
        assert len(out) <= 100 + 2 * len(PASTE_START)
    out += keys.feed(b"more" + PASTE_END.encode() + b"k")
    assert out == PASTE_START + "0123456789" * 10 + PASTE_END + "k"
    assert not keys.pasting


def test_a_megabyte_paste_hands_on_at_most_the_limit():
    keys = InputFilter()
    rng = random.Random(1)
    total = len(keys.feed(PASTE_START.encode()))
    for _ in range(256):  # 1 MB in the 4 KB reads the driver makes
        total += len(keys.feed(bytes(rng.randrange(32, 127) for _ in range(4096))))
    total += len(keys.feed(PASTE_END.encode()))
    assert total == keys.paste_limit + 2 * len(PASTE_START)


def test_escape_inside_a_paste_never_makes_keys():
    text = fed([PASTE_START.encode() + b"a\x1b" + b"x" * 40 + b"\x1b[A" + PASTE_END.encode()], limit=1000)
    messages = parsed(text)
    assert [type(m).__name__ for m in messages] == ["Paste"]
    assert messages[0].text == "a" + "x" * 40 + "[A"


def test_outside_a_paste_nothing_is_held_back():
    keys = InputFilter()
    assert keys.feed(b"\x1b") == "\x1b"  # the escape key reaches the parser at once
    assert keys.feed(b"[200") == "[200"
    keys.timed_out()  # the parser gave up on "ESC[200": "~" cannot start a paste now
    assert keys.feed(b"~q") == "~q"
    assert not keys.pasting


def test_random_bytes_never_leave_a_paste_open_past_ctrl_c():
    rng = random.Random(32)
    for _ in range(200):
        keys = InputFilter(paste_limit=256)
        for _ in range(20):
            chunk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
            if rng.random() < 0.3:
                chunk += rng.choice([PASTE_START, PASTE_END, "\x1b[20", "\x1b"]).encode()
            keys.feed(chunk)
        keys.feed(b"\x03")
        assert not keys.pasting


def test_the_apps_read_the_keyboard_through_the_filter():
    """`lagoon play` (LagoonApp) and `lagoon session` (SessionApp, each SSH player's app) alike."""
    from lagoon_tui.app import LagoonApp
    from lagoon_tui.link import Link
    from lagoon_tui.session_app import SessionApp

    if keyboard.SWITCHED_OFF:
        pytest.skip("the keyboard piece of lagoon_tui.turbo is switched off here")
    assert keyboard.ON, f"the keyboard guard is off: {keyboard.MISFIT}"
    assert LagoonApp().driver_class is keyboard.KeyboardDriver
    ours, theirs = socket.socketpair()
    with theirs:
        link = Link(ours)
        try:
            assert SessionApp(link).driver_class is keyboard.KeyboardDriver
        finally:
            link.close()


def read_apart(text: str) -> list[str]:
    """The keys the driver's way of reading `text` in one read sends: piece by piece, a failed parser replaced."""
    from textual._xterm_parser import XTermParser

    keys, parser = [], XTermParser()
    for piece in pieces(text):
        try:
            keys += [message.key for message in parser.feed(piece) if isinstance(message, events.Key)]
        except Exception:
            parser = XTermParser()
    return keys + [message.key for message in parser.feed("") if isinstance(message, events.Key)]


@pytest.mark.parametrize("bad", ["\x1b[1:2;3u", "\x1b[99999999u"])
def test_a_sequence_the_parser_cannot_read_costs_only_itself_not_the_keys_read_with_it(bad):
    text = f"a{bad}\rb"
    with pytest.raises(ValueError):  # (Textual's parser fails on it: what the pieces are for)
        keyboard.messages_for(text)
    assert read_apart(text) == ["a", "enter", "b"]


@pytest.mark.parametrize("begun", ["\x1b", "\x1b[", "\x1b[1;5"])
def test_pieces_rejoin_as_read_and_the_rest_of_a_sequence_begun_is_a_piece_of_its_own(begun):
    text = "A\rx\x1b[Bhi\x1bO"
    cut = pieces(text, begun)
    assert "".join(cut) == text
    assert cut[0] == "A" and cut[1:] == ["\rx", "\x1b[B", "hi", "\x1bO"]
    assert pieces("5u\r", "\x1b[1:2;3") == ["5u", "\r"]
    assert pieces("12", "\x1b[") == ["12"]  # (still not ended)


class Clock:
    """A clock the test moves by hand (the filter's rate is per second)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_typing_passes_whole():
    clock = Clock()
    keys = InputFilter(clock=clock)
    text = ""
    for n in range(3000):  # 3,000 keys, a held key's 50 a second, some of them arrows
        clock.now += 0.02
        text += keys.feed(b"\x1b[A" if n % 3 else b"j")
    assert text == ("j" + "\x1b[A" * 2) * 1000


def test_a_flood_of_keys_is_cut_to_the_typing_rate_but_ctrl_q_passes():
    clock = Clock()
    keys = InputFilter(rate=4096, clock=clock)
    out = "".join(keys.feed(b"x" * 4096) for _ in range(256))  # 1 MB at once, no paste markers
    assert out == "x" * 4096
    assert keys.feed(b"yy\x11zz\x1b[113;5u") == "\x11\x1b[113;5u"  # ctrl+q, plain or kitty, always
    assert keys.feed(PASTE_START.encode() + b"pasted" + PASTE_END.encode()) == f"{PASTE_START}pasted{PASTE_END}"
    clock.now += 1.0  # a second later, as much again
    assert keys.feed(b"x" * 5000) == "x" * 4096


def test_in_a_flood_a_whole_paste_marker_passes_and_a_split_one_is_dropped():
    clock = Clock()
    keys = InputFilter(rate=8, clock=clock)
    assert keys.feed(b"abcdefghij" + PASTE_START.encode() + b"text\x11") == f"abcdefgh{PASTE_START}text{PASTE_END}\x11"
    assert keys.feed(b"abcdefghij\x1b[20") == ""  # (still the flood: nothing of it, no half marker)
    assert keys.feed(b"0~text\x11") == "\x11"  # neither the parser nor the filter saw a paste begin
    assert not keys.pasting


def test_a_kitty_key_thousands_of_digits_long_is_only_text():
    """Python refuses to read an integer of more than 4,300 digits: the filter never tries."""
    huge = b"\x1b[113;" + b"9" * 6000 + b"u"
    keys = InputFilter(rate=100_000)  # (not a flood here)
    assert keys.feed(PASTE_START.encode() + huge + b"\x11") == PASTE_START + huge[1:].decode() + PASTE_END + "\x11"
    assert keys.feed(huge) == huge.decode()


def test_a_flood_of_mouse_moves_never_becomes_digits():
    """A cut inside a mouse report would hand the parser its digits as keys (and 1-9 pick options)."""
    clock = Clock()
    keys = InputFilter(rate=4096, clock=clock)
    moves = ("\x1b[<35;12;7M\x1b[<35;13;7M" * 2000).encode()
    text = ""
    for start in range(0, len(moves), 1000):  # reads that end anywhere, inside a report too
        clock.now += 0.05
        text += keys.feed(moves[start : start + 1000])
    assert len(text) < len(moves)  # (it was a flood)
    clock.now += 1.0
    text += keys.feed(b"1")  # a key after a quiet second
    assert typed(text) == ["1"]


REPLIES = ["\x1b[12;40R", "\x1b[?2026;2$y", "\x1b[I", "\x1b[O", "\x1b[3;12;7M"]
"""What a terminal sends unasked for or in answer to Textual (the cursor's position, a mode's report, focus,
an urxvt mouse report), besides SGR mouse reports."""


def test_a_fast_mouse_and_the_terminals_replies_never_cost_a_key():
    """1,000 mouse reports a second (a fast mouse on a big terminal) are 14,000 characters, past the typing rate."""
    clock = Clock()
    keys = InputFilter(clock=clock)
    sent = text = ""
    for tick in range(150):  # three seconds
        clock.now += 0.02
        moves = "".join(f"\x1b[<35;{100 + n};{tick % 50 + 1}M" for n in range(20))
        data = moves + REPLIES[tick % len(REPLIES)] + ("j" if tick % 5 == 0 else "")
        sent += data
        text += keys.feed(data.encode())
    assert text == sent
    assert typed(text) == ["j"] * 30


def test_a_flood_of_mouse_reports_is_bounded_and_keys_still_pass():
    clock = Clock()
    keys = InputFilter(clock=clock)
    move = "\x1b[<35;120;40M"
    text = keys.feed((move * 5000 + "j").encode())
    assert text == move * REPORT_RATE + "j"  # whole reports only, and the key
    clock.now += 0.5
    text = keys.feed((move * 5000 + "\x1b[12;40R" + "k").encode())
    assert text == move * (REPORT_RATE // 2) + "k"
    clock.now += 1.0
    assert keys.feed(b"\x1b[12;40Rq") == "\x1b[12;40Rq"


@pytest.mark.parametrize("head, rest", [(b"\x1b[<35;12", b";7M"), (b"\x1b[1;5", b"A"), (b"\x1b", b"[<35;12;7M")])
def test_the_rest_of_a_sequence_cut_by_a_read_passes_in_a_flood(head, rest):
    """The read ends inside a mouse report or a key (ctrl+up) as the rate runs out: its digits must not be keys."""
    clock = Clock()
    keys = InputFilter(rate=4096, clock=clock)
    text = keys.feed(b"x" * (4096 - len(head)) + head)  # the whole allowance
    text += keys.feed(rest + b"y" * 100 + b"\x1b[<35;12;7M")  # a flood now
    clock.now += 1.0
    text += keys.feed(b"1")
    keys_sent = typed(text)
    assert set(keys_sent[:-1]) <= {"x", "y", "ctrl+up"} and keys_sent[-1] == "1", keys_sent[4000:]


def test_the_keyboard_guard_stays_on_with_another_textual_release():
    """The speed pieces are for the release they were measured with; the guard is needed on any."""
    if turbo.switched_off("keyboard"):
        pytest.skip("the keyboard piece of lagoon_tui.turbo is switched off here")
    assert turbo.on("keyboard", release="99.0.0")
    assert not turbo.on("compositor", release="99.0.0")


class KeysOnly:
    """A parser that reads everything as keys, a paste's markers and text too."""

    def feed(self, text: str) -> list[events.Key]:
        return [events.Key(character, character) for character in text]

    def tick(self) -> list[events.Key]:
        return []


class Failing(KeysOnly):
    def feed(self, text: str) -> list[events.Key]:
        raise ValueError(text)


class Untimed:
    """A parser without the `tick` that lets an unfinished sequence time out."""

    def feed(self, text: str) -> list[events.Key]:
        return []


@pytest.mark.skipif(sys.platform == "win32", reason="the keyboard guard has no place on Windows")
def test_the_guard_checks_textuals_parser_and_driver_for_what_it_uses():
    from textual.drivers.linux_driver import LinuxDriver

    class Unset(LinuxDriver):
        def __init__(self) -> None:  # (sets neither its fileno nor its exit_event)
            pass

    assert keyboard.misfit(KeysOnly, LinuxDriver) == "KeysOnly reads a key and a paste differently"
    assert keyboard.misfit(Failing, LinuxDriver) == "Failing fails on a key and a paste (ValueError)"
    assert keyboard.misfit(Untimed, LinuxDriver) == "Untimed.tick is missing"
    assert keyboard.misfit(KeysOnly, Unset) == "Unset no longer sets fileno"


@pytest.mark.skipif(sys.platform == "win32", reason="the keyboard guard has no place on Windows")
def test_a_textual_without_what_the_guard_uses_turns_it_off_with_a_line():
    env = {name: value for name, value in os.environ.items() if name not in (turbo.SWITCH, "TEXTUAL_DRIVER")}
    code = """
from textual.drivers.linux_driver import LinuxDriver
del LinuxDriver.run_input_thread
from lagoon_tui.turbo import keyboard
print(keyboard.ON, keyboard.driver_class())
"""
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["False", "None"]
    assert run.stderr.startswith("lagoon: keyboard guard off (LinuxDriver.run_input_thread is missing in "), run.stderr
    assert len(run.stderr.splitlines()) == 1
