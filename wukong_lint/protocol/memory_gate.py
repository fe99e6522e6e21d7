"""Memory-bank write protection beyond the writer rule (seed 003): an agent edit inside a
USER_BLOCK (the user's own area of a memory-bank file), and a run of the memory-bank writer
without the user's `mb:write` confirmation in that turn (or after `mb:no`).

The USER_BLOCK check reads the edited file from disk (bounded): live in the hook that is the
file before the edit; on a transcript after the fact it is the file as it is now, where the
edit's new text may stand inside a block.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

from wukong_lint.model.events import SPAWN_TOOLS, target_paths

USER_BLOCK = re.compile(
    r"<!--[ \t]*USER_BLOCK_START[ \t]*-->.*?(?:<!--[ \t]*USER_BLOCK_END[ \t]*-->|\Z)", re.S
)
_MARKER = re.compile(r"<!--[ \t]*USER_BLOCK_(?:START|END)[ \t]*-->")
MAX_READ = 4 << 20  # a memory-bank file larger than this is not read (no guess either way)


def _edits(tool: str, data: Any) -> list[tuple[str, str]]:
    """(old text, new text) pairs of an edit call; a Write is ("", content)."""
    if not isinstance(data, dict):
        return []
    pairs: list[tuple[str, str]] = []
    if tool == "Write":
        content = data.get("content")
        return [("", content)] if isinstance(content, str) else []
    edits = data.get("edits") if tool == "MultiEdit" else [data]
    for item in edits if isinstance(edits, list) else []:
        if isinstance(item, dict):
            old, new = item.get("old_string"), item.get("new_string")
            pairs.append((old if isinstance(old, str) else "", new if isinstance(new, str) else ""))
    return pairs


def _read(path: str) -> str | None:
    try:
        if not os.path.isfile(path) or os.path.getsize(path) > MAX_READ:
            return None
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return None


def _inside(text: str, needle: str, spans: list[tuple[int, int]]) -> bool:
    if not needle.strip():
        return False
    start = text.find(needle)
    while start >= 0:
        end = start + len(needle)
        if any(start < b and end > a for a, b in spans):
            return True
        start = text.find(needle, start + 1)
    return False


def user_block_edit(tool: str, data: Any, cwd: str | None) -> str | None:
    """Why an edit call changes a USER_BLOCK, or None."""
    pairs = _edits(tool, data)
    if not pairs:
        return None
    for path in target_paths(tool, data):
        if not path.endswith((".md", ".markdown")):
            continue
        for old, new in pairs:
            if _MARKER.search(old) or (old and _MARKER.search(new)):
                return f"{path}: the edit moves or removes a USER_BLOCK marker"
        full = path if os.path.isabs(path) or not cwd else os.path.join(cwd, path)
        text = _read(full)
        if text is None or "USER_BLOCK_START" not in text:
            continue
        blocks = [m.group() for m in USER_BLOCK.finditer(text)]
        spans = [m.span() for m in USER_BLOCK.finditer(text)]
        for old, new in pairs:
            if tool == "Write":
                if [m.group() for m in USER_BLOCK.finditer(new)] != blocks:
                    return f"{path}: the write replaces the USER_BLOCK content"
            elif _inside(text, old, spans) or (not _inside(text, old, [(0, len(text))])
                                               and _inside(text, new, spans)):  # fmt: skip
                return f"{path}: the edit changes text inside a USER_BLOCK"
    return None


def writer_unconfirmed(tool: str, data: Any, confirm: str | None, writer: str) -> str | None:
    """Why a spawn of the memory-bank writer lacks the user's confirmation, or None (also
    when the confirmation is unknown: the live hook could not read the turn)."""
    if tool not in SPAWN_TOOLS or not isinstance(data, dict) or confirm is None:
        return None
    kind = data.get("subagent_type")
    if not isinstance(kind, str) or kind.strip().lstrip("@").lower() != writer.lower():
        return None
    if confirm == "write":
        return None
    if confirm == "no":
        return "the user answered mb:no in this turn"
    return "no mb:write from the user in this turn"


def match(params: dict[str, Any], event: Any) -> Iterator[tuple[str, str | None]]:
    """(note, text to point at) for the checks `user-block` and `confirm`."""
    tool = event.tool or ""
    if params["check"] == "user-block":
        why = user_block_edit(tool, event.input, event.ctx.cwd)
        if why:
            yield why, None
        return
    why = writer_unconfirmed(tool, event.input, event.mb_confirm, params["writer"])
    if why:
        yield why, params["writer"]
