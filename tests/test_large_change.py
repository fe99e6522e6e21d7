"""The large-scale change rule (`dangerous-command.large-change`) on real git repositories."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import git
from wukong_lint.cli import main

RULE = "dangerous-command.large-change"


@pytest.fixture
def in_repo(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(repo)
    return repo


def write_files(root: Path, count: int, prefix: str = "mod") -> None:
    for i in range(count):
        (root / f"{prefix}{i}.py").write_text(f"{prefix.upper()}_{i} = {i}\n")


def findings(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict]]:
    code = main(["check", "--format", "json", *args])
    report = json.loads(capsys.readouterr().out)
    return code, [f for f in report["findings"] if f["rule_id"] == RULE]


def test_eleven_staged_files_give_one_low_finding(in_repo: Path, capsys):
    write_files(in_repo, 11)
    git(in_repo, "add", ".")
    code, found = findings(capsys, "--staged")
    assert code == 0  # low: reported, never failing by default
    assert len(found) == 1
    finding = found[0]
    assert finding["severity"] == "low"
    assert finding["category"] == "dangerous-command"
    assert finding["path"] == "."
    assert "11 files changed, limit 10" in finding["message"]
    assert finding["source"]["kind"] == "diff"


def test_ten_staged_files_pass(in_repo: Path, capsys):
    write_files(in_repo, 10)
    git(in_repo, "add", ".")
    assert findings(capsys, "--staged")[1] == []


def test_deletions_and_renames_count(in_repo: Path, capsys):
    write_files(in_repo, 8)
    git(in_repo, "add", ".")
    git(in_repo, "commit", "-qm", "base")
    git(in_repo, "rm", "-q", "mod0.py", "mod1.py")
    git(in_repo, "mv", "mod2.py", "renamed.py")
    (in_repo / "mod3.py").write_text("MOD_3 = 33\n")
    write_files(in_repo, 7, prefix="new")
    git(in_repo, "add", ".")
    # 2 deleted + 1 renamed + 1 modified + 7 added = 11
    _, found = findings(capsys, "--staged")
    assert len(found) == 1
    assert "11 files changed" in found[0]["message"]


def test_ignore_option_turns_it_off(in_repo: Path, capsys):
    write_files(in_repo, 12)
    git(in_repo, "add", ".")
    assert findings(capsys, "--staged", "--ignore", RULE)[1] == []


def test_config_turns_it_off_or_raises_the_limit(in_repo: Path, capsys):
    write_files(in_repo, 12)
    git(in_repo, "add", ".")
    config = in_repo / ".wukong-lint.yaml"
    config.write_text(f"ignore: [{RULE}]\n")
    assert findings(capsys, "--staged")[1] == []
    config.write_text(f"rule-params:\n  {RULE}: {{enabled: false}}\n")
    assert findings(capsys, "--staged")[1] == []
    config.write_text(f"rule-params:\n  {RULE}: {{max_files: 20}}\n")
    assert findings(capsys, "--staged")[1] == []
    config.write_text(f"rule-params:\n  {RULE}: {{max_files: 5}}\n")
    found = findings(capsys, "--staged")[1]
    assert len(found) == 1 and "limit 5" in found[0]["message"]


def test_commit_range_reported_once(in_repo: Path, capsys):
    (in_repo / "README.md").write_text("base\n")
    git(in_repo, "add", ".")
    git(in_repo, "commit", "-qm", "base")
    base = git(in_repo, "rev-parse", "HEAD").strip()
    # spread over two commits: the range as a whole touches 14 files
    write_files(in_repo, 7, prefix="a")
    git(in_repo, "add", ".")
    git(in_repo, "commit", "-qm", "one")
    write_files(in_repo, 7, prefix="b")
    git(in_repo, "add", ".")
    git(in_repo, "commit", "-qm", "two")
    _, found = findings(capsys, "--diff", f"{base}..HEAD")
    assert len(found) == 1
    assert "14 files changed" in found[0]["message"]
    assert findings(capsys, "--diff", "HEAD~1..HEAD")[1] == []


def test_folder_scans_and_history_never_report_it(in_repo: Path, capsys):
    write_files(in_repo, 15)
    git(in_repo, "add", ".")
    git(in_repo, "commit", "-qm", "wide")
    assert findings(capsys, ".")[1] == []
    assert findings(capsys, "--history")[1] == []


def test_stats_count_only_files(in_repo: Path, capsys):
    write_files(in_repo, 11)
    git(in_repo, "add", ".")
    main(["check", "--format", "json", "--staged"])
    stats = json.loads(capsys.readouterr().out)["stats"]
    assert stats["files"] == 11
    assert stats["units"] == 11


def test_github_annotation_has_no_file(in_repo: Path, capsys):
    write_files(in_repo, 11)
    git(in_repo, "add", ".")
    main(["check", "--staged", "--format", "github"])
    lines = [line for line in capsys.readouterr().out.splitlines() if RULE in line]
    assert len(lines) == 1
    assert lines[0].startswith("::notice title=dangerous-command.large-change::")
