#!/usr/bin/env python3
"""How tight and how safe the JS/TS gates are (wukong_lint/code/js/gates.py).

    python bench/js_gates.py [FOLDER ...]

(default: bench/out/corpus-dev/tree and tests/fixtures/code/js).

For every JS/TS file a `javascript` rule applies to (paths, excludes and keywords as the engine
takes them), the file's tree is analysed with no gate at all, and each check's gate is asked
too. Printed per folder and check: files whose keywords occur, files the gate lets through,
files where the ungated analysis finds something, and **misses**: a file where the analysis
finds something the gate turned away (a gate must be a superset of what its check can find;
any miss is listed and makes the exit status 1). Also the share of files parsed (a file is
parsed when any of its checks' gates lets it through), which is what a folder scan pays for.
"""

from __future__ import annotations

import collections
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from wukong_lint.code.js import analysis as code_js  # noqa: E402
from wukong_lint.code.js import gates as js_gates  # noqa: E402
from wukong_lint.engine.loader import load_rules  # noqa: E402

DEFAULT = [ROOT / "bench/out/corpus-dev/tree", ROOT / "tests/fixtures/code/js"]


def ungated_hits(path: str, text: str) -> dict[str, list[tuple[int, int]]]:
    analysis = code_js.analyse(path, text)
    if analysis.hits is None:  # too big: line patterns, not gated by the tree analysis
        return {}
    return analysis.hits


def audit(folder: Path, rules) -> tuple[dict, list[str], int, int]:
    counts: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    misses: list[str] = []
    files = parsed = 0
    for root, dirs, names in os.walk(folder):
        dirs[:] = [d for d in dirs if d != ".git"]
        for name in sorted(names):
            full = Path(root) / name
            rel = full.relative_to(folder).as_posix()
            applying = [r for r in rules if r.applies_to_path(rel)]
            if not applying:
                continue
            try:
                text = full.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            lowered = text.lower()
            keyed = [r for r in applying if any(k.lower() in lowered for k in r.keywords)]
            if not keyed:
                continue
            files += 1
            hits = ungated_hits(rel, text)
            any_gate = False
            for rule in keyed:
                check = str(rule.params.get("check"))
                gate = js_gates.possible(check, text)
                any_gate |= gate
                found = bool(hits.get(check))
                c = counts[check]
                c["keywords"] += 1
                c["gate"] += gate
                c["found"] += found
                if found and not gate:
                    c["missed"] += 1
                    misses.append(f"{folder.name}/{rel}: {check} at {hits[check][:3]}")
            parsed += any_gate
    return counts, misses, files, parsed


def main(argv: list[str]) -> int:
    folders = [Path(a) for a in argv] or DEFAULT
    rules = [r for r in load_rules().rules if r.kind == "javascript"]
    status = 0
    for folder in folders:
        if not folder.is_dir():
            print(f"{folder}: not a folder (bench/run.py or corpus.generate makes the corpus)")
            status = 2
            continue
        counts, misses, files, parsed = audit(folder, rules)
        print(f"{folder}: {files} JS/TS files with a keyword, {parsed} parsed")
        for check in sorted(counts):
            c = counts[check]
            print(
                f"  {check:12} keywords {c['keywords']:5}  gate {c['gate']:5}  "
                f"found {c['found']:4}  missed {c['missed']}"
            )
        for miss in misses:
            print("  MISS " + miss)
        if misses:
            status = max(status, 1)
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
