"""`check --history`: every line ever added, with the commit that added it."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import git
from wukong_lint.cli import main
from wukong_lint.sources.git import parse_diff
from wukong_lint.sources.history import parse_log, unquote_path
from wukong_lint.util.errors import InputError

TOKEN = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"
TOKEN2 = "ghp_" + "Q9wErTyUiOp8AsDfGhJkL7zXcVbNm6Lk5Jh4"


def history(capsys, *args: str) -> tuple[int, dict]:
    code = main(["check", "--history", "--format", "json", "--select", "secret.github-pat", *args])
    return code, json.loads(capsys.readouterr().out)


def commit(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message)
    return git(repo, "rev-parse", "HEAD").strip()


def test_removed_secret_is_still_found_with_its_commit(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    (repo / "app.py").write_text("a = 1\nb = 2\n")
    commit(repo, "base")
    (repo / "app.py").write_text(f"a = 1\ntoken = '{TOKEN}'\nb = 2\n")
    leak = commit(repo, "leak")
    (repo / "app.py").write_text("a = 1\nb = 2\n")
    commit(repo, "remove the token")
    (repo / "dir ü").mkdir()
    (repo / "dir ü" / "x.env").write_text("\n" * 40 + f"GH={TOKEN2}\r\n")
    second = commit(repo, "another")
    code, report = history(capsys)
    assert code == 1
    found = sorted((f["path"], f["line"], f["source"]["commit"]) for f in report["findings"])
    assert found == [("app.py", 2, leak), ("dir ü/x.env", 41, second)]
    assert all(f["source"]["kind"] == "diff" for f in report["findings"])
    code, report = history(capsys, "--since", leak)
    assert [f["source"]["commit"] for f in report["findings"]] == [second]


def test_history_of_other_branches_and_merges(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    (repo / "a.txt").write_text("x\n")
    commit(repo, "base")
    git(repo, "checkout", "-qb", "topic")
    (repo / "b.txt").write_text(f"{TOKEN}\n")
    topic = commit(repo, "topic work")
    git(repo, "checkout", "-q", "main")
    (repo / "c.txt").write_text("y\n")
    commit(repo, "main work")
    git(repo, "merge", "-q", "--no-edit", "topic")
    code, report = history(capsys)
    assert code == 1
    # found once, attributed to the commit that added it, not to the merge
    assert [(f["path"], f["source"]["commit"]) for f in report["findings"]] == [("b.txt", topic)]


def test_history_without_commits_and_bad_since(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    code, report = history(capsys)
    assert code == 0 and report["findings"] == []
    (repo / "a.txt").write_text("x\n")
    commit(repo, "base")
    assert main(["check", "--history", "--since", "nope"]) == 2
    assert "unknown revision 'nope'" in capsys.readouterr().err
    assert main(["check", "--since", "HEAD"]) == 2
    assert "--since needs --history" in capsys.readouterr().err


def test_unquote_path():
    assert unquote_path(b"b/plain name.py") == "b/plain name.py"
    assert unquote_path(b'"b/\\303\\274n\\303\\257.txt"') == "b/ünï.txt"
    assert unquote_path(b'"b/tab\\there\\"q\\""') == 'b/tab\there"q"'


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_diff_and_log_parsers_never_crash(data: bytes):
    lines = data.splitlines(keepends=True)
    for item in parse_log(iter(lines)):
        assert item.text is not None
    with contextlib.suppress(InputError):  # a clear error for output git never prints
        parse_diff(data)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([
    b"\x00commit 0123456789abcdef0123456789abcdef01234567\n", b"diff --git a/x b/x\n",
    b"+++ b/x\n", b"+++ /dev/null\n", b"@@ -1,0 +1,2 @@\n", b"@@ -3 +7 @@ ctx\n",
    b"+added line\n", b"-removed\n", b"\\ No newline at end of file\n", b"+\x00bin\n",
    b'+++ "b/\\303\\274.py"\n', b"Binary files a/x and b/x differ\n", b"\x00end\n",
    b"a message line\n", b"\n", b"last line\x00end\n",
]), max_size=30))  # fmt: skip
def test_log_parser_structured_fuzz(lines: list[bytes]):
    for unit in parse_log(iter(lines)):
        assert unit.line_numbers is not None
        assert len(unit.line_numbers) == unit.text.count("\n") + 1


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([
    b":100644 100644 " + b"a" * 40 + b" " + b"b" * 40 + b" M\x00x.py\x00",
    b":000000 100644 " + b"0" * 40 + b" " + b"c" * 40 + b" A\x00n\xc3\xbc.py\x00",
    b":100644 100644 " + b"a" * 40 + b" " + b"b" * 40 + b" R090\x00o.py\x00n.py\x00",
    b":100644 000000 " + b"a" * 40, b"\x00", b"diff --git a/x b/x\n", b"@@ -1 +1,2 @@\n",
    b"Binary files a/x and b/x differ\n", b"+x\n", b"@@ -0,0 +5 @@\n",
]), max_size=12))  # fmt: skip
def test_diff_parser_structured_fuzz(parts: list[bytes]):
    try:
        changes = parse_diff(b"".join(parts))
    except InputError:
        return
    for change in changes:
        assert all(n > 0 for n in change.added)


def test_history_jobs_give_identical_results(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    for n in range(40):
        (repo / f"m{n % 7}.py").write_text(
            "".join(f"x{i} = {i}\n" for i in range(n)) + (f"t = '{TOKEN}'\n" if n % 5 == 0 else "")
        )
        commit(repo, f"c{n}")
    reports = []
    for jobs in ("1", "2"):
        code, report = history(capsys, "--jobs", jobs)
        assert code == 1
        report["stats"].pop("seconds")
        reports.append(report)
    assert reports[0] == reports[1] and len(reports[0]["findings"]) == 8


# -- odd repositories, commit messages, git's messages masked --


def test_unborn_head_still_scans_every_other_ref(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    (repo / "a.txt").write_text(f"{TOKEN}\n")
    leak = commit(repo, "leak")
    git(repo, "checkout", "-q", "--orphan", "fresh")  # HEAD now names a branch with no commit
    code, report = history(capsys)
    assert code == 1
    assert [(f["path"], f["source"]["commit"]) for f in report["findings"]] == [("a.txt", leak)]
    assert main(["check", "--history", "--since", leak]) == 2
    assert "HEAD has no commits yet" in capsys.readouterr().err


def test_bare_repository_history(repo: Path, tmp_path: Path, monkeypatch, capsys):
    (repo / "b.txt").write_text("x\n")
    base = commit(repo, "base")
    (repo / "a.txt").write_text(f"{TOKEN}\n")
    leak = commit(repo, "leak")
    bare = tmp_path / "bare.git"
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(bare))
    monkeypatch.chdir(bare)
    code, report = history(capsys)
    assert code == 1
    assert [(f["path"], f["source"]["commit"]) for f in report["findings"]] == [("a.txt", leak)]
    # a range works too; a staged scan says why it cannot
    assert main(["check", "--diff", f"{base}..{leak}", "--select", "secret"]) == 1
    capsys.readouterr()
    assert main(["check", "--staged"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "work tree" in err


def test_git_not_found_is_its_own_message(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    monkeypatch.setenv("PATH", str(repo / "no-bin"))
    for args in (["--history"], ["--diff", "HEAD~1..HEAD"], ["--staged"]):
        assert main(["check", *args]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("wukong-lint: error: git not found"), err


def test_a_secret_in_a_commit_message_is_a_finding_of_that_commit(repo, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    (repo / "a.txt").write_text("x\n")
    first = commit(repo, f"deploy with token {TOKEN}")
    (repo / "a.txt").write_text("y\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", f"subject\n\nbody line\nGH={TOKEN2}")
    second = git(repo, "rev-parse", "HEAD").strip()
    code, report = history(capsys)
    assert code == 1
    found = sorted((f["path"], f["line"], f["source"]["commit"]) for f in report["findings"])
    assert found == sorted([("(commit message)", 1, first), ("(commit message)", 4, second)])
    assert all(TOKEN not in f["snippet"] and TOKEN2 not in f["snippet"]
               for f in report["findings"])  # fmt: skip
    code, report = history(capsys, "--since", first)
    assert [f["source"]["commit"] for f in report["findings"]] == [second]
    # the text report names the commit too and prints no secret
    main(["check", "--history", "--select", "secret.github-pat"])
    out = capsys.readouterr().out
    assert "(commit message)" in out and TOKEN not in out and TOKEN2 not in out


def test_git_error_messages_mask_secrets(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    (repo / "a.txt").write_text("x\n")
    commit(repo, "base")
    # a ref named like a token, broken: git names it in its error
    (repo / ".git" / "refs" / "heads" / TOKEN).write_text("0" * 40 + "\n")
    for args in (["--history"], ["--diff", f"{TOKEN}..HEAD"], ["--diff", f"HEAD..{TOKEN2}"],
                 ["--history", "--since", TOKEN2]):  # fmt: skip
        code = main(["check", *args])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1, (args, err)
        assert TOKEN not in err and TOKEN2 not in err and "REDACTED" in err, err


def test_attributes_that_mark_files_binary_hide_nothing(repo: Path, monkeypatch, capsys):
    """`* -diff` makes git print "Binary files differ" for every file: a repository could
    hide its secrets from --history so. Real binary content is still skipped."""
    monkeypatch.chdir(repo)
    (repo / ".gitattributes").write_text("* -diff\n")
    (repo / "a.py").write_text(f"x = 1\nt = '{TOKEN}'\n")
    (repo / "img.bin").write_bytes(b"\x89PNG\r\n\x1a\n\0\0" + TOKEN2.encode() + b"\0\n")
    leak = commit(repo, "add")
    code, report = history(capsys)
    assert code == 1
    assert [(f["path"], f["line"], f["source"]["commit"]) for f in report["findings"]] == [
        ("a.py", 2, leak)
    ]
