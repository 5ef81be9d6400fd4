"""The engine (`rules`) must never depend on the terminal front end or its libraries.

That no module of `rules` imports them is a contract of `lint-imports` (pyproject.toml, "engine-alone").
What a contract cannot see is checked here: that importing every module of `rules`, the libraries it uses
included, loads none of them, however they are reached.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

FORBIDDEN = ("textual", "rich", "lagoon_tui")
RULES_DIR = Path(__file__).resolve().parents[1] / "rules"

IMPORT_ALL_OF_RULES = """
import importlib, json, pathlib, sys
import rules
root = pathlib.Path(rules.__file__).parent
names = []
# Walk files rather than pkgutil, so folders without __init__.py are covered too.
for path in sorted(root.rglob("*.py")):
    parts = ("rules",) + path.relative_to(root).with_suffix("").parts
    name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    importlib.import_module(name)
    names.append(name)
forbidden = sorted(m for m in sys.modules if m.split(".")[0] in FORBIDDEN)
print(json.dumps({"imported": names, "forbidden": forbidden}))
""".replace("FORBIDDEN", repr(FORBIDDEN))


def test_importing_every_rules_module_loads_no_ui_library():
    env = dict(os.environ, PYTHONPATH=str(RULES_DIR.parent))
    result = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL_OF_RULES],
        cwd=RULES_DIR.parent,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert len(report["imported"]) > 1, "walked no submodules of rules"
    assert report["forbidden"] == []
