"""The rule schema: what a YAML rule may say, validated with pydantic.

Imported only when rule files change (the compiled rule set is cached), because pydantic
costs tens of milliseconds to import and the pre-commit hot path cannot afford it.
"""

from __future__ import annotations

from typing import Any, Literal

import regex
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from wukong_lint.engine.filters import FILTERS
from wukong_lint.model import CATEGORIES, DEFAULT_APPLIES_TO, UNIT_KINDS

Category = Literal[CATEGORIES]  # type: ignore[valid-type]
UnitKind = Literal[UNIT_KINDS]  # type: ignore[valid-type]
SeverityName = Literal["low", "medium", "high", "critical"]
FilterName = Literal[tuple(FILTERS)]  # type: ignore[valid-type]

RULE_ID_PATTERN = r"^[a-z0-9][a-z0-9_-]*(\.[a-z0-9][a-z0-9_-]*)+$"
# What an allow entry may look at: the secret, the whole match, the line, the path, or a
# named group of the rule's regex.
ALLOW_TARGETS = ("secret", "match", "line", "path")


def _compile(pattern: str, what: str) -> regex.Pattern[str]:
    from wukong_lint.engine.regex_budget import compile_limited

    try:
        # under a size and time limit: rule packs may come from the repository scanned
        return compile_limited(lambda p: regex.compile(p, regex.VERSION0), pattern)
    except (regex.error, TypeError, ValueError, RecursionError, MemoryError) as err:
        shown = pattern if len(pattern) <= 80 else pattern[:77] + "..."
        raise ValueError(f"bad {what} {shown!r}: {err}") from None


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Examples(Strict):
    """Text that must produce a finding of this rule, and text that must not."""

    match: list[str] = Field(min_length=1)
    no_match: list[str] = Field(min_length=1)


class Allow(Strict):
    regex: str
    target: str = "secret"

    @field_validator("regex")
    @classmethod
    def _valid_regex(cls, value: str) -> str:
        _compile(value, "allow regex")
        return value


class RuleBase(Strict):
    id: str = Field(pattern=RULE_ID_PATTERN)
    category: Category
    severity: SeverityName
    message: str = Field(min_length=1)
    docs: str = Field(min_length=1)
    examples: Examples
    applies_to: list[UnitKind] = Field(
        default_factory=lambda: list(DEFAULT_APPLIES_TO), min_length=1
    )
    # Globs (matched against the unit's path); an empty `paths` means every path.
    paths: list[str] = Field(default_factory=list)
    exclude_paths: list[str] = Field(default_factory=list)
    enabled: bool = True
    tags: list[str] = Field(default_factory=list)
    # Lower-case literals; a rule with keywords runs only on text containing one of them.
    keywords: list[str] = Field(default_factory=list)

    @field_validator("keywords")
    @classmethod
    def _keywords(cls, value: list[str]) -> list[str]:
        cleaned = [k.lower() for k in value]
        if any(not k.strip() for k in cleaned):
            raise ValueError("keywords must be non-empty strings")
        return cleaned

    def params(self) -> dict[str, Any]:
        """The kind's own settings, stored with the compiled rule (plain data only)."""
        common = set(RuleBase.model_fields) | {"kind"}
        return {k: v for k, v in self.model_dump().items() if k not in common}


class RegexRule(RuleBase):
    """A regular expression, preselected by keywords, with optional filters on the secret."""

    kind: Literal["regex"]
    # The regex runs only on text containing at least one keyword. A rule limited by `paths`
    # may have none: it then runs on every file its paths name (a `.env` added to a change).
    keywords: list[str] = Field(default_factory=list)
    regex: str
    # The group holding the secret (number or name). Default: the group named `secret`, else
    # group 1 when the pattern has groups, else the whole match.
    secret_group: int | str | None = None
    # Minimum Shannon entropy (bits per character) of the secret.
    entropy: float | None = Field(default=None, ge=0.0, le=8.0)
    min_length: int = Field(default=0, ge=0)
    # Named false-positive filters (see engine/filters.py). Default for secrets:
    # placeholder + template.
    filters: list[FilterName] | None = None
    allow: list[Allow | str] = Field(default_factory=list)
    # Redact the secret in snippets. Default: true for the `secret` category.
    redact: bool | None = None
    # The regex runs on the lines holding a keyword; a multiline rule runs from such a line
    # to the end of the text (for matches that span lines, like PEM blocks).
    multiline: bool = False
    # Lines after a keyword's line that the regex may also see (a key on one line and its
    # value on the next, as in Kubernetes `- name: X` / `value: ...`).
    lines_after: int = Field(default=0, ge=0, le=20)
    # How many characters before the end of a keyword a match can start (default: anywhere on
    # the keyword's line). Set it when the keyword sits near the start of every match: the
    # regex then tries far fewer positions on long lines.
    reach: int | None = Field(default=None, ge=1)
    # A regex that must match right after a keyword for that keyword occurrence to count
    # (`= `, `: ` after a credential name, say): most occurrences of a common keyword in prose
    # and code are then not searched at all.
    after_keyword: str | None = None
    # Where a finding points: the start of the secret, or of the whole match (a PEM block's
    # BEGIN line rather than its first line of base64).
    locate: Literal["secret", "match"] = "secret"

    @field_validator("regex")
    @classmethod
    def _valid_regex(cls, value: str) -> str:
        _compile(value, "regex")
        return value

    @field_validator("after_keyword")
    @classmethod
    def _valid_after_keyword(cls, value: str | None) -> str | None:
        if value is not None:
            _compile(value, "after_keyword")
        return value

    @model_validator(mode="after")
    def _groups_exist(self) -> RegexRule:
        if not self.keywords and not self.paths:
            raise ValueError("a regex rule needs keywords, or paths that limit where it runs")
        compiled = _compile(self.regex, "regex")
        group = self.secret_group
        if isinstance(group, int) and not 0 <= group <= compiled.groups:
            raise ValueError(f"secret_group {group} but the regex has {compiled.groups} groups")
        if isinstance(group, str) and group not in compiled.groupindex:
            raise ValueError(f"secret_group {group!r} is not a named group of the regex")
        for entry in self.allow:
            if isinstance(entry, str):  # a plain allow regex (an Allow validates its own)
                _compile(entry, "allow regex")
            target = entry.target if isinstance(entry, Allow) else "secret"
            if target not in ALLOW_TARGETS and target not in compiled.groupindex:
                raise ValueError(
                    f"allow target {target!r} is neither one of {', '.join(ALLOW_TARGETS)} "
                    "nor a named group of the regex"
                )
        return self
