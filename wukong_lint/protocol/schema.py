"""The YAML schema of the 戒 protocol rule kinds: `checkpoint` (Layers 1-2), `turn-budget`,
`shell-create`, `long-operation` (Layer 3), `summons` (the summoning protocol), `contract`,
`spawn`, `role-paths`, `evidence`, `avatar-output` (avatars), `context-usage`,
`repeated-call`, `react-history`, `dcp-config` (context). Kept apart from their matchers so
that a transcript scan never imports pydantic. The protocol's facts (avatars, forms, words)
are the protocol version's (rules/protocol/*.yaml), not these rules' parameters."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from wukong_lint.engine.schema import RuleBase
from wukong_lint.shell.command_schema import Scope

_MAIN_WUKONG = Scope(agent="main", profiles=["wukong"])


class CheckpointRule(RuleBase):
    kind: Literal["checkpoint"]
    check: Literal[
        "missing",
        "incomplete",
        "unrecognised",
        "explore",
        "code-size",
        "design",
        "parallel",
        "declared-edits",
        "review",
    ]
    max_lines: int = Field(default=10, ge=0)  # code-size: Q2 estimate the body may do itself
    min_files: int = Field(default=2, ge=1)  # parallel: Q4 from which avatars run in parallel
    factor: int = Field(default=2, ge=1)  # declared-edits: changed lines allowed per declared
    slack: int = Field(default=10, ge=0)  # ... and lines allowed beyond the declaration


class TurnBudgetRule(RuleBase):
    kind: Literal["turn-budget"]
    check: Literal["reads", "searches", "edit-lines"]
    limit: int = Field(ge=0)
    # reads not counted: the protocol's own files (memory bank, anchors, skills, rules)
    exempt_paths: list[str] = Field(default_factory=list)
    scope: Scope = _MAIN_WUKONG


class ShellCreateRule(RuleBase):
    kind: Literal["shell-create"]
    ignore_paths: list[str] = Field(default_factory=lambda: ["/dev/*", "/tmp/*", "/proc/*"])
    scope: Scope = _MAIN_WUKONG


class LongOperationRule(RuleBase):
    kind: Literal["long-operation"]
    min_seconds: int = Field(default=30, ge=1)
    # command lines (regexes, searched) that usually run longer than `min_seconds`
    commands: list[str] = Field(default_factory=list)
    scope: Scope = _MAIN_WUKONG


class ContractRule(RuleBase):
    kind: Literal["contract"]
    check: Literal["missing", "placeholder", "untested"]


class SpawnRule(RuleBase):
    kind: Literal["spawn"]
    check: Literal[
        "background-required",
        "background-forbidden",
        "max-one",
        "max-concurrent",
        "nested",
        "unrecognised",
    ]
    # roles the check applies to (empty: those the version's background and Max say)
    avatars: list[str] = Field(default_factory=list)


class SummonsRule(RuleBase):
    kind: Literal["summons"]
    check: Literal["declaration", "prompt-sections", "history-cap"]
    # shown: once the session has shown the summoning protocol; always: every summons
    require: Literal["shown", "always"] = "shown"


class EvidenceRule(RuleBase):
    kind: Literal["evidence"]
    check: Literal["speculation", "level"]


class AvatarOutputRule(RuleBase):
    kind: Literal["avatar-output"]
    check: Literal["planner", "unrecognised"]


class RolePathsRule(RuleBase):
    kind: Literal["role-paths"]
    avatars: list[str] = Field(min_length=1)
    tools: list[str] = Field(default_factory=lambda: ["Write", "Edit", "MultiEdit", "NotebookEdit"])
    allowed: list[str] = Field(min_length=1)  # globs of the paths the role may write


class ContextUsageRule(RuleBase):
    kind: Literal["context-usage"]
    window: int = Field(default=200_000, ge=1)  # tokens, when the transcript does not say
    threshold: int = Field(ge=1, le=100)  # percent of the window
    below: int = Field(default=101, ge=1, le=101)  # the next level's threshold: it reports


class RepeatedCallRule(RuleBase):
    kind: Literal["repeated-call"]
    keep: dict[str, int] = Field(min_length=1)  # tool -> calls DCP keeps; others are protected


class ReactHistoryRule(RuleBase):
    kind: Literal["react-history"]
    check: Literal["oversize", "dropped-fields", "no-thought", "file-reminders", "broken-pair"]
    max_chars: int = 2000
    max_read_lines: int = 500
    max_grep_matches: int = 5
    max_stderr_lines: int = 20
    max_files: int = 5


class DcpConfigRule(RuleBase):
    kind: Literal["dcp-config"]
