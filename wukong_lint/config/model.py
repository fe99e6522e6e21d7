"""Validation of a config file (pydantic): imported only when a config file exists."""

from __future__ import annotations

import difflib
import os
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from wukong_lint.config.settings import PROFILES, Config
from wukong_lint.engine.suppress import ALLOW_COMMENT_NAMES
from wukong_lint.util.errors import UsageError

SeverityName = Literal["low", "medium", "high", "critical"]
Profile = Literal[PROFILES]  # type: ignore[valid-type]
AllowComment = Literal[ALLOW_COMMENT_NAMES]  # type: ignore[valid-type]


class LiveModel(BaseModel):
    """`live:`: the 戒 checks the hook enforces at SubagentStop, PreToolUse of Agent/Task,
    Stop, UserPromptSubmit/SessionStart and PreCompact (hook/live.py); each off unless set."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=False)

    subagent_stop: bool = Field(default=False, alias="subagent-stop")
    summons: bool = False
    stop: bool = False
    reminder: bool = False
    compact: bool = False
    redo_limit: int = Field(default=2, alias="redo-limit", ge=0, le=20)
    lang: Literal["zh", "en"] = "zh"


class HygieneModel(BaseModel):
    """`hygiene:`: the session file the hook cleans in place at SessionEnd / Stop
    (hook/hygiene.py); each off unless set."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=False)

    session_end: bool = Field(default=False, alias="session-end")
    stop: bool = False


class ConfigModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=False)

    fail_on: SeverityName | None = Field(default=None, alias="fail-on")
    select: list[str] = Field(default_factory=list)
    ignore: list[str] = Field(default_factory=list)
    per_path_ignores: dict[str, list[str]] = Field(default_factory=dict, alias="per-path-ignores")
    rule_dirs: list[str] = Field(default_factory=list, alias="rule-dirs")
    builtin_rules: bool = Field(default=True, alias="builtin-rules")
    rule_params: dict[str, dict[str, Any]] = Field(default_factory=dict, alias="rule-params")
    profile: Profile | None = None
    baseline: str | None = None
    allow_comments: list[AllowComment] = Field(default_factory=list, alias="allow-comments")
    exclude: list[str] = Field(default_factory=list)
    audit: Literal["decisions", "all", "off"] | None = None
    # `auto`, or a version of rules/protocol/*.yaml (checked against them when a scan starts)
    protocol_version: str | None = Field(
        default=None, alias="protocol-version", pattern=r"^[a-z][a-z0-9.-]{1,40}$"
    )
    live: LiveModel | None = None
    hygiene: HygieneModel | None = None
    approvals: bool | None = None

    @field_validator("select", "ignore", "exclude", "allow_comments", "rule_dirs", mode="before")
    @classmethod
    def _one_item(cls, value: Any) -> Any:
        """`select: secret` is `select: [secret]`: a lone string where a list is expected."""
        return [value] if isinstance(value, str) else value

    @field_validator("audit", mode="before")
    @classmethod
    def _audit_off(cls, value: Any) -> Any:
        """`audit: off` as written: YAML 1.1 reads an unquoted `off` as false."""
        return "off" if value is False else value

    @field_validator("select", "ignore", "exclude")
    @classmethod
    def _names(cls, value: list[str]) -> list[str]:
        cleaned = [v.strip() for v in value]
        if any(not v for v in cleaned):
            raise ValueError("empty rule or category name")
        return cleaned


KEYS = sorted(field.alias or name for name, field in ConfigModel.model_fields.items())


def _message(err: dict[str, Any]) -> str:
    loc = [str(part) for part in err.get("loc", ())]
    where = ".".join(loc) if loc else "(top level)"
    if err.get("type") == "extra_forbidden":
        key = loc[-1] if loc else "?"
        if len(loc) == 1:
            close = difflib.get_close_matches(key.replace("_", "-"), KEYS, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else f" (known: {', '.join(KEYS)})"
        else:
            hint = ""
        return f"unknown key '{key}'{hint}" if len(loc) == 1 else f"{where}: unknown key"
    if err.get("type") == "literal_error" and isinstance(err.get("input"), str):
        choices = re.findall(r"'([^']*)'", str((err.get("ctx") or {}).get("expected", "")))
        close = difflib.get_close_matches(err["input"], choices, n=1)
        hint = f"did you mean '{close[0]}'? " if close else ""
        known = ", ".join(choices)
        return f"{where}: unknown value {err['input']!r} ({hint}expected one of {known})"
    if err.get("type") == "list_type":
        return f"{where}: expected a list (or one string)"
    return f"{where}: {err.get('msg', 'invalid value')}"


def validate(data: dict[str, Any], path: str) -> Config:
    try:
        model = ConfigModel.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        raise UsageError(f"{path}: {_message(dict(first))}") from None
    root = os.path.dirname(path)

    def resolve(p: str) -> str:
        return os.path.normpath(os.path.join(root, os.path.expanduser(p)))

    return Config(
        path=path,
        fail_on=model.fail_on,
        select=tuple(model.select),
        ignore=tuple(model.ignore),
        per_path_ignores=tuple(
            (glob, tuple(names)) for glob, names in model.per_path_ignores.items()
        ),
        rule_dirs=tuple(resolve(d) for d in model.rule_dirs),
        builtin_rules=model.builtin_rules,
        rule_params={k: dict(v) for k, v in model.rule_params.items()} or None,
        profile=model.profile,
        baseline=resolve(model.baseline) if model.baseline else None,
        allow_comments=tuple(dict.fromkeys(model.allow_comments)),
        exclude=tuple(model.exclude),
        audit=model.audit,
        protocol_version=model.protocol_version,
        live=model.live.model_dump(by_alias=True) if model.live is not None else None,
        hygiene=model.hygiene.model_dump(by_alias=True) if model.hygiene is not None else None,
        approvals=model.approvals,
    )


# Settings of a compiled rule that the config may override, with their checks.
def _severity(value: Any) -> int:
    names = ("low", "medium", "high", "critical")
    if value not in names:
        raise ValueError(f"expected one of {', '.join(names)}")
    return names.index(value) + 1


def _number(low: float, high: float | None = None, integer: bool = False):
    def check(value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int if integer else (int, float)):
            raise ValueError("expected an integer" if integer else "expected a number")
        if value < low or (high is not None and value > high):
            raise ValueError(f"expected a value from {low} to {high if high is not None else '∞'}")
        return value

    return check


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError("expected true or false")
    return value


def _globs(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError("expected a list of globs")
    return tuple(value)


OVERRIDABLE = {
    "severity": _severity,
    "enabled": _flag,
    "entropy": _number(0.0, 8.0),
    "min_length": _number(0, None, integer=True),
    "lines_after": _number(0, 20, integer=True),
    "paths": _globs,
    "exclude_paths": _globs,
}


def override_rule(rule: Any, params: dict[str, Any], source: str) -> Any:
    """`rule` with `params` applied: shared settings, or the settings of its kind."""
    changes: dict[str, Any] = {}
    kind_params = dict(rule.params or {})
    for key, value in params.items():
        name = key.replace("-", "_")
        try:
            if name in OVERRIDABLE:
                changes[name] = OVERRIDABLE[name](value)
            elif name in kind_params:
                current = kind_params[name]
                widened = isinstance(current, float) and isinstance(value, int)
                if current is not None and (
                    (not isinstance(value, type(current)) and not widened)
                    or isinstance(value, bool) != isinstance(current, bool)
                ):
                    raise ValueError(f"expected {type(current).__name__}")
                kind_params[name] = value
            else:
                known = sorted([*OVERRIDABLE, *kind_params])
                raise ValueError(f"unknown setting (known: {', '.join(known)})")
        except ValueError as err:
            raise UsageError(f"{source}: rule-params.{rule.id}.{key}: {err}") from None
    if kind_params != (rule.params or {}):
        changes["params"] = kind_params
    return rule._replace(**changes)
