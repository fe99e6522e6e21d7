#!/usr/bin/env python3
"""Recall and false reports of the code rules on annotated fixtures (`ruleid:` / `ok:`).

    python bench/code_fixtures.py [FOLDER ...]     # default: tests/fixtures/code/js and .../python

For each folder: the share of `ruleid:` lines reported with their rule (recall), the share of
`ok:` lines reported with their rule (false reports), findings on unannotated lines, and each
miss. Severity `low` rules are counted apart (the issue's Python target excludes them). A
held-out set of the same kind is measured the same way: point the script at its folder.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.test_code_fixtures import _expectations  # noqa: E402
from wukong_lint.engine.loader import load_rules  # noqa: E402
from wukong_lint.engine.scan import scan_unit  # noqa: E402
from wukong_lint.model import Source, Unit  # noqa: E402


def measure(folder: Path, ruleset) -> dict:
    low = {r.id for r in ruleset.rules if r.severity == "low"}
    counts = {"vulnerable": 0, "reported": 0, "safe": 0, "safe_reported": 0, "unannotated": 0}
    problems = []
    for file in sorted(p for p in folder.rglob("*") if p.is_file()):
        text = file.read_text(encoding="utf-8", errors="replace")
        expected, rules = _expectations(text.splitlines())
        findings, _ = scan_unit(ruleset, Unit(file.name, text, Source(kind="file")))
        found = {(f.rule_id, f.line) for f in findings}
        for (rule, line), verdict in sorted(expected.items()):
            if rule in low:
                continue
            hit = (rule, line) in found
            if verdict == "ruleid":
                counts["vulnerable"] += 1
                counts["reported"] += hit
                if not hit:
                    problems.append(f"miss  {file.relative_to(folder)}:{line} {rule}")
            else:
                counts["safe"] += 1
                counts["safe_reported"] += hit
                if hit:
                    problems.append(f"false {file.relative_to(folder)}:{line} {rule}")
        for rule, line in sorted(found):
            if rule in rules and (rule, line) not in expected:
                counts["unannotated"] += 1
                problems.append(f"extra {file.relative_to(folder)}:{line} {rule}")
    counts["recall"] = counts["reported"] / counts["vulnerable"] if counts["vulnerable"] else 1.0
    counts["false_rate"] = counts["safe_reported"] / counts["safe"] if counts["safe"] else 0.0
    counts["problems"] = problems
    return counts


def main(argv: list[str]) -> int:
    folders = [Path(a) for a in argv] or [
        ROOT / "tests/fixtures/code/js",
        ROOT / "tests/fixtures/code/python",
    ]
    ruleset = load_rules()
    for folder in folders:
        c = measure(folder, ruleset)
        print(
            f"{folder}: {c['reported']}/{c['vulnerable']} vulnerable lines reported "
            f"({c['recall']:.1%}), {c['safe_reported']}/{c['safe']} safe lines reported "
            f"({c['false_rate']:.1%}), {c['unannotated']} findings on unannotated lines"
        )
        for problem in c["problems"]:
            print("  " + problem)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
