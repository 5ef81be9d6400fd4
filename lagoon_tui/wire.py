"""The line a seat in another process talks over: one frame a line, `<kind> <JSON>`.

The host's side sends a seat the game's content once (`content`), then a
message after every change (`scene`, a `rules.seat.SeatScene` as `to_json`
writes it), the answer to each request (`answer`) and anything it must be told
(`presence`, `computers`, `notice`, `bye`; at a finished game of `lagoon serve`, `rematch`: where its
rematch stands). The seat sends its requests: `choose` with an option id, `undo` (and at a finished game
`rematch`, `log`). The kind comes first so that a reader
knows what the JSON is before it parses it; JSON never holds a raw newline,
so a line is a frame.
"""

from __future__ import annotations

import json

FRAME_MOST = 8 * 1024 * 1024
"""The longest frame either side reads (a whole log of a long game is well under 1 MB)."""


class WireError(ValueError):
    """A frame that is not one: the other side is broken or hostile; the link is closed."""


def frame(kind: str, body: object = None, *, raw: str | None = None) -> bytes:
    """One frame; `raw` is JSON already written (a seat message), sent as it is."""
    text = raw if raw is not None else json.dumps(body, separators=(",", ":"), ensure_ascii=False)
    return f"{kind} {text}\n".encode()


def parse(line: bytes) -> tuple[str, str]:
    """(kind, the JSON text) of one frame, its JSON not yet read."""
    if len(line) > FRAME_MOST or not line.endswith(b"\n"):
        raise WireError("a frame too long, or cut short")
    try:
        text = line[:-1].decode()
    except UnicodeDecodeError:
        raise WireError("a frame that is not UTF-8") from None
    kind, space, body = text.partition(" ")
    if not space or not kind.replace("_", "").isalpha():
        raise WireError(f"a frame without a kind: {text[:40]!r}")
    return kind, body


def body(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:
        raise WireError(f"a frame whose JSON does not read: {text[:40]!r}") from None
