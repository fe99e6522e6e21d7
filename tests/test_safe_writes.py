"""Never read or write outside the repository through a symlink; every write atomic, no
read-only file replaced, no setuid kept, no temporary file left by a killed write."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import git
from wukong_lint.cli import main
from wukong_lint.util.fsutil import atomic_writer

TOKEN = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"
ANCHORS = "# Anchors\n\n## Decisions\n\n## [D001] Use git\n\n**Why**: it is there\n"
PROJECT = Path(__file__).resolve().parent.parent


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder outside the repository, holding files a symlink will point at."""
    folder = tmp_path / "outside"
    folder.mkdir()
    return folder


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_anchors_never_write_or_read_through_a_symlink(repo, outside, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    target = outside / "notes.md"
    target.write_text(ANCHORS + "secret outside\n")
    (outside / "bank").mkdir()
    (outside / "bank" / "MEMORY.md").write_text(ANCHORS)
    os.symlink(target, repo / "anchors.md")
    os.symlink(outside / "bank", repo / "memory-bank")
    before = _snapshot(outside)
    # default files: symlinked ones are not anchors files of this project
    assert main(["anchors", "fmt"]) == 0
    assert main(["anchors", "fmt", "--check"]) == 0
    out = capsys.readouterr()
    assert "secret outside" not in out.out + out.err
    # named explicitly: refused with a message, the link stays a link
    for args in (["anchors", "fmt", "anchors.md"], ["anchors", "new", "D", "Use hg"],
                 ["anchors", "new", "D", "Use hg", "--file", "memory-bank/MEMORY.md"]):  # fmt: skip
        code = main(args)
        err = capsys.readouterr().err
        assert code == 2 and "symbolic link" in err and err.count("\n") == 1, (args, err)
    candidates = repo / "c.json"
    candidates.write_text(json.dumps([{"type": "D", "title": "Use svn", "decision": "svn",
                                       "why": "old", "repeated": 3}]))  # fmt: skip
    assert main(["anchors", "add", "--from", str(candidates)]) == 2
    assert "symbolic link" in capsys.readouterr().err
    assert _snapshot(outside) == before
    assert os.path.islink(repo / "anchors.md") and os.path.islink(repo / "memory-bank")


def test_report_baseline_and_redact_refuse_symlinks(repo, outside, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    (repo / "app.py").write_text(f'T = "{TOKEN}"\n')
    victim = outside / "victim.txt"
    victim.write_text("keep me\n")
    os.symlink(victim, repo / "report.json")
    os.symlink(victim, repo / ".wukong-lint-baseline.json")
    assert main(["check", "app.py", "-o", "report.json"]) == 2
    assert "symbolic link" in capsys.readouterr().err
    assert main(["baseline", "create", "--force"]) == 2
    assert "symbolic link" in capsys.readouterr().err
    # a folder on the way that is a link: the baseline is not written there
    os.symlink(outside, repo / "out")
    assert main(["baseline", "create", "-o", "out/b.json"]) == 2
    assert "out is a symbolic link" in capsys.readouterr().err
    # redact --in-place on a link must not report success while the file keeps its secret
    session = outside / "session.jsonl"
    session.write_text(json.dumps({"type": "user", "message": {"content": TOKEN}}) + "\n")
    os.symlink(session, repo / "session.jsonl")
    assert main(["redact", "session.jsonl", "--in-place"]) == 2
    err = capsys.readouterr().err
    assert "symbolic link" in err and "redacted" not in err
    assert main(["redact", "app.py", "-o", "report.json"]) == 2
    capsys.readouterr()
    assert victim.read_text() == "keep me\n" and TOKEN in session.read_text()
    assert os.path.islink(repo / "report.json") and os.path.islink(repo / "session.jsonl")


def test_folder_scan_never_reads_through_a_symlinked_folder(repo, outside, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    (repo / "conf").mkdir()
    (repo / "conf" / "app.py").write_text("x = 1\n")
    (repo / "ok.py").write_text(f'T = "{TOKEN}"\n')
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "base")
    # the work tree's folder replaced by a link outside: git still lists conf/app.py
    (outside / "app.py").write_text(f'STOLEN = "{TOKEN}"\n')
    (repo / "conf" / "app.py").unlink()
    (repo / "conf").rmdir()
    os.symlink(outside, repo / "conf")
    assert "conf/app.py" in git(repo, "ls-files")
    code = main(["check", "--format", "json", "."])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and [f["path"] for f in report["findings"]] == ["ok.py"]


def test_check_refuses_to_overwrite_its_input(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    source = tmp_path / "app.py"
    source.write_text(f'T = "{TOKEN}"\n')
    assert main(["check", "app.py", "-o", "app.py"]) == 2
    assert "one of the files scanned" in capsys.readouterr().err
    assert main(["check", "app.py", "-o", "./app.py"]) == 2
    capsys.readouterr()
    assert source.read_text() == f'T = "{TOKEN}"\n'


def test_read_only_and_setuid_targets(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "app.py").write_text("x = 1\n")
    locked = tmp_path / "locked.json"
    locked.write_text("old\n")
    locked.chmod(0o444)
    assert main(["check", "app.py", "-o", "locked.json"]) == 2
    assert "read-only" in capsys.readouterr().err
    assert locked.read_text() == "old\n"
    report = tmp_path / "report.txt"
    report.write_text("old\n")
    report.chmod(0o6755)
    assert main(["check", "app.py", "-o", "report.txt"]) == 0
    mode = stat.S_IMODE(report.stat().st_mode)
    assert mode == 0o755 and "No findings" in report.read_text()


def test_a_killed_write_leaves_a_temporary_the_next_run_removes(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    probe = (
        "import os, sys; from wukong_lint.util.fsutil import atomic_writer\n"
        "with atomic_writer('report.json') as h:\n"
        "    h.write(b'partial'); h.flush(); os.kill(os.getpid(), 9)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    proc = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env)
    assert proc.returncode == -9
    left = [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]
    assert len(left) == 1 and left[0].startswith(".report.json.")  # hidden, beside the file
    assert not (tmp_path / "report.json").exists()
    (tmp_path / "app.py").write_text("x = 1\n")
    assert main(["check", "app.py", "-o", "report.json"]) == 0
    assert sorted(os.listdir(tmp_path)) == ["app.py", "report.json"]
    # a temporary of a run still going (this process) is left alone
    with atomic_writer(tmp_path / "other.json") as handle:
        handle.write(b"x")
        assert main(["check", "app.py", "-o", "report.json"]) == 0
        assert len([n for n in os.listdir(tmp_path) if n.endswith(".tmp")]) == 1
    assert (tmp_path / "other.json").read_bytes() == b"x"


def test_system_streams_are_written_in_place(tmp_path):
    """`-o /dev/stdout` (a link to the stream: here a pipe, or a file the shell redirected
    to) is written in place, not refused as a symlink."""
    (tmp_path / "app.py").write_text("x = 1\n")
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    proc = subprocess.run([sys.executable, "-m", "wukong_lint", "check", "app.py", "-o",
                           "/dev/stdout"], cwd=tmp_path, env=env, capture_output=True,
                          text=True)  # fmt: skip
    assert proc.returncode == 0 and "No findings" in proc.stdout, proc.stderr
    with open(tmp_path / "redirected.txt", "w") as handle:
        proc = subprocess.run([sys.executable, "-m", "wukong_lint", "check", "app.py", "-o",
                               "/dev/stdout"], cwd=tmp_path, env=env, stdout=handle)  # fmt: skip
    assert proc.returncode == 0 and "No findings" in (tmp_path / "redirected.txt").read_text()
