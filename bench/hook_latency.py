"""Hook latency: `wukong-lint hook` started once per real PreToolUse event (what Claude Code
does), wall clock including interpreter start-up; one warm-up, then the median.

    python bench/hook_latency.py [--runs 30] [--mode json|exit]

Prints the median and p90 in ms over a mix of Bash calls (destructive, confirm tier, safe),
wall clock and CPU time (user + system of the process: the steadier figure on a shared
machine).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

COMMANDS = [
    "ls -la",
    "rm -rf /",
    "git push --force origin main",
    "python3 -c \"import shutil; shutil.rmtree('/')\"",
    "cd .. && rm -rf build",
    "npm test -- --watch=false",
    "kubectl delete namespace prod",
    'echo "rm -rf /" | grep rm',
]


def event(command: str) -> str:
    return json.dumps(
        {
            "session_id": "bench",
            "transcript_path": "/nonexistent/t.jsonl",
            "cwd": "/home/dev/project",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command, "description": "bench"},
        }
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--mode", default="json")
    args = parser.parse_args()
    exe = shutil.which("wukong-lint") or "wukong-lint"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    times, cpus = [], []
    for i in range(args.runs + 1):
        payload = event(COMMANDS[i % len(COMMANDS)])
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(
            [exe, "hook", "--mode", args.mode], input=payload.encode(), env=env,
            capture_output=True, check=False,
        )  # fmt: skip
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if i:  # the first run fills the caches
            times.append((time.perf_counter() - start) * 1000)
            cpus.append(
                (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
            )
    times.sort()
    print(
        f"hook --mode {args.mode}: median {statistics.median(times):.1f} ms, "
        f"p90 {times[int(len(times) * 0.9) - 1]:.1f} ms over {len(times)} events; "
        f"CPU median {statistics.median(cpus):.1f} ms"
    )


if __name__ == "__main__":
    sys.exit(main())
