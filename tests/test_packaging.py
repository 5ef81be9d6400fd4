"""The built wheel is what we publish: it installs with pipx and plays on its own.

Builds the wheel from this checkout, installs it with pipx (pinned in the test
extras) into a fresh environment under the test's own folder, and runs the
installed `lagoon` from an unrelated folder with a bare environment. The wheel
must hold the game and its decks, its licence and metadata, and nothing of the
tests.

Building and installing need only pip's own settings (pip.conf, PIP_INDEX_URL,
PIP_FIND_LINKS...), which the test passes on. Without the internet, point pip
at a mirror, or at a folder of wheels with PIP_NO_INDEX=1 PIP_FIND_LINKS=DIR,
that holds hatchling, the game's dependencies and a pip new enough for pipx's
shared environment (26.1 or newer for pipx 1.18.4).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import zipfile
from email.message import Message
from email.parser import Parser
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

REPO_ROOT = Path(__file__).resolve().parents[1]
DISTRIBUTION = "miners-lagoon"
WHEEL_STEM = "miners_lagoon"

INSIDE_CHECK = textwrap.dedent(
    """
    import json, os, sys, sysconfig
    import rules, rules.loader
    content = rules.loader.load_content()
    content_dir = rules.loader.default_content_dir().resolve()
    print(json.dumps({
        "content_dir": str(content_dir),
        "decks": sorted(p.name for p in content_dir.glob("*.toml")),
        "rules_file": rules.__file__,
        "site_packages": sysconfig.get_paths()["purelib"],
        "sys_path": [os.path.abspath(entry) for entry in sys.path],
    }))
    """
)


def run(cmd: list, **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [str(part) for part in cmd],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=900,
        check=False,
        **kwargs,
    )
    assert result.returncode == 0, f"{cmd} failed:\n{result.stdout}\n{result.stderr}"
    return result


def source_version() -> str:
    """The version as written in its one place."""
    text = (REPO_ROOT / "lagoon_tui" / "__init__.py").read_text()
    (version,) = re.findall(r'^__version__ = "([^"]+)"$', text, flags=re.MULTILINE)
    return version


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from this checkout, as `pip wheel` builds it for an upload."""
    wheels = tmp_path_factory.mktemp("wheels")
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", wheels, REPO_ROOT], env=pip_env())
    (built,) = wheels.glob("*.whl")
    return built


def pip_env() -> dict[str, str]:
    """This environment less the checkout on the path and any pipx setting of the caller's."""
    return {
        key: value
        for key, value in os.environ.items()
        if key not in ("PYTHONPATH", "PYTHONHOME") and not key.startswith("PIPX_")
    }


@pytest.fixture(scope="module")
def pipx_install(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The wheel installed by pipx into its own fresh environment; the folders it used."""
    root = tmp_path_factory.mktemp("pipx")
    places = {"home": root / "home", "bin": root / "bin", "man": root / "man"}
    env = pip_env() | {
        "PIPX_HOME": str(places["home"]),
        "PIPX_BIN_DIR": str(places["bin"]),
        "PIPX_MAN_DIR": str(places["man"]),
    }
    run([sys.executable, "-m", "pipx", "install", "--python", sys.executable, wheel], env=env)
    places["venv"] = places["home"] / "venvs" / DISTRIBUTION
    return places


def clean_run(bin_dir: Path, cwd: Path, *args) -> subprocess.CompletedProcess:
    """Run an installed program from `cwd` with a bare environment."""
    env = {
        "PATH": f"{bin_dir}{os.pathsep}{os.defpath}",
        "HOME": str(cwd),
        "LANG": "C.UTF-8",
    }
    return run(list(args), cwd=cwd, env=env)


def metadata(wheel: Path) -> Message:
    with zipfile.ZipFile(wheel) as archive:
        return Parser().parsestr(archive.read(f"{WHEEL_STEM}-{source_version()}.dist-info/METADATA").decode())


def test_wheel_is_named_and_versioned_from_one_place(wheel):
    assert wheel.name == f"{WHEEL_STEM}-{source_version()}-py3-none-any.whl"
    facts = metadata(wheel)
    assert facts["Name"] == DISTRIBUTION
    assert facts["Version"] == source_version()


def test_wheel_metadata_says_licence_classifiers_and_links(wheel):
    facts = metadata(wheel)
    assert facts["License-Expression"] == "MIT"
    assert facts.get_all("License-File") == ["LICENSE"]
    classifiers = facts.get_all("Classifier")
    assert "Topic :: Games/Entertainment :: Board Games" in classifiers
    assert "Environment :: Console" in classifiers
    links = dict(line.split(", ", 1) for line in facts.get_all("Project-URL"))
    assert links["Changelog"] == "CHANGELOG.md" and (REPO_ROOT / links["Changelog"]).is_file()
    assert all((REPO_ROOT / target).is_file() for target in links.values())


def test_wheel_holds_the_game_and_no_tests(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        licence = archive.read(f"{WHEEL_STEM}-{source_version()}.dist-info/licenses/LICENSE").decode()
        entry_points = archive.read(f"{WHEEL_STEM}-{source_version()}.dist-info/entry_points.txt").decode()
    assert licence == (REPO_ROOT / "LICENSE").read_text()
    assert "lagoon = lagoon_tui.cli:main" in entry_points.splitlines()
    tops = {name.split("/")[0] for name in names}
    assert tops == {"rules", "lagoon_tui", f"{WHEEL_STEM}-{source_version()}.dist-info"}
    assert "lagoon_tui/cli.py" in names and "rules/_content/board.toml" in names
    test_files = [name for name in names if Path(name).name.startswith(("test_", "conftest", "stills"))]
    assert not test_files


def test_pipx_installs_the_lagoon_command(pipx_install):
    command = pipx_install["bin"] / "lagoon"
    assert command.is_file()
    assert command.resolve().is_relative_to(pipx_install["venv"].resolve())


def test_installed_lagoon_plays_computers_as_the_checkout_does(pipx_install, tmp_path):
    game = ["simulate", "--players", "2", "--games", "1", "--seed", "7", "--bots", "easy,normal", "--json"]
    installed = clean_run(pipx_install["bin"], tmp_path, "lagoon", *game)
    report = json.loads(installed.stdout)
    assert report["games"] == 1 and report["players"] == 2
    assert sum(report["end_reasons"].values()) == 1
    assert set(report["end_reasons"]) <= {"vp_goal", "last_round"}
    assert sum(report["win_share"]) == pytest.approx(1.0)
    checkout = run([sys.executable, "-m", "lagoon_tui", *game], cwd=REPO_ROOT, env=pip_env())
    assert report == json.loads(checkout.stdout)


def test_installed_lagoon_simulates_random_games(pipx_install, tmp_path):
    result = clean_run(
        pipx_install["bin"], tmp_path, "lagoon", "simulate", "--players", "3", "--games", "2", "--seed", "7", "--json"
    )
    report = json.loads(result.stdout)
    assert report["games"] == 2
    assert report["players"] == 3


def test_installed_lagoon_checks_its_own_decks(pipx_install, tmp_path):
    result = clean_run(pipx_install["bin"], tmp_path, "lagoon", "check-content")
    assert result.stdout.startswith("OK: ")


def test_decks_load_from_inside_site_packages(pipx_install, tmp_path):
    python = pipx_install["venv"] / "bin" / "python"
    result = clean_run(pipx_install["bin"], tmp_path, python, "-c", INSIDE_CHECK)
    facts = json.loads(result.stdout)
    site_packages = Path(facts["site_packages"]).resolve()
    assert Path(facts["content_dir"]).is_relative_to(site_packages)
    assert Path(facts["rules_file"]).resolve().is_relative_to(site_packages)
    shipped = sorted(p.name for p in (REPO_ROOT / "content").glob("*.toml"))
    assert shipped and facts["decks"] == shipped
    assert REPO_ROOT not in {Path(entry).resolve() for entry in facts["sys_path"]}
