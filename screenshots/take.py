"""Regenerate the SVG screenshots in this folder (run by `make screenshots`).

Every still of `tests/helpers/stills.py` is taken at 80×24 and at 160×50, from a
fixed seed, so the pictures change only when what a player sees changes.
"""

from __future__ import annotations

import sys
from pathlib import Path

from textual._doc import take_svg_screenshot

# The stills are the snapshot tests' own (tests/helpers/stills.py), kept out of the wheel; the checkout's
# top folder goes on the path as pytest puts it there, so the module has the same name in both.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.helpers.stills import STILLS  # noqa: E402

SIZES = ((80, 24), (160, 50))


def main() -> None:
    out = Path(__file__).resolve().parent
    for name, make in STILLS.items():
        for width, height in SIZES:
            app, steps = make()
            svg = take_svg_screenshot(app=app, terminal_size=(width, height), run_before=steps)
            path = out / f"{name}-{width}x{height}.svg"
            path.write_text(svg)
            print(path.relative_to(out.parent), file=sys.stderr)


if __name__ == "__main__":
    main()
