#!/usr/bin/env python3
# ruff: noqa: E501  (report lines read better unwrapped)
"""Measure wukong-lint on a leaked-dotfiles corpus made by bench/dotfiles.py.

    python bench/dotfiles.py --seed 1 --out bench/out/dotfiles-dev
    python bench/dotfiles_measure.py bench/out/dotfiles-dev [--wukong-lint PATH] [-v]

A risky line counts as found when a finding of any category points into it (a multi-line
secret: anywhere in its block). Every other line with a finding is a false alarm: the
findings are grouped per (path, line), so one noisy line counts once. Prints recall, the
false alarms and what was missed; exit 0 when the targets (>= 90 % found, <= 3 false alarms)
are met, 1 otherwise. Snippets come from the JSON report, so they are masked.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

RECALL_TARGET = 0.90
FALSE_ALARMS_MAX = 3


def scan(tree: str, wukong: list[str]) -> dict:
    # the tree usually lives in the git-ignored bench/out/: walk it as a plain folder
    env = dict(os.environ, GIT_CEILING_DIRECTORIES=os.path.dirname(os.path.abspath(tree)))
    done = subprocess.run(
        [*wukong, "check", tree, "--format", "json", "--jobs", "1"],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    if done.returncode not in (0, 1):
        raise SystemExit(f"wukong-lint failed ({done.returncode}): {done.stderr.strip()}")
    return json.loads(done.stdout)


def measure(out: str, report: dict) -> dict:
    with open(os.path.join(out, "labels.json"), encoding="utf-8") as handle:
        labels = json.load(handle)
    tree = os.path.join(out, "tree")
    findings: dict[tuple[str, int], list[dict]] = {}
    for f in report["findings"]:
        path = os.path.relpath(f["path"], tree) if os.path.isabs(f["path"]) else f["path"]
        if path.startswith(tree.rstrip("/") + "/"):
            path = path[len(tree.rstrip("/")) + 1 :]
        path = path.replace(os.sep, "/")
        findings.setdefault((path, f["line"]), []).append(f)
    found, missed, covered = [], [], set()
    for label in labels["risky"]:
        lines = range(label["line"], label.get("end", label["line"]) + 1)
        keys = [(label["path"], n) for n in lines if (label["path"], n) in findings]
        covered.update((label["path"], n) for n in lines)
        (found if keys else missed).append(label)
    false_alarms = [
        {
            "path": p,
            "line": n,
            "rules": sorted({f["rule_id"] for f in fs}),
            "snippet": fs[0]["snippet"],
        }
        for (p, n), fs in sorted(findings.items())
        if (p, n) not in covered
    ]
    total = len(labels["risky"])
    return {
        "risky": total,
        "found": len(found),
        "recall": round(len(found) / total, 4) if total else 1.0,
        "false_alarms": false_alarms,
        "missed": missed,
        "lookalikes": len(labels["lookalikes"]),
        "errors": report.get("errors", []),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", help="a folder written by bench/dotfiles.py")
    ap.add_argument(
        "--wukong-lint", default=None, help="the command (default: this Python's module)"
    )
    ap.add_argument("-v", "--verbose", action="store_true", help="list misses and false alarms")
    args = ap.parse_args(argv)
    wukong = [args.wukong_lint] if args.wukong_lint else [sys.executable, "-m", "wukong_lint"]
    result = measure(args.out, scan(os.path.join(args.out, "tree"), wukong))
    print(
        f"risky lines found: {result['found']}/{result['risky']} ({result['recall']:.1%}); "
        f"false alarms: {len(result['false_alarms'])} lines; look-alikes: {result['lookalikes']}"
    )
    if args.verbose:
        for m in result["missed"]:
            print(f"  missed  {m['path']}:{m['line']} ({m['kind']})")
        for fa in result["false_alarms"]:
            print(
                f"  false   {fa['path']}:{fa['line']} {','.join(fa['rules'])}: {fa['snippet'][:100]}"
            )
    for err in result["errors"]:
        print(f"  error   {err}")
    ok = result["recall"] >= RECALL_TARGET and len(result["false_alarms"]) <= FALSE_ALARMS_MAX
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
