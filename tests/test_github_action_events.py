"""The Action's script on simulated events, each on a real clone of a real repository as
actions/checkout leaves it (shallow, depth 1): a push creating a branch, a push, a pull
request (configuration from its base commit), a schedule (the tree once, never its own
SARIF), the job summary and GitHub's annotation limits."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import commit, git
from tests.test_github_action import run_action

TOKEN = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"
STRIPE = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"
ON_MAIN = "ghp_" + "Zt3Qm8Lw2Rx5Vn7Kp9Hs4Jd6Fb1Gc0Ya8Ue3"
ZERO = "0" * 40


def checkout(tmp_path: Path, repo: Path, branch: str) -> Path:
    """What actions/checkout leaves: a depth-1 clone of the branch from `origin`."""
    origin = tmp_path / "origin.git"
    if not origin.exists():
        git(tmp_path, "clone", "-q", "--bare", str(repo), str(origin))
    else:
        git(repo, "push", "-q", "--all", "--force", str(origin))
    work = tmp_path / f"work-{branch}"
    git(tmp_path, "clone", "-q", "--depth", "1", "--branch", branch, f"file://{origin}", work.name)
    git(work, "config", "user.email", "ci@example.com")
    git(work, "config", "user.name", "CI")
    return work


@pytest.fixture
def feature(repo: Path) -> dict[str, str]:
    """main with a secret of its own; feature: a secret added then removed, then docs."""
    shas = {"main0": commit(repo, "old.py", f"T = '{ON_MAIN}'\n", "main's own secret")}
    git(repo, "checkout", "-qb", "feature")
    shas["leak"] = commit(repo, "pay.py", f"KEY = '{STRIPE}'\n", "add key")
    shas["fix"] = commit(repo, "pay.py", "KEY = None\n", "remove key")
    shas["docs"] = commit(repo, "README.md", "docs\n", "docs")
    git(repo, "checkout", "-q", "main")
    shas["main1"] = commit(repo, "later.py", "x = 1\n", "main moves on")
    return shas


def test_push_creating_a_branch_scans_its_commits_not_on_main(repo, tmp_path, feature):
    work = checkout(tmp_path, repo, "feature")
    event = {
        "ref": "refs/heads/feature",
        "before": ZERO,
        "after": feature["docs"],
        "created": True,
        "commits": [{"id": feature["docs"]}],  # GitHub lists only some of them
        "repository": {"default_branch": "main"},
    }
    proc, outputs = run_action(tmp_path, work, "push", event, fail_on="high")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"...{feature['docs']}" in proc.stdout  # the default branch ... the pushed commit
    annotations = [line for line in proc.stdout.splitlines() if line.startswith("::error")]
    assert len(annotations) == 1 and "file=pay.py,line=1," in annotations[0]
    assert "old.py" not in proc.stdout  # main's own commits are not the push's
    assert STRIPE not in proc.stdout + proc.stderr and outputs["exit-code"] == "1"


def test_first_push_of_the_default_branch_scans_its_history(repo, tmp_path, feature):
    work = checkout(tmp_path, repo, "main")
    event = {
        "ref": "refs/heads/main",
        "before": ZERO,
        "after": feature["main1"],
        "repository": {"default_branch": "main"},
    }
    proc, _ = run_action(tmp_path, work, "push", event)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "--history" in proc.stdout and "file=old.py,line=1," in proc.stdout


def test_push_scans_every_commit_and_a_deleted_branch_nothing(repo, tmp_path, feature):
    work = checkout(tmp_path, repo, "feature")
    event = {"ref": "refs/heads/feature", "before": feature["main0"], "after": feature["docs"]}
    proc, _ = run_action(tmp_path, work, "push", event)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "file=pay.py,line=1," in proc.stdout  # added, then removed within the push
    deleted = {"ref": "refs/heads/feature", "before": feature["docs"], "after": ZERO}
    proc, outputs = run_action(tmp_path, work, "push", {**deleted, "deleted": True})
    assert proc.returncode == 0 and "no commit to scan" in proc.stdout
    assert outputs == {"exit-code": "0"}


def test_pull_request_scans_its_commits_and_writes_a_masked_summary(repo, tmp_path, feature):
    work = checkout(tmp_path, repo, "feature")
    summary = tmp_path / "summary.md"
    event = {
        "pull_request": {
            "base": {"sha": feature["main1"]},
            "head": {"sha": feature["docs"]},
            "commits": 3,
        }
    }
    proc, _ = run_action(tmp_path, work, "pull_request", event, step_summary=str(summary))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    text = summary.read_text()
    assert text.startswith("## wukong-lint: failed")
    assert "| critical | 1 |" in text and "| high | 0 |" in text
    assert "`secret.stripe-secret-key`" in text and "`pay.py:1`" in text
    assert f"`{feature['leak'][:12]}`" in text  # the commit that added it
    assert "sk_live_****" in text and STRIPE not in text and ON_MAIN not in text


def test_pull_request_posts_the_jie_report_as_summary_and_comment_body(repo, tmp_path, feature):
    work = checkout(tmp_path, repo, "feature")
    summary = tmp_path / "summary.md"
    body = tmp_path / "comment.md"
    event = {
        "pull_request": {
            "base": {"sha": feature["main1"]},
            "head": {"sha": feature["docs"]},
            "commits": 3,
        }
    }
    proc, outputs = run_action(
        tmp_path, work, "pull_request", event, step_summary=str(summary), jie="en",
        jie_file=str(body),
    )  # fmt: skip
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert outputs["jie-file"] == str(body)
    comment = body.read_text()
    assert "❌" in comment and "secret.stripe-secret-key" in comment
    assert comment in summary.read_text()  # the job summary carries it too
    assert STRIPE not in comment
    # a bad value is one error, not a traceback
    proc, outputs = run_action(tmp_path, work, "pull_request", event, jie="fr")
    assert proc.returncode == 2 and "jie: expected off, en or zh" in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr


def test_pull_request_reads_config_from_the_base_commit(repo, tmp_path):
    """The PR ignores secrets in its own config and adds a baseline entry and an inline
    ignore: the scan still fails (the base's config rules), and each weakening is reported."""
    commit(repo, ".wukong-lint.yaml", "fail-on: high\n", "config")
    base = commit(repo, "app.py", "x = 1\n", "app")
    git(repo, "checkout", "-qb", "feature")
    commit(repo, ".wukong-lint.yaml", "fail-on: high\nignore: [secret]\n", "quiet, please")
    commit(repo, "pay.py", f"KEY = '{STRIPE}'\n", "add key")
    head = commit(repo, "app.py", f"x = 1\nT = '{TOKEN}'  # wukong-lint: ignore\n", "ignore")
    work = checkout(tmp_path, repo, "feature")
    marker = tmp_path / "hook-ran"
    hook = work / ".git" / "hooks" / "post-checkout"
    hook.write_text(f"#!/bin/sh\ntouch {marker}\n")
    hook.chmod(0o755)
    event = {"pull_request": {"base": {"sha": base}, "head": {"sha": head}, "commits": 3}}
    proc, outputs = run_action(tmp_path, work, "pull_request", event)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert not marker.exists()  # checking out the base ran no hook
    assert "configuration from the base commit" in out
    assert "file=pay.py,line=1," in out and "title=secret.stripe-secret-key" in out
    assert "dangerous-command.weakened-scanning" in out
    assert "ignore secret" in out and "inline-ignore secret.github-pat" in out
    assert TOKEN not in out and STRIPE not in out
    assert outputs["exit-code"] == "1"
    assert git(work, "worktree", "list").count("\n") == 1  # the base worktree is gone
    assert not list(tmp_path.glob("wukong-lint-*"))  # and so is the scratch folder


def test_schedule_scans_the_tree_once_and_never_its_own_sarif(repo, tmp_path):
    commit(repo, "app.py", f"T = '{TOKEN}'\n", "leak")
    work = checkout(tmp_path, repo, "main")
    proc, outputs = run_action(tmp_path, work, "schedule", {})
    assert proc.returncode == 1, proc.stdout + proc.stderr
    first = [line for line in proc.stdout.splitlines() if line.startswith("::")]
    sarif = work / "wukong-lint.sarif"
    assert outputs["sarif-file"] == "wukong-lint.sarif" and sarif.is_file()
    assert json.loads(sarif.read_text())["runs"][0]["results"]
    proc, _ = run_action(tmp_path, work, "workflow_dispatch", {})  # the report is in the tree
    second = [line for line in proc.stdout.splitlines() if line.startswith("::")]
    assert proc.returncode == 1 and second == first
    assert "wukong-lint.sarif" not in proc.stdout
    assert proc.stdout.count("scanning .") == 1
    # a kept workspace with an older report that quotes a token: not this repository's text
    sarif.write_text(json.dumps({"note": f"T = '{STRIPE}'"}))
    proc, _ = run_action(tmp_path, work, "schedule", {})
    third = [line for line in proc.stdout.splitlines() if line.startswith("::")]
    assert third == first and "stripe" not in proc.stdout
    assert STRIPE not in sarif.read_text()  # rewritten with this run's report


def test_annotations_stay_within_githubs_limits(repo, tmp_path):
    body = "".join(f"T{i} = 'ghp_{i:02d}{TOKEN[6:]}'\n" for i in range(25))
    commit(repo, "many.py", body, "many")
    proc, _ = run_action(tmp_path, repo, "schedule", {})
    lines = [line for line in proc.stdout.splitlines() if line.startswith("::")]
    errors = [line for line in lines if line.startswith("::error")]
    notices = [line for line in lines if line.startswith("::notice")]
    assert len(errors) == 10 and len(notices) == 1
    assert notices[0].startswith("::notice title=wukong-lint::15 more finding(s)")


def test_args_pass_through_the_cli(repo, tmp_path):
    commit(repo, "app.py", f"T = '{TOKEN}'\n", "leak")
    proc, outputs = run_action(tmp_path, repo, "schedule", {}, args="--select 'secret")
    assert proc.returncode == 2 and outputs["exit-code"] == "2"  # unbalanced quote
    proc, outputs = run_action(tmp_path, repo, "schedule", {}, args="--fail-on hgh")
    assert proc.returncode == 2 and "::error title=wukong-lint::" in proc.stdout


def test_a_misspelt_rule_name_in_args_fails_the_step(repo, tmp_path):
    commit(repo, "app.py", "x = 1\n", "clean")
    proc, outputs = run_action(tmp_path, repo, "schedule", {}, args="--select secrt")
    assert proc.returncode == 2 and outputs["exit-code"] == "2"


RULE_PACK = """\
id: secret.internal-ticket-key
category: secret
severity: high
kind: regex
message: Internal key
keywords: [intkey-]
regex: '{regex}'
docs: Our own key format.
examples:
  match: ['k = "INTKEY-482913"']
  no_match: ['k = "INTKEY-x"']
"""


@pytest.mark.slow
def test_pull_request_cannot_weaken_rule_dirs_or_the_baseline(repo, tmp_path):
    """The base commit's rule pack and baseline apply: a PR that defangs the team's own rule
    and baselines its new secret is still reported, and the baseline entry is a finding."""
    from wukong_lint.cli import main

    (repo / "ci").mkdir()
    commit(repo, "ci/internal.yaml", RULE_PACK.format(regex=r"\b(INTKEY-\d{6})\b"), "rules")
    commit(repo, ".wukong-lint-baseline.json", '{"version": 1, "findings": []}\n', "baseline")
    config = "rule-dirs: [ci/]\nbaseline: .wukong-lint-baseline.json\n"
    base = commit(repo, ".wukong-lint.yaml", config, "config")
    git(repo, "checkout", "-qb", "feature")
    commit(repo, "ci/internal.yaml", RULE_PACK.format(regex=r"\b(INTKEY-\d{6})\bNEVER"), "defang")
    commit(repo, "app.py", f"k = 'INTKEY-482913'\nKEY = '{STRIPE}'\n", "keys")
    cwd = os.getcwd()
    os.chdir(repo)
    try:  # the PR accepts its own new secret into the baseline
        assert main(["baseline", "update"]) == 0
    finally:
        os.chdir(cwd)
    head = commit(
        repo,
        ".wukong-lint-baseline.json",
        (repo / ".wukong-lint-baseline.json").read_text(),
        "accept",
    )
    work = checkout(tmp_path, repo, "feature")
    event = {"pull_request": {"base": {"sha": base}, "head": {"sha": head}, "commits": 3}}
    proc, _ = run_action(tmp_path, work, "pull_request", event)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "title=secret.internal-ticket-key" in out  # the base's rule, not the PR's
    assert "title=secret.stripe-secret-key" in out  # the PR's baseline does not apply
    assert "baseline secret.stripe-secret-key app.py" in out
    assert STRIPE not in out


def test_an_incomplete_event_is_one_error(repo, tmp_path):
    commit(repo, "app.py", "x = 1\n", "clean")
    proc, outputs = run_action(tmp_path, repo, "pull_request", {"pull_request": {}})
    assert proc.returncode == 2 and outputs["exit-code"] == "2"
    assert "Traceback" not in proc.stderr and "::error title=wukong-lint::" in proc.stdout
