"""The YAML schema of the agent rule kinds (`edit`, `avatar`, `memory-gate`, `integrity`),
validated when rule files change and kept apart from their matchers (protocol/agents.py), so
that a transcript scan or a live hook call never imports pydantic."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from wukong_lint.engine.schema import RuleBase
from wukong_lint.shell.command_schema import Scope


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class EditRule(RuleBase):
    kind: Literal["edit"]
    # more changed lines than this in one edit is a finding (None: any edit that creates a file)
    max_changed_lines: int | None = Field(default=None, ge=0)
    # report only edits that create a file
    creates_file: bool = False
    tools: list[str] = Field(
        default_factory=lambda: ["Edit", "MultiEdit", "Write", "NotebookEdit", "apply_patch"]
    )
    scope: Scope = Scope(agent="main", profiles=["wukong"])


class Role(_Strict):
    name: str
    aliases: list[str] = Field(default_factory=list)
    # None: every tool
    allowed: list[str] | None = None
    forbidden: list[str] = Field(default_factory=list)
    # tool -> globs its file paths must match (意 may Write only .md files)
    path_limits: dict[str, list[str]] = Field(default_factory=dict)


class AvatarRule(RuleBase):
    kind: Literal["avatar"]
    # the roles' tools (empty: the protocol version's avatars; definitions on disk win)
    roles: list[Role] = Field(default_factory=list)
    # tools that count as another for role checks (MultiEdit is an Edit, Agent is a Task)
    tool_aliases: dict[str, str] = Field(default_factory=dict)
    # tools that change something: not in a role's allowed list means forbidden
    mutating: list[str] = Field(default_factory=list)


class MemoryGateRule(RuleBase):
    kind: Literal["memory-gate"]
    # `context`: a high-risk write without reading a context file first in the turn;
    # `writer`: a write under memory-bank/ by an agent other than the writer
    # `user-block`: an edit inside a USER_BLOCK; `confirm`: a memory-bank write (by the
    # writer, or the body where it writes) without the user's agreement; `non-md`: a write
    # of anything but Markdown under memory-bank/; `recovery`: a risky write after a
    # compaction before the memory bank is read again; `doc-first`: a code write before
    # any memory-bank doc of the message
    check: Literal["context", "writer", "user-block", "confirm", "non-md", "recovery",
                   "doc-first"]  # fmt: skip
    # The protocol's facts default to the session's protocol version (gate files, risky
    # paths, the writer, the guard mode's default): set them here to override it.
    context_files: list[str] | None = None
    # context: which writes the rule judges, the high-risk ones or the others
    risk: Literal["high", "low"] = "high"
    risky_tools: list[str] | None = None
    risky_paths: list[str] | None = None
    writer: str | None = None
    # MEMORY_BANK_GUARD_MODE (context) / MEMORY_BANK_DOC_FIRST_MODE (doc-first): None reads
    # the variable, then the version's default; warn reports at low severity, off nothing
    mode: Literal["off", "warn", "block"] | None = None
    write_tools: list[str] = Field(
        default_factory=lambda: ["Edit", "MultiEdit", "Write", "NotebookEdit", "apply_patch"]
    )
    scope: Scope = Scope(profiles=["wukong"])


class IntegrityRule(RuleBase):
    kind: Literal["integrity"]
    problem: str = Field(min_length=1)
    # the seed's recovery strategy, shown with the matched pattern (错误恢复输出格式)
    recovery: str = ""
