"""Semgrep-style annotations in tests/fixtures/code (Python, JS/TS, Vue): `# ruleid: RULE` on
the line before a line that must have a finding of RULE, `# ok: RULE` before one that must
not; a finding of an annotated rule on a line without `ruleid:` is a failure too."""

from __future__ import annotations

import re
from pathlib import Path

from wukong_lint.engine.loader import load_rules
from wukong_lint.engine.scan import scan_unit
from wukong_lint.model import Source, Unit

FIXTURES = Path(__file__).parent / "fixtures" / "code"
# (`{/* ruleid: x */}` inside JSX, `<!-- ruleid: x -->` in a Vue template)
ANNOTATION = re.compile(
    r"^\s*(?:#|//|\{/\*|<!--)\s*(ruleid|ok):\s*([\w.,\- ]+?)\s*(?:\*/\}|-->)?\s*$"
)


def _expectations(lines: list[str]) -> tuple[dict[tuple[str, int], str], set[str]]:
    expected: dict[tuple[str, int], str] = {}
    rules: set[str] = set()
    for number, line in enumerate(lines, 1):
        match = ANNOTATION.match(line)
        if not match:
            continue
        target = number + 1
        while target <= len(lines) and ANNOTATION.match(lines[target - 1]):
            target += 1
        for rule in (r.strip() for r in match.group(2).split(",")):
            expected[(rule, target)] = match.group(1)
            rules.add(rule)
    return expected, rules


def test_every_code_annotation():
    ruleset = load_rules()
    problems: list[str] = []
    files = sorted(p for p in FIXTURES.rglob("*") if p.is_file())
    assert files
    covered: set[str] = set()
    for file in files:
        relative = file.relative_to(FIXTURES).as_posix()
        text = file.read_text(encoding="utf-8")
        expected, rules = _expectations(text.splitlines())
        covered |= rules
        findings, errors = scan_unit(ruleset, Unit(relative, text, Source(kind="file")))
        assert not errors, errors
        found = {(f.rule_id, f.line) for f in findings if f.rule_id in rules}
        for (rule, line), verdict in sorted(expected.items()):
            if verdict == "ruleid" and (rule, line) not in found:
                problems.append(f"{relative}:{line}: expected {rule}, not found")
            if verdict == "ok" and (rule, line) in found:
                problems.append(f"{relative}:{line}: {rule} found, annotated ok")
        for rule, line in sorted(found):
            if expected.get((rule, line)) != "ruleid":
                problems.append(f"{relative}:{line}: unannotated finding of {rule}")
    assert problems == []
    code_rules = {r.id for r in ruleset.rules if r.source_file.replace("\\", "/").count("/code/")}
    assert code_rules <= covered, sorted(code_rules - covered)


def test_one_finding_per_line_in_a_staged_style_unit():
    text = (FIXTURES / "info-leak.exception-text.py").read_text(encoding="utf-8")
    unit = Unit("app.py", text, Source(kind="diff"), added_lines=frozenset({18}))
    findings, _ = scan_unit(load_rules(), unit)
    assert [(f.rule_id, f.line) for f in findings] == [("info-leak.exception-text", 18)]
