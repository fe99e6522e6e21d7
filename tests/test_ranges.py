"""`check --diff`: every commit of the range is scanned on its own, findings carry the commit
that added the line, and a range that scans nothing is an error, never a clean pass."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import commit, git
from wukong_lint.cli import main

TOKEN = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"
STRIPE = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"


@pytest.fixture
def branch(repo: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """main: one commit; feature: a secret added, then removed, then another file."""
    monkeypatch.chdir(repo)
    shas = {"base": commit(repo, "app.py", "x = 1\n", "base")}
    git(repo, "checkout", "-qb", "feature")
    shas["leak"] = commit(repo, "app.py", f"x = 1\ntoken = '{TOKEN}'\n", "add token")
    shas["fix"] = commit(repo, "app.py", "x = 1\ntoken = None\n", "remove token")
    shas["docs"] = commit(repo, "README.md", "docs\n", "docs")
    return shas


def run(capsys, *args: str) -> tuple[int, dict, str]:
    code = main(["check", "--format", "json", *args])
    captured = capsys.readouterr()
    return code, (json.loads(captured.out) if captured.out.strip() else {}), captured.err


@pytest.mark.parametrize("spec", ["main...feature", "main..feature", "main"])
def test_secret_added_then_removed_is_reported_with_its_commit(branch, capsys, spec):
    code, report, _ = run(capsys, "--diff", spec)
    assert code == 1
    (finding,) = [f for f in report["findings"] if f["rule_id"] == "secret.github-pat"]
    assert (finding["path"], finding["line"]) == ("app.py", 2)
    assert finding["source"]["commit"] == branch["leak"]
    assert TOKEN not in json.dumps(report)


def test_text_output_shows_the_short_commit(branch, capsys):
    code = main(["check", "--diff", "main...feature"])
    out = capsys.readouterr().out
    assert code == 1
    assert f"[commit {branch['leak'][:12]}]" in out
    assert branch["leak"] not in out  # the short form
    # --history too
    code = main(["check", "--history"])
    out = capsys.readouterr().out
    assert code == 1 and f"[commit {branch['leak'][:12]}]" in out


def test_each_commit_is_scanned_with_the_whole_file_as_context(repo: Path, monkeypatch, capsys):
    """A multi-line private key added in one commit is found even though a later commit of
    the range edits the same file; lines of the base are never reported."""
    monkeypatch.chdir(repo)
    commit(repo, "old.py", f"KEY = '{STRIPE}'\n", "on main already")
    git(repo, "checkout", "-qb", "feature")
    leak = commit(repo, "pay.py", f"import os\n\nKEY = '{STRIPE}'\n", "leak")
    commit(repo, "pay.py", f"import os\n\nKEY = '{STRIPE}'\nB = 2\n", "edit")
    code, report, _ = run(capsys, "--diff", "main...feature")
    assert code == 1
    found = [(f["path"], f["line"], f["source"]["commit"]) for f in report["findings"]]
    assert found == [("pay.py", 3, leak)]


def test_merge_commits_add_nothing_and_main_commits_are_not_rescanned(
    repo: Path, monkeypatch, capsys
):
    monkeypatch.chdir(repo)
    commit(repo, "a.py", "a = 1\n", "base")
    git(repo, "checkout", "-qb", "feature")
    mine = commit(repo, "b.py", f"t = '{TOKEN}'\n", "feature leak")
    git(repo, "checkout", "-q", "main")
    commit(repo, "c.py", f"k = '{STRIPE}'\n", "main leak (not the PR's)")
    git(repo, "checkout", "-q", "feature")
    git(repo, "merge", "-q", "--no-edit", "main")
    code, report, _ = run(capsys, "--diff", "main...feature")
    assert code == 1
    assert [(f["path"], f["source"]["commit"]) for f in report["findings"]] == [("b.py", mine)]


def test_root_commit_and_binary_by_attributes(repo: Path, monkeypatch, capsys):
    """An unrelated branch's root commit is compared with the empty tree; a file git treats
    as binary (`-diff`) but that is text is still read, in a root commit and in a later one."""
    monkeypatch.chdir(repo)
    commit(repo, "a.py", "a = 0\n", "main")
    git(repo, "checkout", "-q", "--orphan", "other")
    git(repo, "rm", "-rqf", ".")
    (repo / ".gitattributes").write_text("*.env -diff\n")
    git(repo, "add", ".gitattributes")
    root = commit(repo, "prod.env", f"GH_TOKEN={TOKEN}\n", "root")
    leak = commit(repo, "prod.env", f"GH_TOKEN={TOKEN}\nB={STRIPE}\n", "leak")
    code, report, _ = run(capsys, "--diff", "main..other", "--select", "secret")
    assert code == 1
    assert [(f["path"], f["line"], f["source"]["commit"]) for f in report["findings"]] == [
        ("prod.env", 1, root),
        ("prod.env", 2, leak),
    ]


def test_many_commits_span_batches(repo: Path, monkeypatch, capsys):
    from wukong_lint.sources import ranges

    monkeypatch.setattr(ranges, "BATCH", 3)
    monkeypatch.chdir(repo)
    commit(repo, "a.py", "a = 0\n", "base")
    git(repo, "checkout", "-qb", "feature")
    leaks = {}
    for i in range(8):
        body = f"t = '{TOKEN}'\n" if i in (1, 4, 7) else f"a = {i}\n"
        sha = commit(repo, f"f{i}.py", body, f"c{i}")
        if i in (1, 4, 7):
            leaks[f"f{i}.py"] = sha
    code, report, _ = run(capsys, "--diff", "main...feature", "--jobs", "1")
    assert code == 1
    assert {f["path"]: f["source"]["commit"] for f in report["findings"]} == leaks
    assert report["stats"]["files"] == 16  # 8 files and 8 commit messages (as --history)
    # a long range is scanned on several processes: the same report
    from wukong_lint.runner import parallel

    monkeypatch.setattr(parallel, "UNIT_CHUNK", 2)
    code, pooled, _ = run(capsys, "--diff", "main...feature", "--jobs", "2")
    assert code == 1 and pooled["findings"] == report["findings"]
    assert pooled["stats"]["files"] == 16


def test_unknown_revision_and_empty_range_exit_2(branch, capsys):
    code, report, err = run(capsys, "--diff", "mian...feature")
    assert code == 2 and report == {}
    assert err.count("\n") == 1 and "unknown revision 'mian'" in err
    code, report, err = run(capsys, "--diff", "feature..feature")
    assert code == 2 and report == {}
    assert "no commits" in err and "same commit" in err and err.count("\n") == 1
    code, report, err = run(capsys, "--diff", "feature..main")  # the wrong way round
    assert code == 2 and "wrong way round" in err
    code, report, err = run(capsys, "--diff", "HEAD")  # REV..HEAD with REV = HEAD
    assert code == 2 and "no commits" in err
    code, report, err = run(capsys, "--diff", "feature..main", "--allow-empty-range")
    assert code == 0 and report["stats"]["files"] == 0
    code, _, err = run(capsys, "--allow-empty-range")
    assert code == 2 and "--allow-empty-range needs --diff" in err


def test_large_change_counts_the_net_change_once(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    commit(repo, "a.py", "a = 0\n", "base")
    git(repo, "checkout", "-qb", "feature")
    for i in range(12):
        commit(repo, f"m{i}.py", f"m = {i}\n", f"c{i}")
    code, report, _ = run(capsys, "--diff", "main...feature", "--select", "dangerous-command")
    assert code == 0
    large = [f for f in report["findings"] if f["rule_id"] == "dangerous-command.large-change"]
    assert len(large) == 1 and "12 files" in large[0]["message"]


def test_a_secret_written_in_a_merge_conflict_resolution_is_found(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    commit(repo, "conf.py", "a = 1\nb = 2\n", "base")
    git(repo, "checkout", "-qb", "feature")
    commit(repo, "conf.py", "a = 10\nb = 2\n", "feature side")
    git(repo, "checkout", "-q", "main")
    commit(repo, "conf.py", "a = 100\nb = 2\n", "main side")
    git(repo, "checkout", "-q", "feature")
    proc = __import__("subprocess").run(["git", "merge", "-q", "main"], capture_output=True)
    assert proc.returncode != 0  # a conflict
    (repo / "conf.py").write_text(f"a = 100\nb = 2\nt = '{TOKEN}'\n")  # the resolution
    git(repo, "add", "conf.py")
    git(repo, "commit", "-qm", "merge main")
    merge = git(repo, "rev-parse", "HEAD").strip()
    code, report, _ = run(capsys, "--diff", "main...feature", "--select", "secret")
    assert code == 1
    assert [(f["path"], f["line"], f["source"]["commit"]) for f in report["findings"]] == [
        ("conf.py", 3, merge)
    ]
