"""The YAML schema of a 戒 protocol version (`rules/protocol/*.yaml`), validated on a cache
miss only (engine/data_docs.py names this model by string; a scan reads the validated data
back from the cache, without pydantic). Keys are spelt with hyphens in the files; the data is
handed on with Python's underscores (`model_dump`)."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Background = Literal["required", "optional", "forbidden"]
Level = Literal["L0", "L1", "L2", "L3"]
# what a CHECKPOINT shows: protocol/checkpoint.py `Checkpoint.features`
Feature = Literal["q0", "estimate", "count", "decision", "scheduler"]
DcpType = Literal["bool", "int", "ratio", "list", "str"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


def _regexes(values: list[str]) -> list[str]:
    for value in values:
        try:
            re.compile(value)
        except re.error as err:
            raise ValueError(f"{value!r}: not a valid regex: {err}") from None
    return values


class Upstream(_Strict):
    repo: str
    commit: str
    date: str
    note: str = ""


class DefinitionSignal(_Strict):
    names: list[str] = Field(min_length=1)  # agent definitions named so
    keys: list[str] = Field(default_factory=list)  # front-matter keys only this era has
    disallows: list[str] = Field(default_factory=list)  # tools their disallowedTools name


class SpawnSignal(_Strict):
    tool: str
    types: list[str] = Field(default_factory=list)  # subagent types that say it (empty: any)


class Detection(_Strict):
    definitions: DefinitionSignal | None = None
    checkpoint: list[dict[Feature, bool]] = Field(default_factory=list)
    spawn: SpawnSignal | None = None


class Skill(_Strict):
    titles: list[str] = Field(default_factory=list)
    names: list[str] = Field(default_factory=list)


class Spawn(_Strict):
    generic_types: list[str] = Field(default_factory=list, alias="generic-types")
    skills: dict[str, Skill] = Field(default_factory=dict)
    support_agents: list[str] = Field(default_factory=list, alias="support-agents")


class Tools(_Strict):
    allowed: list[str] | None = None  # None: every tool
    forbidden: list[str] = Field(default_factory=list)
    path_limits: dict[str, list[str]] = Field(default_factory=dict, alias="path-limits")


class ContractField(_Strict):
    field: str = Field(min_length=1)
    required: bool = True
    labels: list[str] = Field(default_factory=list)  # other names of the section


class Avatar(_Strict):
    zh: str = Field(min_length=1)
    aliases: list[str] = Field(default_factory=list)
    tools: Tools = Tools()
    background: Background = "optional"
    max: int | None = Field(default=None, ge=1)  # avatars of this kind running at once
    contract: list[ContractField] = Field(default_factory=list)
    output: Literal["contract", "planner"] = "contract"


class Form(_Strict):
    id: str
    when: dict[Feature, bool] = Field(default_factory=dict)
    decision: Literal["required", "implied"]


class Scheduler(_Strict):
    fill: list[str] = Field(min_length=1)
    skip: list[str] = Field(default_factory=list)


class Decisions(_Strict):
    skill: list[str] = Field(default_factory=list)

    @field_validator("skill")
    @classmethod
    def _regex_list(cls, value: list[str]) -> list[str]:
        return _regexes(value)


class CheckpointData(_Strict):
    forms: list[Form] = Field(min_length=1)
    implied: dict[Literal["Q1", "Q2", "Q3"], str] = Field(default_factory=dict)
    decisions: Decisions = Decisions()
    preparatory: list[str] = Field(default_factory=list)
    scheduler: Scheduler | None = None

    @field_validator("preparatory")
    @classmethod
    def _regex_list(cls, value: list[str]) -> list[str]:
        return _regexes(value)


class Evidence(_Strict):
    speculation: list[str] = Field(default_factory=list)
    healthy: list[str] = Field(default_factory=list)
    thresholds: dict[str, Level] = Field(default_factory=dict)
    unknown_track: Level = Field(default="L2", alias="unknown-track")
    default_track: str = Field(default="direct", alias="default-track")
    level_gate: bool = Field(default=False, alias="level-gate")

    @field_validator("healthy")
    @classmethod
    def _regex_list(cls, value: list[str]) -> list[str]:
        return _regexes(value)


class PlannerKey(_Strict):
    type: Literal["string", "number", "integer", "array", "boolean"]
    enum: list[str] | None = None
    min: float | None = None
    max: float | None = None


class Planner(_Strict):
    avatar: str
    keys: dict[str, PlannerKey] = Field(min_length=1)
    phase_keys: dict[str, Literal["integer", "array", "boolean"]] = Field(alias="phase-keys")
    empty_phases: list[str] = Field(default_factory=list, alias="empty-phases")
    nodes: dict[str, str] = Field(min_length=1)  # node id -> avatar


class DeclarationForm(_Strict):
    id: str
    parts: dict[str, list[str]] = Field(min_length=1)  # part -> its labels


class Declaration(_Strict):
    header: list[str] = Field(min_length=1)
    forms: list[DeclarationForm] = Field(min_length=1)


class Section(_Strict):
    name: str
    zh: str = ""


class Prompt(_Strict):
    sections: list[Section] = Field(min_length=1)


class History(_Strict):
    tier: str
    heading: str
    cap: int = Field(ge=1)  # characters between the block's heading and its footer


class Summoning(_Strict):
    avatars: list[str] = Field(default_factory=list)
    declaration: Declaration
    prompt: Prompt
    history: list[History] = Field(default_factory=list)


class Review(_Strict):
    avatar: str
    words: list[str] = Field(min_length=1)


class Mode(_Strict):
    env: str
    default: Literal["off", "warn", "block"]


class Recovery(_Strict):
    anchors: list[str] = Field(min_length=1)
    recent: int = Field(default=5, ge=0)


class DocFirst(_Strict):
    env: str
    default: Literal["off", "warn", "block"]
    code: list[str] = Field(min_length=1)

    @field_validator("code")
    @classmethod
    def _regex_list(cls, value: list[str]) -> list[str]:
        return _regexes(value)


class MemoryBank(_Strict):
    writer: str  # the agent type that writes memory-bank/, or "main"
    reader: str | None = None
    gate_files: list[str] = Field(min_length=1, alias="gate-files")
    guard_mode: Mode = Field(alias="guard-mode")
    risky_tools: list[str] = Field(default_factory=list, alias="risky-tools")
    risky_paths: list[str] = Field(default_factory=list, alias="risky-paths")
    proposal: str = "💾"
    confirm: list[str] = Field(default_factory=list)
    decline: list[str] = Field(default_factory=list)
    md_only: bool = Field(default=True, alias="md-only")
    recovery: Recovery | None = None
    doc_first: DocFirst | None = Field(default=None, alias="doc-first")

    @field_validator("risky_paths")
    @classmethod
    def _regex_list(cls, value: list[str]) -> list[str]:
        return _regexes(value)


class CompactForm(_Strict):
    id: str
    marker: str | None = None  # a line that tells this form apart (None: the default form)
    sections: list[str] = Field(min_length=1)
    optional: list[str] = Field(default_factory=list)
    max_chars: int | None = Field(default=None, alias="max-chars")


class Dialect(_Strict):
    id: str
    fields: list[str] = Field(min_length=1)


class Anchors(_Strict):
    dialects: list[Dialect] = Field(default_factory=list)


def _dcp_table(value: Any, where: str) -> None:
    if not isinstance(value, dict):
        raise ValueError(f"dcp-config{where}: expected a mapping")
    for key, sub in value.items():
        if isinstance(sub, dict):
            _dcp_table(sub, f"{where}.{key}")
        elif sub not in ("bool", "int", "ratio", "list", "str"):
            raise ValueError(f"dcp-config{where}.{key}: expected bool, int, ratio, list or str")


class VersionFile(_Strict):
    """One protocol version: every fact the checks read from it."""

    protocol_version: str = Field(alias="protocol-version", pattern=r"^[a-z][a-z0-9.-]{1,40}$")
    title: str
    upstream: list[Upstream] = Field(default_factory=list)
    detection: Detection = Detection()
    spawn: Spawn = Spawn()
    avatars: dict[str, Avatar] = Field(min_length=1)
    checkpoint: CheckpointData
    evidence: Evidence = Evidence()
    tracks: list[str] = Field(default_factory=list)
    planner: Planner | None = None
    summoning: Summoning
    review: Review | None = None
    memory_bank: MemoryBank = Field(alias="memory-bank")
    compact_form: list[CompactForm] = Field(default_factory=list, alias="compact-form")
    dcp_config: dict[str, Any] = Field(default_factory=dict, alias="dcp-config")
    anchors: Anchors = Anchors()

    @model_validator(mode="after")
    def _consistent(self) -> VersionFile:
        names = set(self.avatars)
        for where, avatar in (("checkpoint.implied", v) for v in self.checkpoint.implied.values()):
            if avatar not in names:
                raise ValueError(f"{where}: unknown avatar {avatar!r}")
        for avatar in self.summoning.avatars:
            if avatar not in names:
                raise ValueError(f"summoning.avatars: unknown avatar {avatar!r}")
        if self.review is not None and self.review.avatar not in names:
            raise ValueError(f"review.avatar: unknown avatar {self.review.avatar!r}")
        if self.planner is not None:
            if self.planner.avatar not in names:
                raise ValueError(f"planner.avatar: unknown avatar {self.planner.avatar!r}")
            for node, avatar in self.planner.nodes.items():
                if avatar not in names:
                    raise ValueError(f"planner.nodes.{node}: unknown avatar {avatar!r}")
        for name, avatar in self.avatars.items():
            if avatar.output == "planner" and self.planner is None:
                raise ValueError(f"avatars.{name}: output planner, but no planner section")
        for track in self.evidence.thresholds:
            if self.tracks and track not in self.tracks:
                raise ValueError(f"evidence.thresholds: unknown track {track!r}")
        _dcp_table(self.dcp_config, "")
        return self
