"""Every rule carries its own examples; every example must behave."""

from __future__ import annotations

import pytest

from wukong_lint.engine.loader import builtin_rules_dir, load_rules, rule_files, validate_files
from wukong_lint.runner.examples import builtin_examples_dir, example_problems

RULES = load_rules().rules
EXAMPLES = builtin_examples_dir()  # the secret rules' example files (tests/fixtures/secrets)


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_rule_examples(rule):
    assert example_problems(rule, examples_dir=EXAMPLES) == []


def test_builtin_rules_validate_without_cache():
    rules = validate_files(rule_files(builtin_rules_dir()))
    assert len(rules) == len(RULES)
