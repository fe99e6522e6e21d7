"""Odd files and odd repository states: a finding or a clear message, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests.conftest import git
from wukong_lint.cli import main

TOKEN = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"


def check(capsys, *args: str) -> tuple[int, dict, str]:
    code = main(["check", "--format", "json", "--select", "secret.github-pat", *args])
    captured = capsys.readouterr()
    return code, (json.loads(captured.out) if captured.out.strip() else {}), captured.err


def test_file_names_with_newlines_spaces_and_unicode(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    for name in ("new\nline.py", "sp ace.py", "ünï cödé.py", "-dash.py"):
        (repo / name).write_text(f"t = '{TOKEN}'\n")
    code, report, err = check(capsys, ".")
    assert code == 1 and err == ""
    assert sorted(f["path"] for f in report["findings"]) == sorted(
        ["new\nline.py", "sp ace.py", "ünï cödé.py", "-dash.py"]
    )
    git(repo, "add", "-A")
    code, report, _ = check(capsys, "--staged")
    assert len(report["findings"]) == 4


def test_one_huge_line(tmp_path: Path, capsys):
    big = tmp_path / "minified.js"
    with open(big, "w") as handle:
        handle.write("var a=" + "x" * 20_000_000 + f";var t='{TOKEN}';\n")
    code, report, err = check(capsys, str(big))
    assert code == 1 and err == ""
    (finding,) = report["findings"]
    assert (
        finding["line"] == 1 and len(finding["snippet"]) < 200 and TOKEN not in finding["snippet"]
    )


def test_detached_head_and_merge_in_progress(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    (repo / "a.py").write_text("x = 1\n")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "base")
    git(repo, "checkout", "-qb", "other")
    (repo / "a.py").write_text("x = 2\n")
    git(repo, "commit", "-qam", "other")
    git(repo, "checkout", "-q", "main")
    (repo / "a.py").write_text("x = 3\n")
    git(repo, "commit", "-qam", "main")
    merge = subprocess.run(["git", "merge", "other"], cwd=repo, capture_output=True, text=True)
    assert merge.returncode != 0  # a conflict: the index has unmerged entries
    (repo / "b.py").write_text(f"t = '{TOKEN}'\n")
    git(repo, "add", "b.py")
    code, report, _err = check(capsys, "--staged")
    assert code == 1 and [f["path"] for f in report["findings"]] == ["b.py"]
    code, report, _ = check(capsys, "a.py")  # conflict markers are plain text
    assert code == 0 and report["stats"]["files"] == 1
    git(repo, "merge", "--abort")
    git(repo, "checkout", "-q", "--detach", "HEAD~1")
    (repo / "c.py").write_text(f"t = '{TOKEN}'\n")
    git(repo, "add", "c.py")
    code, report, _ = check(capsys, "--staged")
    assert code == 1 and [f["path"] for f in report["findings"]] == ["c.py"]


def test_shallow_clone_history_and_diff(repo: Path, tmp_path: Path, monkeypatch, capsys):
    for n in range(4):
        (repo / f"f{n}.py").write_text(f"t = '{TOKEN}'\n" if n == 3 else f"x = {n}\n")
        git(repo, "add", ".")
        git(repo, "commit", "-qm", f"c{n}")
    clone = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(clone))
    monkeypatch.chdir(clone)
    code, report, err = check(capsys, "--history")
    assert code == 1 and [f["path"] for f in report["findings"]] == ["f3.py"]
    code, report, err = check(capsys, "--diff", "HEAD~1..HEAD")
    assert code == 2 and "unknown revision 'HEAD~1'" in err


def test_unreadable_rule_dir_and_output_dir(tmp_path: Path, capsys):
    target = tmp_path / "a.py"
    target.write_text("x = 1\n")
    assert main(["check", str(target), "--rules", str(tmp_path / "missing")]) == 2
    assert "rules directory not found" in capsys.readouterr().err
    out = tmp_path / "no" / "such" / "dir" / "r.json"
    assert main(["check", str(target), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("wukong-lint: error: cannot write") and "Traceback" not in err
    assert not out.parent.exists()


def test_not_a_git_repository(tmp_path: Path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    for args in (["--staged"], ["--diff", "a..b"], ["--history"]):
        code, _, err = check(capsys, *args)
        assert code == 2 and "not a git repository" in err, (args, err)
    os.chdir(tmp_path)
