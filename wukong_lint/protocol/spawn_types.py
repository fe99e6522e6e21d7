"""The avatar a spawning call summons: its `subagent_type`, or, when that is a generic agent
(`general-purpose`, `Explore`...), the avatar whose skill the prompt carries.

Earlier Wukong releases summoned every avatar as `Task(subagent_type="general-purpose",
prompt=<the avatar's skill file> + the task)`: the skill file opens with the avatar's name
("# Explorer Skill", "You are **眼分身**", "You are **斗战胜佛**", "审查悟空"...). Only the
head of the prompt is read, and only a skill's own opening counts (a task that merely
mentions an explorer does not make the agent one).
"""

from __future__ import annotations

import re
from typing import Any

GENERIC = frozenset(["general-purpose", "general", "default", "agent", "task", "explore", "plan"])
_HEAD = 1500  # characters of the prompt read: a skill file's title and first lines
# avatar -> the skill's English title, and the names its opening line gives the avatar
_SKILLS = (
    ("eye", r"Explorer", r"眼分身|千里眼|the\s+Eye\s+Avatar"),
    ("ear", r"Requirements?\s+Analyst", "需求悟空|耳分身|顺风耳"),
    ("nose", r"Code\s+Reviewer", "审查悟空|鼻分身"),
    ("tongue", r"Test(?:\s+Engineer)?|Tester", "测试悟空|舌分身"),
    ("body", r"Implementer", "斗战胜佛|身分身|实现悟空"),
    ("mind", r"(?:System\s+)?Architect", "架构悟空|意分身"),
)
_SKILL = re.compile(
    "|".join(
        rf"(?P<{name}>^#+\s*(?:{title})\s+Skill|You\s+are\s+\**\s*(?:{names})|^#+\s*(?:{names}))"
        for name, title, names in _SKILLS
    ),
    re.I | re.M,
)


def skill_avatar(prompt: str) -> str | None:
    """The avatar whose skill file opens `prompt` (None: none does)."""
    found = _SKILL.search(prompt[:_HEAD])
    return found.lastgroup if found else None


def spawn_type(data: Any) -> str | None:
    """The avatar (or agent type) a spawning call's input summons."""
    if not isinstance(data, dict):
        return None
    kind = data.get("subagent_type")
    if not isinstance(kind, str):
        kind = None
    if kind is None or kind.lower() in GENERIC:
        prompt = data.get("prompt")
        if isinstance(prompt, str):
            return skill_avatar(prompt) or kind
    return kind
