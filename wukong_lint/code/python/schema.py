"""The YAML model of the `python` rule kind (kept apart from its matcher, code_python.py, so
that scanning never imports pydantic)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from wukong_lint.engine.schema import RuleBase

# The checks of code_python.py; each rule runs one of them.
PythonCheck = Literal[
    "sql",
    "shell",
    "shell-constant",
    "eval",
    "mark-safe",
    "jinja2-autoescape",
    "template-string",
    "exception-text",
    "traceback",
    "environment",
    "file-contents",
    "debug-setting",
    "debug-server",
    "reflected-html",
    "version",
]


class PythonRule(RuleBase):
    kind: Literal["python"]
    # which syntax-tree check of code_python.py the rule reports
    check: PythonCheck
    # lower-case literals of which one must also occur (besides a keyword) for the file to be
    # parsed: a cheap second filter (an HTTP response near an `except`)
    requires_any: list[str] = Field(default_factory=list)
    # lower-case literals of which one must occur in a function for the rule's keywords in it
    # to get the function parsed (formatting signs for SQL built by formatting)
    function_requires_any: list[str] = Field(default_factory=list)

    @field_validator("requires_any", "function_requires_any")
    @classmethod
    def _lower(cls, value: list[str]) -> list[str]:
        return [v.lower() for v in value if v.strip()]
