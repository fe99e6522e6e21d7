"""Per-rule true and false examples of the secret rules (issue 30): rates and the example files.

Each secret rule has its YAML `examples` and, for the provider-token rules, an example file
tests/fixtures/secrets/examples/<rule>.txt drawn from corpora/secrets/rule_examples.py with
seed 1 (`--write` rewrites them). The measure runs every secret rule on every example, each
read as the file its rule's examples are read as:

- true found: the example has a finding of the rule it belongs to;
- false flagged: the example has a finding above low of any secret rule.

    python bench/secret_examples.py                # the examples as committed
    python bench/secret_examples.py --seed 2       # fresh draws of the generated rules (held out)
    python bench/secret_examples.py --write        # rewrite the example files (seed 1)
    python bench/secret_examples.py --show         # list every miss and false flag (masked)

Targets: >= 95 % true found, <= 3 % false flagged, >= 10 of each per rule.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))  # the bench folder: corpora

from corpora.secrets.file_examples import FILE_SPECS, file_false, file_true  # noqa: E402
from corpora.secrets.rule_examples import SPECS, false_examples, true_examples  # noqa: E402

FOLDER = ROOT / "tests" / "fixtures" / "secrets" / "examples"
HEADER = (
    "# Examples of {rule}: fake tokens of the provider's documented shape and look-alikes,\n"
    "# drawn by bench/secret_examples.py --write (seed 1); `rules test` runs them.\n"
)


def draw(rule: str, seed: int) -> tuple[list[str], list[str]]:
    """The generated (true, false) examples of a rule (without `secret.`)."""
    rng = random.Random(f"{seed}:{rule}")
    if rule in FILE_SPECS:
        return file_true(rule, rng), file_false(rule, rng)
    return true_examples(rule, rng), false_examples(rule, rng)


def write(seed: int = 1) -> int:
    FOLDER.mkdir(parents=True, exist_ok=True)
    rules = sorted(set(SPECS) | set(FILE_SPECS))
    for rule in rules:
        rid = f"secret.{rule}"
        trues, falses = draw(rule, seed)
        parts = [HEADER.format(rule=rid)]
        parts += [f"# ruleid: {rid}\n{text}\n" for text in trues]
        parts += [f"# ok: {rid}\n{text}\n" for text in falses]
        (FOLDER / f"{rid}.txt").write_text("".join(parts), encoding="utf-8")
    print(f"{len(rules)} example files written to {FOLDER.relative_to(ROOT)}")
    return 0


def _replaced(rule, hits: list, path: str, text: str) -> bool:
    """Found by the rule alone, and reported by a more specific rule on the same secret
    (a Vault token in .vault-token is named by the Vault token rule): found."""
    from wukong_lint.engine.rules import RuleSet
    from wukong_lint.engine.scan import scan_unit
    from wukong_lint.model import Source, Unit

    others = [f for f in hits if f.rule_id != "secret.generic-assignment" and f.severity > 1]
    if not others:
        return False
    alone = scan_unit(RuleSet([rule]), Unit(path, text, Source(kind=rule.applies_to[0])))[0]
    return any(a.line == f.line for a in alone for f in others)


def measure(seed: int | None, show: bool) -> dict[str, list[int]]:
    """Counts by where the examples come from ("files": the example files, "yaml": the
    rules' own `examples`): [true found, true, false flagged, false, false flagged by the
    example's own rule]; "few": [rules with fewer than 10 true or 10 false examples]."""
    from wukong_lint.engine.loader import load_rules
    from wukong_lint.engine.rules import RuleSet
    from wukong_lint.engine.scan import scan_unit
    from wukong_lint.model import Source, Unit
    from wukong_lint.runner.examples import example_path, file_examples

    rules = [r for r in load_rules().rules if r.category == "secret"]
    every = RuleSet(rules)
    counts = {"files": [0, 0, 0, 0, 0], "yaml": [0, 0, 0, 0, 0]}
    few: list[str] = []
    lines: list[str] = []
    for rule in rules:
        match, no_match = file_examples(rule.id, FOLDER)
        short = rule.id.removeprefix("secret.")
        if seed is not None and (short in SPECS or short in FILE_SPECS):
            match, no_match = draw(short, seed)  # held out: fresh draws of the generated rules
        sources = (
            ("yaml", rule.examples_match, rule.examples_no_match),
            ("files", match, no_match),
        )
        if (
            len(match) + len(rule.examples_match) < 10
            or len(no_match) + len(rule.examples_no_match) < 10
        ):
            few.append(rule.id)
        path = example_path(rule)
        kind = rule.applies_to[0]
        for source, trues, falses in sources:
            c = counts[source]
            for text in trues:
                hits = scan_unit(every, Unit(path, text, Source(kind=kind)))[0]
                c[1] += 1
                if any(f.rule_id == rule.id for f in hits) or _replaced(rule, hits, path, text):
                    c[0] += 1
                elif show:
                    got = sorted({f.rule_id for f in hits})
                    lines.append(f"MISS {source} {rule.id}: {text[:70]!r} (found: {got})")
            for text in falses:
                hits = [
                    f
                    for f in scan_unit(every, Unit(path, text, Source(kind=kind)))[0]
                    if f.severity > 1
                ]
                c[3] += 1
                if hits:
                    c[2] += 1
                    c[4] += any(f.rule_id == rule.id for f in hits)
                    if show:
                        got = sorted({f.rule_id for f in hits})
                        lines.append(f"FLAG {source} {rule.id}: {text[:70]!r} by {got}")
    for line in lines:
        print(line)
    return {**counts, "few": few}  # type: ignore[dict-item]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--seed", type=int, help="fresh draws of the generated examples")
    ap.add_argument("--show", action="store_true")
    args = ap.parse_args(argv)
    if args.write:
        return write()
    counts = measure(args.seed, args.show)
    for source in ("files", "yaml"):
        found, trues, flagged, falses, own = counts[source]
        print(
            f"{source:<6} true found {found}/{trues} ({100 * found / trues:.1f} %), "
            f"false flagged above low by any secret rule {flagged}/{falses} "
            f"({100 * flagged / falses:.2f} %), by the example's own rule {own}"
        )
    total = [a + b for a, b in zip(counts["files"], counts["yaml"], strict=True)]
    print(
        f"all    true found {total[0]}/{total[1]} ({100 * total[0] / total[1]:.1f} %), "
        f"false flagged {total[2]}/{total[3]} ({100 * total[2] / total[3]:.2f} %), "
        f"by own rule {total[4]}; rules under 10/10: {len(counts['few'])} {' '.join(counts['few'])}"
    )
    files = counts["files"]
    ok = files[0] >= 0.95 * files[1] and files[2] <= 0.03 * files[3] and total[0] >= 0.95 * total[1]
    return 0 if ok and not counts["few"] and total[4] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
