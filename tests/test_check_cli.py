"""`wukong-lint check PATH...`: files, folders, output formats, exit codes, bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import git
from wukong_lint.cli import main

TOKEN = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"
SLACKLESS_PASSWORD = "Zq7#vLp2!tKx9wRm"


def check_json(capsys, *args: str) -> tuple[int, dict]:
    code = main(["check", "--format", "json", *args])
    captured = capsys.readouterr()
    return code, json.loads(captured.out) if captured.out.strip() else {}


def test_json_contract_fields(tmp_path: Path, capsys):
    (tmp_path / "app.py").write_text(f'import os\ntoken = "{TOKEN}"\n')
    code, report = check_json(capsys, str(tmp_path / "app.py"))
    assert code == 1
    assert report["version"] == 1 and report["tool"] == "wukong-lint"
    (finding,) = report["findings"]
    assert set(finding) == {
        "rule_id", "category", "severity", "message", "path", "line", "column",
        "end_line", "snippet", "fingerprint", "source",
    }  # fmt: skip
    assert finding["rule_id"] == "secret.github-pat"
    assert finding["category"] == "secret" and finding["severity"] == "critical"
    assert (finding["line"], finding["column"], finding["end_line"]) == (2, 10, 2)
    assert finding["path"] == str(tmp_path / "app.py")
    assert finding["snippet"] == 'token = "ghp_****"'
    assert finding["source"]["kind"] == "file"
    assert set(report["stats"]) >= {"files", "bytes", "units", "seconds", "suppressed"}
    assert report["stats"]["files"] == 1


def test_paths_are_as_given_and_gitignore_is_honoured(repo: Path, monkeypatch, capsys):
    (repo / ".gitignore").write_text("build/\n*.log\n")
    (repo / "src").mkdir()
    (repo / "src" / "a.py").write_text(f"T = '{TOKEN}'\n")
    (repo / "build").mkdir()
    (repo / "build" / "gen.py").write_text(f"T = '{TOKEN}'\n")
    (repo / "debug.log").write_text(f"{TOKEN}\n")
    (repo / "untracked.py").write_text(f"T = '{TOKEN}'\n")
    git(repo, "add", "src", ".gitignore")
    monkeypatch.chdir(repo)
    code, report = check_json(capsys, ".")
    assert code == 1
    assert sorted(f["path"] for f in report["findings"]) == ["src/a.py", "untracked.py"]
    code, report = check_json(capsys, "src")
    assert [f["path"] for f in report["findings"]] == ["src/a.py"]
    # naming an ignored folder or file explicitly scans it
    code, report = check_json(capsys, "build", "debug.log")
    assert sorted(f["path"] for f in report["findings"]) == ["build/gen.py", "debug.log"]


def test_folder_outside_git_skips_dot_git_and_symlinks(tmp_path: Path, capsys):
    (tmp_path / ".git").mkdir()  # a stray .git dir that is not a repository
    (tmp_path / ".git" / "config").write_text(f"{TOKEN}\n")
    (tmp_path / "real.txt").write_text(f"{TOKEN}\n")
    (tmp_path / "link.txt").symlink_to(tmp_path / "real.txt")
    env_dir = tmp_path / "w"
    env_dir.mkdir()
    os.symlink(tmp_path, env_dir / "loop")  # a symlink loop must not hang the walk
    code, report = check_json(capsys, str(tmp_path))
    assert code == 1
    assert [Path(f["path"]).name for f in report["findings"]] == ["real.txt"]


def test_binary_invalid_utf8_utf16_and_unreadable(tmp_path: Path, capsys):
    (tmp_path / "img.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0" + TOKEN.encode())
    (tmp_path / "latin.py").write_bytes(b"# caf\xe9\n" + f"t = '{TOKEN}'\n".encode())
    (tmp_path / "utf16.txt").write_bytes(f"k = {TOKEN}\n".encode("utf-16"))
    locked = tmp_path / "locked.txt"
    locked.write_text(f"{TOKEN}\n")
    locked.chmod(0)
    try:
        code, report = check_json(capsys, str(tmp_path))
    finally:
        locked.chmod(0o644)
    assert code == 1
    found = sorted((Path(f["path"]).name, f["line"]) for f in report["findings"])
    if os.geteuid() == 0:  # root reads anything: the unreadable case cannot be produced
        assert ("locked.txt", 1) in found
        found.remove(("locked.txt", 1))
    else:
        assert any("locked.txt" in e["path"] for e in report["errors"])
    assert found == [("latin.py", 2), ("utf16.txt", 1)]
    assert report["stats"]["skipped"] == 1


def test_missing_path_is_usage_error(tmp_path: Path, capsys):
    assert main(["check", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert "no such file or directory" in err and err.count("\n") == 1


def test_fail_on_threshold(tmp_path: Path, capsys):
    (tmp_path / "a.py").write_text(f"t = '{TOKEN}'\n")
    assert main(["check", str(tmp_path), "--fail-on", "critical"]) == 1
    assert main(["check", str(tmp_path), "--select", "secret.jwt"]) == 0
    capsys.readouterr()


def test_inline_suppression(tmp_path: Path, capsys):
    (tmp_path / "a.py").write_text(
        f"a = '{TOKEN}'  # wukong-lint: ignore[secret.github-pat]\n"
        f"b = '{TOKEN}'  # wukong-lint: ignore\n"
        f"c = '{TOKEN}'  # wukong-lint: ignore[secret]\n"
        f"d = '{TOKEN}'  # wukong-lint: ignore[secret.jwt]\n"
    )
    code, report = check_json(capsys, str(tmp_path))
    assert code == 1
    assert [f["line"] for f in report["findings"]] == [4]
    assert report["stats"]["suppressed"] == 3


def test_output_file_and_text_format(tmp_path: Path, capsys):
    (tmp_path / "a.py").write_text(f"t = '{TOKEN}'\n")
    out = tmp_path / "out" / "report.json"
    out.parent.mkdir()
    assert main(["check", str(tmp_path / "a.py"), "--format", "json", "-o", str(out)]) == 1
    assert capsys.readouterr().out == ""
    assert json.loads(out.read_text())["findings"][0]["line"] == 1
    assert [p.name for p in out.parent.iterdir()] == ["report.json"]  # no temp file left
    assert main(["check", str(tmp_path / "a.py")]) == 1
    text = capsys.readouterr().out
    assert "secret.github-pat" in text and "a.py" in text and "1 finding" in text


def test_no_secret_in_any_output(tmp_path: Path, capsys):
    secrets = [TOKEN, SLACKLESS_PASSWORD, "q7Vt2rKz9LmPw4X"]
    (tmp_path / "many.py").write_text(
        f"a = '{TOKEN}'; DB_PASSWORD = \"{SLACKLESS_PASSWORD}\"\n"
        "url = 'postgresql://app:q7Vt2rKz9LmPw4X@db.acme.io/orders'\n"
    )
    for fmt in ("text", "json"):
        code = main(["check", str(tmp_path), "--format", fmt])
        captured = capsys.readouterr()
        assert code == 1
        for secret in secrets:
            assert secret not in captured.out + captured.err, (fmt, secret)
            # not even a long fragment of it
            assert secret[4:14] not in captured.out + captured.err, (fmt, secret)


def test_console_script_and_module_entry_points(tmp_path: Path):
    (tmp_path / "a.py").write_text(f"t = '{TOKEN}'\n")
    proc = subprocess.run(
        [sys.executable, "-m", "wukong_lint", "check", str(tmp_path), "--format", "json"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1 and json.loads(proc.stdout)["findings"]
    proc = subprocess.run([sys.executable, "-m", "wukong_lint", "check", "--bogus"],
                          capture_output=True, text=True)  # fmt: skip
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_jobs_give_identical_results(tmp_path: Path, capsys):
    for i in range(150):
        body = f"x = {i}\n" + (f"t = '{TOKEN}'\n" if i % 7 == 0 else "")
        (tmp_path / f"m{i:03}.py").write_text(body)
    (tmp_path / "bin.dat").write_bytes(b"\0" * 100)
    reports = []
    for jobs in ("1", "2", "3"):
        code, report = check_json(capsys, str(tmp_path), "--jobs", jobs)
        assert code == 1
        report["stats"].pop("seconds")
        reports.append(report)
    assert reports[0] == reports[1] == reports[2]
    assert len(reports[0]["findings"]) == 22 and reports[0]["stats"]["skipped"] == 1


def test_pre_commit_words_skip_argparse_with_the_same_namespace(tmp_path, monkeypatch):
    """`check --staged` (what the pre-commit hook runs) is parsed without argparse: its
    namespace must be the one argparse would make, and argparse must stay unimported."""
    from wukong_lint import cli

    parsed = vars(cli._build_parser("check").parse_args(cli.PRE_COMMIT_WORDS))
    seen = {}
    monkeypatch.setattr(cli, "_cmd_check", lambda args: seen.update(vars(args)) or 0)
    assert cli.main(list(cli.PRE_COMMIT_WORDS)) == 0
    assert seen.pop("handler") is cli._cmd_check  # (the stand-in: it was looked up by name)
    assert parsed.pop("handler").__name__ == "_cmd_check"
    assert seen == parsed
    assert parsed["staged"] is True
    probe = (
        "import sys; from wukong_lint.cli import main; code = main(['check', '--staged']); "
        "print(sorted(m for m in ('argparse', 'gettext', 'locale') if m in sys.modules), "
        "file=sys.stderr)"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)}
    for _ in range(2):  # the first run may fill the rule cache (which imports much more)
        proc = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, env=env
        )
    assert proc.stderr.splitlines()[-1] == "[]", proc.stderr
