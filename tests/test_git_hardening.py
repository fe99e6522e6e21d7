"""No git process the tool starts runs code a repository (or a job's GIT_* environment)
chooses: every command that starts git, on a repository whose config, attributes, hooks and
environment set each such program to a trap that leaves a marker file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hostile_repo import TOKEN, Traps, build, build_partial
from wukong_lint.cli import main
from wukong_lint.util import gitproc

PROJECT = Path(__file__).resolve().parent.parent


@pytest.fixture
def hostile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Traps]:
    traps = Traps(tmp_path)
    repo = build(tmp_path, traps)
    for name, value in traps.environment().items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(repo)
    return repo, traps


def _json(capsys) -> dict:
    out = capsys.readouterr().out
    return json.loads(out)


def test_the_traps_fire_under_plain_git(hostile):
    """The repository is armed: plain git runs its programs (so the tests below can fail)."""
    repo, traps = hostile
    env = dict(os.environ)
    subprocess.run(["git", "status"], cwd=repo, env=env, capture_output=True)
    subprocess.run(["git", "log", "-p", "--all"], cwd=repo, env=env, capture_output=True)
    subprocess.run(["git", "diff", "HEAD~1"], cwd=repo, env=env, capture_output=True)
    fired = traps.fired()
    for trap in ("env-config-params", "env-trace-file", "filter-process",
                 "gpg"):  # fmt: skip
        assert trap in fired, fired


def test_every_command_that_starts_git_runs_none_of_its_programs(hostile, tmp_path, capsys):
    _repo, traps = hostile
    runs = [
        (["check", "--format", "json", "."], 1),
        (["check", "--format", "json", "--staged"], 1),
        (["check", "--format", "json", "--diff", "HEAD~1..HEAD"], 1),
        (["check", "--format", "json", "--diff", "HEAD~1...HEAD"], 1),
        (["check", "--format", "json", "--history"], 1),
        (["check", "--format", "json", "--history", "--since", "HEAD~1"], 1),
        (["check", "--format", "sarif", "-o", str(tmp_path / "r.sarif"), "."], 1),
        (["check", "--format", "github", "--history"], 1),
        (["baseline", "create", "-o", str(tmp_path / "b.json")], 0),
        (["baseline", "update", "-o", str(tmp_path / "b.json")], 0),
        (["anchors", "fmt", "--check"], 0),
    ]
    for args, expected in runs:
        code = main(args)
        captured = capsys.readouterr()
        assert code == expected, (args, captured.err)
        assert TOKEN not in captured.out + captured.err
        assert traps.fired() == [], args
    # the findings are there: the hardening hides nothing
    main(["check", "--format", "json", "--history"])
    found = {(f["path"], f["rule_id"]) for f in _json(capsys)["findings"]}
    assert ("config.py", "secret.github-pat") in found
    main(["check", "--format", "json", "--staged"])
    assert [f["path"] for f in _json(capsys)["findings"]] == ["staged.py"]


@pytest.mark.parametrize("event_name", ["push", "pull_request"])
def test_the_action_script_runs_none_of_its_programs(hostile, tmp_path, event_name):
    repo, traps = hostile
    head, base = subprocess.run(["git", "rev-parse", "HEAD", "HEAD~1"], cwd=repo,
                                capture_output=True, text=True,
                                env=gitproc.environment()).stdout.split()  # fmt: skip
    event = tmp_path / "event.json"
    if event_name == "push":
        # a push whose old commit the checkout lacks: the script fetches from origin (ext::)
        event.write_text(json.dumps({"before": "1" * 40, "after": head}))
    else:  # the base commit is checked out in a worktree: attributes name the filter driver
        pr = {"base": {"sha": base}, "head": {"sha": head}, "commits": 1}
        event.write_text(json.dumps({"pull_request": pr}))
    output = tmp_path / "out.txt"
    env = {
        **os.environ,
        "GITHUB_EVENT_NAME": event_name,
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_WORKSPACE": str(repo),
        "GITHUB_OUTPUT": str(output),
        "WUKONG_LINT": f"{sys.executable} -m wukong_lint",
        "PYTHONPATH": str(PROJECT),
        "INPUT_SARIF_FILE": str(tmp_path / "action.sarif"),
    }
    proc = subprocess.run([sys.executable, str(PROJECT / "scripts" / "github_action.py")],
                          cwd=tmp_path, env=env, capture_output=True, text=True)  # fmt: skip
    assert proc.returncode == 1, proc.stderr
    assert "secret.github-pat" in proc.stdout and TOKEN not in proc.stdout + proc.stderr
    assert traps.fired() == []


def test_a_missing_object_is_a_scan_error_never_a_lazy_fetch(tmp_path, monkeypatch, capsys):
    traps = Traps(tmp_path)
    repo = build_partial(tmp_path, traps)
    probe = subprocess.run(["git", "log", "-p", "--all"], cwd=repo, capture_output=True)
    assert probe.returncode != 0 and traps.fired() == ["lazy-fetch"]  # the trap is armed
    traps.reset()
    monkeypatch.chdir(repo)
    for args in (["--history"], ["--diff", "HEAD~1..HEAD"]):
        code = main(["check", "--format", "json", *args])
        err = capsys.readouterr().err
        # --history stops (git log cannot go on); a range reads blobs one by one, reports
        # the one it could not read and fails: part of the range was not scanned
        assert code == 2, (args, err)
        assert "unable to read" in err or "cannot read blob" in err, (args, err)
        assert traps.fired() == []
    # --allow-skipped: the user accepts the unread blob as a warning
    code = main(["check", "--format", "json", "--allow-skipped", "--diff", "HEAD~1..HEAD"])
    assert code in (0, 1) and "cannot read blob" in capsys.readouterr().err
    assert traps.fired() == []


def test_environment_keeps_location_variables_and_drops_the_rest(tmp_path):
    base = {
        "PATH": "/usr/bin",
        "HOME": "/home/u",
        "GIT_INDEX_FILE": "rel/index",  # git commit -a: a temporary index, kept (absolute)
        "GIT_DIR": "/abs/.git",
        "GIT_WORK_TREE": "/abs",
        "GIT_EXTERNAL_DIFF": "evil",
        "GIT_CONFIG_PARAMETERS": "'core.fsmonitor'='evil'",
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": "safe.directory",
        "GIT_CONFIG_VALUE_0": "*",
        "GIT_TRACE": "/tmp/x",
        "GIT_EXEC_PATH": "/evil",
        "GIT_ALLOW_PROTOCOL": "ext",
    }
    env = gitproc.environment(base)
    assert env["GIT_INDEX_FILE"] == os.path.abspath("rel/index")
    assert env["GIT_DIR"] == "/abs/.git" and env["GIT_WORK_TREE"] == "/abs"
    assert env["PATH"] == "/usr/bin" and env["HOME"] == "/home/u"
    for name in ("GIT_EXTERNAL_DIFF", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
                 "GIT_TRACE", "GIT_EXEC_PATH"):  # fmt: skip
        assert name not in env
    assert env["GIT_ALLOW_PROTOCOL"] == "none" and env["GIT_NO_LAZY_FETCH"] == "1"
    # on purpose: named in WUKONG_LINT_GIT_ENV (a prefix with *)
    kept = gitproc.environment({**base, "WUKONG_LINT_GIT_ENV": "GIT_CONFIG_*, GIT_TRACE"})
    assert kept["GIT_CONFIG_COUNT"] == "1" and kept["GIT_CONFIG_VALUE_0"] == "*"
    assert kept["GIT_TRACE"] == "/tmp/x" and "GIT_EXTERNAL_DIFF" not in kept
    assert kept["GIT_ALLOW_PROTOCOL"] == "none"  # never passed through
    assert gitproc.environment(base, fetch=True)["GIT_ALLOW_PROTOCOL"] == "https:http:ssh:file"


def test_commit_a_with_a_temporary_index_still_works(repo: Path, tmp_path):
    """`git commit -a` runs the pre-commit hook with GIT_INDEX_FILE set to a temporary
    index: the staged scan must read that index (the variable is kept on purpose)."""
    (repo / "app.py").write_text("x = 1\n")
    subprocess.run(["git", "add", "."], cwd=repo, check=True)
    subprocess.run(["git", "commit", "-qm", "base"], cwd=repo, check=True)
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.write_text(f"#!/bin/sh\nexec {sys.executable} -m wukong_lint check --staged\n")
    hook.chmod(0o755)
    (repo / "app.py").write_text(f'x = 1\nTOKEN = "{TOKEN}"\n')  # modified, not staged
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    proc = subprocess.run(["git", "commit", "-qam", "leak"], cwd=repo, env=env,
                          capture_output=True, text=True)  # fmt: skip
    assert proc.returncode != 0, proc.stderr  # the hook saw the temporary index
    assert "secret.github-pat" in proc.stderr and TOKEN not in proc.stderr  # (hooks: stderr)
