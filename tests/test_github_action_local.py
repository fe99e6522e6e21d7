"""The documented local run of the Action (docs/github-action.md, "Run it locally with a
simulated event"): examples/github-action/simulate.sh with its sample events, on a real git
repository, gives the step's annotations, outputs and job summary, and writes nothing into
the repository."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import commit, git

PROJECT = Path(__file__).resolve().parent.parent
FOLDER = PROJECT / "examples" / "github-action"
KEY = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"


def simulate(repo: Path, *args: str, **inputs: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "WUKONG_LINT": f"{sys.executable} -m wukong_lint",
           "PYTHONPATH": str(PROJECT), "TMPDIR": str(repo.parent),
           **{f"INPUT_{k.upper()}": v for k, v in inputs.items()}}  # fmt: skip
    return subprocess.run(["sh", str(FOLDER / "simulate.sh"), *args], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip


def test_the_sample_events_are_github_payload_shapes():
    push = json.loads((FOLDER / "push.json").read_text())
    assert {"ref", "before", "after", "commits", "repository"} <= push.keys()
    pr = json.loads((FOLDER / "pull_request.json").read_text())["pull_request"]
    assert pr["base"]["sha"] == "@BASE@" and pr["head"]["sha"] == "@HEAD@"
    assert "inputs" in json.loads((FOLDER / "workflow_dispatch.json").read_text())


@pytest.mark.parametrize("event", ["push", "pull_request"])
def test_simulate_runs_the_step_on_the_last_commit(repo: Path, event: str):
    commit(repo, "a.py", "print(1)\n", "first")
    head = commit(repo, "pay.py", f'KEY = "{KEY}"\n', "a secret")
    proc = simulate(repo, event)
    assert proc.returncode == 1, proc.stderr
    assert "::error file=pay.py,line=1" in proc.stdout and "secret.stripe-secret-key" in proc.stdout
    assert "exit-code=1" in proc.stdout and "## wukong-lint: failed" in proc.stdout
    assert head[:12] in proc.stdout and KEY not in proc.stdout + proc.stderr
    assert git(repo, "status", "--porcelain").strip() == ""  # (nothing written there)


def test_simulate_a_tree_scan_and_a_bad_event(repo: Path):
    commit(repo, "a.py", "print(1)\n", "first")
    commit(repo, "b.py", "print(2)\n", "second")
    proc = simulate(repo, "workflow_dispatch", fail_on="high")
    assert proc.returncode == 0, proc.stderr
    assert "scanning ." in proc.stdout and "exit-code=0" in proc.stdout
    bad = simulate(repo, "release")
    assert bad.returncode == 2 and "no sample event 'release'" in bad.stderr
