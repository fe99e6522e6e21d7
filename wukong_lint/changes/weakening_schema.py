"""The YAML model of the `weakening` rule kind (apart from its matcher, weakening.py, so that
the pre-commit path never imports pydantic)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from wukong_lint.engine.schema import RuleBase


class WeakeningRule(RuleBase):
    """A rule on what a commit range changes in the scan's own setup."""

    kind: Literal["weakening"]
    applies_to: list[Literal["weakening"]] = Field(
        default_factory=lambda: ["weakening"], min_length=1
    )
    # a change is reported when it touches one of these categories
    categories: list[str] = Field(
        default_factory=lambda: ["secret", "dangerous-command", "sensitive-path", "injection",
                                 "info-leak"]
    )  # fmt: skip
    # the rule categories another scanner's allow comment can silence (`allow-comments`)
    comment_categories: dict[str, list[str]] = Field(
        default_factory=lambda: {
            "gitleaks": ["secret"],
            "detect-secrets": ["secret"],
            "bandit": ["injection", "info-leak"],
            "ruff": ["injection", "info-leak"],
        }
    )
