"""A deck file of any shape, up to the size limit, is read in memory in proportion to its size.

Each file here is as big as a deck file may be (1 MB) and shaped to hurt a TOML
parser or the checks after it: a dotted key of half a million parts once took
gigabytes before it was refused. The files are read in a process of their own,
with its address space capped, so a regression fails here instead of taking
the machine's memory. Memory is measured (the process's peak resident size),
never time.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.loader import MAX_FILE_BYTES
from tests.helpers.shapes import SHAPES

PEAK_MB = 200
"""The most memory reading one such file may hold at once."""

CAP_BYTES = 2_000_000_000
"""The address space of the reading process: a regression ends there with a MemoryError."""


READER = """
import json, resource, sys
from pathlib import Path
resource.setrlimit(resource.RLIMIT_AS, ({cap}, {cap}))
from rules.loader import check_content
try:
    problems = check_content(Path(sys.argv[1]))
except MemoryError:
    problems = None
status = Path("/proc/self/status")
if status.exists():  # this process's own peak: ru_maxrss also counts the parent it was forked from
    peak = next(int(line.split()[1]) for line in status.read_text().splitlines() if line.startswith("VmHWM:"))
else:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"problems": problems, "peak": peak * 1024}}))
"""


@pytest.fixture(scope="module")
def read(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """Every shape read as the deals of a copy of the decks, each in a capped process of its own:
    shape -> the problems found and the most memory the process held (its peak resident size)."""
    import shutil

    from rules.loader import default_content_dir

    rows = {}
    for n, (name, make) in enumerate(SHAPES.items()):
        folder = tmp_path_factory.mktemp(f"shape{n}") / "content"
        shutil.copytree(default_content_dir(), folder)
        data = make().encode("utf-8")
        assert len(data) <= MAX_FILE_BYTES, name
        (folder / "deals.toml").write_bytes(data)
        result = subprocess.run(
            [sys.executable, "-c", READER.format(cap=CAP_BYTES), str(folder)],
            capture_output=True,
            text=True,
            timeout=300,  # a hang guard only
            check=False,
        )
        assert result.returncode == 0, result.stderr[-2000:]
        rows[name] = json.loads(result.stdout) | {"folder": str(folder)}
    return rows


@pytest.mark.parametrize("shape", SHAPES)
def test_a_file_of_any_shape_is_refused_or_loaded_in_bounded_memory(read: dict[str, dict], shape: str) -> None:
    row = read[shape]
    assert row["problems"] is not None, f"{shape}: MemoryError"
    assert row["peak"] <= PEAK_MB * 2**20, f"{shape}: {row['peak'] / 2**20:.0f} MB at the peak"
    deals = f"{row['folder']}/deals.toml"
    assert all(p.startswith(deals + ": ") and len(p) < len(deals) + 300 for p in row["problems"]), row["problems"][:3]


def test_the_shipped_deals_with_a_huge_comment_load(read: dict[str, dict]) -> None:
    """Strings and comments are left out of the counting: brackets and dots in them are just text."""
    assert read["the shipped deals and a huge comment"]["problems"] == []
    assert read["a huge multi-line string"]["problems"] == [
        f"{read['a huge multi-line string']['folder']}/deals.toml: unknown top-level key 'x' (expected only: deal)",
        f"{read['a huge multi-line string']['folder']}/deals.toml: no [[deal]] tables",
    ]


@pytest.mark.parametrize(
    "text",
    [
        'a = """x""""\nb = 1',
        "b = '''it''s'''\nc = 1",
        'c = "a#b" # "not a string\nd = 1',
        "d = 'a\\'\ne = 1",
        'e = "\\\\"\nf = 1',
        "'f.g'.\"h\".i = 1",
        'x = """\na.b.c.d.e.f [[[[[[[[[[[[[[[[[[\n"""\ny = 1',
        'x = """""a.b.c.d.e.f.g"""""\ny = 1',
    ],
)
def test_strings_are_read_as_toml_reads_them(text: str) -> None:
    """What TOML takes as a string or a comment is never counted as a key or a bracket; a key of
    more than four parts after it still is."""
    import tomli

    from rules.loader import _shape_problem

    tomli.loads(text)
    assert _shape_problem(text) is None
    assert _shape_problem(text + "\nk.k.k.k.k = 1") == (
        f"line {text.count(chr(10)) + 2}: a dotted key or table name of more than 4 parts cannot be read"
    )


TRICKY = "a.[]{}\"'\\#=, \n"
"""Characters that mean something to TOML outside a string."""


@st.composite
def toml_strings(draw) -> str:
    """A string value written in one of TOML's four ways, holding any of the `TRICKY` characters."""
    text = draw(st.text(alphabet=TRICKY, max_size=12))
    one_line = text.replace("\n", "")
    how = draw(st.sampled_from(["basic", "literal", "multi-line basic", "multi-line literal"]))
    if how == "basic":
        return json.dumps(one_line)
    if how == "literal":
        return "'" + one_line.replace("'", "") + "'"
    if how == "multi-line basic":
        return '"""' + text.replace("\\", "\\\\").replace('"', '\\"') + '"""'
    return "'''" + text.replace("'", "") + "'''"


@settings(max_examples=200, deadline=None)
@given(values=st.lists(st.tuples(toml_strings(), st.text(alphabet=TRICKY.replace("\n", ""), max_size=8)), max_size=6))
def test_the_counting_reads_strings_and_comments_as_the_parser_does(values: list[tuple[str, str]]) -> None:
    """Whatever a string or a comment holds, the file is read as the parser reads it: nothing in
    them counts, and a long dotted key after them is found on its line."""
    import tomli

    from rules.loader import _shape_problem

    text = "".join(f"k{n} = {value} # {comment}\n" for n, (value, comment) in enumerate(values))
    tomli.loads(text)
    assert _shape_problem(text) is None
    lines = text.count("\n") + 1
    assert _shape_problem(text + "k.k.'k'.\"k\".k = 1") == (
        f"line {lines}: a dotted key or table name of more than 4 parts cannot be read"
    )
