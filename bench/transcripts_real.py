"""Transcript throughput on a real-session-shaped Claude Code session (issue 32: >= 100 MB/s
with `--profile wukong`, peak memory <= 150 MB, the default profile faster still).

    python bench/transcripts_real.py [--mb 200] [--out bench/out] [--runs 3] [--jobs N]

The session (one main file with its `subagents/` and `tool-results/` files) is written once
by corpora/transcripts/real_shaped.py. Each run checks the main file (its sub-agent files are
read with it) in a child process; MB are the bytes the report says were scanned (its
`stats.bytes`: the main and sub-agent files), over wall seconds (fastest of `--runs`) and
over CPU seconds of all processes; peak RSS is that of the largest process (getrusage).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, ROOT)

from corpora.transcripts.real_shaped import generate  # noqa: E402
from history_throughput import timed  # noqa: E402  (wall, CPU and peak RSS of one run)


def session(out: str, mb: float, seed: int) -> str:
    folder = os.path.join(out, f"real-shaped-{mb:g}mb-{seed}")
    found = glob.glob(os.path.join(folder, "claude", "projects", "*", "*.jsonl"))
    if found:
        return found[0]
    return generate(folder, mb, seed)[0]


def run(path: str, profile: list[str], jobs: list[str], report: str) -> tuple[float, float, int]:
    command = [sys.executable, "-m", "wukong_lint", "check", path, *profile, *jobs,
               "--format", "json", "-o", report, "-q"]  # fmt: skip
    return timed(command, dict(os.environ, PYTHONPATH=ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=200)
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--out", default=os.path.join(HERE, "out"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=0)
    args = parser.parse_args()
    path = session(args.out, args.mb, args.seed)
    report = os.path.join(args.out, "real-shaped-report.json")
    jobs = ["--jobs", str(args.jobs)] if args.jobs else []
    from wukong_lint.native import status  # (which modules the child runs: the same tree)

    print(f"modules: {status()}")
    for name, profile in (("--profile wukong", ["--profile", "wukong"]), ("default", [])):
        runs = [run(path, profile, jobs, report) for _ in range(args.runs)]
        with open(report, encoding="utf-8") as handle:
            scanned = json.load(handle)["stats"]["bytes"] / 1e6
        wall = min(r[0] for r in runs)
        cpu = min(r[1] for r in runs)
        rss = max(r[2] for r in runs)
        print(f"{name}: {scanned:.1f} MB scanned, {scanned / wall:.1f} MB/s wall (fastest of "
              f"{args.runs}), {scanned / cpu:.1f} MB per CPU s, peak RSS {rss} MiB")  # fmt: skip


if __name__ == "__main__":
    main()
