"""Provider rules on labelled token examples: recall and false positives per rule (issue 13).

The examples (corpora/secrets/provider_shapes.py) are lines the way people commit them around
a token of the documented shape, and look-alikes that must not be reported; each rule is run
alone on each line.

    python bench/provider_shapes.py              # recall / false positives per rule, seed 2
    python bench/provider_shapes.py --seed 1 -n 12 --show secret.sourcegraph-access-token

Targets: recall >= 0.95 and false positives <= 3 % per rule. The rules' own `examples`
were drawn with seed 1; the measure uses another seed (held out).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the bench folder: corpora

from corpora.secrets.provider_shapes import NEG, POS

_RULES: dict = {}


def evaluate(rule_id: str, lines: list[str]) -> list[bool]:
    from wukong_lint.engine.loader import load_rules
    from wukong_lint.engine.rules import RuleSet
    from wukong_lint.engine.scan import scan_unit
    from wukong_lint.model import Source, Unit

    if not _RULES:
        _RULES.update((r.id, r) for r in load_rules().rules)
    ruleset = RuleSet([_RULES[rule_id]])
    return [bool(scan_unit(ruleset, Unit("config.env", line, Source()))[0]) for line in lines]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("-n", type=int, default=200, help="examples per class and rule")
    ap.add_argument("--show", help="print the examples of one rule instead of measuring")
    args = ap.parse_args(argv)
    if args.show:
        rng = random.Random(args.seed)
        print(
            json.dumps(
                {
                    "match": [POS[args.show](rng) for _ in range(args.n)],
                    "no_match": [NEG[args.show](rng) for _ in range(args.n)],
                },
                indent=1,
            )
        )
        return 0
    worst_recall, worst_fp = 1.0, 0.0
    print(f"{'rule':<44}{'recall':>8}{'FP %':>8}")
    for rule_id in sorted(POS):
        rng = random.Random(f"{args.seed}:{rule_id}")
        pos = [POS[rule_id](rng) for _ in range(args.n)]
        negs = [NEG[rule_id](rng) for _ in range(args.n)]
        recall = sum(evaluate(rule_id, pos)) / len(pos)
        fp = sum(evaluate(rule_id, negs)) / len(negs)
        worst_recall, worst_fp = min(worst_recall, recall), max(worst_fp, fp)
        flag = "" if recall >= 0.95 and fp <= 0.03 else "   <-- below target"
        print(f"{rule_id:<44}{recall:>8.3f}{100 * fp:>8.1f}{flag}")
    print(f"{'worst':<44}{worst_recall:>8.3f}{100 * worst_fp:>8.1f}")
    return 0 if worst_recall >= 0.95 and worst_fp <= 0.03 else 1


if __name__ == "__main__":
    sys.exit(main())
