"""Per-class rates of the labelled dangerous-command corpus (tests/fixtures/commands/):
destructive commands denied, confirm-tier commands stopped, look-alikes denied or asked, and
every miss. Judged as the live hook judges a Bash call (all rules, profile generic, a
project folder as cwd).

    python bench/commands_corpus.py [--profile generic|wukong] [--misses]
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))

from command_corpus import load, rates, verdicts


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--profile", default="generic")
    parser.add_argument("--misses", action="store_true", help="list every wrong verdict")
    args = parser.parse_args()
    cases = load()
    found = verdicts(cases, args.profile)
    result = rates(found)
    print(f"{len(cases)} commands, profile {args.profile}")
    print(f"{'tier':6} {'class':28} {'n':>4} {'deny':>6} {'ask':>6} {'allow':>6}")
    for (tier, cls), counts in sorted(result.per_class.items()):
        total = sum(counts.values())
        print(
            f"{tier:6} {cls:28} {total:4} "
            + " ".join(f"{counts[v] / total:6.1%}" for v in ("deny", "ask", "allow"))
        )
    print(f"destructive denied: {result.denied:.1%} (target >= 95%)")
    print(f"confirm tier stopped: {result.stopped:.1%} (target >= 90%)")
    print(f"look-alikes denied: {result.allow_denied:.1%} (target <= 1%)")
    print(f"look-alikes asked: {result.allow_asked:.1%} (target <= 3%)")
    if args.misses:
        want = {"deny": ("deny",), "ask": ("ask", "deny"), "allow": ("allow",)}
        for case, (verdict, rules) in found.items():
            if verdict not in want[case.tier]:
                print(f"MISS {case.tier}/{case.cls} -> {verdict} {rules}: {case.command!r}")


if __name__ == "__main__":
    main()
