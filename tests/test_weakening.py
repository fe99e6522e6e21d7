"""`dangerous-command.weakened-scanning`: a commit range that loosens the scan's own setup
(config, baseline, inline ignores) is reported; locally the repository's config still applies."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import commit, git
from wukong_lint.cli import main
from wukong_lint.sources.weakening import config_changes

TOKEN = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"
RULE = "dangerous-command.weakened-scanning"


def lines(old: dict, new: dict) -> list[str]:
    return [line for line, _ in config_changes(old, new)]


def test_config_changes():
    assert lines({}, {"ignore": ["secret", "anchor"]}) == ["ignore secret", "ignore anchor"]
    assert lines({"ignore": ["secret"]}, {"ignore": "secret"}) == []
    assert "unselect secret" in lines({}, {"select": ["anchor"]})
    assert lines({"select": ["secret"]}, {"select": ["secret.jwt"]}) == []  # still reached
    assert lines({}, {"per-path-ignores": {"src/*": ["secret"]}}) == [
        "per-path-ignore secret src/*"
    ]
    assert lines({}, {"builtin-rules": False}) == ["builtin-rules off"]
    assert lines({"fail-on": "high"}, {"fail-on": "critical"}) == ["fail-on critical"]
    assert lines({"fail-on": "high"}, {"fail-on": "medium"}) == []  # stricter
    assert lines({}, {"allow-comments": ["gitleaks"]}) == ["allow-comments gitleaks"]
    params = {"rule-params": {"secret.jwt": {"severity": "low"}}}
    assert lines({}, params) == ["rule-params secret.jwt severity"]
    raised = {"rule-params": {"secret.jwt": {"severity": "critical"}}}
    assert lines(params, raised) == []


@pytest.fixture
def weakened(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """main: a config and a baseline; feature: secrets ignored in the config, a baseline
    entry added, an inline ignore on a new token, the built-in rules off... and an anchor
    category ignored (not a security category: not reported)."""
    monkeypatch.chdir(repo)
    commit(repo, ".wukong-lint.yaml", "baseline: base.json\n", "config")
    commit(repo, "base.json", json.dumps({"version": 1, "findings": []}), "empty baseline")
    git(repo, "checkout", "-qb", "feature")
    entry = {"rule_id": "secret.github-pat", "path": "a.py", "hash": "ab" * 32, "fingerprint": "f"}
    commit(repo, "base.json", json.dumps({"version": 1, "findings": [entry]}), "accept")
    commit(
        repo,
        ".wukong-lint.yaml",
        "baseline: base.json\nignore: [anchor, secret.jwt]\nper-path-ignores:\n"
        "  'tests/*': [secret]\n",
        "loosen",
    )
    commit(repo, "app.py", f"x = 1\nT = '{TOKEN}'  # wukong-lint: ignore\n", "inline")
    return repo


def test_range_reports_each_weakening(weakened: Path, capsys):
    code = main(["check", "--diff", "main...feature", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    found = sorted(
        (f["path"], f["line"], f["message"]) for f in report["findings"] if f["rule_id"] == RULE
    )
    assert found == [
        (".wukong-lint.yaml", 2, "The change weakens security scanning (ignore secret.jwt)"),
        (
            ".wukong-lint.yaml",
            4,
            "The change weakens security scanning (per-path-ignore secret tests/*)",
        ),
        (
            "app.py",
            2,
            "The change weakens security scanning (inline-ignore secret.github-pat app.py)",
        ),
        ("base.json", 1, "The change weakens security scanning (baseline secret.github-pat a.py)"),
    ]
    assert code == 0  # medium: reported, and the run does not fail at the default fail-on
    assert TOKEN not in json.dumps(report)
    # one per commit and its message (as --history); the setup units are not files
    assert report["stats"]["files"] == 6


def test_rule_can_be_raised_or_turned_off(weakened: Path, capsys):
    code = main(["check", "--diff", "main...feature", "--fail-on", "medium", "--format", "json"])
    assert code == 1
    capsys.readouterr()
    code = main(["check", "--diff", "main...feature", "--ignore", RULE, "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and not [f for f in report["findings"] if f["rule_id"] == RULE]


def test_locally_the_repositorys_own_config_applies(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    commit(repo, "a.py", "a = 1\n", "base")
    git(repo, "checkout", "-qb", "feature")
    commit(repo, ".wukong-lint.yaml", "ignore: [secret]\n", "quiet")
    commit(repo, "b.py", f"T = '{TOKEN}'\n", "leak")
    code = main(["check", "--diff", "main...feature", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0  # the work tree's config ignores secrets: trusted locally
    assert [(f["rule_id"], f["message"]) for f in report["findings"]] == [
        (RULE, "The change weakens security scanning (ignore secret)")
    ]


def test_a_hostile_config_is_not_expanded(repo: Path, monkeypatch, capsys):
    """A pull request's config is untrusted: YAML aliases (exponential expansion) are not
    followed by the comparison."""
    monkeypatch.chdir(repo)
    commit(repo, "pyproject.toml", "[project]\nname = 'x'\n", "not ours")
    git(repo, "checkout", "-qb", "feature")
    bomb = "a: &a ['x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x']\n"
    for i in range(1, 10):
        bomb += f"{chr(97 + i)}: &{chr(97 + i)} [" + ", ".join([f"*{chr(96 + i)}"] * 9) + "]\n"
    from wukong_lint.sources.weakening import config_at

    (repo / ".wukong-lint.yml").write_text(bomb)
    git(repo, "add", ".wukong-lint.yml")
    git(repo, "commit", "-qm", "bomb")
    assert config_at("HEAD") == (".wukong-lint.yml", bomb, {})
    assert config_at("main") == (None, "", {})  # no config (pyproject without our table)
