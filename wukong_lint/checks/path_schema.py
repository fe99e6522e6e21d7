"""The YAML schema of `path` rules, kept apart from their matcher (checks/paths.py) so that a
transcript scan or a live hook call never imports pydantic."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from wukong_lint.engine.schema import RuleBase


class PathRule(RuleBase):
    kind: Literal["path"]
    targets: list[str] = Field(min_length=1)
    except_: list[str] = Field(default_factory=list, alias="except")
    access: list[Literal["read", "write"]] = Field(default_factory=lambda: ["read", "write"])

    def params(self) -> dict[str, Any]:
        data = super().params()
        data["except"] = data.pop("except_", [])
        return data
