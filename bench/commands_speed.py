"""Speed of the command checks: transcript scan throughput on the generated bench session
(bench/transcripts.py's generator) and a folder scan of a generated shell-heavy tree
(scripts, Dockerfiles, Makefiles, CI files). CPU seconds (user + system of the child), the
steadier figure on a shared machine, and wall MB/s; median of `--runs`, `--jobs 1`.

    python bench/commands_speed.py [--mb 20] [--runs 3] [--out /tmp/wk-commands-speed]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))

LINES = [
    "set -euo pipefail", 'cd "$(dirname "$0")/.."', "rm -rf build dist", "mkdir -p build",
    "cp -r src/. build/", 'echo "building $VERSION"', "npm ci && npm run build",
    "find . -name '*.pyc' -delete", "git fetch --tags origin", 'tar -czf "out/$NAME.tgz" build',
    "docker build -t app:latest .", "python3 -m pip install -r requirements.txt",
    'for f in *.txt; do wc -l "$f"; done', 'if [ -d .venv ]; then . .venv/bin/activate; fi',
    "curl -fsSL https://example.com/file.tgz -o /tmp/file.tgz", "chmod +x scripts/*.sh",
    'sed -i "s/@VERSION@/$VERSION/" build/version.txt', "rm -f /tmp/file.tgz",
    "kubectl apply -f k8s/", "grep -rn 'TODO' src | head", "make -j4 all",
    'ssh deploy@host "systemctl restart app"', "xargs -n1 echo < list.txt",
]  # fmt: skip
DOCKER = [
    "RUN apt-get update && apt-get install -y curl git && rm -rf /var/lib/apt/lists/*",
    "RUN pip install --no-cache-dir -r requirements.txt && rm -rf /root/.cache",
    "RUN npm ci && npm cache clean --force",
    "COPY . /app",
    "WORKDIR /app",
]


def make_tree(root: str, files: int = 1200, seed: int = 5) -> int:
    rng = random.Random(seed)
    total = 0
    for i in range(files):
        folder = os.path.join(root, f"pkg{i % 20}")
        os.makedirs(folder, exist_ok=True)
        kind = i % 4
        if kind == 3:
            path = os.path.join(folder, "Dockerfile" if i % 8 == 3 else f"Dockerfile.{i}")
            text = "FROM debian:12\n" + "\n".join(rng.choice(DOCKER) for _ in range(40)) + "\n"
        elif kind == 2:
            path = os.path.join(folder, f"Makefile.{i}.mk")
            text = "".join(f"t{n}:\n\t{rng.choice(LINES)}\n" for n in range(60))
        else:
            path = os.path.join(folder, f"script{i}.sh")
            text = "#!/bin/bash\n" + "\n".join(rng.choice(LINES) for _ in range(150)) + "\n"
        with open(path, "w") as handle:
            handle.write(text)
        total += len(text)
    return total


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
        from transcripts import generate

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
