"""The YAML model of the `change` rule kind (kept apart from its matcher, change.py, so that
the pre-commit path never imports pydantic)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from wukong_lint.engine.schema import RuleBase


class ChangeRule(RuleBase):
    """A rule on a staged change or commit range as a whole (not on the text of its files)."""

    kind: Literal["change"]
    applies_to: list[Literal["change"]] = Field(default_factory=lambda: ["change"])
    # more changed files than this (added, modified, deleted, renamed) is reported
    max_files: int = Field(default=10, ge=0)

    @field_validator("applies_to")
    @classmethod
    def _only_changes(cls, value: list[str]) -> list[str]:
        if not value:
            raise ValueError("expected [change]")
        return value
