"""The YAML schema of `path` rules, kept apart from their matcher (shell/paths.py) so that a
transcript scan or a live hook call never imports pydantic."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from wukong_lint.engine.schema import RuleBase
from wukong_lint.shell.command_schema import Scope


class PathRule(RuleBase):
    kind: Literal["path"]
    targets: list[str] = Field(min_length=1)
    except_: list[str] = Field(default_factory=list, alias="except")
    # read, write, list (a name: `ls`, `stat`, the LS tool), find (names by a pattern:
    # `find -name`, the Glob tool), meta (a mode or owner: chmod, chown)
    access: list[Literal["read", "write", "list", "find", "meta"]] = Field(
        default_factory=lambda: ["read", "write"]
    )
    # a change of mode or owner (chmod, chown) counts as a write (false: it does not, e.g.
    # `chmod 600 ~/.ssh/config` for the rules about the content of credential files)
    permissions: bool = True
    # which agents and profiles the rule applies to (as for `command` rules): profile wukong
    # denies what the generic profile only asks about
    scope: Scope | None = None
    # rules whose finding on the same place this one's replaces (one event, one finding)
    supersedes: list[str] = Field(default_factory=list)

    def params(self) -> dict[str, Any]:
        data = super().params()
        data["except"] = data.pop("except_", [])
        if data.get("scope") is None:
            data.pop("scope", None)
        if not data.get("supersedes"):
            data.pop("supersedes", None)
        if data.get("permissions", True):
            data.pop("permissions", None)
        return data
