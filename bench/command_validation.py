"""How the live hook judges the command validation corpus
(corpora/commands/command_validation_corpus.py):
per label and class, the share denied, asked and allowed, against issue 12's targets.
Never part of the test suite.

    python bench/command_validation.py                 # the hook of this checkout's .venv (or PATH)
    python bench/command_validation.py --profile wukong --show-misses 40

Each command goes through the real hook path a Claude Code session uses: one `wukong-lint hook
--mode json` process per PreToolUse Bash event (cwd = the corpus's project root), its
`permissionDecision` read from stdout (no decision: allowed). Two processes at a time.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpora.commands import command_validation_corpus  # noqa: E402

TARGETS = [
    # (label, verdicts that count, comparison, target, what)
    ("deny", {"deny"}, ">=", 0.95, "destructive commands denied"),
    ("allow", {"deny"}, "<=", 0.01, "look-alikes denied"),
    ("ask", {"ask", "deny"}, ">=", 0.90, "confirm-tier commands stopped (ask or deny)"),
    ("allow", {"ask"}, "<=", 0.03, "look-alikes asked"),
]


def hook_binary() -> str:
    local = HERE.parent / ".venv" / "bin" / "wukong-lint"
    if local.exists():
        return str(local)
    found = shutil.which("wukong-lint")
    if not found:
        raise SystemExit("wukong-lint is not installed (.venv/bin or PATH)")
    return found


def judge(binary: str, command: str, profile: str) -> tuple[str, str]:
    event = {
        "session_id": "bench",
        "transcript_path": "",
        "cwd": command_validation_corpus.PROJECT,
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "bench"},
    }
    argv = [binary, "hook", "--mode", "json"]
    if profile:
        argv += ["--profile", profile]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    proc = subprocess.run(
        argv, input=json.dumps(event).encode(), capture_output=True, timeout=60, env=env
    )
    out = proc.stdout.decode("utf-8", "replace").strip()
    if proc.returncode == 2:  # exit-mode style block
        return "deny", proc.stderr.decode("utf-8", "replace")[:200]
    if not out:
        return "allow", ""
    try:
        spec = json.loads(out).get("hookSpecificOutput", {})
    except ValueError:
        return "error", out[:200]
    decision = spec.get("permissionDecision", "allow")
    return decision, spec.get("permissionDecisionReason", "")[:200]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", default="", help="generic (default) or wukong")
    ap.add_argument("--show-misses", type=int, default=25, metavar="N")
    ap.add_argument("--json", metavar="FILE", help="write every verdict here")
    args = ap.parse_args(argv)
    binary = hook_binary()
    items = command_validation_corpus.build()
    with ThreadPoolExecutor(max_workers=2) as pool:
        verdicts = list(pool.map(lambda it: judge(binary, it.command, args.profile), items))

    by_label: dict[str, Counter] = defaultdict(Counter)
    by_class: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for it, (verdict, _) in zip(items, verdicts, strict=True):
        by_label[it.label][verdict] += 1
        by_class[(it.label, it.cls.split("+")[0])][verdict] += 1

    print(f"{len(items)} commands, hook {binary}, profile {args.profile or 'default'}")
    ok_all = True
    for label, counted, op, target, what in TARGETS:
        n = sum(by_label[label].values())
        share = sum(by_label[label][v] for v in counted) / n if n else 0.0
        ok = share >= target if op == ">=" else share <= target
        ok_all &= ok
        print(f"  {what:<46} {share:7.1%}  (target {op} {target:.0%})  {'ok' if ok else 'MISS'}")
    print("\nper class (label/class: deny ask allow of n)")
    for (label, cls), c in sorted(by_class.items()):
        n = sum(c.values())
        print(f"  {label:<5} {cls:<24} {c['deny']:4} {c['ask']:4} {c['allow']:4} of {n}")
    errors = [
        (it, v)
        for it, v in zip(items, verdicts, strict=True)
        if v[0] not in ("deny", "ask", "allow")
    ]
    if errors:
        print(f"\n{len(errors)} hook errors, e.g. {errors[0][0].command!r}: {errors[0][1][1]}")
    wrong = [
        (it, v)
        for it, v in zip(items, verdicts, strict=True)
        if (it.label == "deny" and v[0] != "deny")
        or (it.label == "ask" and v[0] not in ("ask", "deny"))
        or (it.label == "allow" and v[0] != "allow")
    ]
    if wrong and args.show_misses:
        print(f"\nmisses ({len(wrong)}; first {args.show_misses}):")
        for it, (verdict, _) in wrong[: args.show_misses]:
            print(f"  want {it.label:<5} got {verdict:<5} [{it.cls}] {it.command!r}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            for it, (verdict, reason) in zip(items, verdicts, strict=True):
                fh.write(
                    json.dumps(
                        {
                            "command": it.command,
                            "label": it.label,
                            "class": it.cls,
                            "verdict": verdict,
                            "reason": reason,
                        }
                    )
                    + "\n"
                )
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
