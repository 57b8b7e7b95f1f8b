"""The README works from a fresh clone: two setup commands first, every ``vsim`` command it
shows exists, and no link points outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

from simulate.cli import cli

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_first_two_lines_install_and_run_the_study_and_the_tests():
    first, second = README.splitlines()[:2]
    assert first.startswith("pip install -e . && vsim run ")
    assert second == 'pip install -e ".[test]" && pytest'


def test_the_readme_is_a_users_guide_under_300_lines():
    # issue 41: measurements and history go to CHANGELOG.md and docs/, not the README
    assert len(README.splitlines()) <= 300


def test_the_quickstart_is_on_the_first_screen():
    head = "\n".join(README.splitlines()[:60])
    assert "--until-clear" in head and "base.toml" in head


def test_every_link_in_the_docs_points_inside_the_repository():
    for doc in [ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = doc.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#]+)\)", text):
            if "://" not in target:
                assert (doc.parent / target).resolve().is_relative_to(ROOT), (doc, target)
                assert (doc.parent / target).exists(), (doc, target)


def test_every_vsim_command_the_readme_shows_exists():
    shown = set(re.findall(r"(?m)^\s*vsim ([a-z][a-z-]*)", README))
    shown |= set(re.findall(r"`vsim ([a-z][a-z-]*)", README))
    assert shown, "the README shows no vsim command"
    assert shown <= set(cli.commands), sorted(shown - set(cli.commands))


def test_no_link_or_path_points_outside_the_repository():
    assert "../" not in README
    for target in re.findall(r"\]\(([^)#]+)\)", README):
        if "://" not in target:
            assert (ROOT / target).exists(), target
    for path in re.findall(
        r"`((?:docs|notebooks|benchmarks|simulate|strategies)/[^`*<> ]+)`", README
    ):
        assert (ROOT / path).exists(), path
