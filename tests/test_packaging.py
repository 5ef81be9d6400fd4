"""The built wheel works on its own: decks inside it, no checkout needed.

Builds the wheel, installs it into a brand-new venv and runs the installed
`lagoon` from an unrelated folder with a clean environment.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

REPO_ROOT = Path(__file__).resolve().parents[1]

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


@pytest.fixture(scope="module")
def installed_venv(tmp_path_factory) -> Path:
    """A fresh venv with only the freshly built wheel (and its dependencies)."""
    root = tmp_path_factory.mktemp("packaging")
    # pip's own settings may come from PIP_* variables; keep those, drop the checkout.
    pip_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    wheels = root / "wheels"
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", wheels, REPO_ROOT], env=pip_env)
    (wheel,) = wheels.glob("lagoon-*.whl")
    venv = root / "venv"
    run([sys.executable, "-m", "venv", venv], env=pip_env)
    run([venv / "bin" / "python", "-m", "pip", "install", "--quiet", wheel], env=pip_env)
    return venv


def clean_run(venv: Path, cwd: Path, *args) -> subprocess.CompletedProcess:
    """Run a venv program from `cwd` with a bare environment."""
    env = {
        "PATH": f"{venv / 'bin'}{os.pathsep}{os.defpath}",
        "HOME": str(cwd),
        "LANG": "C.UTF-8",
    }
    return run(list(args), cwd=cwd, env=env)


def test_installed_lagoon_simulates(installed_venv, tmp_path):
    result = clean_run(
        installed_venv,
        tmp_path,
        installed_venv / "bin" / "lagoon",
        "simulate",
        "--players",
        "3",
        "--games",
        "2",
        "--seed",
        "7",
        "--json",
    )
    report = json.loads(result.stdout)
    assert report["games"] == 2
    assert report["players"] == 3


def test_installed_lagoon_checks_its_own_decks(installed_venv, tmp_path):
    result = clean_run(installed_venv, tmp_path, installed_venv / "bin" / "lagoon", "check-content")
    assert result.stdout.startswith("OK: ")


def test_decks_load_from_inside_site_packages(installed_venv, tmp_path):
    result = clean_run(installed_venv, tmp_path, installed_venv / "bin" / "python", "-c", INSIDE_CHECK)
    facts = json.loads(result.stdout)
    site_packages = Path(facts["site_packages"]).resolve()
    assert Path(facts["content_dir"]).is_relative_to(site_packages)
    assert Path(facts["rules_file"]).resolve().is_relative_to(site_packages)
    shipped = sorted(p.name for p in (REPO_ROOT / "content").glob("*.toml"))
    assert shipped and facts["decks"] == shipped
    assert REPO_ROOT not in {Path(entry).resolve() for entry in facts["sys_path"]}
