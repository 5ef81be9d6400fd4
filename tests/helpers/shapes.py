"""Deck files of every shape the loader must refuse or read within its bounds (about 1 MB each)."""

from __future__ import annotations

from collections.abc import Callable

from rules.loader import DECK_MOST, MAX_ENTRIES, MAX_FILE_BYTES, MAX_KEYS

SIZE = MAX_FILE_BYTES - 1000


def repeated(unit: str, head: str = "", tail: str = "") -> str:
    """`unit` as many times as fits between `head` and `tail` in `SIZE` bytes."""
    return head + unit * ((SIZE - len(head) - len(tail)) // len(unit)) + tail


def numbered(line: str) -> str:
    """`line` with its number filled in, line after line, up to `SIZE` bytes."""
    out, size, n = [], 0, 0
    while size < SIZE - 200:
        out.append(line.format(n))
        size += len(out[-1])
        n += 1
    return "".join(out)


def shipped_deals() -> str:
    from rules.loader import default_content_dir

    return (default_content_dir() / "deals.toml").read_text(encoding="utf-8")


SHAPES: dict[str, Callable[[], str]] = {
    "a dotted key": lambda: repeated(".a", "a", " = 1\n"),
    "a dotted table name": lambda: repeated(".a", "[a", "]\n"),
    "a dotted array-of-tables name": lambda: repeated(".a", "[[a", "]]\n"),
    "dotted keys of quoted parts": lambda: repeated('."a"', '"a"', " = 1\n"),
    "many keys of four parts": lambda: numbered("k{0}.b{0}.c{0}.d{0} = 1\n"),
    "inline tables nested": lambda: "x = " + "{a=" * 249_000 + "1" + "}" * 249_000,
    "lists nested": lambda: "x = " + "[" * 499_000 + "]" * 499_000,
    "many keys": lambda: numbered("k{} = 1\n"),
    "many tables": lambda: numbered("[t{}]\n"),
    "many cards": lambda: repeated("[[deal]]\n"),
    "many cards of one key": lambda: repeated('[[deal]]\nid = "a"\n'),
    "one card of many keys": lambda: "[[deal]]\n" + numbered("k{} = 1\n"),
    "an inline table of many keys": lambda: "x = {" + numbered("k{}=1,") + "z=1}\n",
    "a list of many numbers": lambda: repeated("1,", "x = [", "1]\n"),
    "a list of many empty tables": lambda: repeated("{},", "x = [", "{}]\n"),
    "a list of many strings": lambda: repeated('"ab",', "x = [", '"a"]\n'),
    "one huge string": lambda: repeated("a", 'x = "', '"\n'),
    "one huge key": lambda: repeated("a", '"', '" = 1\n'),
    "a card with a huge text": lambda: repeated("a", '[[deal]]\nid = "', '"\nvp = 1\nrequires = { gold = 1 }\n'),
    "a huge multi-line string": lambda: repeated("a.b.c.d.e.f [[[[ {{{{ = , \n", 'x = """', '"""\n'),
    "an unclosed string": lambda: repeated(".a", 'x = "', "\n"),
    "keys of four parts, as many as allowed": lambda: "".join(
        f"k{n}.b{n}.c{n}.d{n} = [1, 1]\n" for n in range(MAX_KEYS)
    ),
    "tables of four parts, as many as allowed": lambda: "".join(f"[t{n}.b{n}.c{n}.d{n}]\n" for n in range(MAX_KEYS)),
    "a list as long as allowed": lambda: "x = [" + "1, " * (MAX_ENTRIES - 2) + "1]\n",
    "500 cards of many unknown keys": lambda: "".join(
        f'[[deal]]\nid = "d{n}"\nvp = 1\nrequires = {{ gold = 1 }}\n'
        + "".join(f"k{k}{'x' * 40} = 1\n" for k in range(MAX_KEYS // DECK_MOST - 5))
        for n in range(DECK_MOST)
    ),
    "the shipped deals and a huge comment": lambda: repeated("a.b.c.d.e.f[[[[", shipped_deals() + "# ", "\n"),
}
