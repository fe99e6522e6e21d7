# ruff: noqa: E501  (one docstring line of timed_check_cpu runs long)
"""Transcript benchmark: throughput (MB/s) on a large generated Claude Code session and on a
Read-heavy one made of real code (when bench/run.py has made its tree), peak RSS
(`/usr/bin/time -v`, and summed over the processes from /proc) on a bigger one, and the
labelled dangerous-command corpus. Each at the default `--jobs` and at `--jobs 1`.

    python bench/transcripts.py [--mb 100] [--rss-mb 500] [--out bench/out]

The sessions are written by corpora/transcripts/session.py (`generate`: user prompts,
thinking, Bash/Read/Edit/Grep calls with their results, a few planted secrets and dangerous
commands, at realistic record sizes; `generate_reads`: the real-code tree read file by file).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the bench folder: corpora

from corpora.transcripts.session import BENIGN, DANGEROUS, generate, generate_reads


def corpus() -> dict:
    """Run every labelled command through `check` as a Bash call of a transcript."""
    from wukong_lint.engine.loader import load_rules
    from wukong_lint.engine.scan import scan_unit
    from wukong_lint.sources.transcripts import example_units

    rules = load_rules().select(lambda r: r.category == "dangerous-command")
    missed, false_alarms = [], []
    for expected, commands in ((True, DANGEROUS), (False, BENIGN)):
        for command in commands:
            fired = any(scan_unit(rules, u)[0] for u in example_units(command, None))
            if fired != expected:
                (missed if expected else false_alarms).append(command)
    return {
        "dangerous": len(DANGEROUS),
        "found": len(DANGEROUS) - len(missed),
        "missed": missed,
        "benign": len(BENIGN),
        "false_alarms": false_alarms,
    }


def timed_check(path: str, jobs: int | None = None) -> tuple[float, int]:
    seconds, rss, _, _ = timed_check_cpu(path, jobs)
    return seconds, rss


def _tree_rss_mb(pid: int) -> tuple[int, int]:
    """(RSS, PSS) in MB summed over a process and its children, from /proc: what the scan
    holds at this moment, counting the pages forked workers share with their parent once in
    PSS and once per process in RSS."""
    pids, rss, pss = [pid], 0, 0
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            pids += [int(p) for p in handle.read().split()]
    except OSError:
        return 0, 0
    for each in pids:
        try:
            with open(f"/proc/{each}/smaps_rollup") as handle:
                for line in handle:
                    if line.startswith("Rss:"):
                        rss += int(line.split()[1])
                    elif line.startswith("Pss:"):
                        pss += int(line.split()[1])
        except OSError:
            continue
    return rss // 1024, pss // 1024


def timed_check_cpu(
    path: str, jobs: int | None = None, profile: str | None = None, watch: bool = True
) -> tuple[float, int, float, dict]:
    """(wall seconds, peak RSS in MB of the largest process, CPU seconds user + system, and
    the peak RSS and PSS summed over the processes) of one `check` run; `jobs` None: the
    default (one process per core); `profile`: `--profile` (None: the default); `watch`:
    poll the processes' memory (reading smaps_rollup every 50 ms takes CPU from the scan on a
    2-core machine: a throughput-only run does not). The CPU time is the steadier figure on a shared machine,
    where other work stretches the wall."""
    cmd = ["/usr/bin/time", "-v", sys.executable, "-m", "wukong_lint", "check", "--format", "json",
           *(["--jobs", str(jobs)] if jobs else []),
           *(["--profile", profile] if profile else []), "-o", os.devnull, path]  # fmt: skip
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = {"sum_rss_mb": 0, "sum_pss_mb": 0}
    while watch and proc.poll() is None:  # (else: the exit is waited for, not polled)
        try:
            with open(f"/proc/{proc.pid}/task/{proc.pid}/children") as handle:
                child = int(handle.read().split()[0])  # the python under /usr/bin/time
        except (OSError, IndexError, ValueError):
            child = None
        if child is not None:
            rss, pss = _tree_rss_mb(child)
            peak["sum_rss_mb"] = max(peak["sum_rss_mb"], rss)
            peak["sum_pss_mb"] = max(peak["sum_pss_mb"], pss)
        time.sleep(0.05)
    _, stderr = proc.communicate()
    seconds = time.perf_counter() - start
    match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", stderr)
    if proc.returncode not in (0, 1):
        raise SystemExit(stderr[-2000:])
    cpu = sum(
        float(m.group(1))
        for m in re.finditer(r"(?:User|System) time \(seconds\): ([\d.]+)", stderr)
    )
    return seconds, int(match.group(1)) // 1024 if match else -1, cpu, peak


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=100)
    parser.add_argument("--rss-mb", type=int, default=500)
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "out"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    print("corpus:", json.dumps(corpus()))
    tree = os.path.join(args.out, "realcode-tree")
    for size, kind in ((args.mb, ""), (args.mb, "reads-"), (args.rss_mb, "")):
        if not size or (kind and not os.path.isdir(tree)):
            continue  # (the Read-heavy session needs bench/run.py's real-code tree)
        path = os.path.join(args.out, f"transcript-{kind}{size}mb.jsonl")
        if not os.path.exists(path):
            t = time.perf_counter()
            generate_reads(path, size, tree) if kind else generate(path, size)
            print(f"generated {path} in {time.perf_counter() - t:.1f}s")
        mb = os.path.getsize(path) / 1e6
        for jobs in (None, 1):
            seconds, rss, cpu, peak = timed_check_cpu(path, jobs)
            print(
                f"{mb:.0f} MB, --jobs {jobs or 'default'}: {seconds:.1f} s, {mb / seconds:.1f} "
                f"MB/s, peak RSS {rss} MB, all processes {peak['sum_rss_mb']} MB (PSS "
                f"{peak['sum_pss_mb']} MB) (CPU {cpu:.1f} s: {mb / cpu:.1f} MB/s of CPU time)"
            )


if __name__ == "__main__":
    main()
