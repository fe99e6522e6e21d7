"""Hook latency: `wukong-lint hook` started once per real PreToolUse event (what Claude Code
does), wall clock including interpreter start-up; one warm-up, then the median.

    python bench/hook_latency.py [--runs 30] [--mode json|exit]
        [--event bash|edit|write|script|ls] [--exe PATH]
        [--agent claude-code|codex|cursor|copilot|gemini|all]

Prints the median and p90 in ms over a mix of Bash calls (destructive, confirm tier, safe),
wall clock and CPU time (user + system of the process: the steadier figure on a shared
machine). `--event edit`: Edit calls on source files (one rewrites a credential file);
`--event write`: Write calls of a ~250 KB generated Python file (what an agent writes when
it creates a module), one of them with a secret in it. `--event script`: `bash
scripts/build.sh` where that script is a generated 100 KB build script (functions,
conditions, loops and the usual commands, each a little different), which the hook reads
and judges; `--event ls`: `ls -la` in the same folder, the same hook run without a script
to read. The difference of the two medians is what reading the script costs.

`--agent NAME` times that agent's adapter instead: the hook is run as `hook --agent NAME`
on the agent's recorded events of every tool kind (tests/fixtures/agents/NAME.json: shell
calls to deny, ask and allow, file reads, writes, edits, MCP calls, prompts, a tool result;
in the agent's own event shape, from its hook documentation), cycled; `all` times the five
adapters one after another, one line each.
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
import tempfile
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


EDITS = [
    ("src/app.py", "return open(path).read()", "with open(path) as f:\n    return f.read()"),
    ("src/config.py", "DEBUG = True", "DEBUG = False"),
    ("/home/dev/.ssh/authorized_keys", "ssh-ed25519 AAAA old", "ssh-ed25519 AAAA new"),
    ("README.md", "## Usage", "## Usage\n\nRun `make test`."),
]


def _module(lines: int, secret: bool) -> str:
    """A generated Python module of `lines` lines (handlers, config look-ups, URLs, logging)."""
    out = []
    for i in range(lines):
        out.append(
            [
                f"def handler_{i}(request, config):",
                f"    value = config.get('key_{i}', {i})",
                f"    url = 'https://api.example.com/v1/items/{i}?limit=50'",
                f"    logger.info('processing %s', request.path)  # step {i}",
                f"    return {{'id': {i}, 'value': value, 'url': url}}",
                "",
            ][i % 6]
        )
    if secret:  # a GitHub token shape (made up): the call is denied
        out.insert(lines // 2, "GITHUB_TOKEN = 'ghp_" + "Zq8sX2mVt7Lw3Nc9Hk4Rb6Jy1Pd5Fg0Ae7Ts'")
    return "\n".join(out) + "\n"


SCRIPT_FOLDER = os.path.join(tempfile.gettempdir(), "wukong-lint-bench-script")


def _build_script(size: int = 100_000) -> str:
    """A generated build script of about `size` bytes: functions, conditions, loops and the
    commands of a build (no two blocks alike, so none is judged only once)."""
    out = ["#!/usr/bin/env bash", "set -euo pipefail", 'ROOT="$(cd "$(dirname "$0")/.." && pwd)"']
    i = 0
    while sum(len(line) + 1 for line in out) < size:
        out += [
            f"build_part_{i}() {{",
            f'  local out="build/part-{i}"',
            '  mkdir -p "$out"',
            f'  if [ -f "src/part_{i}.py" ]; then',
            f'    cp "src/part_{i}.py" "$out/"',
            f'    echo "copied part {i}"',
            "  else",
            f'    echo "part {i} has no source" >&2',
            "  fi",
            f"  for f in src/part_{i}/*.txt; do",
            '    [ -e "$f" ] || continue',
            '    gzip -kf "$f"',
            "  done",
            "}",
            'case "${TARGET:-all}" in',
            f"  all|part-{i}) build_part_{i} ;;",
            "esac",
            f"rm -rf build/tmp-{i}",
            f'git log -1 --format=%H > "build/part-{i}/REVISION" || true',
        ]
        i += 1
    return "\n".join(out) + "\n"


def event(kind: str, i: int) -> str:
    cwd = "/home/dev/project"
    if kind in ("script", "ls"):
        cwd = SCRIPT_FOLDER
        command = "bash scripts/build.sh" if kind == "script" else "ls -la"
        tool, tool_input = "Bash", {"command": command, "description": "b"}
    elif kind == "bash":
        tool, tool_input = "Bash", {"command": COMMANDS[i % len(COMMANDS)], "description": "b"}
    elif kind == "edit":
        path, old, new = EDITS[i % len(EDITS)]
        if not path.startswith("/"):
            path = "/home/dev/project/" + path
        tool, tool_input = "Edit", {"file_path": path, "old_string": old, "new_string": new}
    else:
        tool = "Write"
        content = _module(6000, secret=i % 4 == 3)
        tool_input = {"file_path": f"/home/dev/project/src/handlers_{i % 4}.py", "content": content}
    return json.dumps(
        {
            "session_id": "bench",
            "transcript_path": "/nonexistent/t.jsonl",
            "cwd": cwd,
            "hook_event_name": "PreToolUse",
            "tool_name": tool,
            "tool_input": tool_input,
        }
    )


AGENTS = ("claude-code", "codex", "cursor", "copilot", "gemini")
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "tests",
                        "fixtures", "agents")  # fmt: skip
# a made-up token of GitHub's shape, put together here (the fixtures hold a placeholder)
TOKEN = "ghp_" + "Zq8sX2mVt7Lw3Nc9Hk4Rb6Jy1Pd5Fg0Ae7Ts"


def agent_events(agent: str) -> list[str]:
    """The recorded hook events of `agent` (every tool kind; not its lifecycle events), as
    the JSON texts the agent sends."""
    with open(os.path.join(FIXTURES, f"{agent}.json"), encoding="utf-8") as handle:
        recorded = json.loads(handle.read().replace("<GITHUB_TOKEN>", TOKEN))
    events = []
    for name, entry in recorded.items():
        if name == "other":
            continue
        events.append(json.dumps(entry["event"] if agent != "claude-code" else entry))
    return events


def time_runs(exes: list[str], words: list[str], payloads: list[str], runs: int
              ) -> tuple[dict[str, list[float]], dict[str, list[float]]]:  # fmt: skip
    """Wall and CPU milliseconds of `runs` hook runs per executable (after one warm-up),
    the executables alternating so that both see the same load. Bytecode is written
    (without .pyc files every module is compiled on every call), and the hooks run in a
    neutral folder: an `--exe` wrapper of `python -m`/`-c` imports the package of the
    current folder first, whatever its PYTHONPATH says."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    times: dict[str, list[float]] = {exe: [] for exe in exes}
    cpus: dict[str, list[float]] = {exe: [] for exe in exes}
    for i in range(runs + 1):
        payload = payloads[i % len(payloads)]
        for exe in exes if i % 2 else exes[::-1]:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(
                [exe, "hook", *words], input=payload.encode(), env=env,
                capture_output=True, check=False, cwd=tempfile.gettempdir(),
            )  # fmt: skip
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if i:  # the first run fills the caches
                times[exe].append((time.perf_counter() - start) * 1000)
                cpus[exe].append(
                    (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
                )
    return times, cpus


def report(label: str, exes: list[str], times: dict[str, list[float]],
           cpus: dict[str, list[float]]) -> None:  # fmt: skip
    for exe in exes:
        wall = sorted(times[exe])
        which = f" [{exe}]" if len(exes) > 1 else ""
        print(
            f"{label}{which}: median "
            f"{statistics.median(wall):.1f} ms, p90 {wall[max(0, int(len(wall) * 0.9) - 1)]:.1f} "
            f"ms over {len(wall)} events; CPU median {statistics.median(cpus[exe]):.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--mode", default="json")
    parser.add_argument(
        "--event", choices=("bash", "edit", "write", "script", "ls"), default="bash"
    )
    parser.add_argument(
        "--exe",
        action="append",
        default=[],
        help="a wukong-lint to time (default: the one on PATH); given twice, before and "
        "after: their runs alternate, so both see the same load on a shared machine",
    )
    parser.add_argument(
        "--agent",
        choices=(*AGENTS, "all"),
        default=None,
        help="time this agent's adapter on its recorded events of every tool kind "
        "(`hook --agent NAME`); all: each adapter in turn",
    )
    args = parser.parse_args()
    exes = args.exe or [shutil.which("wukong-lint") or "wukong-lint"]
    if args.agent:
        for agent in AGENTS if args.agent == "all" else (args.agent,):
            words = ["--agent", agent, "--mode", args.mode]
            times, cpus = time_runs(exes, words, agent_events(agent), args.runs)
            report(f"hook --agent {agent} --mode {args.mode}", exes, times, cpus)
        return
    if args.event in ("script", "ls"):
        os.makedirs(os.path.join(SCRIPT_FOLDER, "scripts"), exist_ok=True)
        with open(os.path.join(SCRIPT_FOLDER, "scripts", "build.sh"), "w") as handle:
            handle.write(_build_script())
    payloads = [event(args.event, i) for i in range(args.runs + 1)]
    times, cpus = time_runs(exes, ["--mode", args.mode], payloads, args.runs)
    report(f"hook --mode {args.mode} ({args.event})", exes, times, cpus)


if __name__ == "__main__":
    sys.exit(main())
