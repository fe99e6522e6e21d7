"""The Action's script on a merge queue (`merge_group`) and on events it does not know, with
a simulated event file, on a depth-1 clone of a real repository as actions/checkout leaves
it: the queued commits only, the base's configuration, and fail-closed errors."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import commit, git
from tests.test_github_action import run_action
from tests.test_github_action_events import ON_MAIN, STRIPE

QUEUE = "gh-readonly-queue/main/pr-7-0123456789abcdef0123456789abcdef01234567"


def queued(repo: Path) -> dict[str, str]:
    """main with a secret of its own; a pull request that adds a key, removes it and turns
    secret scanning off in its own config; the queue's merge commit of it on top of main."""
    shas = {"main0": commit(repo, "old.py", f"T = '{ON_MAIN}'\n", "main's own secret")}
    git(repo, "checkout", "-qb", "feature")
    commit(repo, "pay.py", f"KEY = '{STRIPE}'\n", "add key")
    commit(repo, "pay.py", "KEY = None\n", "remove key")
    commit(repo, ".wukong-lint.yaml", "ignore: [secret]\n", "quiet please")
    git(repo, "checkout", "-q", "main")
    shas["base"] = commit(repo, "later.py", "x = 1\n", "main moves on")
    git(repo, "checkout", "-qb", QUEUE)
    git(repo, "merge", "-q", "--no-ff", "-m", "Merge pull request #7", "feature")
    shas["head"] = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", "main")
    return shas


def checkout_queue(tmp_path: Path, repo: Path) -> Path:
    """What actions/checkout leaves on a merge_group event: a depth-1 clone of the queue's
    branch (its merge commit only)."""
    origin = tmp_path / "origin.git"
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(origin))
    work = tmp_path / "work-queue"
    git(tmp_path, "clone", "-q", "--depth", "1", "--branch", QUEUE, f"file://{origin}", work.name)
    return work


def merge_group_event(shas: dict[str, str]) -> dict:
    return {
        "action": "checks_requested",
        "merge_group": {
            "head_sha": shas["head"],
            "head_ref": f"refs/heads/{QUEUE}",
            "base_sha": shas["base"],
            "base_ref": "refs/heads/main",
            "head_commit": {"id": shas["head"], "message": "Merge pull request #7"},
        },
        "repository": {"default_branch": "main"},
    }


def test_merge_group_scans_the_queued_commits_with_the_base_config(repo, tmp_path):
    shas = queued(repo)
    work = checkout_queue(tmp_path, repo)
    proc, outputs = run_action(tmp_path, work, "merge_group", merge_group_event(shas))
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert f"scanning --diff {shas['base']}..{shas['head']}" in proc.stdout
    assert f"configuration from the base commit {shas['base'][:12]}" in proc.stdout
    # the key added and removed inside the queued pull request is reported, although its
    # own config ignores secrets; main's own secret is not the queue's
    assert "file=pay.py,line=1," in proc.stdout and "title=secret.stripe-secret-key" in out
    assert "old.py" not in proc.stdout
    assert STRIPE not in out and ON_MAIN not in out
    assert outputs["exit-code"] == "1" and (work / "wukong-lint.sarif").is_file()


def test_a_broken_merge_group_event_is_one_error(repo, tmp_path):
    commit(repo, "app.py", "x = 1\n", "clean")
    for event in ({}, {"merge_group": {"base_sha": "main", "head_sha": "HEAD"}}):
        proc, outputs = run_action(tmp_path, repo, "merge_group", event)
        assert proc.returncode == 2 and outputs["exit-code"] == "2", proc.stdout
        assert "::error title=wukong-lint::" in proc.stdout and "merge_group" in proc.stdout
        assert "Traceback" not in proc.stderr and "scanning" not in proc.stdout


def test_an_unknown_event_fails_closed_and_scan_tree_opts_in(repo, tmp_path):
    commit(repo, "app.py", f"KEY = '{STRIPE}'\n", "leak")
    summary = tmp_path / "summary.md"
    proc, outputs = run_action(tmp_path, repo, "release", {}, step_summary=str(summary))
    assert proc.returncode == 2 and outputs == {"exit-code": "2"}, proc.stdout
    assert "::error title=wukong-lint::the event 'release' is not supported" in proc.stdout
    assert "scan: tree" in proc.stdout and "scanning" not in proc.stdout
    assert summary.read_text().startswith("## wukong-lint: error")
    assert not (repo / "wukong-lint.sarif").exists()
    # the explicit opt-in: the checked-out tree, on any event
    proc, outputs = run_action(tmp_path, repo, "release", {}, scan="tree")
    assert proc.returncode == 1 and "scanning ." in proc.stdout, proc.stdout + proc.stderr
    assert "file=app.py,line=1," in proc.stdout and outputs["exit-code"] == "1"
    proc, outputs = run_action(tmp_path, repo, "push", {}, scan="everything")
    assert proc.returncode == 2 and "'everything' is not auto or tree" in proc.stdout


def test_no_event_name_and_a_push_without_after_are_errors(repo, tmp_path):
    commit(repo, "app.py", "x = 1\n", "clean")
    proc, outputs = run_action(tmp_path, repo, "", {})
    assert proc.returncode == 2 and "GITHUB_EVENT_NAME is not set" in proc.stdout
    proc, outputs = run_action(tmp_path, repo, "push", {"ref": "refs/heads/main"})
    assert proc.returncode == 2 and "push event has no 'after' commit" in proc.stdout
    assert outputs["exit-code"] == "2" and "Traceback" not in proc.stderr
