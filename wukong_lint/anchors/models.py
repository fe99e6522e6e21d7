"""The YAML models of the rule kinds `anchors` and `memory-bank` (pydantic: imported only
when rule files are validated, never on the scan path)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from wukong_lint.anchors.parse import EXTRA_FIELDS, FIELDS, TYPES
from wukong_lint.engine.schema import RuleBase

FieldName = Literal[FIELDS + EXTRA_FIELDS]  # type: ignore[valid-type]

ANCHOR_CHECKS = (
    "fields",
    "id-format",
    "duplicate-id",
    "section-prefix",
    "dangling-reference",
    "near-duplicate",
    "status",
    "date",
    "vague-title",
)
MEMORY_CHECKS = ("markers", "compact-form", "normal-form", "session-summary")


class AnchorRule(RuleBase):
    """Checks on the anchors a memory-bank file defines or references."""

    kind: Literal["anchors"]
    check: Literal[ANCHOR_CHECKS]  # type: ignore[valid-type]
    # fields: the fields a full-form anchor must have, per type ("default" for the rest)
    required: dict[str, list[FieldName]] = Field(default_factory=lambda: {"default": list(FIELDS)})
    # fields: other complete field sets per type (dialects: seed 001's template without
    # Verification, the upstream 背景/选项/决定/原因/影响, problems' 症状/根因/解决/预防); an
    # anchor with every field of `required` or of one of these is complete
    dialects: dict[str, list[list[FieldName]]] = Field(default_factory=dict)
    # fields: accept the dialects the 戒 protocol versions write too (rules/protocol/*.yaml:
    # the context index's Context / Decision / Evidence / Impact ...)
    protocol_forms: bool = False
    # fields: what a compact-form anchor must keep
    compact_required: list[FieldName] = Field(default_factory=lambda: ["why", "impact", "rollback"])
    # near-duplicate: title similarity above which two anchors are reported
    threshold: float = Field(default=0.8, gt=0.0, le=1.0)
    # vague-title: words that name a topic, not a choice; what must be left without them
    generic_words: list[str] = Field(default_factory=list)
    min_cjk: int = Field(default=3, ge=0)
    min_words: int = Field(default=2, ge=0)

    @model_validator(mode="after")
    def _known_types(self) -> AnchorRule:
        unknown = (set(self.required) | set(self.dialects)) - {"default", *TYPES}
        if unknown:
            raise ValueError(f"required: unknown anchor type(s) {sorted(unknown)}")
        return self


class MemoryBankRule(RuleBase):
    """Checks on block markers and the context forms of memory-bank files."""

    kind: Literal["memory-bank"]
    check: Literal[MEMORY_CHECKS]  # type: ignore[valid-type]
    # compact-form / normal-form: character limits of the form's body (whitespace not counted)
    min_chars: int | None = Field(default=None, ge=0)
    max_chars: int | None = Field(default=None, ge=1)
    # compact-form: markers every compact form has; session-summary: headings of the template
    sections: list[str] = Field(default_factory=list)
    # which heading starts a form ("缩形态"), and file names that hold one form whole
    heading: str = ""
    file_names: list[str] = Field(default_factory=list)
    # compact-form: accept the variants the 戒 protocol's own tools write (hui-extract.py's
    # form, told by its 【生成时间】 line), from the versions' data (rules/protocol/*.yaml)
    protocol_forms: bool = False
