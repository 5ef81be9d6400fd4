"""The player's README stays short and points to the host's page; the changelog names the version."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lagoon_tui import __version__
from lagoon_tui.cli import build_parser

REPO_ROOT = Path(__file__).resolve().parents[1]
README = REPO_ROOT / "README.md"
SERVE_DOC = REPO_ROOT / "docs" / "serve.md"
LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_readme_is_at_most_250_lines_and_16_kb():
    data = README.read_bytes()
    assert len(data.splitlines()) <= 250
    assert len(data) <= 16_000


@pytest.mark.parametrize("page", [README, SERVE_DOC], ids=lambda page: page.name)
def test_every_link_to_a_file_of_the_repository_leads_to_one(page):
    targets = [target for target in LINK.findall(page.read_text()) if "://" not in target]
    assert targets
    missing = [target for target in targets if not (page.parent / target.split("#")[0]).exists()]
    assert not missing


def test_readme_leaves_hosting_to_the_serve_page():
    readme = README.read_text()
    assert "(docs/serve.md)" in readme
    for detail in ("0.0.0.0", "ssh -L", "SIGTERM", "ssh-keygen", "--per-address"):
        assert detail not in readme, detail
    # but for one line: how many play at once, and how to set it (issue 35, point 9)
    assert readme.count("`--max-players N` sets how many play at once") == 1


def test_serve_page_covers_what_the_host_needs():
    headings = re.findall(r"^## (.+)$", SERVE_DOC.read_text(), flags=re.MULTILINE)
    for heading in ("Who may join", "The host key", "Reaching friends beyond this machine", "Limits", "Stopping"):
        assert heading in headings


def test_serve_page_names_every_option_of_lagoon_serve(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--help"])
    options = set(re.findall(r"(?<![\w-])--[a-z][a-z-]+", capsys.readouterr().out)) - {"--help"}
    assert options >= {"--host", "--port", "--host-key", "--allow-keys", "--max-players", "--per-address"}
    page = SERVE_DOC.read_text()
    assert not [option for option in sorted(options) if f"`{option}" not in page]


def test_changelog_names_the_version_of_the_package():
    changelog = (REPO_ROOT / "CHANGELOG.md").read_text()
    releases = re.findall(r"^## \[([^\]]+)\]", changelog, flags=re.MULTILINE)
    assert releases[0] == "Unreleased"
    assert releases[1] == __version__
