"""Speed of the command checks: transcript scan throughput on the generated bench session
(corpora/transcripts/session.py's generator) and a folder scan of a generated shell-heavy tree
(corpora/commands/shell_tree.py: scripts, Dockerfiles, Makefiles, CI files). CPU seconds (user
+ system of the child), the steadier figure on a shared machine, and wall MB/s; median of
`--runs`, `--jobs 1`.

    python bench/commands_speed.py [--mb 20] [--runs 3] [--out /tmp/wk-commands-speed]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the bench folder: corpora

from corpora.commands.shell_tree import make_tree
from corpora.transcripts.session import generate


def timed(args: list[str]) -> tuple[float, float]:
    # as users run it: with .pyc files (this machine sets PYTHONDONTWRITEBYTECODE)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, capture_output=True, check=False, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", default="/tmp/wk-commands-speed")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    session = os.path.join(args.out, f"session-{args.mb}.jsonl")
    if not os.path.exists(session):
        generate(session, args.mb)
    tree = os.path.join(args.out, "shell-tree")
    if not os.path.isdir(tree):
        make_tree(tree)
    tree_bytes = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(tree) for f in fs)
    base = [sys.executable, "-m", "wukong_lint", "check", "--format", "json", "--jobs", "1",
            "-o", os.devnull]  # fmt: skip
    for label, target, size in (
        ("transcript", session, os.path.getsize(session)),
        ("shell tree", tree, tree_bytes),
    ):
        timed([*base, target])  # warm-up (caches)
        runs = [timed([*base, target]) for _ in range(args.runs)]
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        print(f"{label}: {size / 1e6:.1f} MB, wall {wall:.2f} s ({size / 1e6 / wall:.1f} MB/s), "
              f"cpu {cpu:.2f} s ({size / 1e6 / cpu:.1f} MB/s cpu)")  # fmt: skip


if __name__ == "__main__":
    main()
