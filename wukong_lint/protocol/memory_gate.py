"""The memory-bank gate (rule kind `memory-gate`; seed 003 and memory-bank-skill since), as
the session's protocol version says (`memory-bank` in rules/protocol/*.yaml):

- `writer`: who writes memory-bank/: the `memory-bank-writer` sub-agent only (the seed era),
  or the body itself (v7.4.3: no writer rule to break);
- `confirm`: a memory-bank write without the user's agreement in that message: the writer
  run, or the body's own write, without `mb:write` or a plain yes (好, 写, sure) answering the
  body's 💾 proposal, or after a no (不用, mb:no);
- `user-block`: an agent edit inside a USER_BLOCK (the user's own area of a file);
- `non-md`: anything but Markdown written under memory-bank/ (refused in every mode);
- `context`: a risky write (MultiEdit, a patch of several files, a sensitive path) before the
  version's gate file (memory-bank/details/patterns.md) was read in the user's message; as
  MEMORY_BANK_GUARD_MODE says (unset: the version's default, warn): `warn` reports at low
  severity, `block` at the rule's, `off` not at all;
- `recovery`: after a compaction, a risky write before the memory bank's anchor files (and
  the ones read before it) are read again or the memory reader is called (v7.2's Recovery
  Gate, in every mode);
- `doc-first`: the body's first code write of a message before any memory-bank doc was
  written in it (v7.3's Doc-First Gate, MEMORY_BANK_DOC_FIRST_MODE, default warn: low).

The USER_BLOCK check reads the edited file from disk (bounded): live in the hook that is the
file before the edit; on a transcript after the fact it is the file as it is now, where the
edit's new text may stand inside a block.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

from wukong_lint.engine.matchers import Hit
from wukong_lint.engine.rules import CompiledRule
from wukong_lint.engine.scope import in_scope
from wukong_lint.model import Unit
from wukong_lint.model.events import EDIT_TOOLS, SPAWN_TOOLS, event_paths, target_paths

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
    return _unconfirmed(confirm)


def _unconfirmed(confirm: str) -> str | None:
    if confirm == "write":
        return None
    if confirm == "no":
        return "the user declined the memory-bank write in this message"
    return "no mb:write or yes from the user to a 💾 proposal in this message"


def match(params: dict[str, Any], event: Any, writer: str) -> Iterator[tuple[str, str | None]]:
    """(note, text to point at) for the checks `user-block` and `confirm`."""
    tool = event.tool or ""
    if params["check"] == "user-block":
        why = user_block_edit(tool, event.input, event.ctx.cwd)
        if why:
            yield why, None
        return
    if writer == MAIN:  # the body writes the memory bank itself, after the user agrees
        if event.is_main and tool in EDIT_TOOLS and event.mb_confirm is not None:
            paths = [_relative(p, event.ctx.cwd) for p in event_paths(event)]
            if any(_in_bank(p) for p in paths):
                why = _unconfirmed(event.mb_confirm)
                if why:
                    yield why, None
        return
    why = writer_unconfirmed(tool, event.input, event.mb_confirm, writer)
    if why:
        yield why, writer


# -- the matcher -------------------------------------------------------------------------------

MAIN = "main"  # the version's writer when the body writes the memory bank itself
_LOW = 1  # Severity.LOW


def _hit(unit: Unit, note: str = "", needle: str | None = None, severity: int = 0) -> Hit:
    start = unit.text.find(needle) if needle else -1
    if start < 0:
        line_end = unit.text.find("\n")
        return Hit(0, line_end if line_end >= 0 else len(unit.text), 0, 0, note, severity)
    end = start + len(needle or "")
    return Hit(start, end, start, end, note, severity)


def _relative(path: str, cwd: str | None) -> str:
    if cwd and path.startswith(cwd.rstrip("/") + "/"):
        return path[len(cwd.rstrip("/")) + 1 :]
    return path.lstrip("./") if path.startswith("./") else path


def _in_bank(path: str) -> bool:
    return path.startswith("memory-bank/") or "/memory-bank/" in path


def _mode(params: dict[str, Any], gate: dict[str, Any]) -> str:
    """The gate's mode: the rule's, else the project's variable, else the version's default."""
    if params.get("mode"):
        return str(params["mode"])
    value = os.environ.get(gate["env"], "").strip().lower()
    return value if value in ("off", "warn", "block") else str(gate["default"])


_RISKY: dict[tuple[str, ...], Any] = {}


def _risky_paths(patterns: list[str]) -> Any:
    key = tuple(patterns)
    found = _RISKY.get(key)
    if found is None:
        joined = "|".join(f"(?:{p})" for p in patterns)
        found = _RISKY[key] = re.compile(joined) if patterns else None
    return found


def _risky(tool: str, paths: list[str], tools: list[str], patterns: list[str]) -> bool:
    found = _risky_paths(patterns)
    return (
        tool in tools
        or (tool == "apply_patch" and len(paths) > 1)
        or (found is not None and any(found.search(path) for path in paths))
    )


def _writes(event: Any) -> tuple[list[str], bool]:
    """(the paths a call writes, relative to the session's folder; whether it writes)."""
    paths = [_relative(p, event.ctx.cwd) for p in event_paths(event)]
    if event.command is not None:
        from wukong_lint.shell.paths import shell_accesses

        paths += [_relative(p, event.ctx.cwd) for p, m in shell_accesses(event.command)
                  if m == "write"]  # fmt: skip
        return paths, bool(paths)
    return paths, (event.tool or "") in _WRITE_TOOLS


_WRITE_TOOLS = frozenset(("Edit", "MultiEdit", "Write", "NotebookEdit", "apply_patch"))


def match_memory_gate(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    params = rule.params or {}
    event = getattr(unit, "event", None)
    if event is None or event.kind != "call" or not event.ctx.memory_bank:
        return
    if not in_scope(params["scope"], unit):
        return
    from wukong_lint.protocol.versions import version_of

    bank = version_of(event.ctx).memory_bank
    writer = params["writer"] or bank["writer"]
    check = params["check"]
    if check in ("user-block", "confirm"):
        for note, needle in match(params, event, writer):
            yield _hit(unit, note, needle)
        return
    tool = event.tool or ""
    paths, writes = _writes(event)
    if not writes:
        return
    if check == "writer":
        if writer == MAIN:
            return  # the body writes it (after the user agrees: the `confirm` check)
        if any(_in_bank(p) for p in paths) and _key(event.agent_type or "") != _key(writer):
            yield _hit(unit, f"{event.agent} wrote to memory-bank/")
        return
    if check == "non-md":
        if bank["md_only"]:
            for path in paths:
                if _in_bank(path) and not path.endswith((".md", ".markdown")):
                    yield _hit(unit, f"{path}: only Markdown is written under memory-bank/", path)
                    return
        return
    if check == "doc-first":
        yield from _doc_first(unit, event, params, bank, paths)
        return
    tools = params["risky_tools"] if params["risky_tools"] is not None else bank["risky_tools"]
    patterns = params["risky_paths"] if params["risky_paths"] is not None else bank["risky_paths"]
    risky = event.command is not None or _risky(tool, paths, tools, patterns)
    if check == "recovery":
        if risky and not all(_in_bank(p) for p in paths):
            yield from _recovery(unit, event, bank)
        return
    if event.command is not None:
        return
    if risky != (params["risk"] == "high"):
        return
    if not risky and any(_in_bank(p) for p in paths):
        return  # the memory bank's own files: the writer rule's business
    if event.turn_reads is None:
        return  # unknown (the live hook could not read the transcript): no guess
    files = params["context_files"] or bank["gate_files"]
    read = any(r.endswith(f) for r in event.turn_reads for f in files)
    if not read and not risky and _low_risk_earlier(event, tools, patterns):
        return  # seed 003's warning is once per turn: an earlier write of it was reported
    if read:
        return
    # (the live hook applies MEMORY_BANK_GUARD_MODE to the findings itself: hook/memory_bank.py)
    mode = "block" if unit.path == "<hook>" else _mode(params, bank["guard_mode"])
    if mode == "off":
        return
    what = "high-risk" if risky else "low-risk"
    target = paths[0] if paths else None
    note = f"{what} write before reading {files[-1]}"
    if risky and mode == "warn":
        note += " (MEMORY_BANK_GUARD_MODE=warn: a warning)"
    yield _hit(unit, note, target, _LOW if mode == "warn" else 0)


def _key(name: str) -> str:
    return name.strip().lstrip("@").lower()


def _low_risk_earlier(event: Any, tools: list[str], patterns: list[str]) -> bool:
    """Whether the agent made a low-risk write earlier in this turn (reads only grow in a
    turn: that write had no context either, and was reported). Unknown (None): no."""
    for tool, written in event.turn_writes or ():
        paths = [_relative(p, event.ctx.cwd) for p in written]
        if tool not in _WRITE_TOOLS:
            continue
        if _risky(tool, paths, tools, patterns):
            continue
        if not any(_in_bank(p) for p in paths):
            return True
    return False


def _doc_first(unit: Unit, event: Any, params: dict[str, Any], bank: dict[str, Any],
               paths: list[str]) -> Iterator[Hit]:  # fmt: skip
    """The body's first code write of the message, with no memory-bank doc written before."""
    gate = bank["doc_first"]
    if gate is None or not event.is_main or event.command is not None:
        return
    code = re.compile("|".join(f"(?:{p})" for p in gate["code"]), re.I)
    if not any(code.search(p) and not _in_bank(p) for p in paths):
        return
    for _tool, written in event.turn_writes or ():
        earlier = [_relative(p, event.ctx.cwd) for p in written]
        if any(_in_bank(p) and p.endswith(".md") for p in earlier):
            return  # a memory-bank doc written first in this message
        if any(code.search(p) and not _in_bank(p) for p in earlier):
            return  # once a message: its first code write was reported
    mode = _mode(params, gate)
    if mode == "off":
        return
    yield _hit(unit, "code written before any memory-bank doc of this message "
                     f"(MEMORY_BANK_DOC_FIRST_MODE={mode})", paths[0] if paths else None,
               _LOW if mode == "warn" else 0)  # fmt: skip


def _recovery(unit: Unit, event: Any, bank: dict[str, Any]) -> Iterator[Hit]:
    gate = bank["recovery"]
    facts = event.protocol or {}
    state = facts.get("recovery")
    if gate is None or state is None:
        return
    before, since, reader = state
    if reader:
        return  # the memory reader was called since the compaction
    wanted = list(gate["anchors"]) + [p for p in before[-gate["recent"] :] if p]
    left = [f for f in dict.fromkeys(wanted) if not any(r.endswith(f) for r in since)]
    left = [f for f in left if _exists(f, event.ctx.cwd)]
    if left:
        yield _hit(
            unit, "a risky write after a compaction before reading " + ", ".join(left) + " again"
        )


def _exists(path: str, cwd: str | None) -> bool:
    """Whether a memory-bank file is there to be read (one that is gone is no anchor); when
    no folder of the session can be seen, assumed."""
    roots = [r for r in (cwd, os.getcwd()) if r and os.path.isdir(os.path.join(r, "memory-bank"))]
    if not roots:
        return True
    return any(os.path.exists(os.path.join(r, path)) for r in roots)


match_memory_gate.accepts = lambda rule, event: (  # type: ignore[attr-defined]
    event.kind == "call"
    and event.ctx.memory_bank
    and _scope_accepts((rule.params or {})["scope"], event)
)


def _scope_accepts(scope: dict[str, Any], event: Any) -> bool:
    if scope["agent"] != "any" and event.is_main != (scope["agent"] == "main"):
        return False
    return not (scope["profiles"] and event.ctx.profile not in scope["profiles"])
