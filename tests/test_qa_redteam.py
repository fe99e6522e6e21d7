"""Silent passes a red team found on main (issues 15 and 17), each with the real CLI on a
real repository or file in a temp dir."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import git
from wukong_lint.cli import main

TOKEN = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"


def _json(capsys, *args: str) -> tuple[int, dict]:
    code = main(["check", "--format", "json", *args])
    out = capsys.readouterr().out
    return code, json.loads(out) if out.strip() else {}


def test_utf16_bom_in_front_of_utf8_text_does_not_hide_it(repo: Path, capsys, monkeypatch):
    # Two bytes FF FE (or FE FF) in front of ordinary text: not UTF-16 (no NUL anywhere),
    # so it is read as UTF-8 and the secret found, in a folder, a named file and --staged.
    line = f'TOKEN = "{TOKEN}"\n'.encode()
    (repo / "odd.py").write_bytes(b"\xff\xfe" + line)  # odd length: UTF-16 fails
    (repo / "even.py").write_bytes(b"\xfe\xff" + line + b"\n")  # even: UTF-16 nonsense
    (repo / "real16.txt").write_bytes(f"k = {TOKEN}\n".encode("utf-16"))  # still UTF-16
    git(repo, "add", "-A")
    monkeypatch.chdir(repo)
    code, report = _json(capsys, ".")
    assert code == 1
    found = sorted((f["path"], f["line"]) for f in report["findings"])
    assert found == [("even.py", 1), ("odd.py", 1), ("real16.txt", 1)]
    assert report["stats"]["skipped"] == 0
    code, report = _json(capsys, "odd.py")
    assert code == 1 and [f["path"] for f in report["findings"]] == ["odd.py"]
    code, report = _json(capsys, "--staged")
    assert code == 1
    assert sorted(f["path"] for f in report["findings"]) == ["even.py", "odd.py", "real16.txt"]


def test_config_key_given_twice_is_an_error(tmp_path: Path, capsys, monkeypatch):
    # PyYAML keeps the last of two equal keys: a second `select:` silently turned the secret
    # rules off and the run passed.
    (tmp_path / "app.py").write_text(f'TOKEN = "{TOKEN}"\n')
    config = tmp_path / ".wukong-lint.yaml"
    monkeypatch.chdir(tmp_path)
    for text in (
        "select: [secret]\nselect: [dangerous-command]\n",
        'per-path-ignores:\n  "*.py": [injection]\n  "*.py": [secret]\n',
    ):
        config.write_text(text)
        assert main(["check", "."]) == 2
        err = capsys.readouterr().err
        assert "is given twice" in err and err.count("\n") == 1
    # a YAML merge key still lets a mapping override what it merges
    config.write_text(
        "rule-params:\n  <<: {secret.generic-assignment: {entropy: 3.0}}\n"
        "  secret.generic-assignment: {entropy: 3.5}\n"
    )
    assert main(["check", "."]) == 1


def test_folder_scan_never_writes_its_report_over_a_tracked_file(repo: Path, capsys, monkeypatch):
    # `check . -o app.py` replaced the tracked source file with the report (only the paths
    # named on the command line were compared with -o).
    source = f'TOKEN = "{TOKEN}"\n'
    (repo / "app.py").write_text(source)
    git(repo, "add", "app.py")
    monkeypatch.chdir(repo)
    assert main(["check", ".", "-o", "./app.py"]) == 2
    assert "one of the files scanned" in capsys.readouterr().err
    assert (repo / "app.py").read_text() == source
    # a report rewritten inside the scanned folder on every run is still fine
    assert main(["check", "--format", "json", "-o", "report.json"]) == 1
    assert main(["check", "--format", "json", "-o", "report.json"]) == 1
    assert json.loads((repo / "report.json").read_text())["findings"]


def test_action_refuses_event_fields_that_are_no_commit_ids(repo: Path, tmp_path: Path):
    # `before` went to `git fetch origin BEFORE` as it was: `--upload-pack=CMD` ran CMD.
    # A payload that is no JSON object, or a pull_request event without its pull request
    # (which scanned the tree with the pull request's own config), is one error line.
    from tests.test_github_action import run_action

    (repo / "app.py").write_text("x = 1\n")
    git(repo, "add", "app.py")
    git(repo, "commit", "-qm", "one")
    head = git(repo, "rev-parse", "HEAD").strip()
    marker = tmp_path / "marker"
    cases = [
        ("push", {"ref": "refs/heads/main", "before": f"--upload-pack=touch {marker}",
                  "after": head}),
        ("push", {"ref": "refs/heads/main", "before": "0" * 40,
                  "after": f"--upload-pack=touch {marker}"}),
        ("pull_request", {"pull_request": {"base": {"sha": f"--upload-pack=touch {marker}"},
                                           "head": {"sha": head}}}),
        ("pull_request", {"number": 3}),
        ("push", [head]),
        ("push", {"before": "0" * 40, "after": head, "repository": "x/y"}),
    ]  # fmt: skip
    for name, event in cases:
        proc, outputs = run_action(tmp_path, repo, name, event)
        assert proc.returncode == 2, proc.stdout + proc.stderr
        assert outputs["exit-code"] == "2" and "Traceback" not in proc.stderr
        assert proc.stdout.count("::error") == 1
        assert not marker.exists()


def test_config_files_that_are_not_utf8_are_one_error_line(tmp_path: Path, capsys, monkeypatch):
    (tmp_path / "app.py").write_text("x = 1\n")
    monkeypatch.chdir(tmp_path)
    for name, data in (
        (".wukong-lint.yaml", b"select: [secret]\nignore: [\xff]\n"),
        ("pyproject.toml", b"[tool.wukong-lint]\nselect = ['\xff']\n"),
    ):
        (tmp_path / name).write_bytes(data)
        assert main(["check", "."]) == 2
        err = capsys.readouterr().err
        assert "not UTF-8" in err.replace("not valid UTF-8", "not UTF-8") and name in err
        assert "internal error" not in err and len(err.splitlines()) == 1
        (tmp_path / name).unlink()


def test_gitleaks_import_that_keeps_no_rule_fails(tmp_path: Path, capsys):
    # every rule skipped (no keywords, no regex...) said "0 rule(s) written." and exited 0
    config = tmp_path / "gitleaks.toml"
    config.write_text("[[rules]]\nid = 'a'\nregex = 'abc[0-9]{10}'\n[[rules]]\nid = 'b'\n")
    assert main(["rules", "import-gitleaks", str(config), "-o", str(tmp_path / "out")]) == 2
    captured = capsys.readouterr()
    assert "no rule could be converted" in captured.err and "0 rule(s) written" in captured.out
    # an entropy that is no number is a malformed config: one usage line (tests/test_bad_packs)
    (config.parent / "bad.toml").write_bytes(b"[[rules]]\nid = '\xff'\n")
    assert main(["rules", "import-gitleaks", str(config.parent / "bad.toml"), "-o", "x"]) == 2
    assert "UTF-8" in capsys.readouterr().err


def test_range_scan_reads_the_commit_messages(repo: Path, capsys, monkeypatch):
    # `--history` scans commit messages; `--diff` (the Action on a pull request or a push)
    # passed a token pasted into one of the range's messages with exit 0
    monkeypatch.chdir(repo)
    (repo / "a.py").write_text("a = 1\n")
    git(repo, "add", "a.py")
    git(repo, "commit", "-qm", "base")
    (repo / "b.py").write_text("b = 2\n")
    git(repo, "add", "b.py")
    git(repo, "commit", "-qm", f"add b\n\nused {TOKEN} to test it")
    leak = git(repo, "rev-parse", "HEAD").strip()
    code, report = _json(capsys, "--diff", "HEAD~1..HEAD")
    assert code == 1
    (finding,) = report["findings"]
    assert (finding["path"], finding["line"]) == ("(commit message)", 3)
    assert finding["source"]["commit"] == leak and TOKEN not in json.dumps(report)
    (repo / "c.py").write_text("c = 3\n")
    git(repo, "add", "c.py")
    git(repo, "commit", "-qm", "add c")
    code, report = _json(capsys, "--diff", "HEAD~1..HEAD")  # a clean message: nothing
    assert code == 0 and report["findings"] == []


def test_a_report_cut_off_by_its_reader_or_a_full_disk_is_not_a_pass(
    tmp_path: Path, monkeypatch, capsys
):
    """stdout on a full disk, and a reader that goes away (`check | head`) before the report
    is written: one error line and exit 2, never 0 (the report did not reach the reader)."""
    import io
    import subprocess
    import sys

    token = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"
    (tmp_path / "app.env").write_text(f'TOKEN = "{token}"\n')
    argv = ["check", "--format", "json", "--fail-on", "critical", str(tmp_path)]
    if Path("/dev/full").exists():
        with open("/dev/full", "w") as full:
            done = subprocess.run(
                [sys.executable, "-m", "wukong_lint", *argv],
                stdout=full, stderr=subprocess.PIPE, timeout=120,
            )  # fmt: skip
        assert done.returncode == 2
        assert done.stderr.decode().strip().endswith("No space left on device")

    # This sandbox's pipes never raise EPIPE, so the closed reader is an in-process stdout
    # whose writes fail as a real closed pipe's do.
    class ClosedPipe(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    class Stderr(io.StringIO):
        def close(self) -> None:  # main closes stderr after its last line; keep the text
            pass

    stderr = Stderr()
    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    monkeypatch.setattr(sys, "stderr", stderr)
    assert main(argv) == 2
    err = stderr.getvalue()
    assert "the output was closed before the report was written" in err and token not in err
