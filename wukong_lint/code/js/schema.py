"""The YAML model of the `javascript` rule kind (kept apart from its matcher, code_js.py, so
that scanning never imports pydantic)."""

from __future__ import annotations

from typing import Literal

from wukong_lint.engine.schema import RuleBase

# The checks of code_js.py; each rule runs one of them.
JsCheck = Literal["sql", "shell", "html", "eval", "stack-trace", "error-text", "environment"]


class JsRule(RuleBase):
    kind: Literal["javascript"]
    # which syntax-tree check of code_js.py the rule reports
    check: JsCheck
