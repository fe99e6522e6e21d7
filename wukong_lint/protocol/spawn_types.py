"""The avatar a spawning call summons: its `subagent_type`, or, when that is a generic agent
(`general-purpose`, `Explore`...), the avatar whose skill the prompt carries.

Earlier Wukong releases summoned every avatar as `Task(subagent_type="general-purpose",
prompt=<the avatar's skill file> + the task)`: the skill file opens with the avatar's name
("# Explorer Skill", "You are **眼分身**", "You are **斗战胜佛**", "审查悟空"...). Only the
head of the prompt is read, and only a skill's own opening counts (a task that merely
mentions an explorer does not make the agent one). The generic types and the skills' titles
and names are the protocol versions' data (`spawn` in rules/protocol/*.yaml), taken together:
a skill file names its avatar in any version.
"""

from __future__ import annotations

import re
from typing import Any

from wukong_lint.util.re_snapshot import compile_static  # (patterns of the protocol's data)

_HEAD = 1500  # characters of the prompt read: a skill file's title and first lines
_TABLES: list[Any] = []  # (the generic types, the skills' pattern), made on first use


def _tables() -> tuple[frozenset[str], re.Pattern[str] | None]:
    if not _TABLES:
        from wukong_lint.protocol.versions import versions

        generic: set[str] = set()
        skills: dict[str, tuple[list[str], list[str]]] = {}
        for version in versions().values():
            generic |= version.generic
            for avatar, skill in version.skills.items():
                titles, names = skills.setdefault(avatar, ([], []))
                titles += [t for t in skill["titles"] if t not in titles]
                names += [n for n in skill["names"] if n not in names]
        alternatives = []
        for avatar, (titles, names) in skills.items():
            title = "|".join(re.escape(t).replace(r"\ ", r"\s+") for t in titles) or "(?!)"
            name = "|".join(re.escape(n).replace(r"\ ", r"\s+") for n in names) or "(?!)"
            alternatives.append(
                rf"(?P<{avatar}>^#+\s*(?:{title})\s+Skill|You\s+are\s+\**\s*(?:{name})"
                rf"|^#+\s*(?:{name}))"
            )
        pattern = compile_static("|".join(alternatives), re.I | re.M) if alternatives else None
        _TABLES.append((frozenset(generic), pattern))
    return _TABLES[0]  # type: ignore[no-any-return]


def generic_types() -> frozenset[str]:
    return _tables()[0]


def skill_avatar(prompt: str) -> str | None:
    """The avatar whose skill file opens `prompt` (None: none does)."""
    pattern = _tables()[1]
    found = pattern.search(prompt[:_HEAD]) if pattern is not None else None
    return found.lastgroup if found else None


def spawn_type(data: Any) -> str | None:
    """The avatar (or agent type) a spawning call's input summons (the reader and several
    rules ask of each summons: the last input's answer is kept)."""
    if not isinstance(data, dict):
        return None
    if _LAST[0] is data:
        return _LAST[1]  # type: ignore[no-any-return]
    found = _spawn_type(data)
    _LAST[:] = [data, found]
    return found


_LAST: list[Any] = [None, None]


def _spawn_type(data: dict[str, Any]) -> str | None:
    kind = data.get("subagent_type")
    if not isinstance(kind, str):
        kind = None
    if kind is None or kind.lower() in _tables()[0]:
        prompt = data.get("prompt")
        if isinstance(prompt, str):
            return skill_avatar(prompt) or kind
    return kind
