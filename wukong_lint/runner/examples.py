"""Run a rule's own examples: every `match` must produce a finding, no `no_match` may.

Besides the `examples` of its YAML, a rule may have an example file: `<rule id>.txt` in an
examples folder (the built-in secret rules': tests/fixtures/secrets/examples of a checkout),
semgrep-style: a line `# ruleid: RULE` starts an example that must produce a finding of
RULE, `# ok: RULE` one that must not; an example runs to the next such line (so it may span
lines: a credential file, a PEM block), without its trailing blank lines.
"""

from __future__ import annotations

import re
from pathlib import Path

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


ANNOTATION = re.compile(r"^# (ruleid|ok): ([\w.\-]+)[ \t]*$")


def builtin_examples_dir() -> Path | None:
    """The example files of the built-in rules, in a checkout (not in an installed wheel)."""
    from wukong_lint.engine.loader import builtin_rules_dir

    folder = Path(builtin_rules_dir()).parent / "tests" / "fixtures" / "secrets" / "examples"
    return folder if folder.is_dir() else None


def read_example_file(text: str) -> list[tuple[bool, str, str]]:
    """(must match, rule id, example) for each annotated example of an example file."""
    out: list[tuple[bool, str, str]] = []
    current: tuple[bool, str] | None = None
    lines: list[str] = []

    def close() -> None:
        if current is not None:
            while lines and not lines[-1].strip():
                lines.pop()
            out.append((current[0], current[1], "\n".join(lines)))

    for line in text.splitlines():
        m = ANNOTATION.match(line)
        if m:
            close()
            current, lines = (m[1] == "ruleid", m[2]), []
        elif current is not None:
            lines.append(line)
    close()
    return out


def file_examples(rule_id: str, folder: Path | None) -> tuple[list[str], list[str]]:
    """The rule's examples of `folder/<rule id>.txt`: (match, no_match); none without it."""
    match: list[str] = []
    no_match: list[str] = []
    if folder is None:
        return match, no_match
    path = folder / f"{rule_id}.txt"
    if not path.is_file():
        return match, no_match
    for expected, rid, text in read_example_file(path.read_text(encoding="utf-8")):
        if rid == rule_id:
            (match if expected else no_match).append(text)
    return match, no_match


def all_examples(rule: CompiledRule, folder: Path | None) -> tuple[list[str], list[str]]:
    """The rule's YAML examples and those of its example file."""
    match, no_match = file_examples(rule.id, folder)
    return list(rule.examples_match) + match, list(rule.examples_no_match) + no_match


def example_problems(rule: CompiledRule, others: RuleSet | None = None,
                     explain: bool = False,
                     examples_dir: Path | None = None) -> list[str]:  # fmt: skip
    """Human-readable problems with a rule's examples, its YAML ones and those of its
    example file in `examples_dir` (empty when they all behave). With `explain`, each failed
    example says why (runner/example_why.py), and `others` (the whole rule set) names the
    rules that fired on a `match` example instead."""
    ruleset = RuleSet([rule])
    kind = rule.applies_to[0]
    path = example_path(rule)
    problems = []
    match, no_match = all_examples(rule, examples_dir)
    for expected, texts in ((True, match), (False, no_match)):
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
