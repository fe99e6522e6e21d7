"""The versions of the 戒 protocol, as data: `rules/protocol/*.yaml` (one file a version,
validated by protocol/version_schema.py, cached by engine/data_docs.py) turned into `Version`
objects the checks read: the avatars (aliases, tools, background, Max, output contracts),
the CHECKPOINT forms and decisions, evidence, tracks and the planner, summoning, the review
rule, the memory bank, the compact form, the DCP configuration and the anchor dialects.

Which version a transcript is judged by is the session's (`Context.version`, set by the
configuration or detected, protocol/detect.py); `version_of(ctx)` answers it, with
`DEFAULT` when the session has shown nothing yet. Adding a version is a data file (and its
fixtures): no code names a version.
"""

from __future__ import annotations

import re
from typing import Any

from wukong_lint.util.re_snapshot import compile_static  # (patterns of the protocol's data)

# the version of a session that shows none (the seeds: the behaviour this tool began with)
DEFAULT = "jie-2026-01"
AUTO = "auto"

_LEVELS = ("L0", "L1", "L2", "L3")


def _words(words: list[str]) -> re.Pattern[str] | None:
    """One case-insensitive pattern for a list of words: ASCII words whole (`probably`, not
    `improbably`), other scripts as written (Chinese has no word boundaries)."""
    if not words:
        return None
    parts = []
    for word in sorted(words, key=len, reverse=True):
        escaped = re.escape(word).replace(r"\ ", r"\s+")
        parts.append(rf"(?<![A-Za-z]){escaped}(?![A-Za-z])" if word.isascii() else escaped)
    return compile_static("|".join(parts), re.IGNORECASE)


def _any(patterns: list[str], flags: int = re.IGNORECASE) -> re.Pattern[str] | None:
    return compile_static("|".join(f"(?:{p})" for p in patterns), flags) if patterns else None


class Avatar:
    """One avatar of a version (the definitions on disk override tools and contract)."""

    __slots__ = ("aliases", "allowed", "background", "contract", "forbidden", "max", "name",
                 "output", "path_limits", "required", "zh")  # fmt: skip

    def __init__(self, name: str, data: dict[str, Any]) -> None:
        self.name = name
        self.zh: str = data["zh"]
        self.aliases: tuple[str, ...] = tuple(data["aliases"])
        tools = data["tools"]
        self.allowed: tuple[str, ...] | None = (
            None if tools["allowed"] is None else tuple(tools["allowed"])
        )
        self.forbidden: tuple[str, ...] = tuple(tools["forbidden"])
        self.path_limits: dict[str, list[str]] = dict(tools["path_limits"])
        self.background: str = data["background"]
        self.max: int | None = data["max"]
        self.output: str = data["output"]
        # section -> the labels that name it (the section's own name first)
        self.contract: dict[str, tuple[str, ...]] = {
            f["field"]: (f["field"], *f["labels"]) for f in data["contract"]
        }
        self.required = frozenset(f["field"] for f in data["contract"] if f["required"])

    def role(self) -> dict[str, Any]:
        """The avatar as a role of the `avatar` rule kind (protocol/agents.py)."""
        return {"name": self.name, "aliases": list(self.aliases),
                "allowed": None if self.allowed is None else list(self.allowed),
                "forbidden": list(self.forbidden), "path_limits": self.path_limits}  # fmt: skip


class Version:
    """A protocol version's facts, with the patterns the checks match made once."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.id: str = data["protocol_version"]
        self.title: str = data["title"]
        self.avatars = {name: Avatar(name, a) for name, a in data["avatars"].items()}
        self._role_of: dict[str, str] = {}
        for avatar in self.avatars.values():
            for alias in (avatar.name, *avatar.aliases):
                self._role_of.setdefault(alias.strip().lstrip("@").lower(), avatar.name)
        spawn = data["spawn"]
        self.generic = frozenset(t.lower() for t in spawn["generic_types"])
        self.support = frozenset(t.lower() for t in spawn["support_agents"])
        self.skills = spawn["skills"]
        self.roles = [a.role() for a in self.avatars.values()]
        checkpoint = data["checkpoint"]
        self.forms: list[dict[str, Any]] = checkpoint["forms"]
        self.implied: dict[str, str] = checkpoint["implied"]
        self.skill_decision = _any(checkpoint["decisions"]["skill"])
        self.scheduler: dict[str, Any] | None = checkpoint["scheduler"]
        evidence = data["evidence"]
        self.speculation = _words(evidence["speculation"])
        self.healthy = _any(evidence["healthy"])
        self.thresholds: dict[str, str] = evidence["thresholds"]
        self.unknown_track: str = evidence["unknown_track"]
        self.default_track: str = evidence["default_track"]
        self.level_gate: bool = evidence["level_gate"]
        self.tracks: tuple[str, ...] = tuple(data["tracks"])
        self.planner: dict[str, Any] | None = data["planner"]
        self.summoning: dict[str, Any] = data["summoning"]
        review = data["review"]
        self.review_avatar: str | None = review["avatar"] if review else None
        self.review_words = _words(review["words"]) if review else None
        self.memory_bank: dict[str, Any] = data["memory_bank"]
        self.risky_paths = _any(self.memory_bank["risky_paths"], 0)
        doc_first = self.memory_bank["doc_first"]
        self.code_files = _any(doc_first["code"]) if doc_first else None
        self.compact_forms: list[dict[str, Any]] = data["compact_form"]
        self.dcp_config: dict[str, Any] = data["dcp_config"]
        self.anchor_dialects: list[dict[str, Any]] = data["anchors"]["dialects"]

    def role_of(self, name: str | None) -> str | None:
        """The avatar a name (subagent type, alias, @mention) calls, or None."""
        if not name:
            return None
        return self._role_of.get(name.strip().lstrip("@").lower())

    def form(self, features: dict[str, bool]) -> dict[str, Any] | None:
        """The first CHECKPOINT form of this version whose `when` fits `features`."""
        for form in self.forms:
            if all(features.get(k) == v for k, v in form["when"].items()):
                return form
        return None

    def threshold(self, track: str | None) -> str:
        """The evidence level a track's avatar outputs need (on_subagent_stop.py)."""
        if track is None:
            track = self.default_track
        return self.thresholds.get(track, self.unknown_track)


def level_rank(level: str) -> int:
    return _LEVELS.index(level) if level in _LEVELS else 0


_VERSIONS: dict[str, Version] = {}


def versions() -> dict[str, Version]:
    """Every known version, by id (loaded once per process)."""
    if not _VERSIONS:
        from wukong_lint.engine.data_docs import documents

        for ident, data in sorted(documents("protocol-version").items()):
            _VERSIONS[ident] = Version(data)
    return _VERSIONS


def get(ident: str) -> Version:
    known = versions()
    found = known.get(ident)
    if found is None:
        found = known.get(DEFAULT) or next(iter(known.values()))
    return found


def version_of(ctx: Any) -> Version:
    """The version a transcript's checks judge by: the configured or detected one (asked by
    several rules of every summons and result: one dictionary look-up once loaded)."""
    found = _VERSIONS.get(ctx.version or DEFAULT)
    return found if found is not None else get(ctx.version or DEFAULT)


def check_setting(value: str | None) -> str:
    """A `protocol-version` setting, checked: `auto` or a known version (UsageError, with
    the nearest name, otherwise)."""
    if value is None or value == AUTO:
        return AUTO
    known = versions()
    if value in known:
        return value
    import difflib

    from wukong_lint.util.errors import UsageError

    near = difflib.get_close_matches(value, list(known), n=1)
    hint = f" (did you mean {near[0]}?)" if near else ""
    raise UsageError(
        f"protocol-version: unknown version {value!r}{hint}; known: auto, {', '.join(known)}"
    )


def union(attribute: str) -> list[Any]:
    """The values of a list-valued fact across every version (file checks accept a form
    any version knows: unfamiliar is not wrong)."""
    found: list[Any] = []
    for version in versions().values():
        for value in getattr(version, attribute):
            if value not in found:
                found.append(value)
    return found
