"""The YAML schema of `config-write` rules (kept apart from their matcher, shell/config_writes.py,
so that a live hook call never imports pydantic)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from wukong_lint.engine.schema import RuleBase


class ConfigWriteRule(RuleBase):
    kind: Literal["config-write"]
    # the file names of project configs (pyproject.toml counts by its [tool.wukong-lint])
    names: list[str] = Field(default_factory=lambda: [".wukong-lint.yaml", ".wukong-lint.yml"])
    # the largest config read from disk to apply an edit to (bytes)
    max_size: int = Field(default=1 << 20, ge=1024)
