"""History-scan benchmark: a generated repository with thousands of commits.

    python bench/history.py [--commits 3000] [--runs 3]

Builds bench/out/history-repo with `git fast-import` (seconds, deterministic), then times
`wukong-lint check --history` against the floor `git log -p -U0 --all` (the stream it reads)
and reports MB/s of patch text. Target: >= 10 MB/s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"
WK = Path(sys.executable).with_name("wukong-lint")
WORDS = [
    "order",
    "invoice",
    "user",
    "account",
    "payment",
    "cart",
    "item",
    "price",
    "stock",
    "report",
    "audit",
    "event",
]


def _line(rng: random.Random) -> str:
    kind = rng.random()
    a, b = rng.choice(WORDS), rng.choice(WORDS)
    if kind < 0.3:
        return f"    {a}_{b} = compute_{a}({b}, retries={rng.randint(1, 9)})"
    if kind < 0.5:
        return f"def {a}_{b}_{rng.randint(0, 999)}(request, {b}_id: int) -> dict:"
    if kind < 0.7:
        return f'    logger.info("processing {a} %s for {b}", {b}_id)'
    if kind < 0.85:
        return f"    # {a.title()} {b}s are reconciled nightly; see docs/{a}.md"
    return f'    return {{"{a}": {a}_{b}, "status": "ok", "count": len({b}s)}}'


def _secret(rng: random.Random) -> str:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    token = "ghp_" + "".join(rng.choice(alphabet) for _ in range(36))
    return f'GITHUB_TOKEN = "{token}"'


def build_repo(path: Path, commits: int, seed: int = 7) -> int:
    """A repository of `commits` commits over ~200 files; returns the number of secrets."""
    rng = random.Random(seed)
    if path.exists():
        shutil.rmtree(path)
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    files: dict[str, list[str]] = {}
    planted = 0
    stream: list[bytes] = []
    for n in range(commits):
        changed = {}
        for _ in range(rng.randint(1, 4)):
            name = f"src/{rng.choice(WORDS)}/{rng.choice(WORDS)}_{rng.randint(0, 49)}.py"
            lines = files.setdefault(name, [])
            at = rng.randint(0, len(lines))
            new = [_line(rng) for _ in range(rng.randint(3, 40))]
            if rng.random() < 0.02:
                new.insert(rng.randint(0, len(new)), _secret(rng))
                planted += 1
            lines[at:at] = new
            if len(lines) > 400:
                del lines[: rng.randint(50, 150)]
            changed[name] = "\n".join(lines) + "\n"
        stamp = 1_700_000_000 + n * 600
        message = f"change {n}\n".encode()
        stream.append(b"commit refs/heads/main\n")
        stream.append(f"committer Bench <bench@localhost> {stamp} +0000\n".encode())
        stream.append(b"data %d\n%s" % (len(message), message))
        for name, text in changed.items():
            data = text.encode()
            stream.append(f"M 100644 inline {name}\ndata {len(data)}\n".encode() + data + b"\n")
    subprocess.run(["git", "fast-import", "--quiet"], cwd=path, input=b"".join(stream), check=True)
    subprocess.run(["git", "checkout", "-q", "main"], cwd=path, check=True)
    return planted


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
