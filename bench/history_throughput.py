"""Throughput of `check --agent-history` and `redact --in-place --agent-history` on a
generated history (issue 29 targets: check >= 80 MB/s, peak memory <= 200 MB; redact >= 40
MB/s on a 1 GB history).

    python bench/history_throughput.py --corpus DIR [--mb 1000] [--jobs N] [--skip-redact]

Writes the corpus with bench/history_corpus.py when DIR does not hold one, then runs both
commands as child processes against a fake HOME whose agent folders are the corpus's
(CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME), and prints MB/s (bytes of the agents'
files read, over wall seconds) and the peak RSS of the largest process (getrusage of the
children). `redact --in-place` rewrites the corpus: it runs on a copy. Both runs share one
rule cache, filled before the timing (`rules list`), as a user's runs after the first do;
check's MB are also given as its report says it scanned them (`stats.bytes`).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def folder_bytes(path: str) -> int:
    total = 0
    for root, _, names in os.walk(path):
        for name in names:
            if not name.startswith("MANIFEST"):
                total += os.path.getsize(os.path.join(root, name))
    return total


def home_env(corpus: str, work: str) -> dict[str, str]:
    gemini_home = os.path.join(work, "gemini-home")
    os.makedirs(gemini_home, exist_ok=True)
    link = os.path.join(gemini_home, ".gemini")
    if not os.path.lexists(link):
        os.symlink(os.path.join(corpus, "gemini"), link)
    cache = os.path.join(os.path.dirname(work), "wukong-cache")
    env = dict(os.environ, PYTHONPATH=ROOT, HOME=work, WUKONG_LINT_NO_PROGRESS="1",
               WUKONG_LINT_CACHE_DIR=cache)  # fmt: skip
    env.update(CLAUDE_CONFIG_DIR=os.path.join(corpus, "claude"),
               CODEX_HOME=os.path.join(corpus, "codex"), GEMINI_CLI_HOME=gemini_home)  # fmt: skip
    return env


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds of the children and their peak RSS (MiB) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)}: exit {proc.returncode}\n{proc.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, after.ru_maxrss // 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--mb", type=float, default=1000)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--jobs", type=int, default=0)
    parser.add_argument("--skip-redact", action="store_true")
    args = parser.parse_args()
    if not os.path.exists(os.path.join(args.corpus, "MANIFEST.summary.json")):
        generate = os.path.join(HERE, "history_corpus.py")
        options = ["--out", args.corpus, "--mb", str(args.mb), "--seed", str(args.seed)]
        subprocess.run([sys.executable, generate, *options], check=True)
    size = folder_bytes(args.corpus)
    work = args.corpus.rstrip("/") + ".work"
    os.makedirs(work, exist_ok=True)
    python = sys.executable
    jobs = ["--jobs", str(args.jobs)] if args.jobs else []
    env = home_env(args.corpus, work)
    warm = [python, "-m", "wukong_lint", "rules", "list"]  # the rule and regex caches
    subprocess.run(warm, env=env, capture_output=True, check=True)
    check = [python, "-m", "wukong_lint", "check", "--agent-history", "--format", "json",
             "-o", os.path.join(work, "report.json"), "-q", *jobs]  # fmt: skip
    wall, cpu, rss = timed(check, env)
    mb = size / 1e6
    with open(os.path.join(work, "report.json"), encoding="utf-8") as handle:
        scanned = json.load(handle)["stats"]["bytes"] / 1e6
    print(f"check --agent-history: {mb:.1f} MB ({scanned:.1f} MB scanned by the report) in "
          f"{wall:.1f} s = {mb / wall:.1f} MB/s wall ({mb / max(cpu, 1e-6):.1f} MB per CPU s), "
          f"peak RSS {rss} MiB")  # fmt: skip
    if args.skip_redact:
        return
    copy = args.corpus.rstrip("/") + ".redact"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(args.corpus, copy)
    env = home_env(copy, work + "-r")
    redact = [python, "-m", "wukong_lint", "redact", "--in-place", "--agent-history",
              "--manifest", os.path.join(work, "manifest.jsonl")]  # fmt: skip
    wall, cpu, rss2 = timed(redact, env)
    print(f"redact --in-place --agent-history: {size / 1e6:.1f} MB in {wall:.1f} s = "
          f"{size / 1e6 / wall:.1f} MB/s wall, peak RSS {rss2} MiB")  # fmt: skip
    shutil.rmtree(copy, ignore_errors=True)


if __name__ == "__main__":
    main()
