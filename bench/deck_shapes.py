"""Reading deck files of hostile shapes: the time and memory of `check_content` on each.

    python bench/deck_shapes.py

Each shape of tests/test_deck_shapes.py (1 MB files: a dotted key of half a
million parts, lists nested half a million deep, a hundred thousand keys...) is
written as the deals of a copy of the shipped decks and read once for its CPU
time and once under tracemalloc for its peak. The aim (issue 32): every such
file is refused or loaded within 2 s and 200 MB. A benchmark, not a test: the
test measures memory only.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules.loader import check_content, default_content_dir  # noqa: E402
from tests.helpers.shapes import SHAPES  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        directory = Path(folder) / "content"
        shutil.copytree(default_content_dir(), directory)
        print(f"{'shape':42} {'CPU s':>6} {'peak MB':>8}  first problem")
        for name, make in SHAPES.items():
            (directory / "deals.toml").write_text(make(), encoding="utf-8")
            cpu = time.process_time()
            problems = check_content(directory)
            cpu = time.process_time() - cpu
            tracemalloc.start()
            check_content(directory)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            first = problems[0][len(str(directory)) + 1 :][:70] if problems else "(loads)"
            print(f"{name:42} {cpu:6.2f} {peak / 2**20:8.1f}  {first}")


if __name__ == "__main__":
    main()
