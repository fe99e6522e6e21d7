"""`check --staged` and `check --diff` against real git repositories made in tmp dirs."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import git
from wukong_lint.cli import main

# Built at run time so this file does not itself hold a token-shaped literal.
TOKEN = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"
TOKEN2 = "ghp_" + "Q9wErTyUiOp8AsDfGhJkL7zXcVbNm6Lk5Jh4"


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    code = main(["check", "--format", "json", "--select", "secret.github-pat", *args])
    out = capsys.readouterr().out
    return code, json.loads(out) if out.strip() else {}


def locations(report: dict) -> list[tuple[str, int]]:
    return [(f["path"], f["line"]) for f in report["findings"]]


@pytest.fixture
def in_repo(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(repo)
    return repo


def test_staged_in_repo_without_commits(in_repo: Path, capsys):
    (in_repo / "app.py").write_text(f"import os\n\nTOKEN = '{TOKEN}'\n")
    git(in_repo, "add", "app.py")
    code, report = run_json(capsys, "--staged")
    assert code == 1
    assert locations(report) == [("app.py", 3)]
    assert report["findings"][0]["source"]["kind"] == "diff"


def test_staged_reports_only_added_lines_numbered_in_new_file(in_repo: Path, capsys):
    old = f"a = 1\nold = '{TOKEN2}'\nb = 2\n"
    (in_repo / "app.py").write_text(old)
    git(in_repo, "add", ".")
    git(in_repo, "commit", "-qm", "base")
    new = "x = 0\n" * 5 + old + f"c = '{TOKEN}'\n"
    (in_repo / "app.py").write_text(new)
    git(in_repo, "add", ".")
    code, report = run_json(capsys, "--staged")
    assert code == 1
    # The old token (now on line 7) was not added by this change; the new one is on line 9.
    assert locations(report) == [("app.py", 9)]


def test_staged_ignores_unstaged_work_tree_changes(in_repo: Path, capsys):
    (in_repo / "a.txt").write_text("clean\n")
    git(in_repo, "add", ".")
    (in_repo / "a.txt").write_text(f"clean\n{TOKEN}\n")  # not staged
    code, report = run_json(capsys, "--staged")
    assert code == 0 and report["findings"] == []


def test_staged_rename_deletion_binary_crlf_unicode(in_repo: Path, capsys):
    (in_repo / "old name.py").write_text("".join(f"line{i} = {i}\n" for i in range(20)))
    (in_repo / "gone.py").write_text(f"t = '{TOKEN2}'\n")
    git(in_repo, "add", ".")
    git(in_repo, "commit", "-qm", "base")
    # rename with a small edit: only the edited line counts
    git(in_repo, "mv", "old name.py", "new name.py")
    lines = [f"line{i} = {i}\n" for i in range(20)]
    lines[10] = f"line10 = '{TOKEN}'\n"
    (in_repo / "new name.py").write_text("".join(lines))
    git(in_repo, "rm", "-q", "gone.py")
    (in_repo / "blob.bin").write_bytes(b"\0\1\2" + TOKEN.encode() + b"\0")
    (in_repo / "win.env").write_bytes(f"A=1\r\nGH={TOKEN}\r\n".encode())
    (in_repo / "dös ünï.txt").write_text(f"token: {TOKEN}\n", encoding="utf-8")
    git(in_repo, "add", "-A")
    code, report = run_json(capsys, "--staged")
    assert code == 1
    assert sorted(locations(report)) == [("dös ünï.txt", 1), ("new name.py", 11), ("win.env", 2)]
    assert all(TOKEN not in f["snippet"] for f in report["findings"])


def test_staged_with_quotepath_and_submodule(in_repo: Path, tmp_path: Path, capsys):
    sub = tmp_path / "sub"
    sub.mkdir()
    git(sub, "init", "-q", "-b", "main")
    identity = ["-c", "user.email=a@b", "-c", "user.name=a"]
    git(sub, *identity, "commit", "-q", "--allow-empty", "-m", "s")
    git(in_repo, "config", "core.quotepath", "true")
    allow_file = ["-c", "protocol.file.allow=always"]
    git(in_repo, *allow_file, "submodule", "add", "-q", str(sub), "vendor/sub")
    (in_repo / "naïve.py").write_text(f"x = '{TOKEN}'\n")
    git(in_repo, "add", "-A")
    code, report = run_json(capsys, "--staged")
    assert code == 1
    assert locations(report) == [("naïve.py", 1)]


def test_staged_file_marked_binary_by_gitattributes_is_still_scanned(in_repo: Path, capsys):
    (in_repo / ".gitattributes").write_text("*.env -diff\n")
    (in_repo / "prod.env").write_text("A=1\n")
    git(in_repo, "add", ".")
    git(in_repo, "commit", "-qm", "base")
    (in_repo / "prod.env").write_text(f"A=1\nGH_TOKEN={TOKEN}\n")
    git(in_repo, "add", ".")
    code, report = run_json(capsys, "--staged")
    assert code == 1 and locations(report) == [("prod.env", 2)]


def test_staged_mode_only_change_and_empty_index(in_repo: Path, capsys):
    script = in_repo / "run.sh"
    script.write_text(f"echo {TOKEN}\n")
    git(in_repo, "add", ".")
    git(in_repo, "commit", "-qm", "base")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    git(in_repo, "add", ".")
    code, report = run_json(capsys, "--staged")
    assert code == 0 and report["findings"] == []
    git(in_repo, "reset", "-q")
    code, report = run_json(capsys, "--staged")
    assert code == 0 and report["stats"]["files"] == 0


def test_commit_dash_a_hook_sees_temporary_index(repo: Path):
    """`git commit -a` runs hooks with GIT_INDEX_FILE pointing at a temporary index."""
    (repo / "app.py").write_text("x = 1\n")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "base")
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.write_text(f"#!/bin/sh\nexec {sys.executable} -m wukong_lint check --staged\n")
    hook.chmod(0o755)
    (repo / "app.py").write_text(f"x = 1\ntoken = '{TOKEN}'\n")  # modified, not staged
    env = {**os.environ, "NO_COLOR": "1"}
    proc = subprocess.run(
        ["git", "commit", "-a", "-m", "leak"], cwd=repo, env=env, capture_output=True, text=True
    )
    output = proc.stdout + proc.stderr  # git sends hook output to stderr
    assert proc.returncode != 0, output
    assert "secret.github-pat" in output
    assert "app.py" in output
    assert TOKEN not in output
    # the same edit without the token commits fine
    (repo / "app.py").write_text("x = 2\n")
    proc = subprocess.run(
        ["git", "commit", "-a", "-m", "ok"], cwd=repo, env=env, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_diff_range_two_and_three_dots(in_repo: Path, capsys):
    (in_repo / "a.py").write_text("a = 1\n")
    git(in_repo, "add", ".")
    git(in_repo, "commit", "-qm", "base")
    base = git(in_repo, "rev-parse", "HEAD").strip()
    git(in_repo, "checkout", "-qb", "feature")
    (in_repo / "a.py").write_text(f"a = 1\nb = '{TOKEN}'\n")
    git(in_repo, "commit", "-qam", "feature work")
    code, report = run_json(capsys, "--diff", f"{base}..HEAD")
    assert code == 1 and locations(report) == [("a.py", 2)]
    code, report = run_json(capsys, "--diff", "main...feature")
    assert code == 1 and locations(report) == [("a.py", 2)]
    # reversed: main has no commit that feature lacks, so nothing would be scanned
    code, report = run_json(capsys, "--diff", "feature..main")
    assert code == 2 and report == {}
    code, report = run_json(capsys, "--diff", "feature..main", "--allow-empty-range")
    assert code == 0 and report["findings"] == [] and report["stats"]["files"] == 0


def test_diff_range_errors_are_one_line_exit_2(in_repo: Path, capsys):
    (in_repo / "a.py").write_text("a = 1\n")
    git(in_repo, "add", ".")
    git(in_repo, "commit", "-qm", "base")
    assert main(["check", "--diff", "nope..HEAD"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown revision 'nope'" in err


def test_staged_outside_git_is_a_clear_error(tmp_path: Path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    assert main(["check", "--staged"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("wukong-lint: error:") and "Traceback" not in err


# -- git processes (util/gitproc.py): posix_spawn and poll, subprocess as the fallback --


def test_cat_file_batch_with_more_input_and_output_than_a_pipe_holds(in_repo: Path):
    from wukong_lint.sources.git import read_blobs
    from wukong_lint.util.gitproc import GitProcess

    # 3,000 blob names (~120 KB of stdin) and ~3.6 MB of output: neither side may block
    bodies = [f"{i:06d}\n".encode() * 170 for i in range(3000)]
    stream = b"".join(
        b"blob\nmark :%d\ndata %d\n%s\n" % (i + 1, len(b), b) for i, b in enumerate(bodies)
    )
    subprocess.run(["git", "fast-import", "--quiet", "--export-marks=marks"], input=stream,
                   cwd=in_repo, check=True)  # fmt: skip
    marks = dict(line.split() for line in (in_repo / "marks").read_text().splitlines())
    shas = [marks[f":{i + 1}"] for i in range(3000)]
    want = dict(zip(shas, bodies, strict=True))
    assert read_blobs(shas) == want
    # the same through a process started beforehand, and with subprocess (a cwd)
    started = GitProcess(["cat-file", "--batch"], stdin=True)
    assert read_blobs(shas, started=started) == want
    assert read_blobs(shas, cwd=str(in_repo)) == want


def test_started_git_processes_end_when_their_output_is_not_read(in_repo: Path):
    from wukong_lint.util.gitproc import GitProcess, start_staged

    for stdin in (False, True):
        proc = GitProcess(["cat-file", "--batch"] if stdin else ["log", "--all"], stdin=stdin)
        proc.close()  # returns: git saw the end of its stdin, or was not read
        assert proc.communicate() == (-1, b"", b"")
    started = start_staged()
    assert started is not None
    started.close()
    code, out, err = GitProcess(["rev-parse", "--is-inside-work-tree"]).communicate()
    assert (code, out) == (0, b"true\n")
    code, out, err = GitProcess(["no-such-command"]).communicate()
    assert code != 0 and b"no-such-command" in err


def test_staged_without_git_installed_is_a_one_line_error(in_repo: Path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", str(in_repo / "no-bin"))
    assert main(["check", "--staged"]) == 2
    err = capsys.readouterr().err
    # its own message: not "not a git repository"
    assert err.count("\n") == 1 and err.startswith("wukong-lint: error: git not found")


def test_staged_check_does_not_import_subprocess(in_repo: Path):
    (in_repo / "a.py").write_text(f"t = '{TOKEN}'\n")
    git(in_repo, "add", "a.py")
    probe = (
        "import sys; from wukong_lint.cli import main; code = main(['check', '--staged']); "
        "print('subprocess' in sys.modules, file=sys.stderr); sys.exit(code)"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)}
    for _ in range(2):  # the first run may fill the rule cache (which imports much more)
        proc = subprocess.run([sys.executable, "-c", probe], cwd=in_repo, capture_output=True,
                              text=True, env=env)  # fmt: skip
    assert proc.returncode == 1 and "a.py" in proc.stdout
    assert proc.stderr.splitlines()[-1] == "False"


def test_staged_check_as_a_program_exits_at_once_with_its_output_flushed(in_repo: Path):
    """Run as a program, `check --staged` ends with os._exit (no interpreter teardown): its
    report must be complete and its exit code kept; a function registered with atexit (by a
    plugin, say) means a normal exit, which runs it."""
    for i in range(300):  # a report larger than a pipe's buffer
        (in_repo / f"f{i}.py").write_text(f"t = '{TOKEN}'\n")
    git(in_repo, "add", ".")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)}
    proc = subprocess.run([sys.executable, "-m", "wukong_lint", "check", "--staged"],
                          cwd=in_repo, capture_output=True, text=True, env=env)  # fmt: skip
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.count("secret.github-pat") >= 300
    assert "300 files scanned in" in proc.stdout.splitlines()[-1]  # the last line
    probe = (
        "import atexit, sys; atexit.register(print, 'atexit ran', file=sys.stderr); "
        "sys.argv = ['wukong-lint', 'check', '--staged']; "
        "from wukong_lint.cli import main; sys.exit(main())"
    )
    proc = subprocess.run([sys.executable, "-c", probe], cwd=in_repo, capture_output=True,
                          text=True, env=env)  # fmt: skip
    assert proc.returncode == 1 and "atexit ran" in proc.stderr
    assert proc.stdout.count("secret.github-pat") >= 300


def test_added_files_are_read_from_their_patch_exactly_as_git_stores_them(in_repo: Path):
    from wukong_lint.sources.git import diff_changes, read_blobs

    files = {
        "plain.txt": b"one\ntwo\n",
        "no-newline.txt": b"a\nb",
        "crlf.txt": b"x\r\ny\r\n",
        "newline-only.txt": b"\n",
        "blank-lines.txt": b"\n\n\nz\n\n",
        "tricky.txt": b"+plus\n-minus\n\\back\ndiff --git a b\n@@ -0,0 +1 @@\n \n",
        "backslash-last.txt": b"x\n\\",
        "latin1.txt": "caf\xe9\n".encode("latin-1"),
        "long.txt": b"y" * 100_000,
        "empty.txt": b"",
        "binary.bin": b"\0\1\2\n",
    }
    for name, data in files.items():
        (in_repo / name).write_bytes(data)
    (in_repo / "marked.txt").write_bytes(b"text marked binary\n")
    (in_repo / ".gitattributes").write_text("marked.txt -diff\n")
    git(in_repo, "add", ".")
    changes = {c.path: c for c in diff_changes(["--cached"])}
    blobs = read_blobs([c.new_sha for c in changes.values()])
    for path, change in changes.items():
        if change.content is not None:
            assert change.content == blobs[change.new_sha], path
    from_patch = {p for p, c in changes.items() if c.content is not None}
    assert from_patch == set(files) - {"empty.txt", "binary.bin"} | {".gitattributes"}


def test_cat_file_is_started_only_when_a_blob_must_be_read(in_repo: Path):
    import time

    from wukong_lint.sources.git import prepare_staged, staged_units
    from wukong_lint.util.gitproc import GitProcess, start_staged

    def scan() -> tuple[bool, list[tuple[str, str]]]:
        started = start_staged()
        assert started is not None
        deadline = time.monotonic() + 30
        while not started.diff.ended():  # as when the rules take longer than git
            assert time.monotonic() < deadline
            time.sleep(0.01)
        prepare_staged(started)
        try:
            units = [(u.path, u.text) for u in staged_units(started=started) if hasattr(u, "text")]
        finally:
            started.close()
        return started.cat_file is not None, units

    (in_repo / "old.py").write_text("a = 1\n")
    git(in_repo, "add", ".")
    git(in_repo, "commit", "-qm", "base")
    (in_repo / "new.py").write_text(f"t = '{TOKEN}'\n")
    git(in_repo, "add", ".")
    assert scan() == (False, [("new.py", f"t = '{TOKEN}'\n"), (".", "new.py\n")])
    (in_repo / "empty.txt").write_text("")  # no patch lines: its blob is read
    (in_repo / "old.py").write_text(f"a = 1\nb = '{TOKEN}'\n")
    git(in_repo, "add", ".")
    used, units = scan()
    assert used and ("old.py", f"a = 1\nb = '{TOKEN}'\n") in units
    # a process whose output has not ended yet: ended() reads what there is and says so
    proc = GitProcess(["cat-file", "--batch"], stdin=True)
    assert not proc.ended()  # stdin still to come
    proc.close()
    slow = GitProcess(["-c", "alias.slow=!sleep 0.3; echo done", "slow"])
    assert not slow.ended()
    assert slow.communicate() == (0, b"done\n", b"")
    assert slow.ended()


def _reference_sections(patch: bytes) -> list[bytes]:  # the regex split this replaced
    import re

    chunks = re.split(rb"(?m)^(?=diff --git )", patch) if patch else []
    return [c for c in chunks if c.startswith(b"diff --git ")]


def _reference_content(section: bytes) -> bytes | None:  # the line-by-line version
    from wukong_lint.sources.git import _HUNK

    start = section.find(b"\n@@ ")
    if start < 0 or section.find(b"\n@@ ", start + 1) >= 0:
        return None
    match = _HUNK.match(section, start + 1)
    body = section.find(b"\n", start + 1) + 1
    if match is None or not body or not section.startswith(b"@@ -0,0 +1", start + 1):
        return None
    count = int(match.group(2)) if match.group(2) is not None else 1
    lines = section[body:].split(b"\n")
    if lines.pop() != b"":
        return None
    end = b"\n"
    if lines and lines[-1].startswith(b"\\"):
        lines.pop()
        end = b""
    if len(lines) != count or not all(line.startswith(b"+") for line in lines):
        return None
    return b"\n".join([line[1:] for line in lines]) + end


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from([
    b"diff --git a/x b/x\n", b"new file mode 100644\n", b"--- /dev/null\n", b"+++ b/x\n",
    b"@@ -0,0 +1,2 @@\n", b"@@ -0,0 +1 @@\n", b"@@ -0,0 +1,3 @@ f()\n", b"@@ -3 +7,2 @@\n",
    b"+line\n", b"+\n", b"+\r\n", b"+diff --git a b\n", b"+@@ -0,0 +1 @@\n", b"-gone\n",
    b"\\ No newline at end of file\n", b"+last", b"Binary files a/x and b/x differ\n", b"\n",
]), max_size=14))  # fmt: skip
def test_patch_splitting_and_added_file_content_match_the_reference(parts: list[bytes]):
    from wukong_lint.sources.git import _HUNK, _added_file_content, _added_lines, _sections

    patch = b"".join(parts)
    sections = _sections(patch)
    assert sections == _reference_sections(patch)
    for section in sections:
        assert _added_file_content(section) == _reference_content(section)
        reference = set()
        for match in _HUNK.finditer(section):
            count = int(match.group(2)) if match.group(2) is not None else 1
            reference.update(range(int(match.group(1)), int(match.group(1)) + count))
        assert _added_lines(section) == reference
