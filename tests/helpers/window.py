"""One window on a saved game, as a real process of its own, driven line by line on stdin.

Run as `python tests/helpers/window.py DB GAME`. Each line is a command and
gets one line of JSON back: `ok`, `length` (this window's log, after the
command) and, when refused, `error` (the sentence a player would be shown).

- `open` / `open take`: open the game for writing (`take`: take it over)
- `move`: choose the first option the rules offer, as the app does (Host)
- `undo`: take back this seat's last move of the turn, as `u` does
- `hold`: take the game over again *without* reading it anew (a window whose
  engine is behind the saved log, which only the length check can stop)
- `quit`: close the store as the app does when it ends, and exit
"""

from __future__ import annotations

import json
import sys

from rules import load_content
from rules.host import Host
from rules.saves import Store, StoreError
from rules.saves.recorder import open_game


def main(db: str, game: int) -> None:
    store, content, host = Store(db), load_content(), None

    def say(ok: bool, error: str = "") -> None:
        print(json.dumps({"ok": ok, "length": len(host.engine.events) if host else 0, "error": error}), flush=True)

    for line in sys.stdin:
        command = line.split()
        try:
            if command[0] == "open":
                host = Host(open_game(store, game, content, take_over="take" in command))
            elif command[0] == "move":
                result = host.choose(host.engine.legal_ids()[0])
                if not result:
                    say(False, result.reason)
                    continue
            elif command[0] == "undo":
                point = host.undo()
                if not point:
                    say(False, point.reason)
                    continue
            elif command[0] == "hold":
                store.hold(game, take_over=True)
            elif command[0] == "quit":
                store.close()
                say(True)
                return
        except StoreError as error:
            say(False, str(error))
            continue
        say(True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
