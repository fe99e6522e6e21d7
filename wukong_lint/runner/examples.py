"""Run a rule's own examples: every `match` must produce a finding, no `no_match` may."""

from __future__ import annotations

import re

from wukong_lint.engine.rules import CompiledRule, RuleSet
from wukong_lint.engine.scan import scan_unit
from wukong_lint.model import Source, Unit


def example_path(rule: CompiledRule) -> str:
    """A path the rule applies to, so path-restricted rules can be tested too."""
    named = (rule.params or {}).get("example_path")
    if named:  # a kind that tells files apart by name (credential-file) names one
        return str(named)
    for glob in rule.paths:
        candidate = glob.replace("**/", "").replace("*", "example").replace("?", "x")
        # a class stands for its first character (`[yY]` -> `y`; `[!a]` -> `x`)
        candidate = re.sub(
            r"\[!?([^\]])[^\]]*\]", lambda m: "x" if "[!" in m[0] else m[1], candidate
        )
        if rule.applies_to_path(candidate):
            return candidate
    return "example.txt"


def example_problems(rule: CompiledRule, others: RuleSet | None = None,
                     explain: bool = False) -> list[str]:  # fmt: skip
    """Human-readable problems with a rule's examples (empty when they all behave). With
    `explain`, each failed example says why (runner/example_why.py), and `others` (the
    whole rule set) names the rules that fired on a `match` example instead."""
    ruleset = RuleSet([rule])
    kind = rule.applies_to[0]
    path = example_path(rule)
    problems = []
    for expected, texts in ((True, rule.examples_match), (False, rule.examples_no_match)):
        for text in texts:
            if kind == "transcript" and rule.kind != "regex":
                # transcript kinds: the example is JSONL records or a command line (a Bash call)
                from wukong_lint.sources.transcripts import example_units

                findings, errors = [], []
                for unit in example_units(text, rule):
                    found, errs = scan_unit(ruleset, unit)
                    findings += found
                    errors += errs
            else:
                findings, errors = scan_unit(ruleset, Unit(path, text, Source(kind=kind)))
            for error in errors:
                problems.append(f"{rule.id}: {error.message} on example {text[:60]!r}")
            if bool(findings) != expected:
                verb = "should match but does not" if expected else "should not match but does"
                problem = f"{rule.id}: example {verb}: {text[:80]!r}"
                if explain:
                    from wukong_lint.runner.example_why import why_matched, why_not_matched

                    why = (why_not_matched(rule, text, path, findings, others) if expected
                           else why_matched(findings))  # fmt: skip
                    problem += f"\n    why: {why}"
                problems.append(problem)
    return problems
