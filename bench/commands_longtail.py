"""Per-class verdicts on the long-tail command corpus of issue 31
(tests/fixtures/commands/longtail/{deny,ask,allow}.txt, the format of tests/command_corpus.py):
for every tier and class, how many commands were stopped (denied or asked), asked and denied,
judged as the live hook judges a Bash call (all rules, profile generic, the project at
tests/command_corpus.PROJECT). Figures of record: tests/fixtures/commands/longtail/BASELINE.md.

    python bench/commands_longtail.py [--profile generic|wukong] [--misses]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's wukong_lint

from command_corpus import CORPUS, TIERS, Case, verdicts

LONGTAIL = CORPUS / "longtail"


def load(folder: Path = LONGTAIL) -> list[Case]:
    """tests/command_corpus.load, for another folder."""
    cases = []
    for tier in TIERS:
        text = (folder / f"{tier}.txt").read_text(encoding="utf-8")
        for number, line in enumerate(text.split("\n"), 1):
            if not line.strip() or line.startswith("#"):
                continue
            cls, _, command = line.partition("\t")
            cases.append(Case(tier, cls, command.replace("⏎", "\n"), number))
    return cases


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--profile", default="generic")
    parser.add_argument("--misses", action="store_true", help="list every wrong verdict")
    args = parser.parse_args()
    cases = load()
    found = verdicts(cases, args.profile)
    per_class: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for case, (verdict, _) in found.items():
        per_class[(case.tier, case.cls)][verdict] += 1
    print(f"{len(cases)} commands, profile {args.profile}")
    print(f"{'tier':6} {'class':36} {'n':>4} {'stopped':>8} {'asked':>6} {'denied':>7}")
    totals: dict[str, Counter[str]] = defaultdict(Counter)
    for (tier, cls), counts in sorted(per_class.items()):
        n = sum(counts.values())
        totals[tier].update(counts)
        stopped = counts["ask"] + counts["deny"]
        print(f"{tier:6} {cls:36} {n:4} {stopped:8} {counts['ask']:6} {counts['deny']:7}")
    for tier in TIERS:
        counts = totals[tier]
        n = sum(counts.values()) or 1
        stopped = counts["ask"] + counts["deny"]
        print(
            f"{tier} file: {n} commands, stopped {stopped} ({stopped / n:.1%}), "
            f"asked {counts['ask']}, denied {counts['deny']} ({counts['deny'] / n:.1%})"
        )
    # the targets: core classes vs the packs (pack.<d> and their look-alikes safe.<d>-read)
    packs = {cls.removeprefix("pack.") for tier, cls in per_class if cls.startswith("pack.")}
    groups: dict[str, Counter[str]] = defaultdict(Counter)
    for (tier, cls), counts in per_class.items():
        pack = cls.startswith("pack.") or cls.removeprefix("safe.").removesuffix("-read") in packs
        kind = "look-alikes" if tier == "allow" else "destructive"
        groups[f"{'packs' if pack else 'core'} {kind}"].update(counts)
    for name, counts in sorted(groups.items()):
        n = sum(counts.values())
        stopped = counts["ask"] + counts["deny"]
        print(f"{name}: {n} commands, stopped {stopped} ({stopped / n:.1%})")
    if args.misses:
        want = {"deny": ("deny",), "ask": ("ask", "deny"), "allow": ("allow",)}
        for case, (verdict, rules) in found.items():
            if verdict not in want[case.tier]:
                print(f"MISS {case.tier}/{case.cls} -> {verdict} {rules}: {case.command!r}")


if __name__ == "__main__":
    main()
