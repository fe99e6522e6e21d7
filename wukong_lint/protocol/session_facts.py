"""What the transcript reader's protocol state (protocol/turn_facts.py, compiled) asks of the
protocol versions while it follows a session: whether a call is the routing a CHECKPOINT
runs, whether the body's text proposes a memory-bank write and the user's message answers it,
which version a CHECKPOINT or a spawn shows, and what a summons declares. Kept apart so that
the compiled module imports no version data, and the version data is read only in a
`wukong` profile session.

Words valid in any known version are taken together here (a 💾 proposal, 好 / 不用, the
router's command): they mean the same wherever they occur.
"""

from __future__ import annotations

import re
from typing import Any

from wukong_lint.protocol import detect
from wukong_lint.protocol.spawn_types import spawn_type
from wukong_lint.protocol.versions import version_of, versions
from wukong_lint.util.re_snapshot import compile_static  # (patterns of the protocol's data)

_CACHE: dict[str, Any] = {}
# trailing politeness around a one-word answer ("好的", "好吧!", "ok.")
_TRAIL = re.compile(r"[\s。.!！~～,，、的吧啊呀哈]+$")


def _union() -> dict[str, Any]:
    found = _CACHE.get("union")
    if found is None:
        markers, words, routes = set(), set(), []
        for version in versions().values():
            bank = version.memory_bank
            markers.add(bank["proposal"])
            words.update(w.lower() for w in (*bank["confirm"], *bank["decline"]))
            routes += version.data["checkpoint"]["preparatory"]
        found = _CACHE["union"] = {
            "markers": tuple(sorted(markers)),
            "words": frozenset(words),
            "confirm": frozenset(
                w.lower() for v in versions().values() for w in v.memory_bank["confirm"]
            ),
            "routes": compile_static("|".join(f"(?:{r})" for r in routes)) if routes else None,
        }
    return found


def proposal_markers() -> tuple[str, ...]:
    return tuple(_union()["markers"])


def _word(text: str) -> str:
    return _TRAIL.sub("", text.strip()).strip().lower()


def answers_proposal(text: str) -> bool:
    """Whether a user message is a plain answer to a memory-bank proposal (好, 写, yes, 不用,
    mb:write ...): no new task."""
    return len(text) <= 40 and _word(text) in _union()["words"]


def confirmation(text: str) -> str:
    """The answer to a memory-bank proposal: "write", "no" or "" (not an answer)."""
    if len(text) > 40:
        return ""
    word = _word(text)
    union = _union()
    if word not in union["words"]:
        return ""
    return "write" if word in union["confirm"] else "no"


def preparatory(command: str | None) -> bool:
    """Whether a shell command is the routing a CHECKPOINT runs (part of writing it)."""
    if command is None:
        return False
    routes = _union()["routes"]
    return routes is not None and routes.search(command[:2000]) is not None


def detect_checkpoint(ctx: Any, point: Any) -> None:
    if point is not None:
        detect.note(ctx, detect.from_checkpoint(point.features()), detect.CHECKPOINT)


def summons(event: Any, recent: list[str], shown: bool) -> tuple[frozenset[str], bool]:
    """(the declaration parts in the body's texts since the last summons returned, whether
    this summons shows the summoning protocol: a declaration or a sectioned prompt). The
    spawn tool is a signal of the version too (the weakest)."""
    data = event.input if isinstance(event.input, dict) else {}
    detect.note(event.ctx, detect.from_spawn(event.tool, data.get("subagent_type")), detect.SPAWN)
    version = version_of(event.ctx)
    summoning = version.summoning
    if version.role_of(spawn_type(data)) not in summoning["avatars"]:
        return frozenset(), False
    from wukong_lint.protocol.summoning import declared, sections_shown

    found, header = declared(recent, summoning["declaration"])
    if shown:
        return found, True
    prompt = data.get("prompt")
    sectioned = isinstance(prompt, str) and sections_shown(prompt, summoning["prompt"]["sections"])
    return found, bool(header or found or sectioned)


def _json_object(text: Any) -> dict[str, Any] | None:
    if not isinstance(text, str):
        return None
    import json

    start = text.find("{")
    if start < 0:
        return None
    try:
        value = json.JSONDecoder().raw_decode(text[start:])[0]
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def track_of(content: Any) -> str | None:
    """The track the L0 router's JSON output names (None: none)."""
    if isinstance(content, list):
        content = "\n".join(b.get("text", "") for b in content if isinstance(b, dict))
    found = _json_object(content)
    track = found.get("track") if found is not None else None
    return track if isinstance(track, str) and len(track) < 40 else None


def planned_track(ctx: Any, avatar: str, output: str) -> str | None:
    """The track the planner's output chose, when `avatar` is the version's planner."""
    version = version_of(ctx)
    planner = version.planner
    if planner is None or version.role_of(avatar) != planner["avatar"]:
        return None
    track = track_of(output)
    return track if track in version.tracks else None


def is_reader(ctx: Any, kind: Any) -> bool:
    """Whether a summons is the version's memory reader (it recovers the memory bank)."""
    reader = version_of(ctx).memory_bank["reader"]
    return isinstance(kind, str) and reader is not None and kind.strip().lower() == reader


def review_summons(event: Any) -> bool:
    """Whether a summons gives a code review to one of the avatars other than the version's
    reviewer (the core rule: any review goes to @鼻)."""
    version = version_of(event.ctx)
    if version.review_words is None or not isinstance(event.input, dict):
        return False
    role = version.role_of(spawn_type(event.input))
    if role is None or role == version.review_avatar or role not in version.summoning["avatars"]:
        return False
    from wukong_lint.protocol.summoning import task_of

    return version.review_words.search(task_of(event.input)) is not None
