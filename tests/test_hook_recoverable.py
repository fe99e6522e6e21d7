"""Recoverability by git in the live hook (issue 31): deleting tracked, unmodified project
files is allowed (git gives them back); untracked, modified, staged or ignored work is asked;
outside the project the deny rules stand. Real git repositories in temporary folders."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import commit, git
from wukong_lint.hook.recoverable import deleted_paths, recoverable


def hook(command: str, cwd: Path) -> dict:
    event = {
        "session_id": "s1",
        "transcript_path": "/nonexistent/s1.jsonl",
        "cwd": str(cwd),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
    }
    proc = subprocess.run(
        [sys.executable, "-m", "wukong_lint", "hook", "--mode", "json"],
        input=json.dumps(event), capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["hookSpecificOutput"] if proc.stdout else {}


@pytest.fixture
def project(repo: Path) -> Path:
    commit(repo, "src/app.py", "print(1)\n", "app")
    commit(repo, "src/util.py", "x = 1\n", "util")
    commit(repo, "docs/guide.md", "# guide\n", "docs")
    commit(repo, ".gitignore", "build/\n*.local\n", "ignore")
    return repo


def test_the_hook_asks_git_what_a_delete_would_lose(project: Path) -> None:
    assert hook("rm src/app.py", project) == {}  # tracked, unmodified: git has it
    (project / "src" / "util.py").write_text("x = 2  # not committed\n")
    assert hook("rm -f src/util.py", project)["permissionDecision"] == "ask"  # modified
    (project / "notes.txt").write_text("mine\n")
    asked = hook("rm notes.txt", project)  # untracked: git has no copy
    assert asked["permissionDecision"] == "ask"
    assert "dangerous-command.rm-project-files" in asked["permissionDecisionReason"]
    assert hook("rm -rf ~/Documents", project)["permissionDecision"] == "deny"  # outside


@pytest.mark.parametrize(
    ("setup", "paths", "expected"),
    [
        (None, ["src/app.py"], True),
        (None, ["src"], True),  # a folder whose every file is tracked and clean
        (None, ["missing.txt"], True),  # nothing there to delete
        ("modify", ["src"], False),
        ("untracked", ["src"], False),  # a new file inside the folder
        ("staged", ["src/app.py"], False),
        ("ignored-build", ["src"], True),  # build output under it: rebuilt on demand
        ("ignored-work", ["src"], False),  # an ignored file that is not build output
    ],
)
def test_recoverable(project: Path, setup: str | None, paths: list[str], expected: bool) -> None:
    if setup == "modify":
        (project / "src" / "app.py").write_text("print(2)\n")
    elif setup == "untracked":
        (project / "src" / "new.py").write_text("y = 1\n")
    elif setup == "staged":
        (project / "src" / "app.py").write_text("print(3)\n")
        git(project, "add", "src/app.py")
    elif setup == "ignored-build":
        (project / "src" / "build").mkdir()
        (project / "src" / "build" / "out.o").write_text("o")
    elif setup == "ignored-work":
        (project / "src" / "db.local").write_text("password=1\n")
    assert recoverable(str(project), paths) is expected


def test_outside_a_repository_nothing_is_recoverable(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a")
    assert recoverable(str(tmp_path), ["a.txt"]) is False


@pytest.mark.parametrize(
    ("line", "paths"),
    [
        ("rm src/app.py", ["src/app.py"]),
        ("rm -rf ./subdir 2>/dev/null", ["subdir"]),
        ("cd src && rm -f app.py util.py", ["src/app.py", "src/util.py"]),
        ("git rm -r -- docs", ["docs"]),
        ("truncate -s 0 src/app.py", ["src/app.py"]),
        ("rm *.py", None),  # a glob: not told file by file
        ('rm "$F"', None),
        ("rm ../notes.txt", None),  # outside the project
        ("find . -name '*.md' -delete", None),
        ("ls src | xargs rm", None),
        ("git rm --pathspec-from-file=list.txt", None),
        ("truncate -r ref.txt src/app.py", ["src/app.py"]),
    ],
)
def test_deleted_paths(line: str, paths: list[str] | None) -> None:
    assert deleted_paths(line, "/home/dev/project") == paths
