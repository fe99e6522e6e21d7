"""The GitHub Action's script, run as action.yml runs it, on a shallow clone of a real repo with
a simulated GITHUB_* environment: the pull request's own changes only, annotations, SARIF."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import yaml

from tests.conftest import commit, git

PROJECT = Path(__file__).resolve().parent.parent
SCRIPT = PROJECT / "scripts" / "github_action.py"
OLD = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"
NEW = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"
ON_MAIN = "ghp_" + "Zt3Qm8Lw2Rx5Vn7Kp9Hs4Jd6Fb1Gc0Ya8Ue3"


def run_action(tmp: Path, workspace: Path, event_name: str, event: dict, **inputs: str):
    event_path = tmp / f"{event_name}.json"
    event_path.write_text(json.dumps(event))
    output = tmp / f"{event_name}-output.txt"
    output.write_text("")
    summary = inputs.pop("step_summary", None)
    env = {
        **os.environ,
        "GITHUB_EVENT_NAME": event_name,
        "GITHUB_EVENT_PATH": str(event_path),
        "GITHUB_WORKSPACE": str(workspace),
        "GITHUB_OUTPUT": str(output),
        "WUKONG_LINT": f"{sys.executable} -m wukong_lint",
        "PYTHONPATH": str(PROJECT),
        **{f"INPUT_{k.upper()}": v for k, v in inputs.items()},
        "RUNNER_TEMP": str(tmp),
    }
    if summary:
        env["GITHUB_STEP_SUMMARY"] = summary
    proc = subprocess.run(
        [sys.executable, str(SCRIPT)], cwd=tmp, env=env, capture_output=True, text=True
    )
    outputs = dict(line.split("=", 1) for line in output.read_text().splitlines())
    return proc, outputs


def test_pull_request_on_a_shallow_clone(repo: Path, tmp_path: Path):
    base = commit(repo, "config.py", f'TOKEN = "{OLD}"\n', "old secret, already on main")
    git(repo, "checkout", "-qb", "feature")
    commit(repo, "README.md", "docs\n", "docs")
    head = commit(repo, "app/pay.py", f'import os\nKEY = "{NEW}"\n', "new secret")
    git(repo, "checkout", "-q", "main")
    commit(repo, "later.py", f'T = "{ON_MAIN}"\n', "main moved on after the branch")
    base_now = git(repo, "rev-parse", "HEAD").strip()
    origin = tmp_path / "origin.git"
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(origin))
    # actions/checkout of a pull request: depth 1, the head commit only
    work = tmp_path / "work"
    git(tmp_path, "clone", "-q", "--depth", "1", "--branch", "feature", f"file://{origin}", "work")
    assert git(work, "rev-parse", "--is-shallow-repository").strip() == "true"
    event = {"pull_request": {"base": {"sha": base_now}, "head": {"sha": head}, "commits": 2}}
    proc, outputs = run_action(
        tmp_path, work, "pull_request", event, sarif_file="reports/wukong.sarif", fail_on="high"
    )
    assert proc.returncode == 1, proc.stderr
    assert f"--diff {base_now}...{head}" in proc.stdout
    annotations = [line for line in proc.stdout.splitlines() if line.startswith("::")]
    assert annotations == [
        "::error file=app/pay.py,line=2,endLine=2,col=8,title=secret.stripe-secret-key::"
        f'Stripe live secret key [critical] in commit {head[:12]}%0AKEY = "sk_live_****"'
    ]
    sarif_path = work / "reports" / "wukong.sarif"
    assert outputs == {"sarif-file": "reports/wukong.sarif", "exit-code": "1"}
    sarif = json.loads(sarif_path.read_text())
    (result,) = sarif["runs"][0]["results"]
    assert result["ruleId"] == "secret.stripe-secret-key"
    uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "app/pay.py"
    for secret in (OLD, NEW, ON_MAIN):
        assert secret not in proc.stdout + sarif_path.read_text()
    assert base != base_now

    # fail-on critical still fails; with the finding ignored the step passes
    proc, outputs = run_action(
        tmp_path, work, "pull_request", event, args="--ignore secret.stripe-secret-key"
    )
    assert proc.returncode == 0 and outputs["exit-code"] == "0"
    assert (work / "wukong-lint.sarif").exists()


def test_push_event_and_bad_args(repo: Path, tmp_path: Path):
    before = commit(repo, "a.py", "x = 1\n", "first")
    after = commit(repo, "b.py", f'T = "{OLD}"\n', "leak")
    proc, outputs = run_action(tmp_path, repo, "push", {"before": before, "after": after})
    assert proc.returncode == 1
    assert f"--diff {before}..{after}" in proc.stdout
    assert "::error file=b.py,line=1," in proc.stdout
    proc, outputs = run_action(tmp_path, repo, "push", {"after": after}, args="--no-such-flag")
    assert proc.returncode == 2 and outputs["exit-code"] == "2"
    assert "Traceback" not in proc.stderr
    assert "::error title=wukong-lint::" in proc.stdout  # the reason, as an annotation


def test_action_yml_runs_the_script():
    action = yaml.safe_load((PROJECT / "action.yml").read_text())
    inputs = {"args", "fail-on", "sarif-file", "version", "jie", "jie-file", "scan"}
    assert set(action["inputs"]) == inputs
    # every input reaches the script as INPUT_<NAME> (version is used by the install step)
    scan = next(step for step in action["runs"]["steps"] if step.get("id") == "scan")
    for name in inputs - {"version"}:
        want = "${{ inputs." + name + " }}"
        assert scan["env"]["INPUT_" + name.upper().replace("-", "_")] == want
    assert action["runs"]["using"] == "composite"
    steps = " ".join(step.get("run", "") for step in action["runs"]["steps"])
    assert "scripts/github_action.py" in steps
    assert "sarif-file" in action["outputs"]
