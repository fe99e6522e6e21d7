"""History-scan benchmark: a generated repository with thousands of commits.

    python bench/history.py [--commits 3000] [--runs 3]

Builds bench/out/history-repo with `git fast-import` (corpora/history/repo.py: seconds,
deterministic), then times `wukong-lint check --history` against the floor `git log -p -U0
--all` (the stream it reads) and reports MB/s of patch text. Target: >= 10 MB/s.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"
WK = Path(sys.executable).with_name("wukong-lint")
sys.path.insert(0, str(HERE))  # the bench folder: corpora

from corpora.history.repo import build_repo  # noqa: E402


def timed(command: list[str], cwd: Path, runs: int) -> tuple[float, subprocess.CompletedProcess]:
    times, proc = [], None
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run(command, cwd=cwd, capture_output=True, env=env)
        times.append(time.perf_counter() - start)
    assert proc is not None
    return statistics.median(times), proc


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    repo = OUT / "history-repo"
    OUT.mkdir(exist_ok=True)
    planted = build_repo(repo, args.commits)
    floor, log = timed(
        ["git", "log", "-p", "-U0", "--no-color", "--no-renames", "--all"], repo, args.runs
    )
    patch_mb = len(log.stdout) / 1e6
    seconds, proc = timed(
        [str(WK), "check", "--history", "--format", "json", "--select", "secret.github-pat"],
        repo,
        args.runs,
    )
    report = json.loads(proc.stdout)
    found = len(report["findings"])
    result = {
        "commits": args.commits,
        "patch_mb": round(patch_mb, 2),
        "git_log_seconds": round(floor, 3),
        "wukong_seconds": round(seconds, 3),
        "wukong_mb_s": round(patch_mb / seconds, 1),
        "git_log_mb_s": round(patch_mb / floor, 1),
        "planted_secrets": planted,
        "found": found,
    }
    (OUT / "history-results.json").write_text(json.dumps(result, indent=2) + "\n")
    print(f"history: {args.commits} commits, {patch_mb:.1f} MB of patch text")
    print(f"  git log -p (floor)       {floor:6.2f} s  {result['git_log_mb_s']:7.1f} MB/s")
    print(f"  wukong-lint --history    {seconds:6.2f} s  {result['wukong_mb_s']:7.1f} MB/s  "
          f"(target >= 10 MB/s; ratio to floor {seconds / floor:.1f}x)")  # fmt: skip
    print(f"  planted secrets {planted}, found {found}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
