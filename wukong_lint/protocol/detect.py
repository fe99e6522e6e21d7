"""Which 戒 protocol version a session follows, from what it shows (`protocol-version: auto`,
the default). Each version's data names its signals (`detection` in rules/protocol/*.yaml);
they are weighed, strongest first:

1. the configuration (`protocol-version: jie-current`, `--protocol-version`): fixed;
2. agent definitions on disk (project `.claude/agents/`, `~/.claude/agents/`, `--agents`)
   with a version's names and front matter only its era has;
3. the form of a CHECKPOINT the main agent wrote (the seeds' Q0..Q4 with estimates and a
   decision line, or the core rule's four yes/no questions);
4. the spawn tool (`Task` in the seed era, `Agent` with the English avatar ids today).

A weaker signal never overrides a stronger one, and the first signal of a strength holds:
a session keeps the version it showed first. A session that shows none is judged by
versions.DEFAULT. The state lives on the transcript's `Context`, so the files of a session
(its sub-agents') and the parts read on other processes agree.
"""

from __future__ import annotations

from typing import Any

from wukong_lint.protocol.versions import get, version_of, versions

SPAWN, CHECKPOINT, DEFINITIONS, CONFIGURED = 1, 2, 3, 4


def note(ctx: Any, version: str | None, strength: int) -> None:
    """Record a signal on the transcript's context (a weaker or later one changes nothing)."""
    if version is not None and strength > ctx.version_strength:
        ctx.version = version
        ctx.version_strength = strength


def _only(found: list[str]) -> str | None:
    return found[0] if len(found) == 1 else None


def from_definitions(definitions: dict[str, Any]) -> str | None:
    """The version agent definitions say (None: none, or more than one)."""
    found = []
    for version in versions().values():
        signal = version.data["detection"]["definitions"]
        if not signal:
            continue
        names, keys = set(signal["names"]), set(signal["keys"])
        disallows = set(signal["disallows"])
        for name, definition in definitions.items():
            if name in names and (set(definition.keys) & keys
                                  or set(definition.disallowed) & disallows):  # fmt: skip
                found.append(version.id)
                break
    return _only(found)


def from_checkpoint(features: dict[str, bool]) -> str | None:
    """The version a CHECKPOINT's form says (None: a form several versions write, or none)."""
    found = []
    for version in versions().values():
        for signal in version.data["detection"]["checkpoint"]:
            if all(features.get(k) == v for k, v in signal.items()):
                found.append(version.id)
                break
    return _only(found)


def from_spawn(tool: str | None, subagent_type: Any) -> str | None:
    """The version a spawning call's tool (and avatar id) says."""
    kind = subagent_type.strip().lower() if isinstance(subagent_type, str) else ""
    found = []
    for version in versions().values():
        signal = version.data["detection"]["spawn"]
        if signal and signal["tool"] == tool and (not signal["types"] or kind in signal["types"]):
            found.append(version.id)
    return _only(found)


def judged_version(ctx: Any, point: Any) -> Any:
    """The version a check judges by: the session's, or, while the session has shown
    nothing firmer, the one a CHECKPOINT's own form says (the live hook reads no session
    before it)."""
    if point is not None and ctx.version_strength < CHECKPOINT:
        found = from_checkpoint(point.features())
        if found is not None:
            return get(found)
    return version_of(ctx)
