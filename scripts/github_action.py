#!/usr/bin/env python3
"""The GitHub Action's step (action.yml runs this file; tests run it with a simulated
GITHUB_* environment). Standard library only.

- pull_request / pull_request_target: scans BASE_SHA...HEAD_SHA (the pull request's own
  changes, from the merge base), fetching what a shallow checkout lacks: both commits, then
  deeper history until the merge base is found (two-dot range as the last resort).
- push: scans BEFORE..AFTER (for a new branch or a force push whose old commit is gone: the
  pushed commit against its parent, or the whole tree for a first commit).
- anything else (schedule, workflow_dispatch): the whole checkout.

It writes SARIF to INPUT_SARIF_FILE, prints GitHub annotations, sets the outputs `sarif-file`
and `exit-code`, and exits like `wukong-lint check --fail-on INPUT_FAIL_ON`.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys

# git's argv and environment are built where the tool builds its own (the action's source
# is beside this script): the checked-out repository's config and the job's GIT_* variables
# can make no git command here run a program; only `git fetch` may use the network.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from wukong_lint.sources import gitproc

ZERO = "0" * 40


def git(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    fetch = args[0] == "fetch"
    return subprocess.run(
        gitproc.argv(args, fetch=fetch), capture_output=True, text=True, check=check,
        env=gitproc.environment(fetch=fetch),
    )  # fmt: skip


def has_commit(sha: str) -> bool:
    return git("cat-file", "-e", f"{sha}^{{commit}}", check=False).returncode == 0


def fetch(*refs: str, depth: int | None = None, deepen: int | None = None) -> None:
    args = ["fetch", "--no-tags", "--quiet"]
    if depth:
        args.append(f"--depth={depth}")
    if deepen:
        args.append(f"--deepen={deepen}")
    git(*args, "origin", *refs, check=False)


def is_shallow() -> bool:
    return git("rev-parse", "--is-shallow-repository", check=False).stdout.strip() == "true"


def pull_request_range(base: str, head: str, commits: int) -> str:
    for sha, depth in ((head, commits + 1), (base, 1)):
        if not has_commit(sha):
            fetch(sha, depth=depth)
    deepen = max(commits + 1, 10)
    for _ in range(8):
        if git("merge-base", base, head, check=False).returncode == 0:
            return f"{base}...{head}"
        if not is_shallow():
            break
        fetch(base, head, deepen=deepen)
        deepen *= 2
    print("::warning title=wukong-lint::no merge base found; scanning base..head")
    return f"{base}..{head}"


def push_range(before: str, after: str) -> str | None:
    if before and before != ZERO:
        if not has_commit(before):
            fetch(before, depth=1)
        if has_commit(before):
            return f"{before}..{after}"
    if not has_commit(after):
        fetch(after, depth=2)
    if git("rev-parse", "--verify", "--quiet", f"{after}^", check=False).returncode != 0:
        fetch(after, depth=2)
    if git("rev-parse", "--verify", "--quiet", f"{after}^", check=False).returncode == 0:
        return f"{after}^..{after}"
    return None  # a first commit: scan the tree


def scan_target() -> list[str]:
    event_name = os.environ.get("GITHUB_EVENT_NAME", "")
    event: dict = {}
    path = os.environ.get("GITHUB_EVENT_PATH")
    if path and os.path.isfile(path):
        with open(path, encoding="utf-8") as handle:
            event = json.load(handle)
    if event_name in ("pull_request", "pull_request_target") and "pull_request" in event:
        pr = event["pull_request"]
        spec = pull_request_range(pr["base"]["sha"], pr["head"]["sha"], int(pr.get("commits") or 1))
        return ["--diff", spec]
    if event_name == "push" and event.get("after"):
        spec = push_range(event.get("before", ""), event["after"])
        return ["--diff", spec] if spec else ["."]
    return ["."]


def set_output(name: str, value: str) -> None:
    target = os.environ.get("GITHUB_OUTPUT")
    if target:
        with open(target, "a", encoding="utf-8") as handle:
            handle.write(f"{name}={value}\n")


def main() -> int:
    tool = shlex.split(os.environ.get("WUKONG_LINT", "wukong-lint"))
    extra = shlex.split(os.environ.get("INPUT_ARGS", ""))
    fail_on = os.environ.get("INPUT_FAIL_ON", "").strip()
    sarif = os.environ.get("INPUT_SARIF_FILE", "").strip() or "wukong-lint.sarif"
    workspace = os.environ.get("GITHUB_WORKSPACE")
    if workspace:
        os.chdir(workspace)
    target = scan_target()
    print(f"wukong-lint: scanning {' '.join(target)}", flush=True)
    folder = os.path.dirname(sarif)
    if folder:
        os.makedirs(folder, exist_ok=True)
    # one run writes the SARIF file, the other prints the annotations and sets the exit code
    # (a range scan is cheap, and the rule set is cached after the first run)
    common = ["check", *target, *extra]
    first = subprocess.run([*tool, *common, "--format", "sarif", "-o", sarif, "--fail-on", "low"])
    if first.returncode == 2:
        set_output("exit-code", "2")
        return 2
    fail = ["--fail-on", fail_on] if fail_on else []
    second = subprocess.run([*tool, *common, "--format", "github", *fail])
    set_output("sarif-file", sarif)
    set_output("exit-code", str(second.returncode))
    return second.returncode


if __name__ == "__main__":
    sys.exit(main())
